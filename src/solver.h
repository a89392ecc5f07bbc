// The solver's API: options in, a result out. Clients (CLI, Embind, tests) use
// nothing else. Nothing here prints; progress goes through a callback.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "evaluate.h"
#include "int128.h"
#include "mechanisms.h"
#include "params.h"
#include "stats.h"
#include "problem.h"
#include "status.h"

namespace iopddl {

// Why a progress snapshot was taken. kRestart: the search has just started a
// new epoch (a restart after a stall, or the opening's next probe).
enum class ProgressEvent { kStart, kImproved, kBound, kHeartbeat, kDone, kRestart };
// "start", "improved", "bound", "heartbeat", "done", "restart": the package's names.
const char* event_name(ProgressEvent e);

// A snapshot of the search, handed to the progress callback.
struct Progress {
  double elapsed_seconds = 0;
  bool has_solution = false;
  bool feasible = false;
  Int128 best_cost = 0;        // exact cost of the best assignment so far
  bool has_lower_bound = false;
  Int128 lower_bound = 0;      // proven: no assignment within the limit costs less
  int64_t iterations = 0;
  // The search's epoch: 0 until its first restart, one more at each (every
  // snapshot carries it, so a client that polls the latest snapshot and
  // misses a kRestart still sees the epoch change), and when it began.
  int epoch = 0;
  double epoch_began_seconds = 0;
  ProgressEvent event = ProgressEvent::kStart;
};

struct SolveOptions {
  double time_limit_seconds = 10;
  int threads = 0;               // 0: all hardware threads
  uint64_t seed = 1;
  // Stop after this many search rounds per thread (0: only the time limit). With
  // a fixed seed, a round budget gives the same answer every run, with any
  // number of threads (they keep step: lockstep.h), unless the time limit
  // ends the solve first.
  int64_t max_rounds = 0;
  const std::atomic<bool>* stop = nullptr;  // set to true to stop early
  // Called (serialised, from solver threads) on every improvement and bound,
  // and at least every `heartbeat_seconds`.
  std::function<void(const Progress&)> on_progress;
  double heartbeat_seconds = 0.25;
  // A warm start: one strategy per node (checked: length and range). The
  // search starts from it, and the answer is never worse than it.
  std::vector<int32_t> start;
  // Solve at another usage limit than the file's (a device with more or less
  // memory; `has` false: none). Feasibility, the bounds and the answer's
  // evaluation are all judged against it. Unset: the file's.
  std::optional<UsageLimit> usage_limit;
  // End as soon as the reductions prove that nothing fits, instead of
  // searching on for the least-violating answer (whatever answer the solve
  // holds then is the result, possibly none). For callers with no use for
  // that answer: the sweep.
  bool end_when_proven_infeasible = false;
  // The search's tuned values (params.h); set them through set_param(), which
  // checks names and ranges.
  Params params;
};

// How a solve ended.
enum class Outcome {
  kOptimal,           // feasible, and the lower bound proves it optimal
  kFeasible,          // feasible; a better answer may exist
  kProvenInfeasible,  // the reductions showed that no assignment fits
  kNoFeasibleFound,   // none found in time (the least-violating one is the answer)
};

struct SolveResult {
  Status status;                  // not ok: the solver could not run (message says why)
  std::vector<int32_t> assignment;
  Evaluation evaluation;          // exact cost split, usage profile, feasibility
  bool feasible = false;          // within the limit and no forbidden entry
  bool has_lower_bound = false;
  Int128 lower_bound = 0;
  Outcome outcome = Outcome::kNoFeasibleFound;
  bool proven_infeasible() const { return outcome == Outcome::kProvenInfeasible; }
  bool proven_optimal() const { return outcome == Outcome::kOptimal; }
  double elapsed_seconds = 0;
  SolveStats stats;
  UsageLimit usage_limit;  // the limit the answer was judged against (the file's or the options')
};

// The most search threads a solve runs.
constexpr int kMaxThreads = 256;

// Solves within options.time_limit_seconds (a session run to the end).
SolveResult solve(const Problem& problem, const SolveOptions& options);

// A solve that can run in slices and resume where it stopped: the model, the
// reductions, the incumbent, every thread's prices, messages and rule weights
// are kept between run() calls. For callers that must give their thread back
// now and then (a browser's single-threaded Worker); solve() is one session.
// The time limit counts from construction; `problem` and the options' stop
// flag must outlive the session.
class SolveSession {
 public:
  SolveSession(const Problem& problem, const SolveOptions& options);
  ~SolveSession();
  SolveSession(const SolveSession&) = delete;
  SolveSession& operator=(const SolveSession&) = delete;
  // Not ok: the solve cannot run (a bad start, too many strategies).
  const Status& status() const;
  // Searches for up to `seconds` more; false once the solve is over (time
  // limit, stop flag, proof of optimality, round budget). Under a round
  // budget the slice ends between rounds, after one at least, so that the
  // answer does not depend on the slicing.
  bool run(double seconds);
  bool finished() const;
  // The best answer so far and the statistics; the final result once finished.
  SolveResult result();

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace iopddl
