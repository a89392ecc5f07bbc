// Group moves: a tied group (tied_groups.h) set as a whole to another of its
// choices, every member at once. The move's cost change is computed without
// touching the state (edges inside the group change at both ends, edges
// leaving it at one); memory is checked by applying the move and undoing it if
// the usage no longer fits.
#pragma once
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "mechanisms.h"
#include "rng.h"
#include "search_state.h"
#include "tied_groups.h"

namespace iopddl {

class GroupMoves {
 public:
  void init(const SearchModel& m, const TiedGroups* groups);
  bool active() const { return groups_ && groups_->size() > 0; }
  // Best-improvement group moves over a work list: every group in random
  // order (or, with `seeds`, the groups of those nodes and of their
  // neighbours), then each group next to one that moved, until the list is
  // empty. A state within the limit stays within it; one over the limit only
  // takes moves that raise no member's usage. Every member moved is appended
  // to *moved (when given) as (node, previous strategy).
  int64_t descend(SearchState* st, Rng* rng, const std::function<bool()>& should_stop,
                  std::vector<std::pair<int, int>>* moved = nullptr, const std::vector<int32_t>* seeds = nullptr);
  // The cost change of each choice of group g into *delta (+inf for a choice
  // that cannot be taken), and whether it raises some member's usage.
  void deltas(const SearchState& st, int g, std::vector<double>* delta, std::vector<char>* raises) const;
  // Sets group g to choice c, whose cost change is `delta`; appends the
  // members' previous strategies to *log when given.
  void apply(SearchState* st, int g, int c, double delta, std::vector<std::pair<int, int>>* log) const;
  const TiedGroups* groups() const { return groups_; }
  // Where group moves are counted (tried: groups evaluated; improved: moves
  // made), when set.
  MechanismCount* counts = nullptr;

 private:
  const SearchModel* m_ = nullptr;
  const TiedGroups* groups_ = nullptr;
  std::vector<double> delta_;
  std::vector<char> raises_;
  std::vector<int32_t> queue_, rank_;
  std::vector<char> queued_;
  void enqueue_around(int x);  // x's group and its neighbours' groups, when not queued
};

}  // namespace iopddl
