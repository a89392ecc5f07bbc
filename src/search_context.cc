#include "search_context.h"

#include <algorithm>
#include <cmath>

namespace iopddl {

// A progress snapshot; the caller holds progress_mu.
Progress SearchContext::progress(ProgressEvent event) const {
  Progress pr;
  pr.elapsed_seconds = elapsed();
  pr.has_solution = incumbent->summary(&pr.feasible, &pr.best_cost);
  pr.has_lower_bound = has_lower_bound;
  pr.lower_bound = lower_bound;
  pr.iterations = counters[int(Counter::rounds)].load();
  {
    // progress_mu before epoch_mu_: nothing that holds epoch_mu_ reports.
    std::lock_guard<std::mutex> lock(epoch_mu_);
    pr.epoch = epoch.load();
    pr.epoch_began_seconds = epoch_starts_.empty() ? 0.0 : epoch_starts_.back().seconds;
  }
  pr.event = event;
  return pr;
}

// Proven optimal (a feasible incumbent at the bound): nothing left to search
// for. The caller holds progress_mu.
void SearchContext::stop_if_proven() {
  bool feasible = false;
  Int128 cost = 0;
  if (!(has_lower_bound && incumbent->summary(&feasible, &cost) && feasible && cost <= lower_bound)) return;
  // In lockstep the threads stop together, at the round's meeting: the
  // incumbent then holds every answer of the round, whoever offered first.
  (lockstep.on() ? proven : done).store(true);
}

void SearchContext::keep_step(int n) {
  lockstep.init(n, [this](Role r, bool may_take) { return grant_role(r, may_take); },
                [this] { settle_meeting(); });
  incumbent->order_ties();
}

void SearchContext::settle_meeting() {
  Lockstep& ls = lockstep;
  ls.incumbent_known = incumbent->summary(&ls.incumbent_feasible, &ls.incumbent_cost);
  ls.slice_over = std::chrono::steady_clock::now() >= counted_slice_end;
  if (proven.load()) done.store(true);
}

int SearchContext::grant_role(Role role, bool may_take) {
  bool expected = false;
  switch (role) {
    case Role::kLagrangian:
      return lagrangian_claimed_.compare_exchange_strong(expected, true) ? 0 : kRoleRefused;
    case Role::kProof:
      return may_take && proof_claimed_.compare_exchange_strong(expected, true) ? 0 : kRoleRefused;
    case Role::kRounding: {
      if (!may_take) return kRoleRefused;
      const int slot = rounding_slots_.fetch_add(1);
      return slot < roundings() ? slot : kRoleRefused;
    }
  }
  return kRoleRefused;
}

int SearchContext::claim_role(Role role, int tid, bool may_take) {
  return lockstep.on() ? lockstep.claim(role, tid, may_take) : grant_role(role, may_take);
}

void SearchContext::publish_rounding(int tid, const std::vector<int32_t>& a) {
  if (lockstep.on()) return lockstep.post_rounding(tid, a);
  std::lock_guard<std::mutex> lk(rounding_mu_);
  latest_rounding_ = a;
  ++rounding_version_;
}

bool SearchContext::latest_rounding(std::vector<int32_t>* a, int64_t* version) {
  if (lockstep.on()) return lockstep.latest_rounding(a, version);
  std::lock_guard<std::mutex> lk(rounding_mu_);
  if (rounding_version_ == *version) return false;
  *a = latest_rounding_;
  *version = rounding_version_;
  return true;
}

bool SearchContext::incumbent_summary(bool* feasible, Int128* cost) const {
  if (!lockstep.on()) return incumbent->summary(feasible, cost);
  if (!lockstep.incumbent_known) return false;
  *feasible = lockstep.incumbent_feasible;
  *cost = lockstep.incumbent_cost;
  return true;
}

bool SearchContext::offer(const std::vector<int32_t>& a, double approx_cost, bool within_limit) {
  if (!incumbent->offer(a, approx_cost, within_limit)) return false;
  count(Counter::improvements);
  std::lock_guard<std::mutex> lock(progress_mu);
  Progress pr = progress(ProgressEvent::kImproved);
  history.push_back({pr.elapsed_seconds, pr.best_cost, pr.feasible});
  if (pr.feasible && first_feasible_seconds < 0) first_feasible_seconds = pr.elapsed_seconds;
  stop_if_proven();
  if (options->on_progress) options->on_progress(pr);
  return true;
}

void SearchContext::offer_bound(Int128 lb) {
  std::lock_guard<std::mutex> lock(progress_mu);
  if (!bound_valid || (has_lower_bound && lb <= lower_bound)) return;
  has_lower_bound = true;
  lower_bound = lb;
  stop_if_proven();
  if (options->on_progress) options->on_progress(progress(ProgressEvent::kBound));
}

void SearchContext::report(ProgressEvent event) {
  std::lock_guard<std::mutex> lock(progress_mu);
  stop_if_proven();  // a warm start can be proven optimal before any search
  if (options->on_progress) options->on_progress(progress(event));
}

void SearchContext::offer_epoch(int e, const std::vector<int32_t>& a, double cost) {
  std::lock_guard<std::mutex> lock(epoch_mu_);
  if (e != epoch.load() || cost >= epoch_best_cost_ - 1e-9) return;
  epoch_best_ = a;
  epoch_best_cost_ = cost;
  epoch_clock_.offer(cost, elapsed(), model->params.restart_min_fall);
}

bool SearchContext::adopt_epoch(int e, std::vector<int32_t>* a, double* cost) {
  // In lockstep there is one epoch, and its best is the last meeting's.
  if (lockstep.on()) return lockstep.adopt(a, cost);
  std::lock_guard<std::mutex> lock(epoch_mu_);
  if (e != epoch.load() || epoch_best_cost_ >= *cost - 1e-9) return false;
  *a = epoch_best_;
  *cost = epoch_best_cost_;
  return true;
}

bool SearchContext::ended_best(std::vector<int32_t>* a, double* cost) {
  std::lock_guard<std::mutex> lock(epoch_mu_);
  if (!has_cost(ended_best_cost_)) return false;
  *a = ended_best_;
  *cost = ended_best_cost_;
  return true;
}

void SearchContext::offer_ended_best(const std::vector<int32_t>& a, double cost) {
  std::lock_guard<std::mutex> lock(epoch_mu_);
  if (!(cost < ended_best_cost_ - 1e-9)) return;
  ended_best_ = a;
  ended_best_cost_ = cost;
}

int SearchContext::roundings() const {
  return std::max(1, int(threads * model->params.rounding_threads));
}

bool SearchContext::restart_if_stalled() {
  const Params& p = model->params;
  std::lock_guard<std::mutex> lock(epoch_mu_);
  const double now = elapsed();
  if (!has_cost(epoch_best_cost_)) return false;  // nothing within the limit yet: keep searching
  // More threads bring an epoch to its first plateau sooner (the windows run
  // on every thread), not its global answers (the roundings' and the
  // eliminations'), whose prices each thread moves itself at the same pace
  // per thread whatever the thread count; and each rounding takes its own
  // path through the duals, as a restart's fresh prices do. So an epoch that
  // holds more roundings has more time before it counts as stalled.
  const double factor = p.restart_stall_factor * roundings();
  if (!epoch_clock_.stalled(now, factor, p.restart_min_stall)) return false;
  // A new epoch starts from the first answer and retraces the search: with
  // less time left than this one took to reach its best, it ends behind it.
  if (solve_seconds() - now < epoch_clock_.reached()) return false;  // never without an end
  start_epoch(now, false);
  return true;
}

std::vector<EpochStart> SearchContext::epoch_starts() {
  std::lock_guard<std::mutex> lock(epoch_mu_);
  return epoch_starts_;
}

bool SearchContext::next_epoch_due() {
  const Params& p = model->params;
  const int probes = p.probe_epochs;
  const double share = p.probe_share;
  const int e = epoch.load();
  const double total = solve_seconds();
  // No end (a session without a time limit) or probes too short: no opening.
  if (probes <= 1 || e >= probes || std::isinf(total) || share * total / probes < p.probe_min_seconds)
    return restart_if_stalled();
  std::lock_guard<std::mutex> lock(epoch_mu_);
  const double now = elapsed();
  if (e != epoch.load() || !has_cost(epoch_best_cost_)) return false;
  if (now < share * total * double(e + 1) / double(probes)) return false;
  start_epoch(now, true);
  if (e + 1 == probes) {  // the probes are over: go on from their best
    epoch_best_ = ended_best_;
    epoch_best_cost_ = epoch_clock_.counted_cost = ended_best_cost_;
  }
  return true;
}

void SearchContext::start_epoch(double now, bool opening) {
  EpochStart rec;
  rec.seconds = now;
  rec.epoch = epoch.load() + 1;
  rec.opening = opening;
  rec.ended_from = epoch_clock_.began;
  rec.ended_last_fall = epoch_clock_.counted_at;
  rec.ended_has_best = has_cost(epoch_best_cost_);
  if (rec.ended_has_best) rec.ended_best_cost = Int128(std::llround(epoch_best_cost_));
  epoch_starts_.push_back(rec);
  if (epoch_best_cost_ < ended_best_cost_) {
    ended_best_.swap(epoch_best_);
    ended_best_cost_ = epoch_best_cost_;
  }
  epoch.fetch_add(1);
  epoch_best_.clear();
  epoch_best_cost_ = kNoCost;
  epoch_clock_.start(now);
}

}  // namespace iopddl
