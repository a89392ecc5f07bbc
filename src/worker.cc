#include <algorithm>
#include <cmath>

#include "elimination.h"
#include "local_search.h"
#include "memory_relax.h"
#include "message_passing.h"
#include "search_context.h"
#include "neighbourhood_search.h"
#include "penalised_rounding.h"
#include "search_state.h"

namespace iopddl {

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

}  // namespace

void run_worker(SearchContext* ctx, int tid) {
  const SearchModel& m = *ctx->model;
  const Params& prm = m.params;
  Rng rng(ctx->options->seed * 0x9E3779B97F4A7C15ULL + uint64_t(tid) * 7919 + 1);
  const std::function<bool()> stop = [ctx] { return ctx->should_stop(); };
  MechanismCounts counts{};  // this thread's, added to the shared ones every round and on return
  struct Flush {
    SearchContext* ctx;
    MechanismCounts* counts;
    ~Flush() { ctx->add_counts(counts); }
  } flush{ctx, &counts};
  LocalSearch ls;
  ls.init(m, ctx->groups);
  ls.set_counts(&counts);
  // Every thread's search prices memory per node, bracketed (better than the
  // per-segment multipliers on S by 2-3 %, equal on M). Thread 0 also
  // keeps multipliers per segment, moved by its eliminations' answers, for the
  // Lagrangian bound (per-node prices give none).
  MemoryRelax relax, bound_relax;
  relax.init(m, MemoryRelax::Schedule::kNodes);
  if (tid == 0) bound_relax.init(m, MemoryRelax::Schedule::kSegments);

  if (ctx->should_stop()) {
    // No time left: the least-usage assignment, which fits whenever anything does.
    SearchState st;
    st.init(m, least_usage_start(m));
    ctx->offer(st.s, st.cost, st.within_limit());
    return;
  }
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
    EliminationOptions eo;
    eo.hint = &start;
    eo.usage_cap = &least;
    eo.should_stop = &stop;
    EliminationStats es = elim.solve(all_free, &y, &rng, eo);
    st.init(m, es.complete ? y : start);
    ctx->offer(st.s, st.full_cost(), st.within_limit());
    ctx->repairs.fetch_add(1);
    ls.repair(&st, stop);
    ctx->local_moves.fetch_add(ls.descend(&st, &rng, stop));
    st.cost = st.full_cost();
    ctx->offer(st.s, st.cost, st.within_limit());
  }
  // Where every later epoch of the search starts (restarts, below).
  const std::vector<int32_t> first = st.s;
  const double first_cost = st.within_limit() ? st.cost : 1e300;
  // A warm start, repaired and polished, is where the first epoch starts when
  // it fits and is cheaper.
  if (!ctx->options->start.empty() && !ctx->should_stop()) {
    SearchState ws;
    ws.init(m, ctx->options->start);
    if (!ws.within_limit()) {
      ctx->repairs.fetch_add(1);
      ls.repair(&ws, stop);
    }
    ctx->local_moves.fetch_add(ls.descend(&ws, &rng, stop));
    ws.cost = ws.full_cost();
    ctx->offer(ws.s, ws.cost, ws.within_limit());
    if (ws.within_limit() && (!st.within_limit() || ws.cost < st.cost)) st = ws;
  }
  if (st.within_limit()) ctx->offer_epoch(0, st.s, st.cost);
  int epoch = 0;
  // Offers an answer to the incumbent, and to this epoch's best when it fits.
  auto share = [&](const std::vector<int32_t>& a, double cost, bool fits) {
    if (ctx->offer(a, cost, fits) && epoch > 0) ++at(counts, Mechanism::kRestart).improved;
    if (fits) ctx->offer_epoch(epoch, a, cost);
  };

  if (ctx->should_stop()) return;
  // Two roles, split between the threads (one thread plays both).
  // Eliminating: exact eliminations, on prices moved by their own
  // answers, then the neighbourhood search around the best. Rounding:
  // converged message passing on the penalised problem (penalised_rounding.h),
  // its rounding repaired and polished. On M the eliminations' answers all fall
  // into one family of solutions (51.9e9) that the rounding avoids; at a
  // quarter of the timeouts, 1 run, 2 threads: M 50.135e9 vs 51.93e9, S
  // 1.534e9 vs 1.547e9, A and G equal. On S the two roles together beat either.
  const bool eliminates = ctx->threads == 1 || tid % 2 == 0;
  const bool rounds_penalised = ctx->threads == 1 || tid % 2 == 1;
  MessagePassing mp;  // unpenalised: guidance and a bound for the eliminations
  if (eliminates) mp.init(m);
  // Thread 0 also bounds the Lagrangian dual: message passing on the
  // problem penalised by a snapshot of the multipliers, refreshed now and then
  // so its messages can converge. Its bound minus the snapshot's offset holds
  // for the constrained problem.
  // (Only multipliers per segment give a bound: per-node prices do not.)
  const bool lagrangian_bound = relax.needed() && tid == 0;
  MessagePassing mp_lag;
  double lag_offset = 0;
  if (lagrangian_bound) mp_lag.init(m);

  std::vector<int32_t> best = st.s;  // this thread's best within the limit, in this epoch
  double best_cost = st.within_limit() ? st.cost : 1e300;
  std::vector<int32_t> rounded, y, all_free(m.n, -1);
  std::vector<double> weight;
  int64_t rounds = 0;
  constexpr int kModes = 4;
  double mode_weight[kModes] = {1.0, 1.0, 1.0, 1.0};
  NeighbourhoodSearch lns;
  lns.init(m, &elim, &ls, ctx->groups);
  lns.counts = &counts;
  bool lns_synced = false;  // false: `best` changed outside the neighbourhood search
  // The neighbourhood search gets half the time of the global step: the jumps
  // to better basins come from the penalised solves, the search refines.
  // (Against twice the time, side by side at 60 s on S: 1.731 / 1.736 / 1.765e9
  // vs 1.817 / 1.804 / 1.787e9; A at 15 s reached 6.57e9 in 2 of 3 seeds vs
  // 0 of 3; M equal.)
  const double lns_share = prm.lns_share;
  const int64_t max_rounds = ctx->options->max_rounds;
  PenalisedRounding pr;
  std::vector<int32_t> prounded;
  if (rounds_penalised) pr.init(m, tid / 2, ctx->contraction);
  // A bound computed in doubles, offered as an integer after subtracting a
  // margin for the rounding error (`magnitude`: the sum of the magnitudes of
  // the pieces added up).
  auto offer_double_bound = [&](double lb, double magnitude) {
    const double margin = 1e-9 * magnitude + 1;
    if (std::isfinite(lb) && lb - margin > 0) ctx->offer_bound(Int128(std::floor(lb - margin)));
  };
  auto polish_and_offer = [&](const std::vector<int32_t>& cand) {
    st.init(m, cand);
    // Far over the limit, repair would be slow and lead nowhere good: the
    // candidate has done its job by moving the multipliers.
    if (double(st.peak()) > prm.repair_over * double(m.limit) && best_cost < 1e299) return false;
    if (!st.within_limit()) {
      ctx->repairs.fetch_add(1);
      ls.repair(&st, stop);
    }
    ctx->local_moves.fetch_add(ls.descend(&st, &rng, stop));
    st.cost = st.full_cost();
    const bool fits = st.within_limit();
    share(st.s, st.cost, fits);
    if (fits && st.cost < best_cost - 1e-9) {
      best = st.s;
      best_cost = st.cost;
      lns_synced = false;
      return true;
    }
    return false;
  };
  while (!ctx->should_stop()) {
    if (max_rounds > 0 && rounds >= max_rounds) break;
    ++rounds;
    ctx->rounds.fetch_add(1);
    const double round_start = ctx->elapsed();
    if (rounds_penalised) {
      if (!pr.step(&prounded, &rng, &stop)) break;
      ctx->message_passes.fetch_add(pr.passes_per_price());
      ++at(counts, Mechanism::kPenalisedRounding).tried;
      if (polish_and_offer(prounded)) ++at(counts, Mechanism::kPenalisedRounding).improved;
      if (rounds % prm.rounding_bound_every == 0) {
        double mag = 0;
        const double lb = pr.lower_bound(&mag);
        offer_double_bound(lb, mag);
      }
      if (ctx->should_stop()) break;
    }
    if (eliminates) {
      relax.node_weights(&weight);
      // Global guidance: a pass of message passing on the problem without the
      // memory limit (its messages converge undisturbed by moving multipliers),
      // rounded; and its proven bound, which holds for the constrained problem too.
      if (!mp.iterate(&rounded, &stop)) break;
      ctx->message_passes.fetch_add(1);
      if (ctx->should_stop()) break;
      if (rounds >= 2 && rounds % 2 == 0) {
        double mag = 0;
        const double lb = mp.lower_bound(&mag);
        offer_double_bound(lb, mag);
      }
      if (lagrangian_bound) {
        if (rounds % prm.lagrangian_refresh == 1 % prm.lagrangian_refresh) {
          std::vector<double> bw;
          bound_relax.node_weights(&bw);
          mp_lag.set_weights(bw);
          lag_offset = bound_relax.penalty_offset();
        }
        if (!mp_lag.iterate(nullptr, &stop)) break;
        if (rounds % 2 == 0) {
          double mag = 0;
          const double lb = mp_lag.lower_bound(&mag) - lag_offset;
          offer_double_bound(lb, mag + lag_offset);
        }
      }
      // One exact elimination, its decided nodes set by one of four rules, the
      // rule drawn in proportion to how often it recently improved this
      // thread's best: min-sum beliefs (randomised node order), the
      // message-passing rounding, the best assignment (an exact move around it),
      // or the rounding with the multipliers left out.
      // The first rounds try every rule once (beliefs first: with star estimates
      // this rule found a good basin fastest); after that the draw follows the
      // recent gains.
      int mode = 0;
      if (rounds <= kModes) {
        mode = int((rounds - 1 + tid) % kModes);
      } else {
        double total = 0;
        for (int k = 0; k < kModes; ++k) total += 0.5 + mode_weight[k];
        double pick = rng.uniform() * total;
        while (mode < kModes - 1 && (pick -= 0.5 + mode_weight[mode]) > 0) ++mode;
      }
      if (mode == 2 && best_cost >= 1e299) mode = 0;
      // Global solves decide by min-sum beliefs (S at 60 s: 1.548 / 1.567e9 vs
      // 1.751 / 1.847e9 with star estimates; M 51.94 / 51.96 vs 52.08 / 52.09e9;
      // A at 15 s 6.72 / 6.57e9 vs 7.01 / 7.01e9). The neighbourhood search's
      // windows keep the star estimate (beliefs in windows too: S 1.630 /
      // 1.556e9 vs 1.539 / 1.564e9 without).
      EliminationOptions eo;
      eo.weight = &weight;
      eo.belief_every = prm.belief_every;
      eo.should_stop = &stop;
      if (mode == 0) eo.randomness = 0.2 + 0.6 * rng.uniform();
      if (mode == 1) eo.hint = &rounded;
      // The rounding without the prices: when the limit barely binds and
      // message passing has (nearly) converged, this is the optimum or next to it.
      if (mode == 3) {
        eo.weight = nullptr;
        eo.hint = &rounded;
      }
      if (mode == 2) {
        eo.hint = &best;
        eo.follow_hint = rng.below(2) ? 1.0 : 0.7 + 0.3 * rng.uniform();
        eo.randomness = 0.2 + 0.6 * rng.uniform();
      }
      const EliminationStats es = elim.solve(all_free, &y, &rng, eo);
      if (!es.complete) break;
      if (mode != 3) {  // mode 3 did not minimise the penalised problem: no subgradient
        SearchState pen;
        pen.init(m, y);
        relax.update(y, pen.cost, best_cost, &rng);
        if (lagrangian_bound) bound_relax.update(y, pen.cost, best_cost, &rng);
      }
      const bool improved = polish_and_offer(y);
      static constexpr Mechanism kRule[kModes] = {Mechanism::kEliminationBeliefs, Mechanism::kEliminationRounding,
                                                  Mechanism::kEliminationBest, Mechanism::kEliminationUnpriced};
      ++at(counts, kRule[mode]).tried;
      if (improved) ++at(counts, kRule[mode]).improved;
      for (double& w : mode_weight) w *= prm.rule_decay;
      if (improved) mode_weight[mode] += 1.0;
      if (ctx->should_stop()) break;
      // Large neighbourhood search around the best. With a round budget its
      // move count is fixed too, so that one thread and one seed give one answer.
      if (best_cost < 1e299) {
        if (!lns_synced) {
          lns.reset(best);
          lns_synced = true;
        }
        const double until = ctx->elapsed() + lns_share * (ctx->elapsed() - round_start);
        int64_t budget = prm.lns_round_moves;
        const std::function<bool()> more = [&] { return max_rounds > 0 ? budget-- > 0 : ctx->elapsed() < until; };
        ctx->windows.fetch_add(lns.run(weight, relax.needed(), &rng, more, stop,
                                       [&](const std::vector<int32_t>& a, double cost) {
                                         best = a;
                                         best_cost = cost;
                                         share(best, best_cost, true);
                                       }));
      }
    }
    // Restarts: runs on small, memory-bound instances settle early, each in
    // its own basin, and stay there; a fresh start samples another. The
    // epoch's stall is judged against how long the epoch took to reach its
    // best, so a search that keeps finding improvements is never cut off.
    // With a round budget there are no restarts (they follow the clock).
    if (tid == 0 && max_rounds == 0 && prm.restarts &&
        ctx->restart_if_stalled(prm.restart_stall_factor, prm.restart_min_stall))
      ++at(counts, Mechanism::kRestart).tried;
    ctx->add_counts(&counts);
    if (ctx->epoch.load() != epoch) {
      // A new epoch: this thread's prices, rule weights and best start afresh
      // (the incumbent keeps every epoch's answers); the bounds' state stays.
      epoch = ctx->epoch.load();
      relax.restart_diversified(&rng);
      if (rounds_penalised) pr.restart_diversified(&rng);
      for (double& w : mode_weight) w = 1.0;
      best = first;
      best_cost = first_cost;
      lns_synced = false;
    } else if (epoch > 0) {
      // Adopt the epoch's best when another thread is ahead.
      if (ctx->adopt_epoch(epoch, &best, &best_cost)) lns_synced = false;
    } else if (ctx->incumbent->feasible() && ctx->incumbent->approx_cost() < best_cost - 1e-9) {
      // Adopt the shared incumbent when another thread is ahead.
      ctx->incumbent->snapshot(&best);
      SearchState tmp;
      tmp.init(m, best);
      best_cost = tmp.cost;
      lns_synced = false;
    }
  }
}

}  // namespace iopddl
