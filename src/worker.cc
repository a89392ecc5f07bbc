#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "elimination.h"
#include "forest_dp.h"
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
  // A feasible answer first: elimination with memory priced so high that it
  // minimises usage first and cost second (forbidden pairs stay costlier
  // still), then repair and polish. The least-usage assignment is the fallback.
  SearchState st;
  {
    std::vector<int32_t> start = least_usage_start(m);
    std::vector<int32_t> all_free(m.n, -1), y;
    double max_use = 1;
    for (int i = 0; i < m.n; ++i)
      for (int k = 0; k < m.dom_size(i); ++k) max_use = std::max(max_use, double(m.usage(i, m.domain(i)[k])));
    const double w = relax.needed() ? std::min(m.big / (8.0 * max_use * std::max(1, m.n)), 1e3 * relax.rate()) : 0.0;
    std::vector<double> heavy(m.n, w);
    EliminationStats es = elim.solve(heavy, all_free, &y, &rng, 0.0, &start, &stop);
    st.init(m, es.complete ? y : start);
    ctx->offer(st.s, st.full_cost(), st.within_limit());
    ctx->repairs.fetch_add(1);
    ls.repair(&st, stop);
    ctx->local_moves.fetch_add(ls.descend(&st, &rng, stop));
    st.cost = st.full_cost();
    ctx->offer(st.s, st.cost, st.within_limit());
  }

  ForestDP forest;
  forest.init(m);
  MessagePassing mp;
  mp.init(m);

  std::vector<int32_t> best = st.s;  // this thread's best within the limit
  double best_cost = st.within_limit() ? st.cost : 1e300;
  std::vector<int32_t> rounded, y, all_free(m.n, -1);
  std::vector<double> weight;
  int64_t rounds = 0;
  double mode_weight[3] = {1.0, 1.0, 1.0};
  const int64_t max_rounds = ctx->options->max_rounds;
  auto polish_and_offer = [&](const std::vector<int32_t>& cand) {
    st.init(m, cand);
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
      return true;
    }
    return false;
  };
  while (!ctx->should_stop()) {
    if (max_rounds > 0 && rounds >= max_rounds) break;
    ++rounds;
    ctx->rounds.fetch_add(1);
    relax.node_weights(&weight);
    mp.set_weights(weight);
    // Global guidance: a pass of message passing, rounded.
    if (!mp.iterate(&rounded, &stop)) break;
    ctx->forest_solves.fetch_add(1);
    if (ctx->should_stop()) break;
    if (rounds % 4 == 1) {
      double mag = 0;
      double lb = mp.lower_bound(&mag) - relax.penalty_offset();
      double margin = 1e-9 * (mag + relax.penalty_offset()) + 1;
      if (std::isfinite(lb) && lb - margin > 0) ctx->offer_bound(Int128(std::floor(lb - margin)));
    }
    // One exact elimination, its decided nodes set by one of three rules, the
    // rule drawn in proportion to how often it recently improved this
    // thread's best: greedy (randomised), the message-passing rounding, or the
    // best assignment (an exact move around it).
    double total = 0;
    for (double w : mode_weight) total += 0.3 + w;
    double pick = rng.uniform() * total;
    int mode = 0;
    while (mode < 2 && (pick -= 0.3 + mode_weight[mode]) > 0) ++mode;
    if (mode == 2 && best_cost >= 1e299) mode = 0;
    EliminationStats es;
    if (mode == 0) es = elim.solve(weight, all_free, &y, &rng, 0.2 + 0.6 * rng.uniform(), nullptr, &stop);
    if (mode == 1) es = elim.solve(weight, all_free, &y, &rng, 0.0, &rounded, &stop);
    if (mode == 2) es = elim.solve(weight, all_free, &y, &rng, 0.2 + 0.6 * rng.uniform(), &best, &stop);
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
    // Adopt the shared incumbent when another thread is ahead.
    if (ctx->incumbent->feasible() && ctx->incumbent->approx_cost() < best_cost - 1e-9) {
      ctx->incumbent->snapshot(&best);
      SearchState tmp;
      tmp.init(m, best);
      best_cost = tmp.cost;
    }
  }
}

}  // namespace iopddl
