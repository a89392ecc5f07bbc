#include "tied_groups.h"

#include <algorithm>
#include <numeric>

#include "int128.h"

namespace iopddl {

namespace {

int find(std::vector<int32_t>& parent, int x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

// Whether every live strategy of each end of the edge allows exactly one live
// strategy of the other.
bool bijective(const SearchModel& m, int e) {
  const Problem& p = *m.p;
  const int u = p.edge_u[e], v = p.edge_v[e];
  const int Ku = m.dom_size(u), Kv = m.dom_size(v);
  if (u == v || Ku != Kv || Ku < 2) return false;
  std::vector<int> col(Kv, 0);
  for (int j = 0; j < Ku; ++j) {
    int row = 0;
    for (int k = 0; k < Kv; ++k)
      if (p.edge_entry(e, m.domain(u)[j], m.domain(v)[k]) < kForbiddenThreshold) {
        ++row;
        ++col[k];
      }
    if (row != 1) return false;
  }
  return std::all_of(col.begin(), col.end(), [](int c) { return c == 1; });
}

// The one live strategy of `to` allowed with `from` at strategy `s` along the
// incidence (a bijective edge).
int32_t partner(const SearchModel& m, const Incidence& a, int s) {
  const int o = a.other;
  for (int k = 0; k < m.dom_size(o); ++k) {
    const int t = m.domain(o)[k];
    if (m.pair_raw(a, s, t) < kForbiddenThreshold) return t;
  }
  return -1;
}

}  // namespace

void TiedGroups::build(const SearchModel& m) {
  const Problem& p = *m.p;
  std::vector<char> tie(p.num_edges(), 0);
  std::vector<int32_t> parent(m.n);
  std::iota(parent.begin(), parent.end(), 0);
  for (int e = 0; e < p.num_edges(); ++e)
    if (bijective(m, e)) {
      tie[e] = 1;
      parent[find(parent, p.edge_u[e])] = find(parent, p.edge_v[e]);
    }
  std::vector<int32_t> count(m.n, 0);
  for (int i = 0; i < m.n; ++i) ++count[find(parent, i)];

  member_off_.assign(1, 0);
  members_.clear();
  choices_.clear();
  table_off_.assign(1, 0);
  table_.clear();
  group_of_.assign(m.n, -1);
  position_.assign(m.n, -1);
  // Groups in order of their lowest-numbered node, each rooted there and laid
  // out breadth-first along its ties.
  std::vector<int32_t> strat;  // per member: its strategy under the choice being traced
  for (int r = 0; r < m.n; ++r) {
    if (count[find(parent, r)] < 2 || group_of_[r] >= 0) continue;
    const int g = size();
    const uint32_t first = uint32_t(members_.size());
    group_of_[r] = g;
    position_[r] = 0;
    members_.push_back(r);
    for (size_t head = first; head < members_.size(); ++head) {
      const int x = members_[head];
      for (uint32_t a = m.adj_off[x]; a < m.adj_off[x + 1]; ++a) {
        const int o = m.adj[a].other;
        if (!tie[m.adj[a].edge] || group_of_[o] >= 0) continue;
        group_of_[o] = g;
        position_[o] = int32_t(members_.size() - first);
        members_.push_back(o);
      }
    }
    const int count_g = int(members_.size() - first);
    const int K = m.dom_size(r);
    member_off_.push_back(uint32_t(members_.size()));
    choices_.push_back(K);
    table_.resize(table_off_.back() + uint64_t(count_g) * K, -1);
    int32_t* T = table_.data() + table_off_.back();
    table_off_.push_back(table_off_.back() + uint64_t(count_g) * K);
    // Trace each choice of the root along the ties; a member reached twice
    // with two strategies makes the choice inconsistent.
    strat.assign(count_g, -1);
    for (int c = 0; c < K; ++c) {
      std::fill(strat.begin(), strat.end(), -1);
      strat[0] = m.domain(r)[c];
      bool ok = true;
      for (int k = 0; k < count_g && ok; ++k) {
        const int x = members_[first + k];
        for (uint32_t a = m.adj_off[x]; a < m.adj_off[x + 1] && ok; ++a) {
          if (!tie[m.adj[a].edge]) continue;
          const int32_t t = partner(m, m.adj[a], strat[k]);
          int32_t& slot = strat[position_[m.adj[a].other]];
          if (t < 0 || (slot >= 0 && slot != t)) ok = false;
          else slot = t;
        }
      }
      if (!ok) continue;
      for (int k = 0; k < count_g; ++k) T[uint64_t(k) * K + c] = strat[k];
    }
  }
}

}  // namespace iopddl
