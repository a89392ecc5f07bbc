// Lagrangian relaxation of the memory limit: a multiplier per compressed time
// segment. A node pays (sum of its segments' multipliers) x usage, which turns
// the limit into ordinary unary costs that the pairwise solvers handle.
#pragma once
#include <vector>

#include "rng.h"
#include "search_model.h"

namespace iopddl {

class MemoryRelax {
 public:
  void init(const SearchModel& m);
  bool needed() const { return needed_; }
  // weight[i] = sum of the multipliers over node i's segments.
  void node_weights(std::vector<double>* weight) const;
  // A projected subgradient step with Polyak's step size, from the usage
  // profile of `assign` (a solution of the penalised problem, whose plain cost
  // is `cost`) towards the best known feasible cost `upper`: multipliers rise
  // where the limit is exceeded and fall where there is slack.
  void update(const std::vector<int32_t>& assign, double cost, double upper, Rng* rng);
  // sum over segments of multiplier x limit: subtract from a bound of the
  // penalised problem to get a bound of the constrained one.
  double penalty_offset() const;

 private:
  const SearchModel* m_ = nullptr;
  bool needed_ = false;
  double rate_ = 0;             // a typical cost per unit of memory
  std::vector<double> lambda_;  // per segment
  std::vector<double> profile_;
  double theta_ = 1.0;            // Polyak step factor, shrinks when the dual stalls
  double best_dual_ = -1e300;
  int stall_ = 0;
};

}  // namespace iopddl
