#include "neighbourhood_search.h"

#include <algorithm>
#include <cmath>

namespace iopddl {

void NeighbourhoodSearch::init(const SearchModel& m, EliminationSolver* elim, LocalSearch* ls,
                               const TiedGroups* groups) {
  m_ = &m;
  groups_ = groups && groups->size() > 0 ? groups : nullptr;
  in_window_.assign(m.n, 0);
  group_taken_.assign(groups_ ? groups_->size() : 0, 0);
  elim_ = elim;
  ls_ = ls;
  ready_ = false;
  seen_.assign(m.n, 0);
  cap_.assign(m.n, INT64_MAX);
  overlap_.init(m.p->num_segments());
  kinds_.init(kKinds, m.params, 0);
  moves_ = 0;
  work_ = 0;
}

void NeighbourhoodSearch::reset(const std::vector<int32_t>& best) {
  cur_.init(*m_, best);
  fixed_ = best;
  ready_ = true;
}

void NeighbourhoodSearch::take(int x, size_t cap, std::vector<int32_t>* frontier) {
  const SearchModel& m = *m_;
  if (m.dom_size(x) > 1 && in_window_[x] != clock_) {
    in_window_[x] = clock_;
    window_.push_back(x);
  }
  const int g = groups_ ? groups_->group_of(x) : -1;
  if (g < 0 || group_taken_[g] == clock_) return;
  group_taken_[g] = clock_;
  if (window_.size() + size_t(groups_->member_count(g)) > cap) return;
  for (int k = 0; k < groups_->member_count(g); ++k) {
    const int y = groups_->members(g)[k];
    if (m.dom_size(y) > 1 && in_window_[y] != clock_) {
      in_window_[y] = clock_;
      window_.push_back(y);
    }
    if (frontier && seen_[y] != clock_) {
      seen_[y] = clock_;
      frontier->push_back(y);
    }
  }
}

// A connected window of about `size` optimisable nodes around a random one,
// grown breadth-first with a little shuffling so windows vary in shape.
// With `priced` set, it grows from a node that has a memory price (one whose
// interval has been over the limit), where memory can be traded.
// With window_leaves (1: the priced windows, trade and repair; 2: every
// connected window), a node's leaves (neighbours of degree 1) join with it
// and do not count towards the size: a node whose new strategy its leaves
// must follow (a hub whose consumers reshard with it) cannot move while any
// of them is held fixed outside the window, and a leaf costs its solve
// almost nothing, eliminated first into its one neighbour. The priced
// windows are the ones made for such a move between basins, which needs
// memory at the peak; the plain ones earn by many small fitting moves, which
// windows made larger by their leaves make fewer of.
void NeighbourhoodSearch::connected_window(Rng* rng, int size, const std::vector<double>* priced) {
  const SearchModel& m = *m_;
  window_.clear();
  ++clock_;
  int start = -1;
  for (int tries = 0; tries < 16 && start < 0; ++tries) {
    int c = int(rng->below(uint32_t(m.n)));
    if (m.dom_size(c) > 1 && (!priced || (*priced)[c] > 0)) start = c;
  }
  if (start < 0) return;
  touched_.assign(1, start);  // the frontier
  seen_[start] = clock_;
  size_t head = 0, leaves = 0;
  const bool with_leaves = m.params.window_leaves == 2 || (m.params.window_leaves == 1 && priced);
  while (head < touched_.size() && int(window_.size() - leaves) < size) {
    size_t span = std::min<size_t>(touched_.size() - head, 4);
    std::swap(touched_[head], touched_[head + rng->below(uint32_t(span))]);
    int x = touched_[head++];
    take(x, leaves + size_t(2 * size), &touched_);
    for (uint32_t a = m.adj_off[x]; a < m.adj_off[x + 1]; ++a) {
      int o = m.adj[a].other;
      if (seen_[o] == clock_) continue;
      seen_[o] = clock_;
      if (with_leaves && m.adj_off[o + 1] - m.adj_off[o] == 1) {
        const size_t before = window_.size();
        take(o, leaves + size_t(2 * size), nullptr);
        leaves += window_.size() - before;
      } else {
        touched_.push_back(o);
      }
    }
  }
}

// The nodes alive at one moment (the peak half the time, else a random moment
// of a random node's life), a random subset of half the size, plus their
// neighbours so that connected changes can happen together.
void NeighbourhoodSearch::time_window(Rng* rng, int size) {
  const SearchModel& m = *m_;
  window_.clear();
  if (ls_->by_start().empty()) return;
  ++clock_;
  int t;
  if (rng->below(2) == 0) {
    t = cur_.usage.argmax();
  } else {
    const int i = ls_->by_start()[rng->below(uint32_t(ls_->by_start().size()))];
    t = m.p->seg_lo[i] + int(rng->below(uint32_t(m.p->seg_hi[i] - m.p->seg_lo[i])));
  }
  std::vector<int32_t>& alive = touched_;
  alive.clear();
  for (int i : ls_->by_start()) {
    if (m.p->seg_lo[i] > t) break;
    if (m.p->seg_hi[i] > t) alive.push_back(i);
  }
  for (size_t k = alive.size(); k > 1; --k) std::swap(alive[k - 1], alive[rng->below(uint32_t(k))]);
  const size_t core = std::min<size_t>(alive.size(), size_t(std::max(1, size / 2)));
  for (size_t k = 0; k < core; ++k) take(alive[k], size_t(2 * size), nullptr);
  for (size_t k = 0; k < core && int(window_.size()) < size; ++k) {
    const int x = alive[k];
    for (uint32_t a = m.adj_off[x]; a < m.adj_off[x + 1]; ++a) take(m.adj[a].other, size_t(2 * size), nullptr);
  }
}

// Usage caps. Shared: caps that keep any answer within the limit: at every
// time the window's nodes share the slack there, each taking at most its slack
// divided by how many window nodes overlap it. Not shared: each node may take
// the whole slack over its interval, so that a move where a few nodes need most
// of it is possible, but the answer may not fit.
void NeighbourhoodSearch::slack_caps(bool shared) {
  const SearchModel& m = *m_;
  if (!m.has_limit || m.p->num_segments() == 0) {
    for (int w : window_) cap_[w] = INT64_MAX;
    return;
  }
  for (int w : window_)
    if (m.has_interval(w)) overlap_.add(m.p->seg_lo[w], m.p->seg_hi[w], 1);
  for (int w : window_) {
    if (!m.has_interval(w)) { cap_[w] = INT64_MAX; continue; }
    const int64_t slack = m.limit - cur_.max_over(w);
    const int64_t share = shared ? overlap_.max(m.p->seg_lo[w], m.p->seg_hi[w]) : 1;
    cap_[w] = m.usage(w, cur_.s[w]) + std::max<int64_t>(0, slack) / std::max<int64_t>(1, share);
  }
  for (int w : window_)
    if (m.has_interval(w)) overlap_.add(m.p->seg_lo[w], m.p->seg_hi[w], -1);
}

bool NeighbourhoodSearch::ejection(Rng* rng, const std::function<bool()>& stop) {
  const SearchModel& m = *m_;
  undo_.clear();
  if (ls_->by_start().empty()) return false;
  const int x = ls_->by_start()[rng->below(uint32_t(ls_->by_start().size()))];
  const int g = groups_ ? groups_->group_of(x) : -1;
  if (g >= 0) {
    // A tied node moves with its group: the group's best choice that needs more memory.
    const GroupMoves& gm = ls_->group_moves();
    gm.deltas(cur_, g, &delta_, &raises_);
    int best_c = -1;
    for (int c = 0; c < groups_->choices(g); ++c)
      if (raises_[c] && delta_[c] < -1e-9 && (best_c < 0 || delta_[c] < delta_[best_c])) best_c = c;
    if (best_c < 0) return false;
    gm.apply(&cur_, g, best_c, delta_[best_c], &undo_);
  } else {
    int best_t = -1;
    double best_d = -1e-9;
    work_ += m.dom_size(x);
    for (int k = 0; k < m.dom_size(x); ++k) {
      const int t = m.domain(x)[k];
      if (m.usage(x, t) <= m.usage(x, cur_.s[x])) continue;
      const double d = cur_.move_delta(x, t);
      if (d < best_d) { best_d = d; best_t = t; }
    }
    if (best_t < 0) return false;
    undo_.push_back({x, cur_.s[x]});
    cur_.apply(x, best_t, best_d);
  }
  repair_and_descend(rng, stop);
  return true;
}

void NeighbourhoodSearch::repair_and_descend(Rng* rng, const std::function<bool()>& stop) {
  touched_.clear();
  for (auto& u : undo_) touched_.push_back(u.first);
  work_ += int64_t(touched_.size());
  ls_->settle(&cur_, &touched_, rng, stop, &undo_);
}

// A trade or repair window's nodes: no move under test yet, and a connected
// window of a drawn size grown from a priced node. False if there are no
// prices or no such window.
bool NeighbourhoodSearch::priced_connected_window(const std::vector<double>& weight, Rng* rng) {
  undo_.clear();
  if (weight.empty()) return false;
  const int size = m_->params.window_min << rng->below(m_->params.window_sizes);
  connected_window(rng, size, &weight);
  return !window_.empty();
}

// A repair window: connected, from a priced node, every node uncapped and
// paying its price (scaled by 2^u, u in [-1, 1], as a trade window's first
// solve; lower scales overflow more than a repair can pay for) for memory;
// the answer may be over the limit, and the repair frees the overflow at the
// least cost per unit of memory, anywhere.
bool NeighbourhoodSearch::repair_window(const std::vector<double>& weight, Rng* rng,
                                        const std::function<bool()>& stop, bool* complete) {
  if (!priced_connected_window(weight, rng)) return false;
  for (int x : window_) cap_[x] = INT64_MAX;
  price_window(weight, std::exp2(2.0 * rng->uniform() - 1.0));
  *complete = solve_window(window_options(&scaled_, rng, stop), rng);
  if (!*complete) return false;
  if (undo_.empty()) return false;
  repair_and_descend(rng, stop);
  return true;
}

// The window's prices: `weight` times f. The solve reads only the window's
// entries, so the rest of scaled_ is left as it is (a copy of every node's
// would cost as much as a small window's solve).
void NeighbourhoodSearch::price_window(const std::vector<double>& weight, double f) {
  if (scaled_.size() != weight.size()) scaled_.assign(weight.size(), 0.0);
  for (int x : window_) scaled_[x] = f * weight[x];
}

// The options of a window's solve: the rest fixed at the current answer.
// Half the windows decide their stuck nodes greedily (given the fixed
// surroundings that is well informed) instead of keeping them.
EliminationOptions NeighbourhoodSearch::window_options(const std::vector<double>* weight, Rng* rng,
                                                       const std::function<bool()>& stop) {
  EliminationOptions eo;
  eo.weight = weight;
  eo.hint = &cur_.s;
  eo.follow_hint = rng->below(2) ? 1.0 : 0.0;
  eo.usage_cap = &cap_;
  eo.free_nodes = &window_;
  eo.should_stop = &stop;
  return eo;
}

// Solves the window and applies its answer to cur_, each changed node's
// previous strategy in undo_. False if the solve was stopped first.
bool NeighbourhoodSearch::solve_window(const EliminationOptions& eo, Rng* rng) {
  for (int x : window_) {
    fixed_[x] = -1;
    work_ += m_->dom_size(x);
  }
  const EliminationStats es = elim_->solve(fixed_, &y_, rng, eo);
  for (int x : window_) fixed_[x] = cur_.s[x];
  if (!es.complete) return false;
  apply_window(y_);
  return true;
}

// Sets the window's nodes to y's strategies (indexed by node) in cur_, each
// changed node's previous strategy in undo_.
void NeighbourhoodSearch::apply_window(const std::vector<int32_t>& y) {
  for (int x : window_)
    if (y[x] != cur_.s[x]) { undo_.push_back({x, cur_.s[x]}); cur_.set(x, y[x]); }
}

void NeighbourhoodSearch::undo_move() {
  for (size_t k = undo_.size(); k-- > 0;) cur_.set(undo_[k].first, undo_[k].second);
  undo_.clear();
}

// A trade window: connected, around a priced node; the window's priced nodes
// are uncapped and pay their price for memory instead, so that one may take
// memory at a moment at the limit where another frees it, which the slack caps
// forbid wherever the answer is at the limit. Unpriced nodes keep their share
// of the slack. The prices' scale is searched: an answer that fits halves it,
// one that does not doubles it; the cheapest answer that fits is kept.
bool NeighbourhoodSearch::trade_window(const std::vector<double>& weight, Rng* rng,
                                       const std::function<bool()>& stop, bool* complete) {
  if (!priced_connected_window(weight, rng)) return false;
  slack_caps(true);
  bool any_priced = false;
  for (int x : window_)
    if (weight[x] > 0) { cap_[x] = INT64_MAX; any_priced = true; }
  if (!any_priced) return false;
  double f = std::exp2(2.0 * rng->uniform() - 1.0);
  const EliminationOptions eo = window_options(&scaled_, rng, stop);
  double best = cur_.cost;
  bool found = false;
  for (int attempt = 0; attempt < m_->params.trade_window_tries; ++attempt) {
    price_window(weight, f);
    *complete = solve_window(eo, rng);
    if (!*complete) return false;
    const bool fits = cur_.within_limit();
    if (fits && cur_.cost < best - 1e-9) {
      best = cur_.cost;
      found = true;
      if (trade_best_.size() != cur_.s.size()) trade_best_.assign(cur_.s.size(), 0);
      for (int x : window_) trade_best_[x] = cur_.s[x];
    }
    undo_move();
    f = fits ? 0.5 * f : 2.0 * f;
  }
  if (!found) return true;  // tried, nothing better
  apply_window(trade_best_);
  ls_->descend_from(&cur_, window_, rng, stop, &undo_);
  return true;
}

bool NeighbourhoodSearch::window_move(int kind, const std::vector<double>& weight, Rng* rng,
                                      const std::function<bool()>& stop, bool* complete) {
  undo_.clear();
  const int size = m_->params.window_min << rng->below(m_->params.window_sizes);
  if (kind == 0) connected_window(rng, size);
  else time_window(rng, size);
  if (window_.empty()) return false;
  const std::vector<double>* w = &weight;
  // A connected window may first try caps of the whole slack, then, if its
  // answer does not fit, the shared caps.
  bool full_slack = false;
  if (kind == 0) {
    full_slack = rng->uniform() < m_->params.full_slack_window_share;
    slack_caps(!full_slack);
    static const std::vector<double> none;
    if (rng->below(uint32_t(m_->params.unpriced_window_every)) == 0) w = &none;
  } else {
    for (int x : window_) cap_[x] = INT64_MAX;
    if (!weight.empty()) {
      // Price memory above or below the multipliers by a random factor.
      const double f = 0.5 + 2.0 * rng->uniform();
      price_window(weight, f);
      w = &scaled_;
    }
  }
  const EliminationOptions eo = window_options(w, rng, stop);
  // A priced window whose answer does not fit is solved again with its
  // prices doubled: the first price is a guess.
  const int attempts = w == &scaled_ ? m_->params.window_price_tries : full_slack ? 2 : 1;
  for (int attempt = 0; attempt < attempts; ++attempt) {
    *complete = solve_window(eo, rng);
    if (!*complete) return false;
    if (cur_.within_limit() || attempt + 1 == attempts) break;
    undo_move();
    if (full_slack) slack_caps(true);
    else for (int x : window_) scaled_[x] *= 2;
  }
  if (undo_.empty()) return false;
  if (cur_.within_limit()) ls_->descend_from(&cur_, window_, rng, stop, &undo_);
  return true;
}

bool NeighbourhoodSearch::keep_if_better(double best_cost) {
  if (cur_.within_limit() && cur_.cost < best_cost - 1e-6 * std::max(1.0, std::abs(best_cost))) {
    for (auto& u : undo_) fixed_[u.first] = cur_.s[u.first];
    cur_.cost = cur_.full_cost();
    return true;
  }
  undo_move();
  return false;
}

int64_t NeighbourhoodSearch::run(const std::vector<double>& weight, bool memory_binds, Rng* rng,
                                 const std::function<double()>* seconds, const std::function<bool()>& more,
                                 const std::function<bool()>& stop,
                                 const std::function<void(const std::vector<int32_t>&, double)>& improved) {
  static constexpr Mechanism kKind[kKinds] = {Mechanism::kConnectedWindow, Mechanism::kTimeWindow,
                                              Mechanism::kEjection, Mechanism::kTradeWindow,
                                              Mechanism::kRepairWindow, Mechanism::kPartWindow};
  static const std::vector<double> kNoFloor(kKinds, 0.0);
  // Where memory does not bind, only the connected windows can gain.
  const int on = m_->params.move_kinds;
  std::vector<char> available = {char(on & 1), char(memory_binds && (on & 2)), char(memory_binds && (on & 4)),
                                 char(memory_binds && !weight.empty() && (on & 8)),
                                 char(memory_binds && !weight.empty() && (on & 16)),
                                 char(memory_binds && partner && partner->size() == size_t(m_->n) && (on & 32))};
  if (std::find(available.begin(), available.end(), 1) == available.end()) available[0] = 1;
  const auto clock = [&] { return seconds ? (*seconds)() : double(moves_ + work_); };
  int64_t moves = 0;
  double best_cost = cur_.cost;
  while (more() && !stop()) {
    ++moves;
    const double started = clock();
    const int kind = memory_binds ? kinds_.pick(available, kNoFloor, started) : 0;
    bool complete = true;
    MechanismTimer timer(counts ? &at(*counts, kKind[kind]) : nullptr);
    const bool tried = kind == 2   ? ejection(rng, stop)
                       : kind == 3 ? trade_window(weight, rng, stop, &complete)
                       : kind == 4 ? repair_window(weight, rng, stop, &complete)
                       : kind == 5 ? part_window(rng, stop, &complete)
                                   : window_move(kind, weight, rng, stop, &complete);
    ++moves_;
    if (!complete) break;
    double fall = 0;
    if (tried) {
      if (counts) ++at(*counts, kKind[kind]).tried;
      if (keep_if_better(best_cost)) {
        if (counts) {
          ++at(*counts, kKind[kind]).improved;
          add_fall(&at(*counts, kKind[kind]), best_cost, cur_.cost);
        }
        fall = log_fall(best_cost, cur_.cost);
        best_cost = cur_.cost;
        improved(cur_.s, best_cost);
      }
    }
    const double ended = clock();
    kinds_.record(kind, ended - started, fall, ended);
  }
  return moves;
}

}  // namespace iopddl
