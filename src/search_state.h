// An assignment under search: strategies, the usage profile it induces, and
// its cost (double; exact re-costing happens when an incumbent is published).
#pragma once
#include <cstdint>
#include <limits>
#include <vector>

#include "search_model.h"
#include "usage_tree.h"

namespace iopddl {

// The cost of "no answer within the limit yet": above every real cost.
constexpr double kNoCost = std::numeric_limits<double>::infinity();
inline bool has_cost(double c) { return c < kNoCost; }

// The usage per segment of an assignment (by differences and one prefix sum):
// what a UsageTree is built from at once.
std::vector<int64_t> usage_per_segment(const SearchModel& m, const std::vector<int32_t>& assignment);

struct SearchState {
  const SearchModel* m = nullptr;
  std::vector<int32_t> s;  // original strategy index per node
  UsageTree usage;
  double cost = 0;

  void init(const SearchModel& model, const std::vector<int32_t>& assignment);
  // Cost change if node i switched to strategy t (all else fixed).
  double move_delta(int i, int t) const;
  // move_delta(i, t) for every strategy t of i's domain, in domain order,
  // into out[0 .. dom_size(i)) (bit for bit the same values).
  void move_deltas(int i, double* out) const;
  void apply(int i, int t, double delta);
  void set(int i, int t) { apply(i, t, move_delta(i, t)); }
  int64_t peak() const { return usage.global_max(); }
  bool within_limit() const { return m->p->num_segments() == 0 || peak() <= m->limit; }
  // Max usage over node i's interval (INT64_MIN/4 if it has none).
  int64_t max_over(int i) const { return usage.max(m->p->seg_lo[i], m->p->seg_hi[i]); }
  double full_cost() const;  // recomputed from scratch
};

}  // namespace iopddl
