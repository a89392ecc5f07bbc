// The search's form of the edge costs: doubles, with every forbidden entry
// (>= 10^17) at one large finite value. The loader stores the matrices in this
// form whenever that loses nothing, so the search reads them where they are
// instead of keeping a second copy (on the largest contest files that copy was
// about half as large as the file).
#pragma once
#include "problem.h"

namespace iopddl {

// What a forbidden entry costs in the search: more than every finite entry
// together (1 + the sum of each node's and each edge's largest finite cost), so
// fewer forbidden entries always wins, yet at most 10^15, so that doubles keep
// the finite part exact and messages stay meaningful.
double forbidden_cost_for_search(const Problem& p);

// Rewrites the edge matrices in place into the search's form when every finite
// entry is exact as a double and below the forbidden cost, and every forbidden
// entry has the same value (10^18 in every contest file); otherwise leaves them
// as integers. Either way Problem::edge_entry() gives the input's integers
// back. Returns whether the matrices are now in the search's form.
bool store_edges_for_search(Problem* p);

}  // namespace iopddl
