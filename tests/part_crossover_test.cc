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

Problem parts(int limit) {
  std::string text = kParts;
  text.replace(text.find("LIMIT"), 5, std::to_string(limit));
  Problem p;
  Status st = load_problem_from_buffer(text, "parts.json", &p);
  EXPECT_TRUE(st.ok) << st.message;
  return p;
}

const std::vector<int32_t> kBase = {0, 0, 0, 0, 0, 0, 0};
const std::vector<int32_t> kOther = {1, 1, 1, 1, 1, 1, 0};

}  // namespace

TEST(PartCrossover, TakesAnOverflowingPartWithOneThatPaysForItsMemory) {
  const Problem p = parts(95);  // the base uses 95
  SearchModel m;
  m.build(p);
  PartCrossover x;
  std::vector<int32_t> out;
  CrossoverStats stats;
  ASSERT_TRUE(x.cross(m, kBase, kOther, &out, &stats));
  EXPECT_EQ(stats.differing, 6);
  EXPECT_EQ(stats.parts, 3);
  EXPECT_EQ(stats.largest, 3);
  EXPECT_EQ(stats.taken, 2);
  EXPECT_EQ(out, (std::vector<int32_t>{1, 1, 1, 1, 1, 0, 0}));  // X and Y, not node 5
}

TEST(PartCrossover, TakesACheaperPartAloneWhenItFits) {
  const Problem p = parts(125);  // room for X's 30 more
  SearchModel m;
  m.build(p);
  PartCrossover x;
  std::vector<int32_t> out;
  CrossoverStats stats;
  ASSERT_TRUE(x.cross(m, kBase, kOther, &out, &stats));
  EXPECT_EQ(stats.taken, 1);
  EXPECT_EQ(out, (std::vector<int32_t>{1, 1, 1, 0, 0, 0, 0}));
}

TEST(PartCrossover, RefusesWhenNoSetOfPartsFitsAndGains) {
  const Problem p = parts(95);
  SearchModel m;
  m.build(p);
  PartCrossover x;
  std::vector<int32_t> out;
  CrossoverStats stats;
  // Without part Y's saving, X cannot be paid for.
  std::vector<int32_t> other = kOther;
  other[3] = other[4] = 0;
  EXPECT_FALSE(x.cross(m, kBase, other, &out, &stats));
  EXPECT_EQ(stats.parts, 2);
  // Nothing differs: nothing to take.
  EXPECT_FALSE(x.cross(m, kBase, kBase, &out, &stats));
  EXPECT_EQ(stats.parts, 0);
}
