#include "memory_relax.h"

#include <algorithm>
#include <cmath>

#include "int128.h"

namespace iopddl {

void MemoryRelax::init(const SearchModel& m) {
  m_ = &m;
  const Problem& p = *m.p;
  lambda_.assign(p.num_segments(), 0.0);
  profile_.assign(p.num_segments() + 1, 0.0);
  needed_ = false;
  if (!p.has_usage_limit || p.num_segments() == 0) return;
  // Does the limit bind at all? Check the profile of the cheapest strategies.
  std::vector<double> ratios;
  double max_use = 0;
  for (int i = 0; i < m.n; ++i) {
    if (!m.has_interval(i) || m.dom_size(i) < 2) continue;
    double cmin = 1e300, cmax = -1e300;
    int64_t umin = INT64_MAX, umax = INT64_MIN;
    for (int k = 0; k < m.dom_size(i); ++k) {
      int s = m.domain(i)[k];
      double c = m.node_cost(i, s);
      if (c >= m.big) continue;
      cmin = std::min(cmin, c);
      cmax = std::max(cmax, c);
      umin = std::min(umin, m.usage(i, s));
      umax = std::max(umax, m.usage(i, s));
    }
    if (umax > umin && cmax > cmin) ratios.push_back((cmax - cmin) / double(umax - umin));
    max_use = std::max(max_use, double(umax));
  }
  needed_ = true;
  if (ratios.empty()) {
    rate_ = 1.0 / std::max(1.0, max_use);
  } else {
    std::nth_element(ratios.begin(), ratios.begin() + ratios.size() / 2, ratios.end());
    rate_ = ratios[ratios.size() / 2];
  }
}

void MemoryRelax::node_weights(std::vector<double>* w) const {
  const Problem& p = *m_->p;
  w->assign(m_->n, 0.0);
  if (!needed_) return;
  std::vector<double> prefix(lambda_.size() + 1, 0.0);
  for (size_t k = 0; k < lambda_.size(); ++k) prefix[k + 1] = prefix[k] + lambda_[k];
  for (int i = 0; i < m_->n; ++i)
    if (m_->has_interval(i)) (*w)[i] = prefix[p.seg_hi[i]] - prefix[p.seg_lo[i]];
}

void MemoryRelax::update(const std::vector<int32_t>& a, Rng* rng) {
  if (!needed_) return;
  const Problem& p = *m_->p;
  std::fill(profile_.begin(), profile_.end(), 0.0);
  for (int i = 0; i < m_->n; ++i) {
    if (!m_->has_interval(i)) continue;
    double u = double(m_->usage(i, a[i]));
    profile_[p.seg_lo[i]] += u;
    profile_[p.seg_hi[i]] -= u;
  }
  const double limit = double(p.usage_limit);
  double run = 0;
  const double jitter = 1.3 + 0.4 * rng->uniform();
  for (size_t k = 0; k < lambda_.size(); ++k) {
    run += profile_[k];
    if (run > limit) {
      // Over the limit here: raise, starting from a small share of the typical rate.
      double over = (run - limit) / std::max(1.0, limit);
      lambda_[k] = std::max(lambda_[k] * jitter, rate_ * std::min(1.0, 0.02 + over));
    } else {
      lambda_[k] *= 0.85;
      if (lambda_[k] < rate_ * 1e-6) lambda_[k] = 0;
    }
  }
}

double MemoryRelax::penalty_offset() const {
  if (!needed_) return 0;
  double s = 0;
  for (double l : lambda_) s += l;
  return s * double(m_->p->usage_limit);
}

void MemoryRelax::scale(double f) {
  for (double& l : lambda_) l *= f;
}

}  // namespace iopddl
