// Partition crossover (part_crossover.h): the parts where two answers differ
// are taken or left whole, and a part that alone overflows the limit is
// taken when another part frees the memory it needs.
#include <gtest/gtest.h>

#include "load_json.h"
#include "part_crossover.h"

using namespace iopddl;

namespace {

// Seven nodes alive at once. Part X (nodes 0-2, a chain) is 30 cheaper in
// `other` and uses 30 more memory: alone it overflows. Part Y (nodes 3-4) is
// 10 dearer and frees 40. Node 5 is 7 dearer in `other` and frees nothing.
// Node 6 is the same in both.
const char* kParts = R"({"problem":{"name":"parts","nodes":{
  "intervals":[[0,10],[0,10],[0,10],[0,10],[0,10],[0,10],[0,10]],
  "costs":[[10,0],[10,0],[10,0],[0,5],[0,5],[0,7],[1]],
  "usages":[[10,20],[10,20],[10,20],[30,10],[30,10],[5,5],[0]]},
  "edges":{"nodes":[[0,1],[1,2],[3,4],[5,6]],"costs":[[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0]]},
  "usage_limit":LIMIT}})";

// The instance at a limit, its model, and one crossover of the base with an
// other answer.
struct Crossing {
  Problem p;
  SearchModel m;
  PartCrossover x;
  std::vector<int32_t> out;
  CrossoverStats stats;
  explicit Crossing(int limit) {
    std::string text = kParts;
    text.replace(text.find("LIMIT"), 5, std::to_string(limit));
    Status st = load_problem_from_buffer(text, "parts.json", &p);
    EXPECT_TRUE(st.ok) << st.message;
    m.build(p);
  }
  bool cross(const std::vector<int32_t>& base, const std::vector<int32_t>& other) {
    return x.cross(m, base, other, &out, &stats);
  }
};

const std::vector<int32_t> kBase = {0, 0, 0, 0, 0, 0, 0};
const std::vector<int32_t> kOther = {1, 1, 1, 1, 1, 1, 0};

}  // namespace

TEST(PartCrossover, TakesAnOverflowingPartWithOneThatPaysForItsMemory) {
  Crossing c(95);  // the base uses 95
  ASSERT_TRUE(c.cross(kBase, kOther));
  EXPECT_EQ(c.stats.differing, 6);
  EXPECT_EQ(c.stats.parts, 3);
  EXPECT_EQ(c.stats.largest, 3);
  EXPECT_EQ(c.stats.taken, 2);
  EXPECT_EQ(c.out, (std::vector<int32_t>{1, 1, 1, 1, 1, 0, 0}));  // X and Y, not node 5
}

TEST(PartCrossover, TakesACheaperPartAloneWhenItFits) {
  Crossing c(125);  // room for X's 30 more
  ASSERT_TRUE(c.cross(kBase, kOther));
  EXPECT_EQ(c.stats.taken, 1);
  EXPECT_EQ(c.out, (std::vector<int32_t>{1, 1, 1, 0, 0, 0, 0}));
}

TEST(PartCrossover, RefusesWhenNoSetOfPartsFitsAndGains) {
  Crossing c(95);
  // Without part Y's saving, X cannot be paid for.
  std::vector<int32_t> other = kOther;
  other[3] = other[4] = 0;
  EXPECT_FALSE(c.cross(kBase, other));
  EXPECT_EQ(c.stats.parts, 2);
  // Nothing differs: nothing to take.
  EXPECT_FALSE(c.cross(kBase, kBase));
  EXPECT_EQ(c.stats.parts, 0);
}
