// A solve's statistics, listed once. The lists drive the SolveStats fields,
// the counters the threads share, the package's JSON (and so its TypeScript
// type, checked against these names by a test), and the CLI's "# done" line.
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <vector>

#include "int128.h"
#include "mechanisms.h"

namespace iopddl {

// Counted by the search threads: X(field, JSON name, label in "# done", what).
#define IOPDDL_COUNTERS(X)                                                                                 \
  X(rounds, "rounds", "rounds", "outer search rounds, all threads")                                        \
  X(message_passes, "messagePasses", "message passes",                                                     \
    "message-passing iterations (a forward and a backward pass each), both roles")                         \
  X(windows, "windows", "windows", "neighbourhood moves tried (windows re-solved, ejections)")             \
  X(local_moves, "localMoves", "local moves", "accepted single-node and group moves")                      \
  X(repairs, "repairs", "repairs", "memory repairs run")                                                   \
  X(improvements, "improvements", "improvements", "new incumbents")                                        \
  X(meeting_wait_ms, "meetingWaitMs", "ms waited at meetings",                                            \
    "in lockstep (a round budget, several threads): the time threads waited for each other at the rounds' meetings, all threads")

// Facts of the model the search ran on, set once: X(field, JSON name, what).
#define IOPDDL_MODEL_FACTS(X)                                                                            \
  X(threads, "threads", "search threads")                                                                \
  X(strategies_total, "strategiesTotal", "strategies before the reductions")                             \
  X(strategies_removed, "strategiesRemoved", "strategies removed by the exact reductions")               \
  X(nodes_fixed, "nodesFixed", "nodes left with one strategy")                                           \
  X(tied_groups, "tiedGroups", "groups of nodes tied by bijective edges (tied_groups.h)")                \
  X(tied_nodes, "tiedNodes", "nodes in tied groups")                                                     \
  X(contracted_nodes, "contractedNodes", "nodes of the problem with each tied group contracted (0: none)")

enum class Counter : int {
#define IOPDDL_COUNTER_ENUM(field, json, label, what) field,
  IOPDDL_COUNTERS(IOPDDL_COUNTER_ENUM)
#undef IOPDDL_COUNTER_ENUM
      kCount
};
constexpr int kCounterCount = int(Counter::kCount);

struct StatInfo {
  const char* json;
  const char* label;  // counters only
  const char* what;
};
constexpr StatInfo kCounterInfo[kCounterCount] = {
#define IOPDDL_COUNTER_INFO(field, json, label, what) {json, label, what},
    IOPDDL_COUNTERS(IOPDDL_COUNTER_INFO)
#undef IOPDDL_COUNTER_INFO
};

struct ImprovementPoint {
  double seconds;
  Int128 cost;
  bool feasible;
};

// A new epoch (a restart): when it began, why, and the epoch it ended. The
// timeline shows whether restarts cut an epoch off while it was still
// falling (its last counted fall close to the restart) or after a long stall.
struct EpochStart {
  double seconds = 0;          // when the new epoch began
  int epoch = 0;               // its number (the first epoch is 0 and has no record)
  bool opening = false;        // ended on the opening's clock (probe_epochs), not by a stall
  double ended_from = 0;       // when the ended epoch began
  double ended_last_fall = 0;  // its best's last counted fall (restart_min_fall), or its start
  bool ended_has_best = false;
  Int128 ended_best_cost = 0;  // its best within the limit (when it has one), as the search's double held it
};

struct SolveStats {
#define IOPDDL_STAT_FIELD(field, ...) int64_t field = 0;
  IOPDDL_COUNTERS(IOPDDL_STAT_FIELD)
  IOPDDL_MODEL_FACTS(IOPDDL_STAT_FIELD)
#undef IOPDDL_STAT_FIELD
  double reduce_seconds = 0;
  MechanismCounts mechanisms{};       // per mechanism (mechanisms.h): tried, improved
  double first_feasible_seconds = -1;  // -1: no feasible answer found
  std::vector<ImprovementPoint> history;
  std::vector<EpochStart> epochs;      // every restart, in order

  // The counters in the list's order.
  int64_t counter(Counter c) const {
    switch (c) {
#define IOPDDL_COUNTER_GET(field, ...) \
  case Counter::field:                 \
    return field;
      IOPDDL_COUNTERS(IOPDDL_COUNTER_GET)
#undef IOPDDL_COUNTER_GET
      default:
        return 0;
    }
  }
  void set_counter(Counter c, int64_t v) {
    switch (c) {
#define IOPDDL_COUNTER_SET(field, ...) \
  case Counter::field:                 \
    field = v;                         \
    break;
      IOPDDL_COUNTERS(IOPDDL_COUNTER_SET)
#undef IOPDDL_COUNTER_SET
      default:
        break;
    }
  }
};

// The threads' shared counters.
using SharedCounters = std::array<std::atomic<int64_t>, kCounterCount>;

}  // namespace iopddl
