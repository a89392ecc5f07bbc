#include "lower_bound.h"

#include <algorithm>

#include "out_of_line.h"

namespace iopddl {

namespace {

// Node i's least term over its strategies: twice its own cost (self-loops
// included) plus, per incident edge, the edge's least entry in that row.
IOPDDL_OUT_OF_LINE Int128 least_node_term(const SearchModel& m, const std::vector<Int128>& self_loop, int i) {
  const Problem& p = *m.p;
  Int128 best = -1;
  for (int k = 0; k < m.dom_size(i); ++k) {
    const int s = m.domain(i)[k];
    Int128 v = 2 * (Int128(p.cost(i, s)) + self_loop[p.strategy_offset[i] + s]);
    for (uint32_t a = m.adj_off[i]; a < m.adj_off[i + 1]; ++a) {
      const Incidence& inc = m.adj[a];
      const int o = inc.other;
      int64_t mn = INT64_MAX;
      for (int q = 0; q < m.dom_size(o); ++q) {
        const int t = m.domain(o)[q];
        int64_t c = inc.self_is_u ? p.edge_entry(inc.edge, s, t) : p.edge_entry(inc.edge, t, s);
        mn = std::min(mn, c);
      }
      v += mn;
    }
    if (best < 0 || v < best) best = v;
  }
  return best;
}

}  // namespace

Int128 half_edge_bound(const SearchModel& m) {
  const Problem& p = *m.p;
  Int128 twice = 0;  // twice the bound, so that halves stay integers
  // Self-loop diagonals are part of the node's own cost.
  std::vector<Int128> self_loop(p.total_strategies(), 0);
  for (int e = 0; e < p.num_edges(); ++e)
    if (p.edge_u[e] == p.edge_v[e])
      for (int s = 0; s < p.num_strategies(p.edge_u[e]); ++s)
        self_loop[p.strategy_offset[p.edge_u[e]] + s] += p.edge_entry(e, s, s);
  for (int i = 0; i < m.n; ++i) twice += least_node_term(m, self_loop, i);
  return twice / 2;
}

}  // namespace iopddl
