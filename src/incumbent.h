// The best assignment found by any thread. Threads offer candidates; the exact
// evaluator decides. Ranking: feasible before infeasible; among infeasible ones,
// fewer forbidden entries, then less memory over the limit, then cost.
#pragma once
#include <atomic>
#include <mutex>
#include <vector>

#include "evaluate.h"

namespace iopddl {

class Incumbent {
 public:
  Incumbent(const Problem& p, const UsageLimit& limit) : p_(p), limit_(limit) {}
  // Evaluates `a` exactly (after a cheap filter on `approx_cost`); true if it
  // became the new best.
  bool offer(const std::vector<int32_t>& a, double approx_cost, bool within_limit);
  // Copies the best assignment; false when there is none yet.
  bool snapshot(std::vector<int32_t>* out, Evaluation* ev = nullptr) const;
  // Feasibility and exact cost of the best assignment, without copying it;
  // false when there is none yet.
  bool summary(bool* feasible, Int128* cost) const;
  double approx_cost() const { return approx_.load(); }
  // From now on an offer that ranks equal to the best replaces it when its
  // assignment is lexicographically smaller (not counted an improvement), so
  // that the best of a set of offers does not depend on their order
  // (lockstep.h).
  void order_ties() { order_ties_ = true; }
  bool feasible() const { return feasible_.load(); }

 private:
  const Problem& p_;
  const UsageLimit limit_;  // the solve's (answers are judged against it)
  mutable std::mutex mu_;
  std::vector<int32_t> best_;
  Evaluation eval_;
  std::atomic<bool> has_{false}, feasible_{false};
  std::atomic<double> approx_{0};
  bool order_ties_ = false;
};

}  // namespace iopddl
