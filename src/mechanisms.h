// The search's mechanisms, listed once: each counts how often it was tried
// and how often it improved what it worked on, so a run shows which
// mechanism earns its time on an instance. The list drives the counters the
// threads share, the result's statistics, the CLI's --stats table and the
// package's JSON.
#pragma once
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
  X(kRestart, "restart", "search restarted after a stall (improved: new bests from later epochs)")    \
  X(kProofSearch, "proofSearch", "branch and bound towards a proof (tried: tree nodes; improved: better answers)")

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
};
using MechanismCounts = std::array<MechanismCount, kMechanismCount>;

inline MechanismCount& at(MechanismCounts& c, Mechanism m) { return c[int(m)]; }

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
