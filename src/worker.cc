#include "forest_dp.h"
#include "local_search.h"
#include "memory_relax.h"
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

void SearchContext::report(const char* event) {
  std::lock_guard<std::mutex> lock(progress_mu);
  if (!options->on_progress) return;
  Progress pr;
  pr.elapsed_seconds = elapsed();
  pr.has_solution = incumbent->has();
  pr.feasible = incumbent->feasible();
  if (pr.has_solution) pr.best_cost = Int128(incumbent->approx_cost());
  std::vector<int32_t> tmp;
  Evaluation ev;
  if (incumbent->snapshot(&tmp, &ev)) pr.best_cost = ev.total_cost;
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
  auto stop = [ctx] { return ctx->should_stop(); };
  LocalSearch ls;
  ls.init(m);
  ForestDP forest;
  forest.init(m);
  MemoryRelax relax;
  relax.init(m);
  if (tid > 0) relax.scale(1.0 + tid);

  SearchState st;
  st.init(m, least_usage_start(m));
  ctx->offer(st.s, st.full_cost(), st.within_limit());
  ctx->repairs.fetch_add(1);
  ls.repair(&st, stop);
  ctx->local_moves.fetch_add(ls.descend(&st, &rng, stop));
  st.cost = st.full_cost();
  ctx->offer(st.s, st.cost, st.within_limit());

  std::vector<int32_t> best = st.s;  // this thread's best within the limit
  double best_cost = st.within_limit() ? st.cost : 1e300;
  std::vector<int32_t> x = st.s;
  std::vector<double> weight;
  int64_t rounds = 0, stale = 0;
  uint64_t seen_version = ctx->incumbent->version();
  const int64_t max_rounds = ctx->options->max_rounds;
  while (!ctx->should_stop()) {
    if (max_rounds > 0 && rounds >= max_rounds) break;
    ++rounds;
    ctx->rounds.fetch_add(1);
    relax.node_weights(&weight);
    // A whole-graph forest most rounds; a local region now and then.
    int region = (rounds % 4 == 0) ? 64 + int(rng.below(512)) : 0;
    for (int sweep = 0; sweep < 3 && !ctx->should_stop(); ++sweep) {
      forest.pick_forest(&rng, region);
      int changed = forest.solve(&x, weight);
      ctx->forest_solves.fetch_add(1);
      if (changed == 0) break;
    }
    if (ctx->should_stop()) break;
    relax.update(x, &rng);
    st.init(m, x);
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
      stale = 0;
    } else {
      ++stale;
    }
    // Next start: mostly this thread's best (intensify); the shared incumbent
    // when another thread found better; the projected point otherwise.
    if (ctx->incumbent->version() != seen_version && ctx->incumbent->feasible() &&
        ctx->incumbent->approx_cost() < best_cost - 1e-9 && rng.below(2) == 0) {
      seen_version = ctx->incumbent->version();
      ctx->incumbent->snapshot(&best);
      SearchState tmp;
      tmp.init(m, best);
      best_cost = tmp.cost;
    }
    if (stale > 0 && stale % 8 == 0) relax.scale(0.5 + rng.uniform());
    x = (rng.below(4) != 0 || !fits) ? best : st.s;
    if (best_cost >= 1e299) x = st.s;
  }
}

}  // namespace iopddl
