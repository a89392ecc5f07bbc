// A search step: one mechanism of a thread's search, in its own file
// (step_*.cc), owning both when it may run and what it does. The thread's
// loop (worker.cc) asks the scheduler (scheduler.h) which step to run next,
// runs it, and credits it with the fall in the thread's best cost.
//
// Adding a step: a step_*.cc file that defines the class and its factory,
// the factory's declaration below, and one line in the list of make_steps()
// (steps.cc).
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "scheduler.h"
#include "thread_state.h"

namespace iopddl {

class SearchStep {
 public:
  virtual ~SearchStep() = default;
  // Whether it can run on this thread now (it may set itself up here, once).
  virtual bool available(ThreadState& t) = 0;
  // The least share of this thread's time it gets, whatever it earns: for
  // what feeds the other steps, or what a stalled search still needs. `now`
  // is the scheduler's clock (seconds, or runs under a round budget).
  virtual double floor(ThreadState& t, double now) { return 0.0; }
  // A role's floor (soft) is a share of what the hard floors leave: a role
  // wants most of the thread, but not before what the others need; held
  // whole, or as far as its yield earns it (scheduler.h).
  virtual FloorKind floor_kind(ThreadState&) const { return kHardFloor; }
  // Sliced steps go on while `more()` says so; atomic ones do one unit of
  // work, and their mean time sets the slices' length.
  virtual bool sliced() const { return false; }
  // False if stopped first.
  virtual bool run(ThreadState& t, const std::function<bool()>& more) = 0;
  // A new epoch (a restart): whatever the step keeps of the old one's path.
  virtual void restart(ThreadState& t) {}
};

// Each step's factory, defined in its own file.
std::unique_ptr<SearchStep> make_elimination_step();      // step_elimination.cc
std::unique_ptr<SearchStep> make_rounding_step();         // step_rounding.cc
std::unique_ptr<SearchStep> make_neighbourhood_step();    // step_neighbourhood.cc
std::unique_ptr<SearchStep> make_proof_step();            // step_proof.cc
std::unique_ptr<SearchStep> make_epoch_crossover_step();  // step_epoch_crossover.cc

// Every step, in the order the scheduler first tries them.
std::vector<std::unique_ptr<SearchStep>> make_steps();

}  // namespace iopddl
