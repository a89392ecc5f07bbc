// Memory against cost: the cheapest answer found at each of several usage
// limits, with proven lower bounds, from the least memory any plan needs to
// the peak of the cheapest plan without a limit. What a user choosing a
// device asks: how much does each extra GB save?
//
// Each point starts from the plan of the next smaller point solved, which
// fits every larger limit, and a point takes a smaller one's plan when that
// is cheaper, so the costs never rise as the limit grows. A bound at a larger
// limit holds at every smaller one, so the bounds never rise either.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "solver.h"

namespace iopddl {

struct SweepPoint {
  int64_t limit = 0;
  bool feasible = false;          // a plan within the limit was found
  std::vector<int32_t> assignment;  // the best plan found (the least-violating one if none fits)
  Int128 cost = 0;                // its exact cost
  Int128 peak_usage = 0;          // its peak
  bool has_lower_bound = false;
  Int128 lower_bound = 0;         // proven: nothing within the limit costs less
  bool proven_optimal = false;    // feasible and cost == lower_bound
  bool proven_infeasible = false; // nothing fits: the limit is below the least peak, or the reductions showed it
  bool from_neighbour = false;    // the smaller limit's plan, not bettered here
  double seconds = 0;             // the point's solve
  double first_feasible_seconds = -1;  // into the point's solve (-1: none found)
};

struct SweepOptions {
  // Threads, seed, parameters, round budget and stop flag of every solve;
  // its time limit is the whole sweep's, shared out over the solves (each
  // gets an equal part of what is left, so a point proven early gives its
  // rest to the others). A start is ignored.
  SolveOptions solve;
  // The limits to solve at (any order; sorted, repeats dropped). Empty:
  // `points` limits from the least peak to the peak of the cheapest plan found
  // without a limit (one more solve, whose plan is the last point's), with
  // the file's limit when it lies between, and the rest where the curve is
  // least known: each splits the stretch with the largest fall in cost times
  // its width in log(limit), at its geometric middle (split_limit below).
  std::vector<int64_t> limits;
  int points = 9;
  // Called after each point's solve, in the order solved (which is not the
  // order of limit when the sweep chooses the points); a point's cost may
  // still fall and its bound rise when the smaller and larger ones are known.
  std::function<void(const SweepPoint&)> on_point;
};

struct SweepResult {
  Status status;
  Int128 least_peak = 0;          // every node at its least usage: no plan peaks lower
  bool has_free_plan = false;     // the solve without a limit ran (points chosen by the sweep)
  Int128 free_cost = 0, free_peak = 0;  // its plan
  bool free_has_lower_bound = false;
  Int128 free_lower_bound = 0;    // holds at every limit
  std::vector<SweepPoint> points;  // by limit, increasing; costs non-increasing, bounds non-increasing
};

// Where the curve is least known, given the points so far (by limit): the
// stretch between two neighbours with the largest fall in cost times its
// width in log(limit), split at its geometric middle; a stretch whose
// smaller end has no plan counts the largest fall known. None when no
// stretch has room for another limit. The sweep's own choice of its next
// point.
std::optional<int64_t> split_limit(const std::vector<SweepPoint>& pts);

// Sweeps within options.solve.time_limit_seconds (a session run to the end).
SweepResult sweep(const Problem& problem, const SweepOptions& options);

// A sweep that can run in slices and resume where it stopped: the point being
// solved is a SolveSession, advanced by each run(), and the next point starts
// when it finishes. For callers that must give their thread back now and then
// (a browser's single-threaded Worker); sweep() is one session. The time
// limit counts from construction; `problem` and the options' stop flag must
// outlive the session. Once the stop flag is set, every point left gets no
// time (it keeps its smaller neighbour's plan), so the session ends soon.
class SweepSession {
 public:
  SweepSession(const Problem& problem, const SweepOptions& options);
  ~SweepSession();
  SweepSession(const SweepSession&) = delete;
  SweepSession& operator=(const SweepSession&) = delete;
  // Not ok: the sweep cannot go on (bad limits or points, a solve that
  // could not run).
  const Status& status() const;
  // Sweeps for up to about `seconds` more (a point's set-up is not cut
  // short); false once the sweep is over.
  bool run(double seconds);
  bool finished() const;
  // The points so far, in order of limit; the final result (costs and bounds
  // made monotone) once finished.
  const SweepResult& result() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace iopddl
