// The part window: a connected part where the thread's partner (a
// rounding's or an elimination's latest answer) differs from the best,
// re-solved with the rest fixed under a price per time segment, which
// subgradient steps move towards the limit; each answer is let over the
// limit, its overflow repaired anywhere and polished, and the cheapest that
// fits is kept.
//
// Why: the better basin of a memory-bound instance lies one large change
// away (hubs and the nodes that follow them), a change that overflows the
// limit by what a repair elsewhere can pay for. A price per node on its
// whole life cannot aim at the peak: the window either overflows by far or
// fits at a higher cost. A price per segment can, and the steps search for
// the answer that lands just over the limit. The window must be the change's
// own nodes: grown breadth-first from a hub it is mostly other nodes, and a
// global answer's difference from the best holds such parts (part_crossover.h).
// Nodes that the elimination cannot eliminate (the hubs) are decided by
// min-sum beliefs, not by the best's strategies, or they would never move.
#include <algorithm>
#include <climits>
#include <cmath>

#include "neighbourhood_search.h"

namespace iopddl {

// window_: a connected piece (at most part_window_max nodes, breadth-first)
// of the part of the difference that holds a random differing node; larger
// parts are drawn more often.
void NeighbourhoodSearch::part_of_difference(Rng* rng) {
  const SearchModel& m = *m_;
  const std::vector<int32_t>& other = *partner;
  window_.clear();
  ++clock_;
  touched_.clear();
  for (int i = 0; i < m.n; ++i)
    if (other[i] != cur_.s[i] && m.dom_size(i) > 1) touched_.push_back(i);
  if (touched_.empty()) return;
  const int start = touched_[rng->below(uint32_t(touched_.size()))];
  const size_t cap = size_t(m.params.part_window_max);
  touched_.assign(1, start);
  seen_[start] = clock_;
  for (size_t head = 0; head < touched_.size() && window_.size() < cap; ++head) {
    const int x = touched_[head];
    take(x, cap, nullptr);
    for (uint32_t a = m.adj_off[x]; a < m.adj_off[x + 1]; ++a) {
      const int o = m.adj[a].other;
      if (seen_[o] == clock_ || other[o] == cur_.s[o]) continue;
      seen_[o] = clock_;
      touched_.push_back(o);
    }
  }
}

// window_usage_[s - seg_lo_]: the window's nodes' usage at segment s under cur_.
void NeighbourhoodSearch::window_profile() {
  const SearchModel& m = *m_;
  const int span = seg_hi_ - seg_lo_;
  window_usage_.assign(size_t(span) + 1, 0);
  for (int x : window_)
    if (m.has_interval(x)) {
      const int64_t u = m.usage(x, cur_.s[x]);
      window_usage_[m.p->seg_lo[x] - seg_lo_] += u;
      window_usage_[m.p->seg_hi[x] - seg_lo_] -= u;
    }
  for (int s = 1; s < span; ++s) window_usage_[s] += window_usage_[s - 1];
}

// The window's node prices from lambda_: each node pays the sum over its segments.
void NeighbourhoodSearch::segment_prices() {
  const SearchModel& m = *m_;
  const int span = seg_hi_ - seg_lo_;
  lambda_sum_.assign(size_t(span) + 1, 0.0);
  for (int s = 0; s < span; ++s) lambda_sum_[s + 1] = lambda_sum_[s] + lambda_[s];
  for (int x : window_)
    scaled_[x] = m.has_interval(x) ? lambda_sum_[m.p->seg_hi[x] - seg_lo_] - lambda_sum_[m.p->seg_lo[x] - seg_lo_] : 0.0;
}

bool NeighbourhoodSearch::part_window(Rng* rng, const std::function<bool()>& stop, bool* complete) {
  const SearchModel& m = *m_;
  undo_.clear();
  part_of_difference(rng);
  if (window_.empty()) return false;
  for (int x : window_) cap_[x] = INT64_MAX;
  seg_lo_ = INT_MAX;
  seg_hi_ = 0;
  for (int x : window_)
    if (m.has_interval(x)) {
      seg_lo_ = std::min(seg_lo_, m.p->seg_lo[x]);
      seg_hi_ = std::max(seg_hi_, m.p->seg_hi[x]);
    }
  if (seg_lo_ >= seg_hi_) return false;
  const int span = seg_hi_ - seg_lo_;
  // The rest's usage per segment: the whole profile less the window's.
  const std::vector<int64_t> all = usage_per_segment(m, cur_.s);
  window_profile();
  rest_usage_.resize(size_t(span));
  for (int s = 0; s < span; ++s) rest_usage_[s] = all[seg_lo_ + s] - window_usage_[s];
  lambda_.assign(size_t(span), 0.0);
  gradient_.resize(size_t(span));
  if (scaled_.size() != size_t(m.n)) scaled_.assign(m.n, 0.0);
  EliminationOptions eo = window_options(&scaled_, rng, stop);
  eo.follow_hint = 0.0;
  eo.belief_every = 1;
  const double start_cost = cur_.cost;
  double best = start_cost, best_dual = -INFINITY, theta = 1.0;
  int stalled = 0;
  bool found = false;
  for (int solve = 0; solve < m.params.part_window_solves; ++solve) {
    segment_prices();
    *complete = solve_window(eo, rng);
    if (!*complete) return false;
    // The Lagrangian's value at these prices and its subgradient, the usage
    // over the limit per segment (only where it rises or a price can fall).
    window_profile();
    double dual = cur_.cost, norm = 0;
    for (int s = 0; s < span; ++s) {
      const double g = double(rest_usage_[s] + window_usage_[s] - m.limit);
      gradient_[s] = g;
      dual += lambda_[s] * g;
      if (g > 0 || lambda_[s] > 0) norm += g * g;
    }
    if (!undo_.empty()) {
      repair_and_descend(rng, stop);
      if (cur_.within_limit() && cur_.cost < best - 1e-9 * std::abs(best)) {
        best = cur_.cost;
        found = true;
        part_best_.clear();
        for (auto& u : undo_) part_best_.push_back({u.first, cur_.s[u.first]});
      }
      undo_move();
    }
    if (norm <= 0) break;  // within the limit with no price to lower: nothing left to learn
    if (dual > best_dual) {
      best_dual = dual;
      stalled = 0;
    } else if (++stalled >= 3) {
      theta *= 0.5;
      stalled = 0;
    }
    // Polyak's step towards the best answer's cost, which bounds the dual.
    const double step = theta * std::max(start_cost - dual, 1e-4 * std::abs(start_cost)) / norm;
    for (int s = 0; s < span; ++s) lambda_[s] = std::max(0.0, lambda_[s] + step * gradient_[s]);
  }
  if (!found) return true;  // tried, nothing better
  for (auto& [x, t] : part_best_)
    if (cur_.s[x] != t) { undo_.push_back({x, cur_.s[x]}); cur_.set(x, t); }
  return true;
}

}  // namespace iopddl
