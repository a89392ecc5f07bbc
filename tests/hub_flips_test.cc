// Hub flips (hub_flips.h): which nodes are hubs, the turn through their
// strategies, and that the list follows the graph, not the numbering.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>
#include <utility>

#include "hub_flips.h"
#include "problem.h"
#include "search_model.h"
#include "tied_groups.h"

using namespace iopddl;

namespace {

// Nodes of `k[i]` strategies (costs and usages that do not dominate each
// other), node i alive over [i, i + 2); `edges` with every entry allowed
// (costs by position) unless `tied`, where the identity is the only allowed
// pairing (a bijection: the two ends form a tied group).
Problem hub_instance(const std::vector<int>& k, const std::vector<std::pair<int, int>>& edges,
                     const std::vector<std::pair<int, int>>& tied = {}) {
  Problem p;
  p.name = "hubs";
  for (int i = 0; i < int(k.size()); ++i) {
    p.interval_lo.push_back(i);
    p.interval_hi.push_back(i + 2);
    for (int s = 0; s < k[i]; ++s) {
      p.node_cost.push_back(10 * s);
      p.node_usage.push_back(10 * (k[i] - s));
    }
    p.strategy_offset.push_back(p.node_cost.size());
  }
  const auto add = [&](int u, int v, bool bijection) {
    p.edge_u.push_back(u);
    p.edge_v.push_back(v);
    for (int a = 0; a < k[u]; ++a)
      for (int b = 0; b < k[v]; ++b) p.edge_cost.push_back(bijection ? (a == b ? 0 : kForbidden) : 3 * a + b);
    p.edge_cost_offset.push_back(p.edge_cost.size());
  };
  for (auto [u, v] : edges) add(u, v, false);
  for (auto [u, v] : tied) add(u, v, true);
  p.has_usage_limit = false;
  EXPECT_EQ(finalize_problem(&p).code, StatusCode::kOk);
  return p;
}

struct Built {
  Problem p;
  SearchModel m;
  TiedGroups groups;
  explicit Built(Problem q) : p(std::move(q)) {
    m.build(p);
    m.build_matrices();
    groups.build(m);
  }
};

// The (hub, strategy) pairs of one full turn.
std::vector<std::pair<int, int32_t>> one_turn(HubFlips* h, const SearchModel& m, const std::vector<int32_t>& best,
                                              int pairs) {
  std::vector<std::pair<int, int32_t>> out;
  for (int k = 0; k < pairs; ++k) {
    int node = -1;
    int32_t s = -1;
    EXPECT_TRUE(h->next(m, best, &node, &s));
    out.push_back({node, s});
  }
  return out;
}

}  // namespace

TEST(HubFlips, HubsByDegreeInTurnSkippingTheBestsStrategy) {
  // Node 0 has degree 4, nodes 1, 2 and 3 degree 2, the others 1; node 6
  // has one strategy and degree 3, so it is no hub.
  Built b(hub_instance({3, 2, 2, 2, 2, 2, 1, 2}, {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {5, 1}, {6, 2}, {6, 3}, {6, 7}}));
  HubFlips h;
  h.init(b.m, &b.groups, 2);
  ASSERT_FALSE(h.empty());
  std::vector<int32_t> best(b.m.n, 0);
  best[0] = 1;
  // Node 0's other strategies (0 and 2, not best's 1), then the second
  // hub's: one of nodes 1, 2 and 3 (the sweep order decides among equals).
  const auto turn = one_turn(&h, b.m, best, 2);
  EXPECT_EQ(turn[0], std::make_pair(0, int32_t(0)));
  EXPECT_EQ(turn[1], std::make_pair(0, int32_t(2)));
  int node = -1;
  int32_t s = -1;
  ASSERT_TRUE(h.next(b.m, best, &node, &s));
  EXPECT_NE(node, 0);
  EXPECT_NE(node, 6);
  EXPECT_EQ(b.m.adj_off[node + 1] - b.m.adj_off[node], 2u);
  EXPECT_NE(s, best[node]);
  // The turn comes back to node 0.
  for (int k = 0; k < 3; ++k) {
    ASSERT_TRUE(h.next(b.m, best, &node, &s));
    if (node == 0) break;
  }
  EXPECT_EQ(node, 0);
}

TEST(HubFlips, OneHubPerTiedGroup) {
  // Nodes 0 and 1 are tied (a bijection between them) and both of degree 3
  // or more; node 2 has degree 2.
  Built b(hub_instance({2, 2, 2, 2, 2, 2}, {{0, 3}, {0, 4}, {1, 4}, {1, 5}, {2, 3}, {2, 5}}, {{0, 1}}));
  ASSERT_GE(b.groups.size(), 1);
  ASSERT_EQ(b.groups.group_of(0), b.groups.group_of(1));
  HubFlips h;
  h.init(b.m, &b.groups, 2);
  std::vector<int32_t> best(b.m.n, 0);
  std::set<int> hubs;
  for (const auto& [node, s] : one_turn(&h, b.m, best, 4)) hubs.insert(node);
  EXPECT_EQ(hubs.size(), 2u);
  EXPECT_EQ(hubs.count(0) + hubs.count(1), 1u);
}

TEST(HubFlips, NothingToFlipWithoutHubsOrOtherStrategies) {
  Built one(hub_instance({1, 1, 1}, {{0, 1}, {0, 2}}));
  HubFlips h;
  h.init(one.m, &one.groups, 4);
  EXPECT_TRUE(h.empty());
  Built two(hub_instance({2, 2}, {{0, 1}}));
  h.init(two.m, &two.groups, 0);
  EXPECT_TRUE(h.empty());
  int node = -1;
  int32_t s = -1;
  EXPECT_FALSE(h.next(two.m, {0, 0}, &node, &s));
}

TEST(HubFlips, TheHubsFollowTheGraphNotTheNumbering) {
  // Nodes 0 and 1 of degrees 5 and 4, the rest 3 or less, numbered twice.
  const std::vector<std::pair<int, int>> edges = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}, {1, 2},
                                                  {1, 3}, {1, 4}, {2, 3}, {6, 5}, {6, 7}};
  const int n = 8;
  std::vector<int> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::reverse(perm.begin(), perm.end());  // node i is named perm[i]
  std::vector<std::pair<int, int>> renamed;
  for (auto [u, v] : edges) renamed.push_back({perm[u], perm[v]});
  Built a(hub_instance(std::vector<int>(n, 2), edges));
  Built r(hub_instance(std::vector<int>(n, 2), renamed));
  HubFlips ha, hr;
  ha.init(a.m, &a.groups, 2);
  hr.init(r.m, &r.groups, 2);
  const std::vector<int32_t> best(n, 0);
  const auto ta = one_turn(&ha, a.m, best, 2);
  const auto tr = one_turn(&hr, r.m, best, 2);
  EXPECT_EQ(ta[0].first, 0);
  EXPECT_EQ(ta[1].first, 1);
  for (int k = 0; k < 2; ++k) EXPECT_EQ(perm[ta[k].first], tr[k].first) << k;
}
