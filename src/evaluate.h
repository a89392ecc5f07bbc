// The contest's objective and constraint for any assignment, in exact 128-bit
// arithmetic: the one source of truth for costs reported anywhere.
#pragma once
#include <cstdint>
#include <vector>

#include "int128.h"
#include "problem.h"
#include "status.h"

namespace iopddl {

struct Evaluation {
  Status status;                 // not ok: wrong length or a strategy out of range
  Int128 node_cost = 0, edge_cost = 0, total_cost = 0;
  int64_t forbidden_entries = 0;  // chosen node/edge entries >= 10^18
  Int128 peak_usage = 0;
  int64_t peak_time = 0;          // first time point where the peak is reached
  int32_t peak_segment = -1;
  bool within_limit = true;
  bool feasible() const { return status.ok && within_limit && forbidden_entries == 0; }
  // Usage per compressed segment: usage[k] holds on [time_point[k], time_point[k+1]).
  std::vector<Int128> usage;
};

Evaluation evaluate(const Problem& p, const std::vector<int32_t>& assignment);
// The same against another limit than the file's (within_limit is judged by it).
Evaluation evaluate(const Problem& p, const std::vector<int32_t>& assignment, const UsageLimit& limit);

// The least peak usage any assignment has, forbidden entries aside: every
// node at its least usage (a node's usage is constant over its interval, so
// that minimises every moment at once). A limit below it has no answer.
Int128 least_peak_usage(const Problem& p);
// That assignment: each node's first strategy of least usage.
std::vector<int32_t> least_usage_plan(const Problem& p);

}  // namespace iopddl
