// Merging two threads' answers. Every thread searches from its own copy of
// the epoch's best, and their improvements mostly lie far apart (a window
// here, a window there). When another thread's best is ahead, the moves this
// thread made since the two last met are carried over to it, the result is
// made to fit and polished around the nodes carried, and it is kept when it
// beats both; so threads add their work up instead of the cheapest one's
// wiping out the others'.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace iopddl {

// *merged = theirs, with mine's strategy at every node where mine moved away
// from `met` (where they last met) and theirs does not already have it;
// *carried lists those nodes. All three vectors have one entry per node.
void carry_over(const std::vector<int32_t>& theirs, const std::vector<int32_t>& met, const std::vector<int32_t>& mine,
                std::vector<int32_t>* merged, std::vector<int32_t>* carried);

}  // namespace iopddl
