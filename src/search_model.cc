#include "search_model.h"

#include <algorithm>

namespace iopddl {

void SearchModel::build(const Problem& problem) {
  p = &problem;
  {
    // 1 + the sum of every node's and edge's largest finite entry, capped.
    double total = 1;
    for (int i = 0; i < problem.num_nodes(); ++i) {
      int64_t mx = 0;
      for (int s = 0; s < problem.num_strategies(i); ++s)
        if (problem.cost(i, s) < kForbiddenThreshold) mx = std::max(mx, problem.cost(i, s));
      total += double(mx);
    }
    for (int e = 0; e < problem.num_edges(); ++e) {
      int64_t mx = 0;
      const int64_t* M = problem.edge_matrix(e);
      const uint64_t len = problem.edge_cost_offset[e + 1] - problem.edge_cost_offset[e];
      for (uint64_t k = 0; k < len; ++k)
        if (M[k] < kForbiddenThreshold) mx = std::max(mx, M[k]);
      total += double(mx);
    }
    big = std::min(std::max(total, 1e6), 1e15);
  }
  n = problem.num_nodes();
  limit = problem.limit_or_max();
  adj_off.assign(n + 1, 0);
  unary.resize(problem.total_strategies());
  for (size_t k = 0; k < unary.size(); ++k) unary[k] = value(problem.node_cost[k]);
  for (int e = 0; e < problem.num_edges(); ++e) {
    int u = problem.edge_u[e], v = problem.edge_v[e];
    if (u == v) {
      for (int s = 0; s < problem.num_strategies(u); ++s)
        unary[problem.strategy_offset[u] + s] += value(problem.edge_entry(e, s, s));
      continue;
    }
    adj_off[u + 1]++;
    adj_off[v + 1]++;
  }
  for (int i = 0; i < n; ++i) adj_off[i + 1] += adj_off[i];
  adj.resize(adj_off[n]);
  std::vector<uint32_t> fill(adj_off.begin(), adj_off.end() - 1);
  for (int e = 0; e < problem.num_edges(); ++e) {
    int u = problem.edge_u[e], v = problem.edge_v[e];
    if (u == v) continue;
    adj[fill[u]++] = {e, v, true};
    adj[fill[v]++] = {e, u, false};
  }
  dom_off.assign(n + 1, 0);
  dom.clear();
  dom.reserve(problem.total_strategies());
  for (int i = 0; i < n; ++i) {
    for (int s = 0; s < problem.num_strategies(i); ++s) dom.push_back(s);
    dom_off[i + 1] = uint32_t(dom.size());
  }
  mat_off.clear();
  mat.clear();
  build_order();
}

void SearchModel::build_order() {
  const Problem& P = *p;
  std::vector<int64_t> lo(n, INT64_MAX), hi(n, INT64_MAX);
  for (int i = 0; i < n; ++i)
    if (has_interval(i)) {
      lo[i] = P.seg_lo[i];
      hi[i] = P.seg_hi[i];
    }
  for (int i = 0; i < n; ++i) {
    if (has_interval(i)) continue;
    for (uint32_t a = adj_off[i]; a < adj_off[i + 1]; ++a) {
      const int o = adj[a].other;
      if (has_interval(o) && P.seg_lo[o] < lo[i]) lo[i] = hi[i] = P.seg_lo[o];
    }
  }
  order.resize(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return lo[a] != lo[b] ? lo[a] < lo[b] : hi[a] < hi[b]; });
}

void SearchModel::build_matrices() {
  const Problem& P = *p;
  mat_off.assign(P.num_edges() + 1, 0);
  for (int e = 0; e < P.num_edges(); ++e) {
    const int u = P.edge_u[e], v = P.edge_v[e];
    mat_off[e + 1] = mat_off[e] + (u == v ? 0 : uint64_t(dom_size(u)) * dom_size(v));
  }
  mat.assign(mat_off.back(), 0.0);
  mat.shrink_to_fit();
  for (int e = 0; e < P.num_edges(); ++e) {
    const int u = P.edge_u[e], v = P.edge_v[e];
    if (u == v) continue;
    const int Ku = dom_size(u), Kv = dom_size(v);
    const int32_t *du = domain(u), *dv = domain(v);
    const int64_t* M = P.edge_matrix(e);
    const uint64_t stride = uint64_t(P.num_strategies(v));
    double* out = mat.data() + mat_off[e];
    for (int j = 0; j < Ku; ++j) {
      const int64_t* row = M + uint64_t(du[j]) * stride;
      for (int k = 0; k < Kv; ++k) out[uint64_t(j) * Kv + k] = value(row[dv[k]]);
    }
  }
}

}  // namespace iopddl
