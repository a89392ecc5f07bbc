#include "hub_flips.h"

#include <algorithm>

namespace iopddl {

void HubFlips::init(const SearchModel& m, const TiedGroups* groups, int count) {
  hubs_.clear();
  hub_ = 0;
  pos_ = 0;
  positions_ = 0;
  if (count <= 0) return;
  std::vector<int32_t> rank(m.n, 0);
  for (int k = 0; k < int(m.order.size()); ++k) rank[m.order[k]] = k;
  std::vector<int32_t> nodes;
  for (int i = 0; i < m.n; ++i)
    if (m.dom_size(i) > 1) nodes.push_back(i);
  const auto degree = [&](int i) { return m.adj_off[i + 1] - m.adj_off[i]; };
  std::sort(nodes.begin(), nodes.end(), [&](int a, int b) {
    return degree(a) != degree(b) ? degree(a) > degree(b) : rank[a] < rank[b];
  });
  std::vector<char> group_taken(groups ? size_t(groups->size()) : 0, 0);
  for (int i : nodes) {
    if (int(hubs_.size()) >= count) break;
    const int g = groups ? groups->group_of(i) : -1;
    if (g >= 0) {
      if (group_taken[g]) continue;
      group_taken[g] = 1;
    }
    hubs_.push_back(i);
    positions_ += size_t(m.dom_size(i));
  }
}

bool HubFlips::next(const SearchModel& m, const std::vector<int32_t>& best, int* node, int32_t* strategy) {
  // At most one full turn: every hub, every strategy.
  for (size_t left = positions_; left > 0; --left) {
    const int h = hubs_[hub_];
    const int32_t s = m.domain(h)[pos_];
    if (++pos_ >= m.dom_size(h)) {
      pos_ = 0;
      hub_ = (hub_ + 1) % hubs_.size();
    }
    if (s != best[h]) {
      *node = h;
      *strategy = s;
      return true;
    }
  }
  return false;
}

}  // namespace iopddl
