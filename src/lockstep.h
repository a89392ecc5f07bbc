// Lockstep: under a round budget with several threads, every round ends at a
// meeting of all the threads, and what a thread learns from the others
// (their best answers, the latest rounding, the incumbent's cost, who holds
// which role, whether the answer is proven optimal) is what they had there,
// taken in thread order. So the answer follows from the seed, the thread
// count and the budget, not from how the threads' work interleaves: the same
// on every run. The time a thread waits for the slowest is the price.
//
// The last thread to arrive settles the meeting while the others wait; what
// it writes is read by every thread until the next meeting, which no thread
// reaches before it is done reading (so the reads need no lock). A thread
// that stops outside a meeting (the time limit, the stop flag) leaves, and
// the others meet without it: from then on the threads no longer keep step.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

#include "int128.h"

namespace iopddl {

// Roles a thread claims the first time it runs their step: the Lagrangian
// bounds (step_elimination.cc), the proof search's tree (step_proof.cc), a
// rounding (step_rounding.cc). A claim gives the role's slot (>= 0),
// kRoleRefused, or, in lockstep before the round's meeting has decided it,
// kRolePending.
enum class Role { kLagrangian, kProof, kRounding };
constexpr int kRoleCount = 3;
constexpr int kRoleRefused = -1, kRolePending = -2;

class Lockstep {
 public:
  // Decides a claim (a role and whether the thread may take another one):
  // the same rule as outside lockstep (SearchContext::grant_role).
  using Grant = std::function<int(Role, bool may_take)>;

  // `grant` decides the claims; `settle` is the context's part of each
  // meeting (run under the lock, every other thread waiting), after the
  // meeting's own work.
  void init(int threads, Grant grant, std::function<void()> settle);
  bool on() const { return threads_ > 1; }

  // Thread `tid` has ended a round with `best` at `cost` (kNoCost: none).
  // Waits for the others, the last to arrive settling the meeting. False
  // when `stop()` said stop while waiting: the thread has left.
  bool meet(int tid, const std::vector<int32_t>& best, double cost, const std::function<bool()>& stop);
  // A thread that stops outside a meeting: the others no longer wait for it.
  void leave(int tid);

  // After a meeting: the cheapest best posted there (ties: the lowest
  // thread), into *a and *cost when it is cheaper than *cost.
  bool adopt(std::vector<int32_t>* a, double* cost) const;

  // A rounding's answer, handed to the others at the round's meeting (the
  // highest thread's when several post in one round).
  void post_rounding(int tid, const std::vector<int32_t>& a);
  // The latest rounding handed over, into *a, if newer than *version.
  bool latest_rounding(std::vector<int32_t>* a, int64_t* version) const;

  // A claim of `role` by `tid`: decided at the round's meeting, in thread
  // order, by `grant`; kRolePending until then.
  int claim(Role role, int tid, bool may_take);

  // Read between meetings, written by `settle`: the incumbent's state at the
  // last meeting, and whether the threads end the slice there.
  bool incumbent_known = false, incumbent_feasible = false;
  Int128 incumbent_cost = 0;
  bool slice_over = false;

 private:
  struct Slot {
    std::vector<int32_t> best;
    double cost = 0;
    bool present = true;
    std::vector<int32_t> rounding;
    bool posted_rounding = false;
    int pending = -1;  // a Role claimed this round, or -1
    bool may_take = false;
    int granted[kRoleCount] = {kRolePending, kRolePending, kRolePending};
  };
  int threads_ = 0;
  std::vector<Slot> slots_;
  std::mutex mu_;
  std::condition_variable cv_;
  int arrived_ = 0;
  int64_t generation_ = 0;
  Grant grant_;
  std::function<void()> settle_;
  // The meeting's outcome.
  std::vector<int32_t> best_;
  double best_cost_ = 0;
  bool has_best_ = false;
  std::vector<int32_t> rounding_;
  int64_t rounding_version_ = 0;

  int present() const;
  // Under mu_: when every thread present has arrived, settles the meeting
  // and lets them go.
  void complete_if_all_here();
  void settle_meeting();
};

}  // namespace iopddl
