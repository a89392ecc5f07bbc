// The solver's API: options in, a result out. Clients (CLI, Embind, tests) use
// nothing else. Nothing here prints; progress goes through a callback.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "evaluate.h"
#include "int128.h"
#include "mechanisms.h"
#include "params.h"
#include "problem.h"
#include "status.h"

namespace iopddl {

// A snapshot of the search, handed to the progress callback.
struct Progress {
  double elapsed_seconds = 0;
  bool has_solution = false;
  bool feasible = false;
  Int128 best_cost = 0;        // exact cost of the best assignment so far
  bool has_lower_bound = false;
  Int128 lower_bound = 0;      // proven: no assignment within the limit costs less
  int64_t iterations = 0;
  const char* event = "";      // "start", "improved", "bound", "heartbeat", "done"
};

struct SolveOptions {
  double time_limit_seconds = 10;
  int threads = 0;               // 0: all hardware threads
  uint64_t seed = 1;
  // Stop after this many search rounds per thread (0: only the time limit). With
  // one thread and a fixed seed, a round budget gives the same answer every run.
  int64_t max_rounds = 0;
  const std::atomic<bool>* stop = nullptr;  // set to true to stop early
  // Called (serialised, from solver threads) on every improvement and bound,
  // and at least every `heartbeat_seconds`.
  std::function<void(const Progress&)> on_progress;
  double heartbeat_seconds = 0.25;
  // A warm start: one strategy per node (checked: length and range). The
  // search starts from it, and the answer is never worse than it.
  std::vector<int32_t> start;
  // The search's tuned values (params.h); set them through set_param(), which
  // checks names and ranges.
  Params params;
};

struct ImprovementPoint {
  double seconds;
  Int128 cost;
  bool feasible;
};

struct SolveStats {
  int threads = 0;
  int64_t rounds = 0;               // outer rounds, all threads
  int64_t message_passes = 0;        // message-passing iterations, both roles (forward + backward pass each)
  int64_t windows = 0;              // large-neighbourhood windows solved by elimination
  int64_t local_moves = 0;          // accepted single-node moves
  int64_t repairs = 0;              // memory repairs run
  int64_t improvements = 0;         // new incumbents
  int64_t strategies_total = 0;     // before reductions
  int64_t strategies_removed = 0;   // by the exact domain reductions
  int64_t nodes_fixed = 0;          // nodes left with one strategy
  double reduce_seconds = 0;
  int64_t tied_groups = 0;          // groups of nodes tied by bijective edges (tied_groups.h)
  int64_t tied_nodes = 0;           // nodes in them
  int64_t contracted_nodes = 0;     // nodes of the problem with each group contracted (0: none tied)
  MechanismCounts mechanisms{};     // per mechanism (mechanisms.h): tried, improved
  double first_feasible_seconds = -1;
  std::vector<ImprovementPoint> history;
};

struct SolveResult {
  Status status;                  // not ok: the solver could not run (message says why)
  std::vector<int32_t> assignment;
  Evaluation evaluation;          // exact cost split, usage profile, feasibility
  bool feasible = false;          // within the limit and no forbidden entry
  bool has_lower_bound = false;
  Int128 lower_bound = 0;
  bool proven_infeasible = false; // the reductions showed no feasible assignment exists
  bool proven_optimal = false;    // feasible and equal to the lower bound
  double elapsed_seconds = 0;
  SolveStats stats;
};

SolveResult solve(const Problem& problem, const SolveOptions& options);

}  // namespace iopddl
