// Integer parsing at the boundaries of the fast paths (8-digit chunks, 19
// digits, the int64 range) and rejection of non-integers that start like digits.
#include <gtest/gtest.h>

#include "load_json.h"

using namespace iopddl;

namespace {

Status load_with_cost(const std::string& number, Problem* p) {
  std::string json = R"({"problem":{"nodes":{"intervals":[[0,1]],"costs":[[)" + number +
                     R"(]],"usages":[[1]]},"edges":{"nodes":[],"costs":[]}}})";
  return load_problem_from_buffer(json, "numbers", p);
}

}  // namespace

TEST(LoaderNumbers, ParsesEveryLengthExactly) {
  const char* cases[] = {"0", "7", "12345678", "123456789", "1234567812345678", "1000000000000000000",
                         "9223372036854775807", "99999999", "100000000", "9999999999999999"};
  for (const char* c : cases) {
    Problem p;
    Status st = load_with_cost(c, &p);
    ASSERT_TRUE(st.ok) << c << ": " << st.message;
    EXPECT_EQ(std::to_string(p.node_cost[0]), c);
  }
}

TEST(LoaderNumbers, RejectsOutOfRangeAndNonIntegers) {
  const char* cases[] = {"9223372036854775808", "18446744073709551616", "99999999999999999999",
                         "12345678.5", "1234567812345678.0", "1e3", "123456781e3", "-1"};
  for (const char* c : cases) {
    Problem p;
    Status st = load_with_cost(c, &p);
    EXPECT_FALSE(st.ok) << c;
    EXPECT_NE(st.message.find("problem.nodes.costs[0][0]"), std::string::npos) << c << ": " << st.message;
  }
}

TEST(LoaderNumbers, NegativeExtremesInIntervals) {
  Problem p;
  Status st = load_problem_from_buffer(
      R"({"problem":{"nodes":{"intervals":[[-9223372036854775808,-12345678]],"costs":[[1]],"usages":[[1]]},"edges":{"nodes":[],"costs":[]}}})",
      "numbers", &p);
  ASSERT_TRUE(st.ok) << st.message;
  EXPECT_EQ(p.interval_lo[0], INT64_MIN);
  EXPECT_EQ(p.interval_hi[0], -12345678);
}
