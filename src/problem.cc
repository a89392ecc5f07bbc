#include "problem.h"

#include <algorithm>

namespace iopddl {

Status finalize_problem(Problem* p) {
  const int64_t n = int64_t(p->interval_lo.size());
  if (n > INT32_MAX) return Status::Error("too many nodes: " + std::to_string(n));
  if (p->interval_hi.size() != p->interval_lo.size() || p->strategy_offset.size() != size_t(n) + 1 ||
      p->node_usage.size() != p->node_cost.size())
    return Status::Error("inconsistent node arrays");
  for (int64_t i = 0; i < n; ++i) {
    if (p->strategy_offset[i + 1] <= p->strategy_offset[i])
      return Status::Error("problem.nodes.costs[" + std::to_string(i) +
                           "]: a node needs at least one strategy");
    if (p->strategy_offset[i + 1] - p->strategy_offset[i] > INT32_MAX)
      return Status::Error("problem.nodes.costs[" + std::to_string(i) + "]: too many strategies");
    if (p->interval_lo[i] > p->interval_hi[i])
      return Status::Error("problem.nodes.intervals[" + std::to_string(i) + "]: lower end " +
                           std::to_string(p->interval_lo[i]) + " exceeds upper end " +
                           std::to_string(p->interval_hi[i]));
  }
  const size_t m_nodes = p->edge_u.size();
  if (p->edge_v.size() != m_nodes) {
    return Status::Error("problem.edges.nodes[" + std::to_string(p->edge_v.size()) +
                         "]: an edge must be a pair of node indices [u, v]");
  }
  const size_t m_costs = p->edge_cost_offset.size() - 1;
  if (m_nodes != m_costs)
    return Status::Error("edge count mismatch: problem.edges.nodes has " + std::to_string(m_nodes) +
                         " entries, problem.edges.costs has " + std::to_string(m_costs));
  if (m_nodes > INT32_MAX) return Status::Error("too many edges: " + std::to_string(m_nodes));
  for (size_t e = 0; e < m_nodes; ++e) {
    for (int end = 0; end < 2; ++end) {
      int64_t x = end == 0 ? p->edge_u[e] : p->edge_v[e];
      if (x < 0 || x >= n)
        return Status::Error("problem.edges.nodes[" + std::to_string(e) + "][" + std::to_string(end) +
                             "]: node index " + std::to_string(x) + " out of range (the problem has " +
                             std::to_string(n) + (n == 1 ? " node)" : " nodes)"));
    }
    uint64_t want = uint64_t(p->num_strategies(p->edge_u[e])) * uint64_t(p->num_strategies(p->edge_v[e]));
    uint64_t got = p->edge_cost_offset[e + 1] - p->edge_cost_offset[e];
    if (got != want)
      return Status::Error("problem.edges.costs[" + std::to_string(e) + "]: has " + std::to_string(got) +
                           " entries, expected " + std::to_string(want) + " (" +
                           std::to_string(p->num_strategies(p->edge_u[e])) + " strategies of node " +
                           std::to_string(p->edge_u[e]) + " x " +
                           std::to_string(p->num_strategies(p->edge_v[e])) + " of node " +
                           std::to_string(p->edge_v[e]) + ")");
  }
  // Compress time to the interval endpoints: a horizon of 10^15 costs nothing.
  std::vector<int64_t>& tp = p->time_point;
  tp.clear();
  tp.reserve(2 * n);
  for (int64_t i = 0; i < n; ++i) {
    if (p->interval_lo[i] < p->interval_hi[i]) {
      tp.push_back(p->interval_lo[i]);
      tp.push_back(p->interval_hi[i]);
    }
  }
  std::sort(tp.begin(), tp.end());
  tp.erase(std::unique(tp.begin(), tp.end()), tp.end());
  p->seg_lo.assign(n, 0);
  p->seg_hi.assign(n, 0);
  for (int64_t i = 0; i < n; ++i) {
    if (p->interval_lo[i] < p->interval_hi[i]) {
      p->seg_lo[i] = int32_t(std::lower_bound(tp.begin(), tp.end(), p->interval_lo[i]) - tp.begin());
      p->seg_hi[i] = int32_t(std::lower_bound(tp.begin(), tp.end(), p->interval_hi[i]) - tp.begin());
    }
  }
  return Status::Ok();
}

}  // namespace iopddl
