// Gives a thread's time to its steps in proportion to what they have
// recently earned per second: the fall in the thread's best cost they
// produced (as a log ratio, so that early and late falls compare), over the
// time they took, both fading with a half-life that is a share of the time
// elapsed (a long run remembers longer). Each step's share is its floor
// (steps that feed the others; a proof search on a stalled small problem;
// soft: a rounding's role, which takes its share of what those leave)
// plus the exploration floor plus its part of the rest by yield; the step
// furthest below its share runs next. Every step is tried once first.
//
// A soft floor is a role. An earned role is held in full for its first runs
// (a rounding's messages settle over hundreds of passes before it can pay),
// then in proportion to what it earns per unit of time against the thread's
// other steps, up to the whole floor. A whole role keeps its floor whatever
// its faded yield says: the step says which (a rounding's falls are rare and
// large, so a yield that fades judges it too soon where no proof is in
// reach; step_rounding.cc).
//
// The clock is seconds, or runs under a round budget (then every run counts
// one and the schedule is deterministic).
#pragma once
#include <cstdint>
#include <vector>

#include "params.h"

namespace iopddl {

// How a step's floor is held: hard; or soft, a role that takes its share of
// what the hard floors leave, either as far as its yield earns it or whole.
enum FloorKind : char { kHardFloor = 0, kEarnedRole = 1, kWholeRole = 2 };

// The log fall from one best cost to the next: scale-free, so that a yield
// early in a run and late compare. 1 for a first answer within the limit.
double log_fall(double before, double after);

class YieldScheduler {
 public:
  void init(int steps, const Params& prm, int rotate);
  // The step to run next among the available ones, given each one's floor;
  // -1 when none is available. A role's floor (kind[k], when given) is a
  // share of what the hard floors leave, not of the whole.
  int pick(const std::vector<char>& available, const std::vector<double>& floor, double now,
           const std::vector<FloorKind>& kind = {});
  // A run of step k took `used` on the clock and lowered the thread's best
  // cost by the log ratio `gain` (0 if it did not).
  void record(int k, double used, double gain, double now);
 private:
  struct Arm {
    double used = 0, gain = 0;  // faded
    int64_t runs = 0;  // 0: not tried yet
  };
  std::vector<Arm> arms_;
  double explore_ = 0, halflife_share_ = 0, halflife_min_ = 0;
  int64_t role_warmup_ = 0;
  double faded_at_ = 0;
  int rotate_ = 0;
  void fade(double now);
  double yield(int k) const;  // gain per clock unit
  // The share of a soft floor step k has earned (0 to 1).
  double earned(int k, const std::vector<char>& available) const;
};

}  // namespace iopddl
