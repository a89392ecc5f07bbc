#include "memory_relax.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "int128.h"

namespace iopddl {

void MemoryRelax::init(const SearchModel& m, Schedule schedule) {
  m_ = &m;
  schedule_ = schedule;
  const Problem& p = *m.p;
  lambda_.assign(p.num_segments(), 0.0);
  profile_.assign(p.num_segments() + 1, 0.0);
  needed_ = false;
  if (!m.has_limit || p.num_segments() == 0) return;
  needed_ = true;
  rate_ = m.memory_rate > 0 ? m.memory_rate : typical_memory_rate(m);
  if (schedule_ == Schedule::kNodes) {
    w_.assign(m.n, 0.0);
    lo_.assign(m.n, 0.0);
    hi_.assign(m.n, -1.0);
  }
}

void MemoryRelax::node_weights(std::vector<double>* w) const {
  const Problem& p = *m_->p;
  w->assign(m_->n, 0.0);
  if (!needed_) return;
  if (schedule_ == Schedule::kNodes) {
    *w = w_;
    return;
  }
  std::vector<double> prefix(lambda_.size() + 1, 0.0);
  for (size_t k = 0; k < lambda_.size(); ++k) prefix[k + 1] = prefix[k] + lambda_[k];
  for (int i = 0; i < m_->n; ++i)
    if (m_->has_interval(i)) (*w)[i] = prefix[p.seg_hi[i]] - prefix[p.seg_lo[i]];
}

void MemoryRelax::update(const std::vector<int32_t>& a, double cost, double upper, Rng* rng, double known_dual) {
  if (!needed_) return;
  const Problem& p = *m_->p;
  std::fill(profile_.begin(), profile_.end(), 0.0);
  for (int i = 0; i < m_->n; ++i) {
    if (!m_->has_interval(i)) continue;
    double u = double(m_->usage(i, a[i]));
    profile_[p.seg_lo[i]] += u;
    profile_[p.seg_hi[i]] -= u;
  }
  const double limit = double(m_->limit);
  if (schedule_ == Schedule::kNodes) {
    update_nodes();
    return;
  }
  // Turn the difference array into the subgradient g_k = U_k - limit, and
  // evaluate the Lagrangian at this point: cost + sum_k lambda_k g_k.
  double run = 0, dual = cost, norm2 = 0;
  for (size_t k = 0; k < lambda_.size(); ++k) {
    run += profile_[k];
    const double g = run - limit;
    profile_[k] = g;
    dual += lambda_[k] * g;
    if (g > 0 || lambda_[k] > 0) norm2 += g * g;  // the projected subgradient
  }
  if (norm2 <= 0) return;
  if (!std::isnan(known_dual)) dual = known_dual;
  if (dual > best_dual_ + 1e-9 * std::abs(best_dual_)) {
    best_dual_ = dual;
    stall_ = 0;
  } else if (++stall_ >= m_->params.dual_stall) {
    theta_ = std::max(m_->params.dual_step_floor, theta_ * m_->params.dual_shrink);
    stall_ = 0;
  }
  double gap = upper - dual;
  if (!(gap > 0) || upper >= 1e299) gap = 0.01 * std::max(std::abs(std::isnan(known_dual) ? cost : dual), 1.0);
  const double step = theta_ * (0.7 + 0.6 * rng->uniform()) * gap / norm2;
  for (size_t k = 0; k < lambda_.size(); ++k)
    lambda_[k] = std::max(0.0, lambda_[k] + step * profile_[k]);
}

// profile_ holds the difference array of the answer's usage.
void MemoryRelax::update_nodes() {
  const Problem& p = *m_->p;
  const int S = p.num_segments();
  int levels = 1;
  while ((1 << levels) <= S) ++levels;
  table_.resize(size_t(levels) * S);
  double run = 0;
  for (int k = 0; k < S; ++k) table_[k] = run += profile_[k];
  for (int l = 1; l < levels; ++l) {
    const double* prev = table_.data() + size_t(l - 1) * S;
    double* cur = table_.data() + size_t(l) * S;
    const int half = 1 << (l - 1);
    for (int k = 0; k + (1 << l) <= S; ++k) cur[k] = std::max(prev[k], prev[k + half]);
  }
  const double limit = double(m_->limit);
  // A first price for a node over the limit: a small fraction of the typical
  // cost per unit of memory, doubled from there until the node fits. (Starting
  // at the typical price and quadrupling reaches the prices sooner, but its
  // coarse steps overshoot the price a node needs to fit, and the answers are
  // worse.)
  const double base_start = m_->params.first_price * rate_;
  for (int i = 0; i < m_->n; ++i) {
    if (!m_->has_interval(i) || m_->dom_size(i) < 2) continue;
    const double start = start_scale_.empty() ? base_start : base_start * start_scale_[i];
    const int a = p.seg_lo[i], b = p.seg_hi[i];
    int l = 0;
    while ((2 << l) <= b - a) ++l;
    const double* row = table_.data() + size_t(l) * S;
    const bool over = std::max(row[a], row[b - (1 << l)]) > limit;
    double& w = w_[i];
    if (over) {
      lo_[i] = w;
      if (hi_[i] >= 0 && hi_[i] <= w) hi_[i] = -1;  // the bracket went stale
      w = hi_[i] < 0 ? std::max(2 * w, start) : 0.5 * (lo_[i] + hi_[i]);
    } else if (w > 0) {
      hi_[i] = w;
      if (lo_[i] >= w) lo_[i] = 0.5 * w;
      w = 0.5 * (lo_[i] + hi_[i]);
      if (w < 0.01 * start) w = lo_[i] = 0;  // never needed a price
    }
  }
}

void MemoryRelax::restart_diversified(Rng* rng) {
  if (schedule_ != Schedule::kNodes || !needed_) return;
  std::fill(w_.begin(), w_.end(), 0.0);
  std::fill(lo_.begin(), lo_.end(), 0.0);
  std::fill(hi_.begin(), hi_.end(), -1.0);
  start_scale_.resize(m_->n);
  const double spread = m_->params.restart_price_spread;
  for (double& f : start_scale_) f = std::exp2(spread * rng->uniform() - spread / 2);
}

double MemoryRelax::penalty_offset() const {
  // Per-node prices are not multipliers of the memory rows: they give no
  // bound, and asking for one is a caller's mistake.
  assert(schedule_ == Schedule::kSegments);
  if (!needed_ || schedule_ == Schedule::kNodes) return 0;
  double s = 0;
  for (double l : lambda_) s += l;
  return s * double(m_->limit);
}

}  // namespace iopddl
