#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "elimination.h"
#include "local_search.h"
#include "memory_relax.h"
#include "message_passing.h"
#include "search_context.h"
#include "search_state.h"

namespace iopddl {

void SearchContext::offer(const std::vector<int32_t>& a, double approx_cost, bool within_limit) {
  if (!incumbent->offer(a, approx_cost, within_limit)) return;
  improvements.fetch_add(1);
  std::vector<int32_t> tmp;
  Evaluation ev;
  incumbent->snapshot(&tmp, &ev);
  std::lock_guard<std::mutex> lock(progress_mu);
  const double t = elapsed();
  history.push_back({t, ev.total_cost, ev.feasible()});
  if (ev.feasible() && first_feasible_seconds < 0) first_feasible_seconds = t;
  // Proven optimal: nothing left to search for.
  if (ev.feasible() && has_lower_bound && ev.total_cost <= lower_bound) done.store(true);
  if (options->on_progress) {
    Progress pr;
    pr.elapsed_seconds = t;
    pr.has_solution = true;
    pr.feasible = ev.feasible();
    pr.best_cost = ev.total_cost;
    pr.has_lower_bound = has_lower_bound;
    pr.lower_bound = lower_bound;
    pr.iterations = rounds.load();
    pr.event = "improved";
    options->on_progress(pr);
  }
}

void SearchContext::offer_bound(Int128 lb) {
  std::lock_guard<std::mutex> lock(progress_mu);
  if (!bound_valid || (has_lower_bound && lb <= lower_bound)) return;
  has_lower_bound = true;
  lower_bound = lb;
  {
    std::vector<int32_t> tmp;
    Evaluation ev;
    if (incumbent->snapshot(&tmp, &ev) && ev.feasible() && ev.total_cost <= lb) done.store(true);
  }
  if (options->on_progress) {
    Progress pr;
    pr.elapsed_seconds = elapsed();
    pr.has_lower_bound = true;
    pr.lower_bound = lb;
    pr.iterations = rounds.load();
    pr.event = "bound";
    std::vector<int32_t> tmp;
    Evaluation ev;
    if (incumbent->snapshot(&tmp, &ev)) {
      pr.has_solution = true;
      pr.feasible = ev.feasible();
      pr.best_cost = ev.total_cost;
    }
    options->on_progress(pr);
  }
}

void SearchContext::report(const char* event) {
  Progress pr;
  std::vector<int32_t> tmp;
  Evaluation ev;
  if (incumbent->snapshot(&tmp, &ev)) {
    pr.has_solution = true;
    pr.feasible = ev.feasible();
    pr.best_cost = ev.total_cost;
  }
  std::lock_guard<std::mutex> lock(progress_mu);
  if (!options->on_progress) return;
  pr.elapsed_seconds = elapsed();
  pr.has_lower_bound = has_lower_bound;
  pr.lower_bound = lower_bound;
  pr.iterations = rounds.load();
  pr.event = event;
  options->on_progress(pr);
}

namespace {

// Every node at its least-usage live strategy (cheapest on ties): fits the
// limit whenever anything does, since a node's usage is constant over its interval.
std::vector<int32_t> least_usage_start(const SearchModel& m) {
  std::vector<int32_t> a(m.n);
  for (int i = 0; i < m.n; ++i) {
    const int32_t* d = m.domain(i);
    int best = d[0];
    for (int k = 1; k < m.dom_size(i); ++k) {
      int s = d[k];
      if (m.usage(i, s) < m.usage(i, best) ||
          (m.usage(i, s) == m.usage(i, best) && m.node_cost(i, s) < m.node_cost(i, best)))
        best = s;
    }
    a[i] = best;
  }
  return a;
}

// A connected window of about `size` optimisable nodes around a random one,
// grown breadth-first with a little shuffling so windows vary in shape.
void grow_window(const SearchModel& m, Rng* rng, int size, std::vector<int32_t>* window,
                 std::vector<int32_t>* seen, int32_t* clock) {
  window->clear();
  if (seen->size() != size_t(m.n)) seen->assign(m.n, 0);
  ++*clock;
  int start = -1;
  for (int tries = 0; tries < 16 && start < 0; ++tries) {
    int c = int(rng->below(uint32_t(m.n)));
    if (m.dom_size(c) > 1) start = c;
  }
  if (start < 0) return;
  std::vector<int32_t> frontier{start};
  (*seen)[start] = *clock;
  size_t head = 0;
  while (head < frontier.size() && int(window->size()) < size) {
    size_t span = std::min<size_t>(frontier.size() - head, 4);
    std::swap(frontier[head], frontier[head + rng->below(uint32_t(span))]);
    int x = frontier[head++];
    if (m.dom_size(x) > 1) window->push_back(x);
    for (uint32_t a = m.adj_off[x]; a < m.adj_off[x + 1]; ++a) {
      int o = m.adj[a].other;
      if ((*seen)[o] != *clock) { (*seen)[o] = *clock; frontier.push_back(o); }
    }
  }
}

// The nodes alive at one moment (the peak half the time, else a random
// moment of a random node's life), a random subset of `size` of them, plus
// their neighbours so that connected changes can happen together.
void time_window(const SearchModel& m, const SearchState& cur, const std::vector<int32_t>& by_start,
                 Rng* rng, int size, std::vector<int32_t>* window, std::vector<int32_t>* seen,
                 int32_t* clock) {
  window->clear();
  if (by_start.empty()) return;
  if (seen->size() != size_t(m.n)) seen->assign(m.n, 0);
  ++*clock;
  int t;
  if (rng->below(2) == 0) {
    t = cur.usage.argmax();
  } else {
    const int i = by_start[rng->below(uint32_t(by_start.size()))];
    t = m.p->seg_lo[i] + int(rng->below(uint32_t(m.p->seg_hi[i] - m.p->seg_lo[i])));
  }
  std::vector<int32_t> alive;
  for (int i : by_start) {
    if (m.p->seg_lo[i] > t) break;
    if (m.p->seg_hi[i] > t) alive.push_back(i);
  }
  for (size_t k = alive.size(); k > 1; --k) std::swap(alive[k - 1], alive[rng->below(uint32_t(k))]);
  const size_t core = std::min<size_t>(alive.size(), size_t(std::max(1, size / 2)));
  for (size_t k = 0; k < core; ++k) {
    const int x = alive[k];
    if ((*seen)[x] != *clock) { (*seen)[x] = *clock; window->push_back(x); }
  }
  for (size_t k = 0; k < core && int(window->size()) < size; ++k) {
    const int x = alive[k];
    for (uint32_t a = m.adj_off[x]; a < m.adj_off[x + 1]; ++a) {
      const int o = m.adj[a].other;
      if (m.dom_size(o) > 1 && (*seen)[o] != *clock) { (*seen)[o] = *clock; window->push_back(o); }
    }
  }
}

}  // namespace

void run_worker(SearchContext* ctx, int tid) {
  const SearchModel& m = *ctx->model;
  Rng rng(ctx->options->seed * 0x9E3779B97F4A7C15ULL + uint64_t(tid) * 7919 + 1);
  const std::function<bool()> stop = [ctx] { return ctx->should_stop(); };
  LocalSearch ls;
  ls.init(m);
  MemoryRelax relax;
  relax.init(m);

  EliminationSolver elim;
  elim.init(m);
  // A feasible answer first: every node capped at its least usage (which fits
  // whenever anything does), elimination picks the cheapest such assignment
  // free of forbidden pairs; then repair and polish. The plain least-usage
  // assignment is the fallback.
  SearchState st;
  {
    std::vector<int32_t> start = least_usage_start(m);
    std::vector<int32_t> all_free(m.n, -1), y;
    std::vector<int64_t> least(m.n, INT64_MAX);
    if (relax.needed())
      for (int i = 0; i < m.n; ++i) least[i] = m.usage(i, start[i]);
    EliminationStats es = elim.solve({}, all_free, &y, &rng, 0.0, &start, &stop, 1.0, &least);
    st.init(m, es.complete ? y : start);
    if (getenv("IOPDDL_DEBUG")) fprintf(stderr, "start elim %.3f s peak/limit %.3f cost %.4g\n", ctx->elapsed(), double(st.peak()) / double(m.limit), st.cost);
    ctx->offer(st.s, st.full_cost(), st.within_limit());
    ctx->repairs.fetch_add(1);
    ls.repair(&st, stop);
    if (getenv("IOPDDL_DEBUG")) fprintf(stderr, "start repair %.3f s peak/limit %.3f cost %.4g\n", ctx->elapsed(), double(st.peak()) / double(m.limit), st.cost);
    ctx->local_moves.fetch_add(ls.descend(&st, &rng, stop));
    if (getenv("IOPDDL_DEBUG")) fprintf(stderr, "start descend %.3f s cost %.4g\n", ctx->elapsed(), st.cost);
    st.cost = st.full_cost();
    ctx->offer(st.s, st.cost, st.within_limit());
  }

  MessagePassing mp;
  mp.init(m);
  // The last thread also bounds the Lagrangian dual: message passing on the
  // problem penalised by a snapshot of the multipliers, refreshed now and then
  // so its messages can converge. Its bound minus the snapshot's offset holds
  // for the constrained problem.
  const bool lagrangian_bound = relax.needed() && tid == ctx->threads - 1;
  MessagePassing mp_lag;
  double lag_offset = 0;
  if (lagrangian_bound) mp_lag.init(m);

  std::vector<int32_t> best = st.s;  // this thread's best within the limit
  double best_cost = st.within_limit() ? st.cost : 1e300;
  std::vector<int32_t> rounded, y, all_free(m.n, -1);
  std::vector<double> weight;
  int64_t rounds = 0;
  double mode_weight[4] = {1.0, 1.0, 1.0, 0.0};  // the last one only counts window gains
  SearchState cur;          // the state the windows work on: equal to `best`
  bool cur_synced = false;
  std::vector<int32_t> fixed, window, seen;
  int32_t seen_clock = 0;
  std::vector<std::pair<int, int>> undo;
  const std::vector<double> no_weight;
  int64_t dbg_infeasible = 0, dbg_accepted = 0, dbg_windows = 0;
  // Windows get twice the time of the global step: on the large instances
  // most gains come from them once a good basin is found.
  const double window_share = 2.0;
  std::vector<int64_t> cap(m.n, INT64_MAX);
  UsageTree overlap;
  overlap.init(m.p->num_segments());
  double kind_weight[3] = {1.0, 1.0, 1.0};
  std::vector<int32_t> touched;
  std::vector<double> wbuf;
  std::vector<int32_t> by_start;  // nodes with an interval and a choice, by start segment
  for (int i = 0; i < m.n; ++i)
    if (m.has_interval(i) && m.dom_size(i) > 1) by_start.push_back(i);
  std::sort(by_start.begin(), by_start.end(),
            [&](int a, int b) { return m.p->seg_lo[a] < m.p->seg_lo[b]; });
  const int64_t max_rounds = ctx->options->max_rounds;
  auto polish_and_offer = [&](const std::vector<int32_t>& cand) {
    st.init(m, cand);
    // Far over the limit, repair would be slow and lead nowhere good: the
    // candidate has done its job by moving the multipliers.
    if (double(st.peak()) > 1.5 * double(m.limit) && best_cost < 1e299) return false;
    if (!st.within_limit()) {
      ctx->repairs.fetch_add(1);
      ls.repair(&st, stop);
    }
    ctx->local_moves.fetch_add(ls.descend(&st, &rng, stop));
    st.cost = st.full_cost();
    const bool fits = st.within_limit();
    ctx->offer(st.s, st.cost, fits);
    if (fits && st.cost < best_cost - 1e-9) {
      best = st.s;
      best_cost = st.cost;
      cur_synced = false;
      return true;
    }
    return false;
  };
  while (!ctx->should_stop()) {
    if (max_rounds > 0 && rounds >= max_rounds) break;
    ++rounds;
    ctx->rounds.fetch_add(1);
    const double round_start = ctx->elapsed();
    relax.node_weights(&weight);
    // Global guidance: a pass of message passing on the problem without the
    // memory limit (its messages converge undisturbed by moving multipliers),
    // rounded; and its proven bound, which holds for the constrained problem too.
    if (!mp.iterate(&rounded, &stop)) break;
    ctx->message_passes.fetch_add(1);
    if (ctx->should_stop()) break;
    if (rounds >= 2 && rounds % 2 == 0) {
      double mag = 0;
      double lb = mp.lower_bound(&mag);
      double margin = 1e-9 * mag + 1;
      if (std::isfinite(lb) && lb - margin > 0) ctx->offer_bound(Int128(std::floor(lb - margin)));
    }
    if (lagrangian_bound) {
      if (rounds % 8 == 1) {
        mp_lag.set_weights(weight);
        lag_offset = relax.penalty_offset();
      }
      if (!mp_lag.iterate(nullptr, &stop)) break;
      if (rounds % 2 == 0) {
        double mag = 0;
        double lb = mp_lag.lower_bound(&mag) - lag_offset;
        double margin = 1e-9 * (mag + lag_offset) + 1;
        if (std::isfinite(lb) && lb - margin > 0) ctx->offer_bound(Int128(std::floor(lb - margin)));
      }
    }
    // One exact elimination, its decided nodes set by one of three rules, the
    // rule drawn in proportion to how often it recently improved this
    // thread's best: greedy (randomised), the message-passing rounding, or the
    // best assignment (an exact move around it).
    // The first rounds try every rule once (greedy first: it finds a good
    // basin fastest); after that the draw follows the recent gains.
    int mode = 0;
    if (rounds <= 3) {
      mode = int((rounds - 1 + tid) % 3);
    } else {
      double total = 0;
      for (int k = 0; k < 3; ++k) total += 0.5 + mode_weight[k];
      double pick = rng.uniform() * total;
      while (mode < 2 && (pick -= 0.5 + mode_weight[mode]) > 0) ++mode;
    }
    if (mode == 2 && best_cost >= 1e299) mode = 0;
    EliminationStats es;
    if (mode == 0) es = elim.solve(weight, all_free, &y, &rng, 0.2 + 0.6 * rng.uniform(), nullptr, &stop);
    if (mode == 1) es = elim.solve(weight, all_free, &y, &rng, 0.0, &rounded, &stop);
    if (mode == 2)
      es = elim.solve(weight, all_free, &y, &rng, 0.2 + 0.6 * rng.uniform(), &best, &stop,
                      rng.below(2) ? 1.0 : 0.7 + 0.3 * rng.uniform());
    if (!es.complete) break;
    {
      SearchState pen;
      pen.init(m, y);
      relax.update(y, pen.cost, best_cost, &rng);
      if (getenv("IOPDDL_DEBUG"))
        fprintf(stderr, "t%d r%ld %.2fs mode %d y cost %.4g peak/limit %.3f off %.3g", tid, (long)rounds,
                ctx->elapsed(), mode, pen.cost, double(pen.peak()) / double(m.limit), relax.penalty_offset());
    }
    const bool improved = polish_and_offer(y);
    if (getenv("IOPDDL_DEBUG")) fprintf(stderr, " -> %.6g best %.6g\n", st.cost, best_cost);
    for (double& w : mode_weight) w *= 0.95;
    if (improved) mode_weight[mode] += 1.0;
    if (ctx->should_stop()) break;
    // Large neighbourhood search around the best: for `window_share` times as
    // long as the global step took, free a connected window of nodes, solve it by elimination
    // with the rest fixed, polish locally, keep it if it fits and is cheaper.
    if (best_cost < 1e299) {
      const double until = ctx->elapsed() + window_share * (ctx->elapsed() - round_start);
      if (!cur_synced) {
        cur.init(m, best);
        fixed = best;
        cur_synced = true;
      }
      // With a round budget the window count is fixed too, so that one thread
      // and one seed give one answer.
      int64_t windows = 0;
      const bool counted = max_rounds > 0;
      while ((counted ? windows < 64 : ctx->elapsed() < until) && !ctx->should_stop()) {
        ++windows;
        const int size = 16 << rng.below(7);  // 16 .. 1024 nodes
        // Two kinds of window, drawn by their recent gains: connected ones
        // (capped so that they always fit), and time windows: nodes alive at
        // one moment, often the peak, penalised by the multipliers and free to
        // trade memory among themselves (kept only if the answer fits).
        int kind = 0;
        if (relax.needed()) {
          const double total = 1.5 + kind_weight[0] + kind_weight[1] + kind_weight[2];
          double pick = rng.uniform() * total;
          while (kind < 2 && (pick -= 0.5 + kind_weight[kind]) > 0) ++kind;
        }
        if (kind == 2) {
          // Ejection: move one node to its best strategy regardless of memory,
          // repair the overflow at the cheapest cost per unit freed elsewhere,
          // polish around the changes; keep it if it is cheaper.
          if (by_start.empty()) continue;
          const int x = by_start[rng.below(uint32_t(by_start.size()))];
          int best_t = -1;
          double best_d = -1e-9;
          for (int k = 0; k < m.dom_size(x); ++k) {
            const int t = m.domain(x)[k];
            if (m.usage(x, t) <= m.usage(x, cur.s[x])) continue;
            const double d = cur.move_delta(x, t);
            if (d < best_d) { best_d = d; best_t = t; }
          }
          if (best_t < 0) continue;
          undo.clear();
          undo.push_back({x, cur.s[x]});
          cur.apply(x, best_t, best_d);
          if (!cur.within_limit()) ls.repair(&cur, stop, &undo);
          if (cur.within_limit()) {
            touched.clear();
            for (auto& u : undo) touched.push_back(u.first);
            ls.descend_from(&cur, touched, &rng, stop, &undo);
          }
          if (cur.within_limit() && cur.cost < best_cost - 1e-6 * std::max(1.0, std::abs(best_cost))) {
            for (auto& u : undo) fixed[u.first] = cur.s[u.first];
            cur.cost = cur.full_cost();
            best = cur.s;
            best_cost = cur.cost;
            ctx->offer(best, best_cost, true);
            kind_weight[2] += 1.0;
            ++dbg_accepted;
          } else {
            for (size_t k = undo.size(); k-- > 0;) cur.set(undo[k].first, undo[k].second);
          }
          continue;
        }
        if (kind == 0) grow_window(m, &rng, size, &window, &seen, &seen_clock);
        else time_window(m, cur, by_start, &rng, size, &window, &seen, &seen_clock);
        if (window.empty()) continue;
        for (int w : window) fixed[w] = -1;
        // Usage caps that keep any answer within the limit: at every time the
        // window's nodes share the slack there, each taking at most its
        // slack divided by how many window nodes overlap it.
        if (kind == 1) {
          for (int w : window) cap[w] = INT64_MAX;
        } else if (m.p->has_usage_limit && m.p->num_segments() > 0) {
          for (int w : window)
            if (m.has_interval(w)) overlap.add(m.p->seg_lo[w], m.p->seg_hi[w], 1);
          for (int w : window) {
            if (!m.has_interval(w)) { cap[w] = INT64_MAX; continue; }
            const int64_t slack = m.limit - cur.max_over(w);
            const int64_t share = overlap.max(m.p->seg_lo[w], m.p->seg_hi[w]);
            cap[w] = m.usage(w, cur.s[w]) + std::max<int64_t>(0, slack) / std::max<int64_t>(1, share);
          }
          for (int w : window)
            if (m.has_interval(w)) overlap.add(m.p->seg_lo[w], m.p->seg_hi[w], -1);
        }
        // Half the windows decide their stuck nodes greedily (given the fixed
        // surroundings that is well informed) instead of keeping them.
        const std::vector<double>& wts = kind == 1 || rng.below(4) ? weight : no_weight;
        if (kind == 1 && !weight.empty()) {
          // Price memory above the multipliers by a random factor.
          const double f = 0.5 + 2.0 * rng.uniform();
          wbuf = weight;
          for (int w : window) wbuf[w] *= f;
        }
        EliminationStats ws = elim.solve(kind == 1 && !weight.empty() ? wbuf : wts, fixed, &y, &rng, 0.0, &cur.s,
                                         &stop, rng.below(2) ? 1.0 : 0.0, &cap);
        for (int w : window) fixed[w] = cur.s[w];
        if (!ws.complete) break;
        undo.clear();
        for (int w : window)
          if (y[w] != cur.s[w]) { undo.push_back({w, cur.s[w]}); cur.set(w, y[w]); }
        if (undo.empty()) continue;
        if (cur.within_limit()) ls.descend_from(&cur, window, &rng, stop, &undo);
        else ++dbg_infeasible;
        if (cur.within_limit() && cur.cost < best_cost - 1e-6 * std::max(1.0, std::abs(best_cost))) {
          for (auto& u : undo) fixed[u.first] = cur.s[u.first];
          cur.cost = cur.full_cost();
          best = cur.s;
          best_cost = cur.cost;
          ctx->offer(best, best_cost, true);
          mode_weight[3] += 1.0;
          kind_weight[kind] += 1.0;
          ++dbg_accepted;
        } else {
          for (size_t k = undo.size(); k-- > 0;) cur.set(undo[k].first, undo[k].second);
        }
      }
      ctx->windows.fetch_add(windows);
      for (double& kw : kind_weight) kw *= 0.9;
      dbg_windows += windows;
    }
    // Adopt the shared incumbent when another thread is ahead.
    if (ctx->incumbent->feasible() && ctx->incumbent->approx_cost() < best_cost - 1e-9) {
      ctx->incumbent->snapshot(&best);
      SearchState tmp;
      tmp.init(m, best);
      best_cost = tmp.cost;
      cur_synced = false;
    }
  }
  if (getenv("IOPDDL_DEBUG"))
    fprintf(stderr, "t%d windows %ld accepted %ld infeasible %ld\n", tid, (long)dbg_windows, (long)dbg_accepted, (long)dbg_infeasible);
}

}  // namespace iopddl
