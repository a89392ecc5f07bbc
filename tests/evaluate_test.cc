// The evaluator: hand-computed costs and usage profiles, forbidden entries,
// 128-bit totals, and invalid assignments.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "evaluate.h"
#include "int128.h"
#include "load_json.h"
#include "solution_io.h"

namespace iopddl {
namespace {

Problem load_example() {
  Problem p;
  Status st = load_problem_file(std::string(IOPDDL_TEST_DATA) + "/example.json", &p);
  EXPECT_TRUE(st.ok) << st.message;
  return p;
}

Problem load_json(const std::string& json) {
  Problem p;
  Status st = load_problem_from_buffer(json, "test", &p);
  EXPECT_TRUE(st.ok) << st.message;
  return p;
}

std::vector<std::string> strings(const std::vector<Int128>& v) {
  std::vector<std::string> s;
  for (Int128 x : v) s.push_back(to_string(x));
  return s;
}

// Example: intervals [30,70) [40,70) [50,120) [110,140) [110,150); time points
// 30 40 50 70 110 120 140 150, so seven segments.
//
// [0,0,2,1,0]: nodes 15+55+35+75+95 = 275; edges (0,1)->30, (0,2) s2->40,
// (1,3) [0][1]->10, (2,4) [2][0]->30, (3,4) [1][0]->60 = 170; total 445.
// Usages 10, 25, 15, 10, 15; per segment 10, 10+25, 10+25+15, 15 (node 2 alone
// on [70,110)), 15+10+15, 10+15, 15.
TEST(Evaluate, ExampleOptimum) {
  Problem p = load_example();
  Evaluation ev = evaluate(p, {0, 0, 2, 1, 0});
  ASSERT_TRUE(ev.status.ok) << ev.status.message;
  EXPECT_EQ(to_string(ev.node_cost), "275");
  EXPECT_EQ(to_string(ev.edge_cost), "170");
  EXPECT_EQ(to_string(ev.total_cost), "445");
  EXPECT_EQ(ev.forbidden_entries, 0);
  EXPECT_EQ(strings(ev.usage), (std::vector<std::string>{"10", "35", "50", "15", "40", "25", "15"}));
  EXPECT_EQ(to_string(ev.peak_usage), "50");
  EXPECT_EQ(ev.peak_segment, 2);
  EXPECT_EQ(ev.peak_time, 50);
  EXPECT_TRUE(ev.within_limit);  // 50 <= 50: the limit is inclusive
  EXPECT_TRUE(ev.feasible());
}

// [0,1,1,0,0]: nodes 15+65+45+85+95 = 305; edges (0,1) [0][1]->40, (0,2) s1->10,
// (1,3) [1][0]->20, (2,4) [1][0]->20, (3,4) [0][0]->70 = 160; total 465.
// Usages 10, 25, 20, 10, 15: per segment 10, 35, 55, 20, 45, 25, 15; 55 > 50.
TEST(Evaluate, ExampleOverTheLimit) {
  Problem p = load_example();
  Evaluation ev = evaluate(p, {0, 1, 1, 0, 0});
  ASSERT_TRUE(ev.status.ok) << ev.status.message;
  EXPECT_EQ(to_string(ev.node_cost), "305");
  EXPECT_EQ(to_string(ev.edge_cost), "160");
  EXPECT_EQ(to_string(ev.total_cost), "465");
  EXPECT_EQ(strings(ev.usage), (std::vector<std::string>{"10", "35", "55", "20", "45", "25", "15"}));
  EXPECT_EQ(to_string(ev.peak_usage), "55");
  EXPECT_EQ(ev.peak_time, 50);
  EXPECT_FALSE(ev.within_limit);
  EXPECT_EQ(ev.forbidden_entries, 0);
  EXPECT_FALSE(ev.feasible());
}

// Every assignment of the example, against a brute-force evaluation written
// independently (per time unit, straight from the JSON's numbers).
TEST(Evaluate, ExampleAllAssignmentsAgainstBruteForce) {
  Problem p = load_example();
  const int lo[] = {30, 40, 50, 110, 110}, hi[] = {70, 70, 120, 140, 150};
  const std::vector<std::vector<int>> cost = {{15}, {55, 65}, {25, 45, 35}, {85, 75}, {95}};
  const std::vector<std::vector<int>> use = {{10}, {25, 25}, {15, 20, 15}, {10, 10}, {15}};
  const int eu[] = {0, 0, 1, 2, 3}, evv[] = {1, 2, 3, 4, 4};
  const std::vector<std::vector<int>> ec = {{30, 40}, {50, 10, 40}, {90, 10, 20, 80}, {60, 20, 30}, {70, 60}};
  int feasible = 0, best = -1;
  for (int s1 = 0; s1 < 2; ++s1)
    for (int s2 = 0; s2 < 3; ++s2)
      for (int s3 = 0; s3 < 2; ++s3) {
        std::vector<int32_t> a = {0, s1, s2, s3, 0};
        int want = 0;
        for (int i = 0; i < 5; ++i) want += cost[i][a[i]];
        for (int e = 0; e < 5; ++e) want += ec[e][a[eu[e]] * int(cost[evv[e]].size()) + a[evv[e]]];
        int peak = 0, peak_t = -1;
        for (int t = 0; t < 200; ++t) {
          int u = 0;
          for (int i = 0; i < 5; ++i)
            if (lo[i] <= t && t < hi[i]) u += use[i][a[i]];
          if (u > peak) peak = u, peak_t = t;
        }
        Evaluation ev = evaluate(p, a);
        ASSERT_TRUE(ev.status.ok);
        EXPECT_EQ(to_string(ev.total_cost), std::to_string(want)) << format_solution(a);
        EXPECT_EQ(to_string(ev.peak_usage), std::to_string(peak));
        EXPECT_EQ(ev.peak_time, peak_t);
        EXPECT_EQ(ev.feasible(), peak <= 50);
        if (peak <= 50) {
          ++feasible;
          if (best < 0 || want < best) best = want;
        }
      }
  EXPECT_EQ(best, 445);
  EXPECT_GT(feasible, 0);
}

TEST(Evaluate, NoLimitMeansWithinLimit) {
  Problem p = load_example();
  p.has_usage_limit = false;
  Evaluation ev = evaluate(p, {0, 1, 1, 0, 0});
  EXPECT_EQ(to_string(ev.peak_usage), "55");
  EXPECT_TRUE(ev.within_limit);
  EXPECT_TRUE(ev.feasible());
}

TEST(Evaluate, RejectsWrongLength) {
  Problem p = load_example();
  for (const std::vector<int32_t>& a : {std::vector<int32_t>{0, 0, 2, 1}, std::vector<int32_t>{0, 0, 2, 1, 0, 0},
                                        std::vector<int32_t>{}}) {
    Evaluation ev = evaluate(p, a);
    ASSERT_FALSE(ev.status.ok);
    EXPECT_FALSE(ev.feasible());
    EXPECT_NE(ev.status.message.find("solution has " + std::to_string(a.size()) + " entries"), std::string::npos)
        << ev.status.message;
    EXPECT_NE(ev.status.message.find("5 nodes"), std::string::npos) << ev.status.message;
  }
}

TEST(Evaluate, RejectsStrategiesOutOfRange) {
  Problem p = load_example();
  Evaluation ev = evaluate(p, {0, 0, 3, 1, 0});
  ASSERT_FALSE(ev.status.ok);
  EXPECT_FALSE(ev.feasible());
  EXPECT_NE(ev.status.message.find("solution[2] = 3 is out of range"), std::string::npos) << ev.status.message;
  EXPECT_NE(ev.status.message.find("3 strategies"), std::string::npos) << ev.status.message;
  ev = evaluate(p, {0, -1, 0, 0, 0});
  ASSERT_FALSE(ev.status.ok);
  EXPECT_NE(ev.status.message.find("solution[1] = -1 is out of range"), std::string::npos) << ev.status.message;
  ev = evaluate(p, {0, 0, 0, 0, 1});
  ASSERT_FALSE(ev.status.ok);
  EXPECT_NE(ev.status.message.find("solution[4]"), std::string::npos) << ev.status.message;
}

// Forbidden entries (10^18) are counted, make the answer infeasible even within
// the limit, and their sum overflows int64 exactly into 128 bits.
TEST(Evaluate, ForbiddenEntriesAndWideTotals) {
  // Ten nodes, each choosing between 10^18 (forbidden) and 1; nine edges along a
  // path whose entry [1][1] is 9 * 10^18 (above the threshold) and others 2.
  const int n = 10;
  std::string intervals, costs, usages, enodes, ecosts;
  for (int i = 0; i < n; ++i) {
    intervals += std::string(i ? "," : "") + "[0,10]";
    costs += std::string(i ? "," : "") + "[1000000000000000000,1]";
    usages += std::string(i ? "," : "") + "[1,2]";
    if (i + 1 < n) {
      enodes += std::string(i ? "," : "") + "[" + std::to_string(i) + "," + std::to_string(i + 1) + "]";
      ecosts += std::string(i ? "," : "") + "[2,2,2,9000000000000000000]";
    }
  }
  Problem p = load_json("{\"problem\":{\"nodes\":{\"intervals\":[" + intervals + "],\"costs\":[" + costs +
                        "],\"usages\":[" + usages + "]},\"edges\":{\"nodes\":[" + enodes + "],\"costs\":[" +
                        ecosts + "]},\"usage_limit\":100}}");
  ASSERT_EQ(p.num_nodes(), n);

  Evaluation ev = evaluate(p, std::vector<int32_t>(n, 0));  // every node forbidden
  ASSERT_TRUE(ev.status.ok);
  EXPECT_EQ(ev.forbidden_entries, 10);
  EXPECT_EQ(to_string(ev.node_cost), "10000000000000000000");  // 10^19 > INT64_MAX
  EXPECT_EQ(to_string(ev.edge_cost), "18");
  EXPECT_EQ(to_string(ev.total_cost), "10000000000000000018");
  EXPECT_TRUE(ev.within_limit);
  EXPECT_FALSE(ev.feasible());

  ev = evaluate(p, std::vector<int32_t>(n, 1));  // every edge entry 9 * 10^18
  ASSERT_TRUE(ev.status.ok);
  EXPECT_EQ(ev.forbidden_entries, 9);
  EXPECT_EQ(to_string(ev.node_cost), "10");
  EXPECT_EQ(to_string(ev.edge_cost), "81000000000000000000");
  EXPECT_EQ(to_string(ev.total_cost), "81000000000000000010");
  EXPECT_EQ(to_string(ev.peak_usage), "20");
  EXPECT_FALSE(ev.feasible());

  std::vector<int32_t> a(n, 1);
  a[0] = 0;  // one forbidden node, one forbidden-free edge (0,1): [0][1] = 2
  ev = evaluate(p, a);
  EXPECT_EQ(ev.forbidden_entries, 1 + 8);
  a.assign(n, 1);
  for (int i = 0; i < n; i += 2) a[i] = 0;  // alternate: no edge is [1][1]
  ev = evaluate(p, a);
  EXPECT_EQ(ev.forbidden_entries, 5);
  EXPECT_EQ(to_string(ev.edge_cost), "18");
  EXPECT_EQ(to_string(ev.node_cost), "5000000000000000005");
}

TEST(Evaluate, UsageBeyondInt64IsExact) {
  // Three overlapping nodes using INT64_MAX each: the peak is 3 * (2^63 - 1).
  Problem p = load_json(
      "{\"problem\":{\"nodes\":{\"intervals\":[[0,5],[2,6],[4,9]],"
      "\"costs\":[[0],[0],[0]],\"usages\":[[9223372036854775807],[9223372036854775807],"
      "[9223372036854775807]]},\"edges\":{\"nodes\":[],\"costs\":[]},\"usage_limit\":9223372036854775807}}");
  Evaluation ev = evaluate(p, {0, 0, 0});
  ASSERT_TRUE(ev.status.ok);
  EXPECT_EQ(to_string(ev.peak_usage), "27670116110564327421");
  EXPECT_EQ(ev.peak_time, 4);
  EXPECT_FALSE(ev.within_limit);
  EXPECT_FALSE(ev.feasible());
  // Segments: [0,2) [2,4) [4,5) [5,6) [6,9).
  EXPECT_EQ(strings(ev.usage),
            (std::vector<std::string>{"9223372036854775807", "18446744073709551614", "27670116110564327421",
                                      "18446744073709551614", "9223372036854775807"}));
}

TEST(Evaluate, IntervalsAreHalfOpenAndPeakIsTheFirstMaximum) {
  // [0,10) and [10,20) do not overlap; [30,40) reaches the same peak later;
  // [50,50) is empty and uses nothing.
  Problem p = load_json(
      "{\"problem\":{\"nodes\":{\"intervals\":[[0,10],[10,20],[30,40],[50,50]],"
      "\"costs\":[[1],[2],[3],[4]],\"usages\":[[7],[7],[7],[100]]},"
      "\"edges\":{\"nodes\":[],\"costs\":[]},\"usage_limit\":7}}");
  Evaluation ev = evaluate(p, {0, 0, 0, 0});
  ASSERT_TRUE(ev.status.ok);
  EXPECT_EQ(p.time_point, (std::vector<int64_t>{0, 10, 20, 30, 40}));
  EXPECT_EQ(strings(ev.usage), (std::vector<std::string>{"7", "7", "0", "7"}));
  EXPECT_EQ(to_string(ev.peak_usage), "7");
  EXPECT_EQ(ev.peak_segment, 0);
  EXPECT_EQ(ev.peak_time, 0);
  EXPECT_TRUE(ev.feasible());
  EXPECT_EQ(to_string(ev.total_cost), "10");
}

TEST(Evaluate, HugeHorizon) {
  Problem p = load_json(
      "{\"problem\":{\"nodes\":{\"intervals\":[[0,1000000000000000],[999999999999999,1000000000000000]],"
      "\"costs\":[[1,2],[3]],\"usages\":[[4,5],[6]]},"
      "\"edges\":{\"nodes\":[[0,1]],\"costs\":[[10,20]]},\"usage_limit\":10}}");
  ASSERT_EQ(p.num_segments(), 2);
  Evaluation ev = evaluate(p, {1, 0});
  EXPECT_EQ(strings(ev.usage), (std::vector<std::string>{"5", "11"}));
  EXPECT_EQ(ev.peak_time, 999999999999999);
  EXPECT_EQ(to_string(ev.total_cost), "25");
  EXPECT_FALSE(ev.within_limit);
  ev = evaluate(p, {0, 0});
  EXPECT_TRUE(ev.feasible());
  EXPECT_EQ(to_string(ev.peak_usage), "10");
}

TEST(Evaluate, NoSegments) {
  Problem p = load_json(
      "{\"problem\":{\"nodes\":{\"intervals\":[[5,5]],\"costs\":[[3,1]],\"usages\":[[1,2]]},"
      "\"edges\":{\"nodes\":[],\"costs\":[]},\"usage_limit\":0}}");
  Evaluation ev = evaluate(p, {1});
  ASSERT_TRUE(ev.status.ok);
  EXPECT_TRUE(ev.usage.empty());
  EXPECT_EQ(ev.peak_segment, -1);
  EXPECT_EQ(to_string(ev.peak_usage), "0");
  EXPECT_TRUE(ev.feasible());
  EXPECT_EQ(to_string(ev.total_cost), "1");
}

TEST(Evaluate, GInstanceSanity) {
  Problem p;
  Status st = load_problem_file(std::string(IOPDDL_TEST_DATA) + "/asplos-2025-iopddl-G.json.gz", &p);
  ASSERT_TRUE(st.ok) << st.message;
  // Strategy 0 everywhere: recompute the cost the slow way and compare.
  std::vector<int32_t> a(p.num_nodes(), 0);
  Evaluation ev = evaluate(p, a);
  ASSERT_TRUE(ev.status.ok);
  Int128 want = 0;
  for (int i = 0; i < p.num_nodes(); ++i) want += p.node_cost[p.strategy_offset[i]];
  const std::vector<int64_t> edge_costs = edge_cost_array(p);
  for (int e = 0; e < p.num_edges(); ++e) want += edge_costs[p.edge_cost_offset[e]];
  EXPECT_EQ(to_string(ev.total_cost), to_string(want));
  ASSERT_EQ(int(ev.usage.size()), p.num_segments());
  Int128 peak = 0;
  for (Int128 u : ev.usage) peak = u > peak ? u : peak;
  EXPECT_EQ(to_string(ev.peak_usage), to_string(peak));
}

}  // namespace
}  // namespace iopddl
