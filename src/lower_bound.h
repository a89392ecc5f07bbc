// Proven lower bounds on the optimum over feasible, forbidden-free assignments.
#pragma once
#include "int128.h"
#include "search_model.h"

namespace iopddl {

// Splits every edge between its two ends: each node pays half of its best
// partner entry on every incident edge, minimised over its live strategies.
// Exact in 128-bit arithmetic. Valid because the live domains (after the exact
// reductions) contain every feasible assignment.
Int128 half_edge_bound(const SearchModel& m);

}  // namespace iopddl
