#include "search_model.h"

#include <algorithm>

#include "out_of_line.h"
#include "search_form.h"

namespace iopddl {

void SearchModel::build(const Problem& problem) { build(problem, problem.limit()); }

void SearchModel::build(const Problem& problem, const UsageLimit& usage) {
  p = &problem;
  has_limit = usage.has;
  big = forbidden_cost_for_search(problem);  // in the search's form: the stored one, so entries read in place
  n = problem.num_nodes();
  limit = usage.or_max();
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
  mat_at.clear();
  mat.clear();
  build_order();
}

void SearchModel::build_order() {
  const Problem& P = *p;
  order.resize(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  if (params.sweep_order == 1) return;
  std::vector<int64_t> lo(n, INT64_MAX), hi(n, INT64_MAX);
  for (int i = 0; i < n; ++i)
    if (has_interval(i)) {
      lo[i] = P.seg_lo[i];
      hi[i] = P.seg_hi[i];
    }
  // A node without an interval (its output never held in memory) is used
  // where its earliest neighbour is made: right after it, as its consumer.
  // (Before it, the sweep met the consumer first: message passing converges
  // alike, as only each edge's direction counts, but its rounding chose
  // consumers before producers and ended on forbidden pairs.)
  for (int i = 0; i < n; ++i) {
    if (has_interval(i)) continue;
    for (uint32_t a = adj_off[i]; a < adj_off[i + 1]; ++a) {
      const int o = adj[a].other;
      if (has_interval(o) && P.seg_lo[o] < lo[i]) lo[i] = P.seg_lo[o];
    }
    if (params.sweep_order == 2) hi[i] = lo[i];  // before its producer: the earlier rule, to compare
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return lo[a] != lo[b] ? lo[a] < lo[b] : hi[a] < hi[b]; });
}

namespace {

// Edge e's matrix over its ends' live domains, as the search's doubles, into out.
IOPDDL_OUT_OF_LINE void copy_live_matrix(const SearchModel& m, int e, double* out) {
  const Problem& P = *m.p;
  const int u = P.edge_u[e], v = P.edge_v[e];
  const int Ku = m.dom_size(u), Kv = m.dom_size(v);
  const int32_t *du = m.domain(u), *dv = m.domain(v);
  const uint64_t stride = uint64_t(P.num_strategies(v));
  for (int j = 0; j < Ku; ++j) {
    const uint64_t row = uint64_t(du[j]) * stride;
    for (int k = 0; k < Kv; ++k) out[uint64_t(j) * Kv + k] = m.value(P.edge_entry_at(e, row + dv[k]));
  }
}

}  // namespace

void SearchModel::build_matrices() {
  const Problem& P = *p;
  // An edge whose ends kept every strategy is read where the problem keeps it
  // when that is in the search's form; the others are copied over their live
  // domains.
  std::vector<char> full(n);
  for (int i = 0; i < n; ++i) {
    full[i] = dom_size(i) == P.num_strategies(i);
    for (int k = 0; full[i] && k < dom_size(i); ++k) full[i] = domain(i)[k] == k;
  }
  const bool shared = P.edge_form == EdgeForm::kSearchDoubles;
  auto in_place = [&](int e) { return shared && full[P.edge_u[e]] && full[P.edge_v[e]]; };
  std::vector<uint64_t> off(P.num_edges() + 1, 0);
  for (int e = 0; e < P.num_edges(); ++e) {
    const int u = P.edge_u[e], v = P.edge_v[e];
    off[e + 1] = off[e] + (u == v || in_place(e) ? 0 : uint64_t(dom_size(u)) * dom_size(v));
  }
  mat.assign(off.back(), 0.0);
  mat.shrink_to_fit();
  mat_at.assign(P.num_edges(), nullptr);
  for (int e = 0; e < P.num_edges(); ++e) {
    const int u = P.edge_u[e], v = P.edge_v[e];
    if (u == v) continue;
    if (in_place(e)) {
      mat_at[e] = P.edge_doubles(e);
      continue;
    }
    mat_at[e] = mat.data() + off[e];
    copy_live_matrix(*this, e, mat.data() + off[e]);
  }
}

double typical_memory_rate(const SearchModel& m, const std::vector<char>* keep) {
  const Problem& p = *m.p;
  std::vector<double> ratios;
  double max_use = 0;
  for (int i = 0; i < m.n; ++i) {
    if (!m.has_interval(i)) continue;
    double cmin = 1e300, cmax = -1e300;
    int64_t umin = INT64_MAX, umax = INT64_MIN;
    int count = 0;
    const auto take = [&](int s) {
      ++count;
      const double c = m.node_cost(i, s);
      if (c >= m.big) return;
      cmin = std::min(cmin, c);
      cmax = std::max(cmax, c);
      umin = std::min(umin, m.usage(i, s));
      umax = std::max(umax, m.usage(i, s));
    };
    if (keep) {
      for (int s = 0; s < p.num_strategies(i); ++s)
        if ((*keep)[p.strategy_offset[i] + s]) take(s);
    } else {
      for (int k = 0; k < m.dom_size(i); ++k) take(m.domain(i)[k]);
    }
    if (count < 2) continue;
    if (umax > umin && cmax > cmin) ratios.push_back((cmax - cmin) / double(umax - umin));
    max_use = std::max(max_use, double(umax));
  }
  if (ratios.empty()) return 1.0 / std::max(1.0, max_use);
  std::nth_element(ratios.begin(), ratios.begin() + ratios.size() / 2, ratios.end());
  return ratios[ratios.size() / 2];
}

}  // namespace iopddl
