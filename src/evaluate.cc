#include "evaluate.h"

#include <string>

namespace iopddl {

Evaluation evaluate(const Problem& p, const std::vector<int32_t>& a, const UsageLimit& limit) {
  Evaluation ev;
  const int n = p.num_nodes();
  if (int64_t(a.size()) != n) {
    ev.status = Status::Error("solution has " + std::to_string(a.size()) + " entries, the problem has " +
                              std::to_string(n) + " nodes");
    return ev;
  }
  for (int i = 0; i < n; ++i) {
    if (a[i] < 0 || a[i] >= p.num_strategies(i)) {
      ev.status = Status::Error("solution[" + std::to_string(i) + "] = " + std::to_string(a[i]) +
                                " is out of range: node " + std::to_string(i) + " has " +
                                std::to_string(p.num_strategies(i)) + " strategies");
      return ev;
    }
  }
  for (int i = 0; i < n; ++i) {
    int64_t c = p.cost(i, a[i]);
    ev.node_cost += c;
    if (c >= kForbidden) ev.forbidden_entries++;
  }
  for (int e = 0; e < p.num_edges(); ++e) {
    int64_t c = p.edge_entry(e, a[p.edge_u[e]], a[p.edge_v[e]]);
    ev.edge_cost += c;
    if (c >= kForbidden) ev.forbidden_entries++;
  }
  ev.total_cost = ev.node_cost + ev.edge_cost;
  // Usage by a difference array over the compressed segments.
  const int S = p.num_segments();
  std::vector<Int128> diff(S + 1, 0);
  for (int i = 0; i < n; ++i) {
    if (p.seg_lo[i] >= p.seg_hi[i]) continue;
    int64_t u = p.usage(i, a[i]);
    diff[p.seg_lo[i]] += u;
    diff[p.seg_hi[i]] -= u;
  }
  ev.usage.assign(S, 0);
  Int128 run = 0;
  for (int k = 0; k < S; ++k) {
    run += diff[k];
    ev.usage[k] = run;
    if (ev.peak_segment < 0 || run > ev.peak_usage) {
      ev.peak_usage = run;
      ev.peak_segment = k;
      ev.peak_time = p.time_point[k];
    }
  }
  ev.within_limit = !limit.has || ev.peak_usage <= limit.value;
  return ev;
}

Evaluation evaluate(const Problem& p, const std::vector<int32_t>& assignment) {
  return evaluate(p, assignment, p.limit());
}

std::vector<int32_t> least_usage_plan(const Problem& p) {
  std::vector<int32_t> least(p.num_nodes(), 0);
  for (int i = 0; i < p.num_nodes(); ++i)
    for (int s = 1; s < p.num_strategies(i); ++s)
      if (p.usage(i, s) < p.usage(i, least[i])) least[i] = s;
  return least;
}

Int128 least_peak_usage(const Problem& p) { return evaluate(p, least_usage_plan(p)).peak_usage; }

}  // namespace iopddl
