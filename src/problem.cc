#include "problem.h"

#include <cstdio>

#include <algorithm>

#include "out_of_line.h"

namespace iopddl {

namespace {

// The model indexes nodes, edges and strategies (per node and in all) with
// 32-bit integers; edge matrices (K_u * K_v < 2^62) and offsets are 64-bit.
constexpr uint64_t kMaxIndex = INT32_MAX;

std::string over_limit(const std::string& what, uint64_t count) {
  return what + ": " + std::to_string(count) + " is more than the model can index (at most " +
         std::to_string(kMaxIndex) + ", 2^31 - 1)";
}

}  // namespace

Status finalize_problem(Problem* p) {
  const int64_t n = int64_t(p->interval_lo.size());
  if (uint64_t(n) > kMaxIndex) return Status::Error(over_limit("problem.nodes: too many nodes", uint64_t(n)));
  if (p->interval_hi.size() != p->interval_lo.size() || p->strategy_offset.size() != size_t(n) + 1 ||
      p->node_usage.size() != p->node_cost.size() || p->strategy_offset[0] != 0)
    return Status::Error("inconsistent node arrays");
  for (int64_t i = 0; i < n; ++i) {
    if (p->strategy_offset[i + 1] <= p->strategy_offset[i])
      return Status::Error("problem.nodes.costs[" + std::to_string(i) +
                           "]: a node needs at least one strategy");
    if (p->strategy_offset[i + 1] - p->strategy_offset[i] > kMaxIndex)
      return Status::Error(over_limit("problem.nodes.costs[" + std::to_string(i) + "]: too many strategies",
                                      p->strategy_offset[i + 1] - p->strategy_offset[i]));
    if (p->strategy_offset[i + 1] > kMaxIndex)
      return Status::Error(over_limit("problem.nodes.costs: too many strategies in total (through node " +
                                          std::to_string(i) + ")",
                                      p->strategy_offset[i + 1]));
    if (p->interval_lo[i] > p->interval_hi[i])
      return Status::Error("problem.nodes.intervals[" + std::to_string(i) + "]: lower end " +
                           std::to_string(p->interval_lo[i]) + " exceeds upper end " +
                           std::to_string(p->interval_hi[i]));
  }
  if (p->strategy_offset[n] != p->node_cost.size()) return Status::Error("inconsistent node arrays");
  const size_t m_nodes = p->edge_u.size();
  if (p->edge_v.size() != m_nodes) {
    return Status::Error("problem.edges.nodes[" + std::to_string(p->edge_v.size()) +
                         "]: an edge must be a pair of node indices [u, v]");
  }
  if (p->edge_cost_offset.empty()) return Status::Error("inconsistent edge arrays");
  const size_t m_costs = p->edge_cost_offset.size() - 1;
  if (m_nodes != m_costs)
    return Status::Error("edge count mismatch: problem.edges.nodes has " + std::to_string(m_nodes) +
                         " entries, problem.edges.costs has " + std::to_string(m_costs));
  if (m_nodes > kMaxIndex) return Status::Error(over_limit("problem.edges: too many edges", m_nodes));
  if (p->edge_cost_offset[0] != 0 || p->edge_cost_offset[m_nodes] != p->edge_entries() ||
      (p->edge_blocks && p->edge_blocks->matrix.size() != m_nodes))
    return Status::Error("inconsistent edge arrays");
  for (size_t e = 0; e < m_nodes; ++e) {
    for (int end = 0; end < 2; ++end) {
      int64_t x = end == 0 ? p->edge_u[e] : p->edge_v[e];
      if (x < 0 || x >= n)
        return Status::Error("problem.edges.nodes[" + std::to_string(e) + "][" + std::to_string(end) +
                             "]: node index " + std::to_string(x) + " out of range (the problem has " +
                             std::to_string(n) + (n == 1 ? " node)" : " nodes)"));
    }
    uint64_t want = uint64_t(p->num_strategies(p->edge_u[e])) * uint64_t(p->num_strategies(p->edge_v[e]));
    if (p->edge_cost_offset[e + 1] < p->edge_cost_offset[e]) return Status::Error("inconsistent edge arrays");
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

namespace {

// Words mixed in one multiply each (a rotation first, so that high bits reach
// the low ones), each array preceded by its length; a final avalanche. Fast
// enough to run on every load (a small share of the parse), not cryptographic.
class Digest {
 public:
  void word(uint64_t w) {
    h_ ^= w;
    h_ = ((h_ << 29) | (h_ >> 35)) * 0x9E3779B97F4A7C15ULL;
  }
  template <class T>
  void array(const std::vector<T>& v) {
    word(v.size());
    for (const T& x : v) word(uint64_t(x));
  }
  uint64_t value() const {
    uint64_t x = h_;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
  }

 private:
  uint64_t h_ = 0x6A09E667F3BCC909ULL;
};

// Edge e's matrix entries into the digest.
IOPDDL_OUT_OF_LINE void digest_edge(const Problem& p, int e, Digest* d) {
  p.for_each_entry(e, [d](int64_t c) { d->word(uint64_t(c)); });
}

}  // namespace

std::vector<int64_t> edge_cost_array(const Problem& p) {
  if (!p.edge_blocks && p.edge_form == EdgeForm::kIntegers) return p.edge_cost;
  std::vector<int64_t> all;
  all.reserve(size_t(p.edge_entries()));
  for (int e = 0; e < p.num_edges(); ++e) p.for_each_entry(e, [&all](int64_t c) { all.push_back(c); });
  return all;
}

Status set_usage_limit(Problem* p, int64_t limit) {
  if (limit < 0) return Status::Error("the usage limit must not be negative, got " + std::to_string(limit));
  p->usage_limit = limit;
  p->has_usage_limit = true;
  return Status();
}

std::string problem_digest(const Problem& p) {
  Digest d;
  d.word(p.name.size());
  for (unsigned char c : p.name) d.word(c);
  d.word(p.has_usage_limit);
  d.word(uint64_t(p.usage_limit));
  d.array(p.interval_lo);
  d.array(p.interval_hi);
  d.array(p.strategy_offset);
  d.array(p.node_cost);
  d.array(p.node_usage);
  d.array(p.edge_u);
  d.array(p.edge_v);
  d.array(p.edge_cost_offset);
  // The matrices in edge order, as one array (wherever they are kept).
  d.word(p.edge_entries());
  for (int e = 0; e < p.num_edges(); ++e) digest_edge(p, e, &d);
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)d.value());
  return buf;
}

}  // namespace iopddl
