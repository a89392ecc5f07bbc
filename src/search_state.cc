#include "search_state.h"

namespace iopddl {

std::vector<int64_t> usage_per_segment(const SearchModel& m, const std::vector<int32_t>& assignment) {
  const int segments = m.p->num_segments();
  std::vector<int64_t> per_segment(size_t(segments) + 1, 0);
  for (int i = 0; i < m.n; ++i) {
    if (!m.has_interval(i)) continue;
    const int64_t u = m.usage(i, assignment[i]);
    per_segment[m.p->seg_lo[i]] += u;
    per_segment[m.p->seg_hi[i]] -= u;
  }
  for (int k = 1; k < segments; ++k) per_segment[k] += per_segment[k - 1];
  per_segment.resize(segments);
  return per_segment;
}

void SearchState::init(const SearchModel& model, const std::vector<int32_t>& assignment) {
  m = &model;
  s = assignment;
  usage.init(usage_per_segment(model, s));
  cost = full_cost();
}

double SearchState::full_cost() const {
  double c = 0;
  for (int i = 0; i < m->n; ++i) {
    c += m->node_cost(i, s[i]);
    for (uint32_t a = m->adj_off[i]; a < m->adj_off[i + 1]; ++a)
      if (m->adj[a].self_is_u) c += m->pair_cost(m->adj[a], s[i], s[m->adj[a].other]);
  }
  return c;
}

double SearchState::move_delta(int i, int t) const {
  const int cur = s[i];
  if (t == cur) return 0;
  double d = m->node_cost(i, t) - m->node_cost(i, cur);
  for (uint32_t a = m->adj_off[i]; a < m->adj_off[i + 1]; ++a) {
    const Incidence& inc = m->adj[a];
    const int o = s[inc.other];
    d += m->pair_cost(inc, t, o) - m->pair_cost(inc, cur, o);
  }
  return d;
}

void SearchState::move_deltas(int i, double* out) const {
  const int cur = s[i], n = m->dom_size(i);
  const int32_t* d = m->domain(i);
  const double base = m->node_cost(i, cur);
  for (int k = 0; k < n; ++k) out[k] = m->node_cost(i, d[k]) - base;
  for (uint32_t a = m->adj_off[i]; a < m->adj_off[i + 1]; ++a) {
    const Incidence& inc = m->adj[a];
    const int o = s[inc.other];
    const double now = m->pair_cost(inc, cur, o);
    const SearchModel::PairLine line = m->pair_line(inc, o);
    if (line.ptr) {
      for (int k = 0; k < n; ++k) out[k] += line.ptr[uint64_t(d[k]) * line.stride] - now;
    } else {
      for (int k = 0; k < n; ++k) out[k] += m->pair_cost(inc, d[k], o) - now;
    }
  }
}

void SearchState::apply(int i, int t, double delta) {
  if (t == s[i]) return;
  if (m->has_interval(i))
    usage.add(m->p->seg_lo[i], m->p->seg_hi[i], m->usage(i, t) - m->usage(i, s[i]));
  s[i] = t;
  cost += delta;
}

}  // namespace iopddl
