// The solution line "[s0, s1, ...]": formatting and parsing.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "solution_io.h"

namespace iopddl {
namespace {

std::vector<int32_t> parse_ok(const std::string& text) {
  std::vector<int32_t> a = {42};
  Status st = parse_solution(text, "sol.txt", &a);
  EXPECT_TRUE(st.ok) << st.message << " for: " << text;
  return a;
}

::testing::AssertionResult Rejects(const std::string& text, std::initializer_list<std::string> parts) {
  std::vector<int32_t> a = {42};
  Status st = parse_solution(text, "sol.txt", &a);
  if (st.ok) return ::testing::AssertionFailure() << "parsed, expected an error";
  if (!a.empty()) return ::testing::AssertionFailure() << "a partial answer was left in the output";
  if (st.message.rfind("sol.txt: ", 0) != 0)
    return ::testing::AssertionFailure() << "message does not start with the source: " << st.message;
  for (const std::string& part : parts)
    if (st.message.find(part) == std::string::npos)
      return ::testing::AssertionFailure() << "message lacks \"" << part << "\": " << st.message;
  return ::testing::AssertionSuccess() << st.message;
}

using V = std::vector<int32_t>;

TEST(SolutionIo, FormatsTheContestLine) {
  EXPECT_EQ(format_solution({}), "[]");
  EXPECT_EQ(format_solution({7}), "[7]");
  EXPECT_EQ(format_solution({0, 0, 2, 1, 0}), "[0, 0, 2, 1, 0]");
  EXPECT_EQ(format_solution({2147483647, 10}), "[2147483647, 10]");
}

TEST(SolutionIo, RoundTrips) {
  V a;
  for (int i = 0; i < 1000; ++i) a.push_back((i * 7919) % 1013);
  EXPECT_EQ(parse_ok(format_solution(a)), a);
  EXPECT_EQ(parse_ok(format_solution({})), V{});
}

TEST(SolutionIo, ParsesTheLastBracketLine) {
  EXPECT_EQ(parse_ok("[0, 0, 2, 1, 0]"), (V{0, 0, 2, 1, 0}));
  EXPECT_EQ(parse_ok("[0, 0, 2, 1, 0]\n"), (V{0, 0, 2, 1, 0}));
  // The CLI's output: progress lines first.
  EXPECT_EQ(parse_ok("# iopddl 0.1.0: example\n# 0.001 s cost 445 [best]\n[0, 0, 2, 1, 0]\n"), (V{0, 0, 2, 1, 0}));
  // The last of several candidate lines wins; later non-bracket lines are ignored.
  EXPECT_EQ(parse_ok("[1, 1]\n[2, 3]\n# done\n"), (V{2, 3}));
  // Blanks, tabs, CRLF, no spaces, and a line broken inside the list.
  EXPECT_EQ(parse_ok("  \t[ 4 ,5,\t6 ]  \r\n"), (V{4, 5, 6}));
  EXPECT_EQ(parse_ok("[4,5,6]\r\n"), (V{4, 5, 6}));
  EXPECT_EQ(parse_ok("[4,\n 5]\n"), (V{4, 5}));
  EXPECT_EQ(parse_ok("[ ]"), V{});
  EXPECT_EQ(parse_ok("[2147483647]"), V{2147483647});
}

TEST(SolutionIo, KeepsNegativeEntriesForTheEvaluatorToReject) {
  EXPECT_EQ(parse_ok("[0, -1]"), (V{0, -1}));
}

TEST(SolutionIo, RejectsMissingLine) {
  EXPECT_TRUE(Rejects("", {"no solution line"}));
  EXPECT_TRUE(Rejects("# only comments\n# [0, 1] in a comment\n", {"no solution line"}));
  EXPECT_TRUE(Rejects("0, 0, 2, 1, 0\n", {"no solution line"}));
}

TEST(SolutionIo, RejectsBadEntriesNamingTheIndex) {
  EXPECT_TRUE(Rejects("[0, x, 1]", {"entry 1", "not an integer"}));
  EXPECT_TRUE(Rejects("[0, 1, 2,]", {"entry 3", "not an integer"}));
  EXPECT_TRUE(Rejects("[,0]", {"entry 0", "not an integer"}));
  EXPECT_TRUE(Rejects("[0, 1.5]", {"entry 1", "followed by something other than ',' or ']'"}));
  EXPECT_TRUE(Rejects("[0 1]", {"entry 0", "followed by"}));
  EXPECT_TRUE(Rejects("[0, 2147483648]", {"entry 1", "int32"}));
  EXPECT_TRUE(Rejects("[0, 0, -99999999999]", {"entry 2", "int32"}));
  EXPECT_TRUE(Rejects("[0, \"1\"]", {"entry 1", "not an integer"}));
  EXPECT_TRUE(Rejects("[0, -]", {"entry 1", "not an integer"}));
}

TEST(SolutionIo, RejectsTruncatedLines) {
  EXPECT_TRUE(Rejects("[", {"entry 0", "not an integer"}));
  EXPECT_TRUE(Rejects("[0, 0, 2", {"ends after entry 2", "']'"}));
  EXPECT_TRUE(Rejects("[0, 0, 2\n", {"ends after entry 2", "']'"}));
  EXPECT_TRUE(Rejects("[0, 0, 2,", {"entry 3", "not an integer"}));
}

TEST(SolutionIo, RejectsTextAfterTheClosingBracket) {
  EXPECT_TRUE(Rejects("[0, 1] 2", {"after the closing ']'"}));
  EXPECT_TRUE(Rejects("[0, 1]]", {"after the closing ']'"}));
  EXPECT_TRUE(Rejects("[]x", {"after the closing ']'"}));
  // Blanks and later lines are fine.
  EXPECT_EQ(parse_ok("[0, 1] \t\r\n# trailing comment\n"), (V{0, 1}));
}

}  // namespace
}  // namespace iopddl
