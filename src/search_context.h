// What every worker thread shares: the model, the incumbent, the clock, the
// stop conditions and the statistics counters.
#pragma once
#include <array>
#include <atomic>
#include <chrono>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>

#include "incumbent.h"
#include "lockstep.h"
#include "proof_search.h"
#include "search_model.h"
#include "stall_clock.h"
#include "search_state.h"
#include "solver.h"
#include "contraction.h"
#include "tied_groups.h"

namespace iopddl {

struct SearchContext {
  const SearchModel* model = nullptr;
  const TiedGroups* groups = nullptr;
  const Contraction* contraction = nullptr;  // null when no node is tied
  // The proof search's tree, which thread 0 works on and the others join.
  std::shared_ptr<ProofSearch::Tree> proof_tree = ProofSearch::new_tree();
  const SolveOptions* options = nullptr;
  Incumbent* incumbent = nullptr;
  std::chrono::steady_clock::time_point start, deadline;
  // The end of a session's slice under a round budget (solve.cc): the
  // threads end the slice between rounds, not inside a step, so that the
  // answer does not depend on how the solve is sliced.
  std::chrono::steady_clock::time_point counted_slice_end = std::chrono::steady_clock::time_point::max();
  std::atomic<bool> done{false};    // nothing left to search for (proven optimal)
  std::atomic<bool> proven{false};  // in lockstep: done from the next meeting on
  std::atomic<bool> paused{false};  // a session's slice is over (solve.cc)
  int threads = 1;
  // Under a round budget with several threads the threads keep step
  // (lockstep.h): every exchange below goes through the rounds' meetings.
  Lockstep lockstep;
  // Sets lockstep up for `threads` threads (solve.cc, under a round budget).
  void keep_step(int threads);
  // Roles, taken by the first threads to run the step (in lockstep: by the
  // lowest of those that ask in one round): the Lagrangian bounds
  // (step_elimination.cc), a rounding (step_rounding.cc) and, on problems
  // too large for several proof searches, the proof search (step_proof.cc).
  // A thread takes a rounding or the proof search only when `may_take`
  // (thread_state.h). The role's slot (>= 0: a rounding's variant, else
  // 0), kRoleRefused or kRolePending (lockstep.h).
  int claim_role(Role role, int tid, bool may_take);
  // How many threads hold a rounding: rounding_threads of them, at least one.
  int roundings() const;
  // The latest raw answer of any rounding, for the part windows of the
  // threads that hold no role (part_partner): with many threads few hold a
  // rounding, and its answers are as good a partner for every thread's best.
  void publish_rounding(int tid, const std::vector<int32_t>& a);
  // Copies the latest rounding answer into *a if it is newer than *version.
  bool latest_rounding(std::vector<int32_t>* a, int64_t* version);
  // The incumbent's feasibility and cost (in lockstep: at the last meeting);
  // false when there is none.
  bool incumbent_summary(bool* feasible, Int128* cost) const;

  SharedCounters counters{};  // stats.h
  void count(Counter c, int64_t n = 1) { counters[int(c)].fetch_add(n, std::memory_order_relaxed); }
  static constexpr int kFields = 4;  // tried, improved, micros, fall
  std::array<std::atomic<int64_t>, kFields * kMechanismCount> mechanism_counts{};
  // Adds a thread's counts to the shared ones and zeroes them.
  void add_counts(MechanismCounts* local) {
    for (int k = 0; k < kMechanismCount; ++k) {
      const MechanismCount& c = (*local)[k];
      const int64_t v[kFields] = {c.tried, c.improved, c.micros, c.fall};
      for (int f = 0; f < kFields - 1; ++f) mechanism_counts[kFields * k + f].fetch_add(v[f], std::memory_order_relaxed);
      add_saturating(&mechanism_counts[kFields * k + kFields - 1], c.fall);
      (*local)[k] = {};
    }
  }
  static void add_saturating(std::atomic<int64_t>* a, int64_t v) {
    int64_t old = a->load(std::memory_order_relaxed);
    while (!a->compare_exchange_weak(old, old > INT64_MAX - v ? INT64_MAX : old + v, std::memory_order_relaxed)) {
    }
  }
  // The shared counts so far.
  MechanismCounts mechanism_totals() const {
    MechanismCounts c{};
    for (int k = 0; k < kMechanismCount; ++k) {
      const auto* v = &mechanism_counts[kFields * k];
      c[k] = {v[0].load(), v[1].load(), v[2].load(), v[3].load()};
    }
    return c;
  }
  std::mutex progress_mu;  // serialises callbacks and the history
  std::vector<ImprovementPoint> history;
  double first_feasible_seconds = -1;
  bool bound_valid = true;  // false when the reductions proved infeasibility
  bool has_lower_bound = false;
  Int128 lower_bound = 0;

  // Restarts (worker.cc): the search runs in epochs. Within an epoch the
  // threads share the epoch's own best (not the global incumbent, which keeps
  // every epoch's answers); the opening's epochs end on the clock, later ones
  // when their best has not improved for long enough; the next epoch starts
  // every thread afresh.
  std::atomic<int> epoch{0};
  // Offers an answer within the limit, found in `epoch`, to that epoch's best.
  void offer_epoch(int epoch, const std::vector<int32_t>& a, double cost);
  // Copies the epoch's best into *a and *cost if it is cheaper than *cost.
  bool adopt_epoch(int epoch, std::vector<int32_t>* a, double* cost);
  // The rule below reads all its settings from model->params.
  // Starts the next epoch when this one's best has stalled: no improvement (a
  // fall of at least restart_min_fall of the cost since the last one) for
  // restart_stall_factor times as long as the epoch took to reach it, times
  // the roundings it holds, and at least restart_min_stall seconds; but not
  // with less time left before solve_end than the epoch took to reach its
  // best. True if it did.
  bool restart_if_stalled();
  // The opening: while fewer than probe_epochs epochs have run, the next
  // starts once its share of the first probe_share of the solve's time is
  // over (and the epoch has an answer within the limit); the epoch after the
  // last probe starts with the best answer of all the probes as its own best.
  // Later epochs follow the stall rule. True if it started an epoch.
  // No opening when a probe would be shorter than probe_min_seconds.
  bool next_epoch_due();
  // The best answer of the epochs ended so far, into *a and *cost; false
  // when there is none (the first epoch, or none of the ended ones fitted).
  bool ended_best(std::vector<int32_t>* a, double* cost);
  // Offers an answer within the limit to the ended epochs' best (the epoch
  // crossover's: step_epoch_crossover.cc); it takes it when it is cheaper.
  void offer_ended_best(const std::vector<int32_t>& a, double cost);
  // Every epoch started so far after the first (stats.h).
  std::vector<EpochStart> epoch_starts();
  // True the first time it is asked for an epoch after the last one it said
  // true for: a later epoch's first new incumbent, counted once per epoch
  // whichever thread found it (the restart's "improved").
  bool first_incumbent_of(int epoch) {
    int seen = credited_epoch_.load();
    while (seen < epoch)
      if (credited_epoch_.compare_exchange_weak(seen, epoch)) return true;
    return false;
  }
  // The whole solve's end (a session's slices move `deadline`, not this).
  std::chrono::steady_clock::time_point solve_end = std::chrono::steady_clock::time_point::max();

  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  bool should_stop() const {
    if (done.load(std::memory_order_relaxed) || paused.load(std::memory_order_relaxed)) return true;
    if (options->stop && options->stop->load(std::memory_order_relaxed)) return true;
    return std::chrono::steady_clock::now() >= deadline;
  }
  // Offers a candidate to the incumbent and reports an improvement (true).
  bool offer(const std::vector<int32_t>& a, double approx_cost, bool within_limit);
  void report(ProgressEvent event);
  // Raises the shared lower bound (thread-safe) and reports it.
  void offer_bound(Int128 lb);

 private:
  Progress progress(ProgressEvent event) const;
  std::atomic<bool> lagrangian_claimed_{false}, proof_claimed_{false};
  std::atomic<int> rounding_slots_{0};  // roundings taken
  int grant_role(Role role, bool may_take);  // a claim decided now
  void settle_meeting();  // lockstep's meetings: the incumbent, the slice, the proof
  std::mutex rounding_mu_;
  std::vector<int32_t> latest_rounding_;
  int64_t rounding_version_ = 0;
  mutable std::mutex epoch_mu_;
  std::atomic<int> credited_epoch_{0};
  std::vector<int32_t> epoch_best_;
  double epoch_best_cost_ = kNoCost;
  StallClock epoch_clock_;  // the epoch's stall clock: its start and its best's last counted fall
  std::vector<int32_t> ended_best_;  // the best answer of the epochs ended so far
  double ended_best_cost_ = kNoCost;
  std::vector<EpochStart> epoch_starts_;
  void start_epoch(double now, bool opening);  // under epoch_mu_
  // From start to solve_end; infinite when the solve has no end (no time
  // limit: solve.cc sets it 1e9 s away; a session: time_point::max()).
  double solve_seconds() const {
    const double s = std::chrono::duration<double>(solve_end - start).count();
    return s < 1e8 ? s : std::numeric_limits<double>::infinity();
  }
  void stop_if_proven();
};

// One search thread (worker.cc): a first answer, then rounds of the rounding
// step and/or the elimination and neighbourhood steps, restarts when the
// epoch stalls, until the stop condition. Its state is kept between calls of
// run(), so a session's slices resume where they stopped.
class Worker;
class SearchThread {
 public:
  SearchThread(SearchContext* ctx, int thread_index);
  ~SearchThread();
  // Searches until the context says stop. False once the thread has nothing
  // more to do (its round budget is spent).
  bool run();

 private:
  std::unique_ptr<Worker> w_;
};

}  // namespace iopddl
