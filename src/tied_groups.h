// Tied groups: nodes joined by edges that allow exactly one partner for each
// live strategy on either side (a bijection between the two live domains, as
// when a tensor keeps its sharding from one operator to the next). Without a
// forbidden entry, one node's strategy fixes every other's in its group, so a
// group is one variable with several intervals. Single-node moves cannot
// change such a variable: each one breaks a tie. A group move sets every
// member at once to the strategies that one choice of the group implies.
//
// Groups come from the graph alone (union-find over the bijective edges), so
// they do not depend on how the nodes are numbered.
#pragma once
#include <cstdint>
#include <vector>

#include "search_model.h"

namespace iopddl {

class TiedGroups {
 public:
  // Finds the groups over the model's live domains; only groups of two or
  // more nodes are kept.
  void build(const SearchModel& m);
  int size() const { return int(member_off_.size()) - 1; }
  // Members of group g (the first is the group's root).
  const int32_t* members(int g) const { return members_.data() + member_off_[g]; }
  int member_count(int g) const { return int(member_off_[g + 1] - member_off_[g]); }
  // The group's choices: one per live strategy of the root.
  int choices(int g) const { return choices_[g]; }
  // Member k's strategy (original index) under choice c, or -1 when that
  // choice forces a forbidden pair inside the group (the ties disagree around
  // a cycle).
  int32_t strategy(int g, int k, int c) const {
    return table_[table_off_[g] + uint64_t(k) * choices_[g] + c];
  }
  // The group of node i and its position among the members; -1 if none.
  int group_of(int i) const { return group_of_.empty() ? -1 : group_of_[i]; }
  int position(int i) const { return position_[i]; }
  int64_t tied_nodes() const { return int64_t(members_.size()); }

 private:
  std::vector<uint32_t> member_off_{0};
  std::vector<int32_t> members_;
  std::vector<int32_t> choices_;
  std::vector<uint64_t> table_off_{0};
  std::vector<int32_t> table_;
  std::vector<int32_t> group_of_, position_;
};

}  // namespace iopddl
