// Relaxation of the memory limit into node prices: a node pays weight x usage,
// which turns the limit into ordinary unary costs that the pairwise solvers
// handle. Two schedules for the weights:
//  - kSegments: a Lagrangian multiplier per compressed time segment, a node's
//    weight the sum over its segments; subgradient steps on the dual, which
//    also yields a proven bound (penalty_offset);
//  - kNodes: a weight per node, bracketed on its own: raised (doubled, or
//    bisected towards its known upper end) while the node's interval is over
//    the limit in the penalised answer, lowered towards its known lower end
//    while it fits. Richer than the multipliers (nodes alive at the same
//    moment can pay different prices), but no bound. The search uses these;
//    the multipliers serve the bound.
#pragma once
#include <limits>
#include <vector>

#include "rng.h"
#include "search_model.h"

namespace iopddl {

class MemoryRelax {
 public:
  enum class Schedule { kSegments, kNodes };
  void init(const SearchModel& m, Schedule schedule = Schedule::kSegments);
  Schedule schedule() const { return schedule_; }
  bool needed() const { return needed_; }
  // Each node's price: kSegments, the sum of the multipliers over its
  // segments; kNodes, its own bracketed price.
  void node_weights(std::vector<double>* weight) const;
  // Moves the prices by the usage profile of `assign` (a solution of the
  // penalised problem, whose plain cost is `cost`). kSegments: a projected
  // subgradient step with Polyak's step size towards the best known feasible
  // cost `upper` (multipliers rise where the limit is exceeded, fall where
  // there is slack). kNodes: each node's bracket moves by whether its interval
  // is over the limit (cost and upper unused).
  // `known_dual`, when given (not NaN), is the dual's value at these prices
  // (a bound of the penalised problem less penalty_offset()) and replaces the
  // answer's Lagrangian value in the step: an answer that pays forbidden
  // entries or strategies removed by a search has a value far above the dual.
  void update(const std::vector<int32_t>& assign, double cost, double upper, Rng* rng,
              double known_dual = std::numeric_limits<double>::quiet_NaN());
  // kNodes: back to no prices, each node's first price scaled by its own
  // random factor (log-uniform: params.restart_price_spread), so that a restarted search
  // prices memory along another path.
  void restart_diversified(Rng* rng);
  // sum over segments of multiplier x limit: subtract from a bound of the
  // penalised problem to get a bound of the constrained one (kSegments only:
  // asserted; 0 in release builds).
  double penalty_offset() const;

 private:
  const SearchModel* m_ = nullptr;
  Schedule schedule_ = Schedule::kSegments;
  std::vector<double> w_, lo_, hi_;  // kNodes: weight and its bracket (hi_ < 0: none yet)
  std::vector<double> table_;        // kNodes: sparse table of the usage profile's maxima
  std::vector<double> start_scale_;  // kNodes: per-node factor on the first price (empty: 1)
  void update_nodes();
  bool needed_ = false;
  double rate_ = 0;             // a typical cost per unit of memory
  std::vector<double> lambda_;  // per segment
  std::vector<double> profile_;
  double theta_ = 1.0;            // Polyak step factor, shrinks when the dual stalls
  double best_dual_ = -1e300;
  int stall_ = 0;
};

}  // namespace iopddl
