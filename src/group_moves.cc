#include "group_moves.h"

#include <algorithm>
#include <limits>

namespace iopddl {

void GroupMoves::init(const SearchModel& m, const TiedGroups* groups) {
  m_ = &m;
  groups_ = groups;
}

void GroupMoves::deltas(const SearchState& st, int g, std::vector<double>* delta,
                        std::vector<char>* raises) const {
  const SearchModel& m = *m_;
  const TiedGroups& G = *groups_;
  const int K = G.choices(g), count = G.member_count(g);
  const int32_t* mem = G.members(g);
  delta->assign(K, 0.0);
  raises->assign(K, 0);
  double* d = delta->data();
  const double inf = std::numeric_limits<double>::infinity();
  for (int k = 0; k < count; ++k) {
    const int x = mem[k], cur = st.s[x];
    const double base = m.node_cost(x, cur);
    const int64_t use = m.usage(x, cur);
    const bool timed = m.has_interval(x);
    for (int c = 0; c < K; ++c) {
      const int32_t t = G.strategy(g, k, c);
      if (t < 0) { d[c] = inf; continue; }
      d[c] += m.node_cost(x, t) - base;
      if (timed && m.usage(x, t) > use) (*raises)[c] = 1;
    }
    for (uint32_t a = m.adj_off[x]; a < m.adj_off[x + 1]; ++a) {
      const Incidence& inc = m.adj[a];
      const int o = inc.other, so = st.s[o];
      const double now = m.pair_cost(inc, cur, so);
      if (G.group_of(o) == g) {
        if (!inc.self_is_u) continue;  // counted once, from the row end
        const int ko = G.position(o);
        for (int c = 0; c < K; ++c) {
          const int32_t t = G.strategy(g, k, c), to = G.strategy(g, ko, c);
          if (t >= 0 && to >= 0) d[c] += m.pair_cost(inc, t, to) - now;
        }
      } else {
        const SearchModel::PairLine line = m.pair_line(inc, so);
        for (int c = 0; c < K; ++c) {
          const int32_t t = G.strategy(g, k, c);
          if (t >= 0) d[c] += (line.ptr ? line.ptr[uint64_t(t) * line.stride] : m.pair_cost(inc, t, so)) - now;
        }
      }
    }
  }
}

void GroupMoves::apply(SearchState* st, int g, int c, double delta, std::vector<std::pair<int, int>>* log) const {
  const TiedGroups& G = *groups_;
  const int32_t* mem = G.members(g);
  for (int k = 0; k < G.member_count(g); ++k) {
    const int x = mem[k], t = G.strategy(g, k, c);
    if (st->s[x] == t) continue;
    if (log) log->push_back({x, st->s[x]});
    st->apply(x, t, 0.0);
  }
  st->cost += delta;
}

void GroupMoves::enqueue_around(int x) {
  const SearchModel& m = *m_;
  const auto push = [&](int g) {
    if (g >= 0 && !queued_[g]) { queued_[g] = 1; queue_.push_back(g); }
  };
  push(groups_->group_of(x));
  for (uint32_t a = m.adj_off[x]; a < m.adj_off[x + 1]; ++a) push(groups_->group_of(m.adj[a].other));
}

int64_t GroupMoves::descend(SearchState* st, Rng* rng, const std::function<bool()>& should_stop,
                            std::vector<std::pair<int, int>>* moved, const std::vector<int32_t>* seeds) {
  if (!active()) return 0;
  const int groups = groups_->size();
  queued_.assign(groups, 0);
  queue_.clear();
  if (seeds) {
    for (int x : *seeds) enqueue_around(x);
  } else {
    for (int g = 0; g < groups; ++g) { queue_.push_back(g); queued_[g] = 1; }
  }
  for (size_t k = queue_.size(); k > 1; --k) std::swap(queue_[k - 1], queue_[rng->below(uint32_t(k))]);
  std::vector<std::pair<int, int>> undo;
  int64_t moves = 0;
  for (size_t head = 0; head < queue_.size(); ++head) {
    if (should_stop()) return moves;
    const int g = queue_[head];
    queued_[g] = 0;
    deltas(*st, g, &delta_, &raises_);
    if (counts) ++counts->tried;
    const bool fits = st->within_limit();
    // Candidates by cost change, best first; the first that fits is taken.
    rank_.clear();
    const double eps = 1e-9 * std::max(1.0, std::abs(st->cost));
    for (int c = 0; c < int(delta_.size()); ++c)
      if (delta_[c] < -eps && (fits || !raises_[c])) rank_.push_back(c);
    // Ties by index: std::sort's order among equals differs between standard
    // libraries, and the package (libc++) must take the CLI's (libstdc++) path.
    std::sort(rank_.begin(), rank_.end(),
              [&](int a, int b) { return delta_[a] != delta_[b] ? delta_[a] < delta_[b] : a < b; });
    for (int c : rank_) {
      undo.clear();
      apply(st, g, c, delta_[c], &undo);
      if (!raises_[c] || st->within_limit()) {
        if (moved) moved->insert(moved->end(), undo.begin(), undo.end());
        ++moves;
        if (counts) ++counts->improved;
        // The groups whose deltas this move changed: those next to a member that moved.
        for (const auto& u : undo) enqueue_around(u.first);
        break;
      }
      for (size_t k = undo.size(); k-- > 0;) st->apply(undo[k].first, undo[k].second, 0.0);
      st->cost -= delta_[c];
    }
    // Keep the list from growing without bound on long descents.
    if (head > (1u << 20) && head * 2 > queue_.size()) {
      queue_.erase(queue_.begin(), queue_.begin() + head + 1);
      head = size_t(-1);
    }
  }
  return moves;
}

}  // namespace iopddl
