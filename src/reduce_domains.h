// Exact domain reductions: remove strategies that no feasible, forbidden-free
// assignment can use, strategies that only repeat a cheaper one of the same
// node (same usage, same entries on every edge), and strategies that another
// of the same node dominates (no more memory, and never dearer whatever the
// neighbours choose). An optimal answer always survives, so nothing needs
// undoing: the search runs on the live strategies with their original indices.
#pragma once
#include <functional>
#include <cstdint>

#include "search_model.h"

namespace iopddl {

struct ReduceStats {
  int64_t removed_forbidden_node = 0;  // strategy cost is forbidden
  int64_t removed_arc = 0;             // no allowed partner on some edge
  int64_t removed_memory = 0;          // cannot fit even with every other node at its minimum
  int64_t removed_repeat = 0;          // repeats a cheaper strategy of its node (usage and every edge entry)
  int64_t removed_dominated = 0;       // another strategy of its node is never dearer and uses no more memory
  int64_t nodes_fixed = 0;             // nodes left with one strategy
  bool wiped_out = false;              // a domain emptied: no feasible assignment exists
};

// Shrinks model->dom to a fixpoint, then builds the model's edge matrices over
// the domains left (on every path out, so the search can start). On a wipe-out
// the full domains are restored (so the search can still return the
// least-violating answer) and wiped_out is set.
// `should_stop` (optional) cuts the fixpoint short; what was removed until then stays removed.
ReduceStats reduce_domains(SearchModel* model, const std::function<bool()>* should_stop = nullptr);

}  // namespace iopddl
