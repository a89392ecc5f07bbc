#include "thread_state.h"

#include <cmath>

#include "proof_search.h"

namespace iopddl {

ThreadState::ThreadState(SearchContext* c, int t)
    : ctx(c),
      m(*c->model),
      prm(c->model->params),
      tid(t),
      rng(c->options->seed * 0x9E3779B97F4A7C15ULL + uint64_t(t) * 7919 + 1),
      stop([c] { return c->should_stop(); }),
      max_rounds(c->options->max_rounds) {}

void ThreadState::share(const std::vector<int32_t>& a, double cost, bool fits) {
  if (ctx->offer(a, cost, fits) && epoch > 0 && ctx->first_incumbent_of(epoch))
    ++at(counts, Mechanism::kRestart).improved;
  if (fits) ctx->offer_epoch(epoch, a, cost);
}

bool ThreadState::proof_takes_partner() const {
  const int rule = prm.elimination_partner;
  return rule == 2 || (rule == 1 && !ProofSearch::in_reach(m, ctx->contraction));
}

void ThreadState::offer_double_bound(double lb, double magnitude) {
  const double margin = 1e-9 * magnitude + 1;
  if (std::isfinite(lb) && lb - margin > 0) ctx->offer_bound(Int128(std::floor(lb - margin)));
}

void ThreadState::polish(SearchState* s, const std::vector<int32_t>* seeds) {
  const LocalSearch::Settled r = ls.settle(s, seeds, &rng, stop);
  if (r.repaired) ctx->count(Counter::repairs);
  ctx->count(Counter::local_moves, r.moves);
  s->cost = s->full_cost();
}

bool ThreadState::polish_and_offer(const std::vector<int32_t>& cand, MechanismCount* count) {
  st.init(m, cand);
  st_polished = false;
  // Far over the limit, repair would be slow and lead nowhere good: the
  // candidate has done its job by moving the prices.
  if (double(st.peak()) > prm.repair_over * double(m.limit) && has_cost(best_cost)) return false;
  polish(&st);
  st_polished = true;
  const bool fits = st.within_limit();
  share(st.s, st.cost, fits);
  return fits && take_if_better(st.s, st.cost, count);
}

bool ThreadState::cross_with_best(const std::vector<int32_t>& other) {
  if (!prm.part_crossover || !has_cost(best_cost)) return false;
  MechanismCount& count = at(counts, Mechanism::kPartCrossover);
  MechanismTimer timer(&count);
  ++count.tried;
  CrossoverStats stats;
  return cross.cross(m, best, other, &crossed, &stats) && polish_and_offer(crossed, &count);
}

bool ThreadState::cross_answer_with_best(const std::vector<int32_t>& raw) {
  const int mode = prm.crossover_polished;
  // Copied before the first crossover, whose polish reuses st.
  const bool polished = mode != 0 && st_polished && st.within_limit() && st.s != best;
  if (polished) donor = st.s;
  // A crossover that improved moved the best and its peak: parts of the same
  // answer that the trade at the peak had to leave out may fit now.
  bool improved = false;
  for (int r = 0; r <= prm.crossover_repeat; ++r) {
    const bool got = (mode != 1 && cross_with_best(raw)) || (polished && cross_with_best(donor));
    if (!got) break;
    improved = true;
  }
  return improved;
}

bool ThreadState::take_if_better(const std::vector<int32_t>& a, double cost, MechanismCount* count) {
  if (!(cost < best_cost - 1e-9)) return false;
  if (count) {
    ++count->improved;
    if (has_cost(best_cost)) add_fall(count, best_cost, cost);
  }
  best = a;
  best_cost = cost;
  best_moved = true;
  return true;
}

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

}  // namespace iopddl
