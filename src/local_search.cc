#include "local_search.h"

#include <algorithm>
#include <cmath>

namespace iopddl {

void LocalSearch::init(const SearchModel& m, const TiedGroups* groups) {
  m_ = &m;
  group_moves_.init(m, groups);
  by_start_.clear();
  for (int i = 0; i < m.n; ++i)
    if (m.has_interval(i) && m.dom_size(i) > 1) by_start_.push_back(i);
  // Ties by index (std::sort's order among equals is the library's own).
  std::sort(by_start_.begin(), by_start_.end(), [&](int a, int b) {
    return m.p->seg_lo[a] != m.p->seg_lo[b] ? m.p->seg_lo[a] < m.p->seg_lo[b] : a < b;
  });
  queued_.assign(m.n, 0);
  alive_at_ = -1;
  alive_.clear();
  delta_cache_.assign(m.dom.size(), 0.0);
  node_at_.assign(m.n, 0);
  node_best_.assign(m.n, KeptBest{});
  changed_at_.assign(m.n, 0);
  moves_ = 0;
  repair_start_ = 0;
}

void LocalSearch::gather_alive(int t) {
  if (t == alive_at_) return;
  alive_.clear();
  for (int i : by_start_) {
    if (m_->p->seg_lo[i] > t) break;
    if (m_->p->seg_hi[i] > t) alive_.push_back(i);
  }
  alive_at_ = t;
}

void LocalSearch::moved(int i) {
  ++moves_;
  changed_at_[i] = moves_;
  for (uint32_t a = m_->adj_off[i]; a < m_->adj_off[i + 1]; ++a) changed_at_[m_->adj[a].other] = moves_;
}

int64_t LocalSearch::descend(SearchState* st, Rng* rng, const std::function<bool()>& should_stop) {
  std::vector<int32_t> all;
  all.reserve(m_->n);
  for (int i = 0; i < m_->n; ++i) all.push_back(i);
  int64_t moves = descend_from(st, all, rng, should_stop, nullptr);
  // Group moves (every group first), then single-node moves around what they
  // changed, then group moves around what those changed, until either finds
  // nothing.
  bool first = true;
  while (group_moves_.active() && !should_stop()) {
    group_moved_.clear();
    const int64_t g = group_moves_.descend(st, rng, should_stop, &group_moved_, first ? nullptr : &seeds_);
    first = false;
    if (g == 0) break;
    moves += g;
    seeds_.clear();
    for (auto& mv : group_moved_) seeds_.push_back(mv.first);
    group_moved_.clear();
    const int64_t single = descend_from(st, seeds_, rng, should_stop, &group_moved_);
    if (single == 0) break;
    moves += single;
    seeds_.clear();
    for (auto& mv : group_moved_) seeds_.push_back(mv.first);
  }
  return moves;
}

int64_t LocalSearch::descend_from(SearchState* st, const std::vector<int32_t>& seeds, Rng* rng,
                                  const std::function<bool()>& should_stop,
                                  std::vector<std::pair<int, int>>* log) {
  const SearchModel& m = *m_;
  queue_.clear();
  for (int i : seeds)
    if (m.dom_size(i) > 1 && !queued_[i]) { queued_[i] = 1; queue_.push_back(i); }
  for (size_t k = queue_.size(); k > 1; --k) std::swap(queue_[k - 1], queue_[rng->below(uint32_t(k))]);
  int64_t moves = 0;
  size_t head = 0;
  while (head < queue_.size()) {
    if ((head & 1023) == 0 && should_stop()) break;
    const int i = queue_[head++];
    queued_[i] = 0;
    const int cur = st->s[i];
    const int64_t cur_use = m.usage(i, cur);
    const int64_t room = m.has_interval(i) ? m.limit - st->max_over(i) : INT64_MAX;
    double best = -1e-9;
    int best_t = -1;
    const int32_t* d = m.domain(i);
    if (node_deltas_.size() < size_t(m.dom_size(i))) node_deltas_.resize(m.dom_size(i));
    st->move_deltas(i, node_deltas_.data());
    for (int k = 0; k < m.dom_size(i); ++k) {
      const int t = d[k];
      if (t == cur) continue;
      const int64_t du = m.usage(i, t) - cur_use;
      if (du > 0 && du > room) continue;
      const double delta = node_deltas_[k];
      if (delta < best) { best = delta; best_t = t; }
    }
    if (best_t < 0) continue;
    if (log) log->push_back({i, cur});
    st->apply(i, best_t, best);
    ++moves;
    for (uint32_t a = m.adj_off[i]; a < m.adj_off[i + 1]; ++a) {
      int o = m.adj[a].other;
      if (!queued_[o] && m.dom_size(o) > 1) { queued_[o] = 1; queue_.push_back(o); }
    }
    if (!queued_[i]) { queued_[i] = 1; queue_.push_back(i); }
    // Keep the queue from growing without bound on long runs.
    if (head > (1u << 20) && head * 2 > queue_.size()) {
      queue_.erase(queue_.begin(), queue_.begin() + head);
      head = 0;
    }
  }
  for (size_t k = head; k < queue_.size(); ++k) queued_[queue_[k]] = 0;
  return moves;
}

LocalSearch::Settled LocalSearch::settle(SearchState* st, const std::vector<int32_t>* seeds, Rng* rng,
                                         const std::function<bool()>& should_stop,
                                         std::vector<std::pair<int, int>>* log) {
  Settled r;
  std::vector<std::pair<int, int>>* moved = log ? log : &settle_log_;
  const size_t before = moved->size();
  if (!st->within_limit()) {
    r.repaired = true;
    repair(st, should_stop, seeds ? moved : nullptr);  // a whole descent needs no record
  }
  if (!seeds) {
    r.moves = descend(st, rng, should_stop);
    return r;
  }
  settle_seeds_.assign(seeds->begin(), seeds->end());
  for (size_t k = before; k < moved->size(); ++k) settle_seeds_.push_back((*moved)[k].first);
  if (!log) settle_log_.clear();
  r.moves = descend_from(st, settle_seeds_, rng, should_stop, log);
  return r;
}

bool LocalSearch::repair(SearchState* st, const std::function<bool()>& should_stop,
                         std::vector<std::pair<int, int>>* log) {
  const SearchModel& m = *m_;
  if (m.p->num_segments() == 0) return true;
  // A node's move deltas depend only on its own and its neighbours'
  // strategies: they are kept from one step to the next and recomputed only
  // around what moved; so is its best candidate, and a group's.
  // What moved before this repair, outside it, was not tracked: everything
  // computed before is stale.
  repair_start_ = ++moves_;
  const TiedGroups* groups = group_moves_.active() ? group_moves_.groups() : nullptr;
  if (groups && group_best_.size() != size_t(groups->size())) {
    group_best_.assign(groups->size(), KeptBest{});
    group_at_.assign(groups->size(), 0);
    group_peak_.assign(groups->size(), -1);
  }
  while (st->peak() > m.limit) {
    if (should_stop()) return false;
    if (!repair_step(st, groups, log)) return false;
  }
  return true;
}

// One step of repair(): the best move at the peak, applied. False when no
// move lowers the peak.
bool LocalSearch::repair_step(SearchState* st, const TiedGroups* groups, std::vector<std::pair<int, int>>* log) {
  const SearchModel& m = *m_;
  const int t = st->usage.argmax();
  const int64_t excess = st->peak() - m.limit;
  // The candidate of least cost per unit of memory freed at t (of what is
  // needed); a move that creates a forbidden pair is a last resort only.
  // Ties go to the first in the scan (nodes alive at t in by_start_'s
  // order, each one's strategies in domain order, then the groups).
  const auto candidate = [&](double delta, int64_t red, int node, int group, int choice) {
    Candidate c;
    c.clean = delta < 0.5 * m.big;
    c.delta = delta;
    c.score = delta / double(std::min(red, excess));
    c.red = red;
    c.node = node;
    c.group = group;
    c.choice = choice;
    return c;
  };
  const auto still_holds = [&](const KeptBest& kb) { return kb.excess_free && kb.max_red <= excess; };
  Candidate best;
  gather_alive(t);
  for (int i : alive_) {
    KeptBest& kb = node_best_[i];
    const bool fresh_deltas = fresh(node_at_[i], i);
    if (fresh_deltas && still_holds(kb)) {
      if (kb.best.better_than(best)) best = kb.best;
      continue;
    }
    const int64_t cu = m.usage(i, st->s[i]);
    const int32_t* d = m.domain(i);
    double* cache = &delta_cache_[m.dom_off[i]];
    if (!fresh_deltas) st->move_deltas(i, cache);
    kb = KeptBest{};
    for (int k = 0; k < m.dom_size(i); ++k) {
      const int64_t red = cu - m.usage(i, d[k]);
      if (red <= 0) continue;
      const Candidate c = candidate(cache[k], red, i, -1, d[k]);
      if (c.better_than(kb.best)) kb.best = c;
      kb.max_red = std::max(kb.max_red, red);
    }
    kb.excess_free = kb.max_red <= excess;
    node_at_[i] = moves_;
    if (kb.best.better_than(best)) best = kb.best;
  }
  // Tied groups with a member alive at t: the whole group to a choice that
  // lowers usage at t and raises no member's usage anywhere.
  if (groups) {
    const TiedGroups& G = *groups;
    if (group_seen_.size() != size_t(G.size())) group_seen_.assign(G.size(), 0);
    ++stamp_;
    for (int i : alive_) {
      const int g = G.group_of(i);
      if (g < 0 || group_seen_[g] == stamp_) continue;
      group_seen_[g] = stamp_;
      KeptBest& kb = group_best_[g];
      bool kept = group_peak_[g] == t && still_holds(kb);
      for (int k = 0; kept && k < G.member_count(g); ++k) kept = fresh(group_at_[g], G.members(g)[k]);
      if (!kept) {
        group_moves_.deltas(*st, g, &delta_, &raises_);
        if (group_moves_.counts) ++group_moves_.counts->tried;
        kb = KeptBest{};
        for (int c = 0; c < G.choices(g); ++c) {
          if (raises_[c] || !std::isfinite(delta_[c])) continue;
          int64_t red = 0;
          for (int k = 0; k < G.member_count(g); ++k) {
            const int x = G.members(g)[k];
            if (m.has_interval(x) && m.p->seg_lo[x] <= t && t < m.p->seg_hi[x])
              red += m.usage(x, st->s[x]) - m.usage(x, G.strategy(g, k, c));
          }
          if (red <= 0) continue;
          const Candidate cand = candidate(delta_[c], red, -1, g, c);
          if (cand.better_than(kb.best)) kb.best = cand;
          kb.max_red = std::max(kb.max_red, red);
        }
        kb.excess_free = kb.max_red <= excess;
        group_at_[g] = moves_;
        group_peak_[g] = t;
      }
      if (kb.best.better_than(best)) best = kb.best;
    }
  }
  if (best.group >= 0) {
    group_log_.clear();
    group_moves_.apply(st, best.group, best.choice, best.delta, &group_log_);
    for (const auto& mv : group_log_) moved(mv.first);
    if (log) log->insert(log->end(), group_log_.begin(), group_log_.end());
    if (group_moves_.counts) ++group_moves_.counts->improved;
    return true;
  }
  if (best.node < 0) return false;
  if (log) log->push_back({best.node, st->s[best.node]});
  st->apply(best.node, best.choice, best.delta);
  moved(best.node);
  return true;
}

}  // namespace iopddl
