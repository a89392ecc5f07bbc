// Hub flips: the nodes of highest degree (one per tied group), each set in
// turn to each of its other strategies, for a global elimination that keeps
// the best answer's decisions elsewhere (step_elimination.cc). The answer is
// the best one given that hub's new strategy: every node the elimination
// solves exactly follows the hub.
//
// Why: on a memory-bound instance the better basin can lie one large change
// away, a change led by a few hubs whose new strategies pay only once a
// thousand nodes around them follow (docs/benchmarks.md). A window grown
// around a hub holds mostly nodes that do not move, and an elimination by
// beliefs or near the best moves a hub only by chance; going through the
// hubs in turn tries every such change, in every run.
#pragma once
#include <cstdint>
#include <vector>

#include "search_model.h"
#include "tied_groups.h"

namespace iopddl {

class HubFlips {
 public:
  // The `count` nodes of highest degree with more than one live strategy,
  // one per tied group; ties by the sweep order (from the graph, not the
  // numbering).
  void init(const SearchModel& m, const TiedGroups* groups, int count);
  bool empty() const { return hubs_.empty(); }
  // The next (hub, strategy) in turn whose strategy differs from `best`'s;
  // false when every hub has only best's strategy left (never, with two
  // strategies or more per hub).
  bool next(const SearchModel& m, const std::vector<int32_t>& best, int* node, int32_t* strategy);

 private:
  std::vector<int32_t> hubs_;
  size_t hub_ = 0;  // the cursor: hub, then position in its domain
  int pos_ = 0;
  size_t positions_ = 0;  // every hub's live strategies
};

}  // namespace iopddl
