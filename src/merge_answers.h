// Merging two threads' answers. Every thread searches from its own copy of
// the epoch's best, and their improvements mostly lie far apart (a window
// here, a window there). When another thread's best is ahead, the moves this
// thread made since the two last met are carried over to it, the result is
// made to fit and polished around the nodes carried, and it is kept when it
// beats both; so threads add their work up instead of the cheapest one's
// wiping out the others'.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "local_search.h"
#include "rng.h"
#include "search_state.h"

namespace iopddl {

// *merged = theirs, with mine's strategy at every node where mine moved away
// from `met` (where they last met) and theirs does not already have it;
// *carried lists those nodes. All three vectors have one entry per node.
void carry_over(const std::vector<int32_t>& theirs, const std::vector<int32_t>& met, const std::vector<int32_t>& mine,
                std::vector<int32_t>* merged, std::vector<int32_t>* carried);

struct SettleStats {
  bool repaired = false;  // it was over the limit and repair ran
  int64_t local_moves = 0;
};

// Sets *st to `merged`, repairs it when it is over the limit, and descends
// from the carried nodes (the rest of both answers was polished already);
// st->cost is recomputed exactly.
SettleStats settle_merged(const SearchModel& m, const std::vector<int32_t>& merged,
                          const std::vector<int32_t>& carried, LocalSearch* ls, Rng* rng,
                          const std::function<bool()>& stop, SearchState* st);

}  // namespace iopddl
