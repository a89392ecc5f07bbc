// When a search has stalled: the clock behind the restarts (SearchContext)
// and the rounding's refresh (step_rounding.cc). A best cost counts as a fall
// only when it is at least `min_fall` of the cost below the last counted one,
// since a search settled in its basin still finds tiny falls, each of which
// would otherwise put the stall off for good. The search has stalled when no
// counted fall has come for `factor` times as long as it took from the
// clock's start to the last one, and at least `min_stall` seconds: a search
// that keeps finding real falls is never cut off, and one that took long to
// get where it is gets as long again.
#pragma once
#include <algorithm>

#include "search_state.h"

namespace iopddl {

struct StallClock {
  double began = 0;               // when the clock started
  double counted_at = 0;          // the last counted fall (or the start, or the last wait_again)
  double counted_cost = kNoCost;  // the best cost then

  void start(double now) {
    began = counted_at = now;
    counted_cost = kNoCost;
  }
  // The best cost is `cost` at `now`; true if that counts as a fall.
  bool offer(double cost, double now, double min_fall) {
    if (has_cost(counted_cost) && counted_cost - cost < min_fall * cost) return false;
    counted_cost = cost;
    counted_at = now;
    return true;
  }
  // How long the search took from the start to its last counted fall.
  double reached() const { return counted_at - began; }
  bool stalled(double now, double factor, double min_stall) const {
    return now - counted_at >= std::max(min_stall, factor * reached());
  }
  // After acting on a stall without starting afresh: the next stall is
  // judged from `now`, against the whole time since the start.
  void wait_again(double now) { counted_at = now; }
};

}  // namespace iopddl
