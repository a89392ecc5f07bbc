#include "penalised_rounding.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace iopddl {

void PenalisedRounding::init(const SearchModel& m, int variant, const Contraction* contraction) {
  m_ = &m;
  contraction_ = contraction;
  passes_ = m.params.passes_per_price + std::max(0, variant);
  mp_.init(contraction ? contraction->model() : m, variant % 2 == 1);
  relax_.init(m, MemoryRelax::Schedule::kNodes);
  weight_.assign(m.n, 0.0);
  usage_nonnegative_ = std::all_of(m.p->node_usage.begin(), m.p->node_usage.end(),
                                   [](int64_t u) { return u >= 0; });
  by_end_.clear();
  for (int i = 0; i < m.n; ++i)
    if (m.has_interval(i)) by_end_.push_back(i);
  const Problem& p = *m.p;
  std::stable_sort(by_end_.begin(), by_end_.end(), [&](int a, int b) { return p.seg_hi[a] < p.seg_hi[b]; });
}

bool PenalisedRounding::step(std::vector<int32_t>* assign, Rng* rng,
                             const std::function<bool()>* should_stop) {
  relax_.node_weights(&weight_);
  price_messages(contraction_, weight_, &mp_, &extra_);
  std::vector<int32_t>* rounding = contraction_ ? &contracted_ : assign;
  for (int k = 0; k < passes_; ++k)
    if (!mp_.iterate(rounding, should_stop)) return false;
  if (contraction_) contraction_->expand(contracted_, assign);
  // Per-node prices move on the usage profile alone: no cost, no upper bound.
  relax_.update(*assign, 0.0, 0.0, rng);
  return true;
}

// Per-segment multipliers lambda >= 0 whose sum over every node's interval is
// at least the node's price, and their total: an interval covering problem,
// solved by taking the nodes by the end of their interval and putting any
// shortfall on its last segment (a later interval that reaches back over this
// one's end sees that mass too). Any cover gives a valid bound; this greedy
// keeps the total small.
double PenalisedRounding::cover_total() const {
  const Problem& p = *m_->p;
  const int S = p.num_segments();
  std::vector<double> fen(S + 1, 0.0);  // Fenwick tree of lambda
  auto prefix = [&](int k) {            // sum of lambda over [0, k)
    double s = 0;
    for (; k > 0; k -= k & -k) s += fen[k];
    return s;
  };
  double total = 0;
  for (int i : by_end_) {
    if (weight_[i] <= 0) continue;
    const int lo = p.seg_lo[i], hi = p.seg_hi[i];
    const double short_by = weight_[i] - (prefix(hi) - prefix(lo));
    if (short_by <= 0) continue;
    total += short_by;
    for (int k = hi; k <= S; k += k & -k) fen[k] += short_by;
  }
  return total;
}

double PenalisedRounding::lower_bound(double* abs_sum) const {
  const double minus_inf = -std::numeric_limits<double>::infinity();
  if (!usage_nonnegative_) return minus_inf;
  double mag = 0;
  const double lb = mp_.lower_bound(&mag);
  const double offset = relax_.needed() ? cover_total() * double(m_->limit) : 0.0;
  *abs_sum = mag + offset;
  return lb - offset;
}

}  // namespace iopddl
