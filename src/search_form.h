// The search's form of the edge costs: doubles, with every forbidden entry
// (>= 10^17) at one large finite value. The loader stores the matrices in this
// form whenever that loses nothing, so the search reads them where they are
// instead of keeping a second copy (on the largest contest files that copy was
// about half as large as the file).
#pragma once
#include <cstdint>
#include <vector>

#include "problem.h"

namespace iopddl {

// What a forbidden entry costs in the search: more than every finite entry
// together (1 + the sum of each node's and each edge's largest finite cost), so
// fewer forbidden entries always wins, yet at most 10^15, so that doubles keep
// the finite part exact and messages stay meaningful. For matrices already in
// the search's form, the value they were stored with.
double forbidden_cost_for_search(const Problem& p);

// What the rewrite below needs to know of the matrices, gathered row by row
// (the loader adds each row as it ends, while the row is still in cache, which
// saves a pass over the matrices, which is felt on the largest files).
struct EdgeCostSummary {
  std::vector<int64_t> edge_max;  // per edge in order: its largest finite entry (0 if none)
  int64_t forbidden_min = INT64_MAX, forbidden_max = INT64_MIN;
  int64_t finite_max = 0, finite_min = 0;
  void add_row(const int64_t* row, uint64_t len);
  bool seen_forbidden() const { return forbidden_min <= forbidden_max; }
};

// Rewrites the edge matrices in place into the search's form when every finite
// entry is exact as a double and below the forbidden cost, and every forbidden
// entry has the same value (10^18 in every contest file); otherwise leaves them
// as integers. Either way Problem::edge_entry() gives the input's integers
// back. Returns whether the matrices are now in the search's form.
// `summary`, when given, must cover every edge in order.
bool store_edges_for_search(Problem* p, const EdgeCostSummary* summary = nullptr);

}  // namespace iopddl
