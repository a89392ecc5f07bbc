// Small random instances with forbidden entries, tight and loose memory limits,
// multi-edges and self-loops, plus exhaustive search: the yardstick for the
// solver's exactness tests.
#pragma once
#include <cstdint>
#include <vector>

#include "evaluate.h"
#include "int128.h"
#include "problem.h"
#include "rng.h"

namespace iopddl::test_support {

inline Problem random_instance(uint64_t seed, int max_nodes = 7, int max_k = 3) {
  Rng rng(seed);
  Problem p;
  p.name = "random-" + std::to_string(seed);
  const int n = 2 + int(rng.below(uint32_t(max_nodes - 1)));
  const bool many_forbidden = rng.below(2) == 0;
  for (int i = 0; i < n; ++i) {
    int lo = int(rng.below(10));
    p.interval_lo.push_back(lo);
    p.interval_hi.push_back(lo + int(rng.below(8)));  // empty intervals happen
    const int K = 1 + int(rng.below(uint32_t(max_k)));
    for (int s = 0; s < K; ++s) {
      p.node_cost.push_back(rng.below(10) == 0 ? kForbidden : int64_t(rng.below(50)));
      p.node_usage.push_back(int64_t(rng.below(20)));
    }
    p.strategy_offset.push_back(p.node_cost.size());
  }
  const int m = int(rng.below(uint32_t(2 * n + 1)));
  for (int e = 0; e < m; ++e) {
    int u = int(rng.below(uint32_t(n))), v = int(rng.below(uint32_t(n)));
    if (u == v && rng.below(4) != 0) v = (u + 1) % n;  // self-loops now and then
    p.edge_u.push_back(u);
    p.edge_v.push_back(v);
    const int K = p.num_strategies(u) * p.num_strategies(v);
    for (int k = 0; k < K; ++k)
      p.edge_cost.push_back(rng.below(many_forbidden ? 3 : 8) == 0 ? kForbidden : int64_t(rng.below(60)));
    p.edge_cost_offset.push_back(p.edge_cost.size());
  }
  // Limits from loose to tight to impossible.
  p.has_usage_limit = rng.below(5) != 0;
  p.usage_limit = int64_t(rng.below(60));
  finalize_problem(&p);
  return p;
}

// A complete graph on 5..7 nodes (every node starts at degree 4 or more, so
// plain degree <= 2 elimination is stuck) whose edges are mostly functional:
// every row allows exactly one column, the others are forbidden.
inline Problem dense_functional_instance(uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.name = "dense-" + std::to_string(seed);
  const int n = 5 + int(rng.below(3));
  for (int i = 0; i < n; ++i) {
    p.interval_lo.push_back(0);
    p.interval_hi.push_back(1);
    const int K = 2 + int(rng.below(2));
    for (int s = 0; s < K; ++s) {
      p.node_cost.push_back(int64_t(rng.below(50)));
      p.node_usage.push_back(1);
    }
    p.strategy_offset.push_back(p.node_cost.size());
  }
  for (int u = 0; u < n; ++u)
    for (int v = u + 1; v < n; ++v) {
      p.edge_u.push_back(u);
      p.edge_v.push_back(v);
      const int Ku = p.num_strategies(u), Kv = p.num_strategies(v);
      const bool functional = rng.below(10) < 7;
      for (int r = 0; r < Ku; ++r) {
        const int keep = int(rng.below(uint32_t(Kv)));
        for (int c = 0; c < Kv; ++c) {
          const bool forbidden = functional ? c != keep : rng.below(4) == 0;
          p.edge_cost.push_back(forbidden ? kForbidden : int64_t(rng.below(60)));
        }
      }
      p.edge_cost_offset.push_back(p.edge_cost.size());
    }
  finalize_problem(&p);
  return p;
}

struct Exhaustive {
  bool feasible = false;
  Int128 cost = 0;
  std::vector<int32_t> best;
};

inline Exhaustive exhaustive(const Problem& p, const std::vector<std::vector<int32_t>>* domains = nullptr) {
  Exhaustive r;
  const int n = p.num_nodes();
  std::vector<int> idx(n, 0);
  auto size = [&](int i) { return domains ? int((*domains)[i].size()) : p.num_strategies(i); };
  for (int i = 0; i < n; ++i)
    if (size(i) == 0) return r;
  std::vector<int32_t> a(n);
  for (;;) {
    for (int i = 0; i < n; ++i) a[i] = domains ? (*domains)[i][idx[i]] : idx[i];
    Evaluation ev = evaluate(p, a);
    if (ev.feasible() && (!r.feasible || ev.total_cost < r.cost)) {
      r.feasible = true;
      r.cost = ev.total_cost;
      r.best = a;
    }
    int k = 0;
    while (k < n && ++idx[k] == size(k)) idx[k++] = 0;
    if (k == n) break;
  }
  return r;
}

}  // namespace iopddl::test_support
