// The search's mechanisms, listed once: each counts how often it was tried
// and how often it improved what it worked on, so a run shows which
// mechanism earns its time on an instance. The list drives the counters the
// threads share, the result's statistics, the CLI's --stats table and the
// package's JSON.
#pragma once
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>

namespace iopddl {

// X(identifier, JSON / CLI name, what it counts)
#define IOPDDL_MECHANISMS(X)                                                                          \
  X(kGroupMove, "groupMove", "tied group set whole to another choice (tried: groups evaluated)")    \
  X(kPenalisedRounding, "penalisedRounding", "rounding of message passing on the priced problem")   \
  X(kEliminationBeliefs, "eliminationBeliefs", "global elimination, decisions by min-sum beliefs")  \
  X(kEliminationRounding, "eliminationRounding", "global elimination, decisions by the rounding")   \
  X(kEliminationBest, "eliminationBest", "global elimination, decisions near the best answer")      \
  X(kEliminationUnpriced, "eliminationUnpriced", "global elimination, rounding without the prices") \
  X(kConnectedWindow, "connectedWindow", "neighbourhood: connected window re-solved")               \
  X(kTimeWindow, "timeWindow", "neighbourhood: nodes alive at one moment re-solved")               \
  X(kEjection, "ejection", "neighbourhood: one node or group ejected, overflow repaired")          \
  X(kTradeWindow, "tradeWindow", "neighbourhood: connected window whose priced nodes trade memory")   \
  X(kRepairWindow, "repairWindow", "neighbourhood: priced window solved over the limit, overflow repaired") \
  X(kPartWindow, "partWindow",                                                                        \
    "neighbourhood: a part where a rounding or an elimination differs from the best, re-solved under prices per time segment, overflow repaired") \
  X(kPartCrossover, "partCrossover",                                                                  \
    "a rounding's or an elimination's connected parts of change that make the best cheaper, traded at the peak until it fits") \
  X(kEpochCrossover, "epochCrossover",                                                                \
    "after a restart, the epoch's best crossed into the ended epochs' best (improved: that got cheaper)") \
  X(kMerge, "merge",                                                                                  \
    "another thread's better best with this thread's changes since they last met (improved: cheaper than both)") \
  X(kRestart, "restart", "search restarted after a stall (improved: epochs that found a new best)")    \
  X(kRoundingRefresh, "roundingRefresh",                                                              \
    "a rounding's prices started afresh after the thread's best stalled, the best kept (improved: followed by a counted fall)") \
  X(kProofSearch, "proofSearch", "branch and bound towards a proof (tried: bound steps and leaves; improved: better answers)")

enum class Mechanism : int {
#define IOPDDL_ENUM(id, name, what) id,
  IOPDDL_MECHANISMS(IOPDDL_ENUM)
#undef IOPDDL_ENUM
      kCount
};
constexpr int kMechanismCount = int(Mechanism::kCount);

struct MechanismInfo {
  const char* name;
  const char* what;
};
constexpr MechanismInfo kMechanismInfo[kMechanismCount] = {
#define IOPDDL_INFO(id, name, what) {name, what},
    IOPDDL_MECHANISMS(IOPDDL_INFO)
#undef IOPDDL_INFO
};

struct MechanismCount {
  int64_t tried = 0;
  int64_t improved = 0;
  int64_t micros = 0;  // time spent in it (not measured for group moves: too many, too short)
  int64_t fall = 0;    // the fall in cost it produced in what it worked on (saturating)
};
using MechanismCounts = std::array<MechanismCount, kMechanismCount>;

inline MechanismCount& at(MechanismCounts& c, Mechanism m) { return c[int(m)]; }

// Adds the fall from cost `from` to cost `to` (from > to), saturating: a
// first answer can fall from forbidden costs near 10^18.
inline void add_fall(MechanismCount* c, double from, double to) {
  constexpr double kCap = 4e18;
  if (!(from > to)) return;
  const double sum = double(c->fall) + std::min(from - to, kCap);
  c->fall = sum >= kCap ? int64_t(kCap) : int64_t(sum);
}

// Mechanism k's share of the time all mechanisms took (0 when none was timed).
inline double time_share(const MechanismCounts& c, int k) {
  int64_t total = 0;
  for (const MechanismCount& x : c) total += x.micros;
  return total > 0 ? double(c[k].micros) / double(total) : 0.0;
}
// Its fall in cost per second of its time (0 when it was not timed).
inline double fall_per_second(const MechanismCount& c) {
  return c.micros > 0 ? double(c.fall) / (double(c.micros) / 1e6) : 0.0;
}

// Adds the time from construction to destruction to a mechanism's count.
class MechanismTimer {
 public:
  explicit MechanismTimer(MechanismCount* c) : c_(c), t0_(std::chrono::steady_clock::now()) {}
  ~MechanismTimer() {
    if (c_)
      c_->micros += std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0_).count();
  }
  MechanismTimer(const MechanismTimer&) = delete;
  MechanismTimer& operator=(const MechanismTimer&) = delete;

 private:
  MechanismCount* c_;
  std::chrono::steady_clock::time_point t0_;
};

}  // namespace iopddl
