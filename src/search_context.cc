#include "search_context.h"

namespace iopddl {

// A progress snapshot; the caller holds progress_mu.
Progress SearchContext::progress(const char* event) const {
  Progress pr;
  pr.elapsed_seconds = elapsed();
  pr.has_solution = incumbent->summary(&pr.feasible, &pr.best_cost);
  pr.has_lower_bound = has_lower_bound;
  pr.lower_bound = lower_bound;
  pr.iterations = rounds.load();
  pr.event = event;
  return pr;
}

// Proven optimal (a feasible incumbent at the bound): nothing left to search
// for. The caller holds progress_mu.
void SearchContext::stop_if_proven() {
  bool feasible = false;
  Int128 cost = 0;
  if (has_lower_bound && incumbent->summary(&feasible, &cost) && feasible && cost <= lower_bound) done.store(true);
}

void SearchContext::offer(const std::vector<int32_t>& a, double approx_cost, bool within_limit) {
  if (!incumbent->offer(a, approx_cost, within_limit)) return;
  improvements.fetch_add(1);
  std::lock_guard<std::mutex> lock(progress_mu);
  Progress pr = progress("improved");
  history.push_back({pr.elapsed_seconds, pr.best_cost, pr.feasible});
  if (pr.feasible && first_feasible_seconds < 0) first_feasible_seconds = pr.elapsed_seconds;
  stop_if_proven();
  if (options->on_progress) options->on_progress(pr);
}

void SearchContext::offer_bound(Int128 lb) {
  std::lock_guard<std::mutex> lock(progress_mu);
  if (!bound_valid || (has_lower_bound && lb <= lower_bound)) return;
  has_lower_bound = true;
  lower_bound = lb;
  stop_if_proven();
  if (options->on_progress) options->on_progress(progress("bound"));
}

void SearchContext::report(const char* event) {
  std::lock_guard<std::mutex> lock(progress_mu);
  if (options->on_progress) options->on_progress(progress(event));
}

}  // namespace iopddl
