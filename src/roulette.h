// Picks one of K choices in proportion to its recent gains: each starts at
// weight 1, gains 1 per reward, and all fade by a factor now and then; every
// choice keeps a floor of 0.5 so that none is starved. Used for the
// elimination rules (step_elimination.cc).
#pragma once
#include "rng.h"

namespace iopddl {

template <int K>
class Roulette {
  static_assert(K > 0, "a roulette needs a choice");

 public:
  Roulette() { reset(); }
  // Draws among the first `among` choices (all by default).
  int pick(Rng* rng, int among = K) const {
    double total = 0;
    for (int k = 0; k < among; ++k) total += 0.5 + w_[k];
    double left = rng->uniform() * total;
    int k = 0;
    while (k < among - 1 && (left -= 0.5 + w_[k]) > 0) ++k;
    return k;
  }
  void reward(int k) { w_[k] += 1.0; }
  void fade(double factor) {
    for (double& w : w_) w *= factor;
  }
  void reset() {
    for (double& w : w_) w = 1.0;
  }

 private:
  double w_[K];
};

}  // namespace iopddl
