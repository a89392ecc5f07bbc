#include "incumbent.h"

#include <cmath>

namespace iopddl {
namespace {

Int128 excess(const UsageLimit& limit, const Evaluation& ev) {
  return limit.has && ev.peak_usage > limit.value ? ev.peak_usage - limit.value : 0;
}

bool better(const UsageLimit& limit, const Evaluation& a, const Evaluation& b) {
  if (a.feasible() != b.feasible()) return a.feasible();
  if (!a.feasible()) {
    if (a.forbidden_entries != b.forbidden_entries) return a.forbidden_entries < b.forbidden_entries;
    Int128 ea = excess(limit, a), eb = excess(limit, b);
    if (ea != eb) return ea < eb;
  }
  return a.total_cost < b.total_cost;
}

}  // namespace

bool Incumbent::offer(const std::vector<int32_t>& a, double approx_cost, bool within_limit) {
  // Cheap filter before the exact evaluation: a feasible incumbent is only
  // beaten by a cheaper candidate within the limit.
  // Ordering ties, a candidate whose cost may equal the best's is evaluated
  // too (an approximate cost can be a little above the exact one).
  if (has_.load() && feasible_.load()) {
    const double best = approx_.load();
    if (!within_limit || (order_ties_ ? approx_cost > best + 1e-9 * std::abs(best) + 1 : approx_cost >= best))
      return false;
  }
  Evaluation ev = evaluate(p_, a, limit_);
  if (!ev.status.ok) return false;
  std::lock_guard<std::mutex> lock(mu_);
  if (has_.load() && !better(limit_, ev, eval_)) {
    if (order_ties_ && !better(limit_, eval_, ev) && a < best_) {
      best_ = a;
      eval_ = std::move(ev);
    }
    return false;
  }
  best_ = a;
  eval_ = std::move(ev);
  approx_.store(double(eval_.total_cost));
  feasible_.store(eval_.feasible());
  has_.store(true);
  return true;
}

bool Incumbent::summary(bool* feasible, Int128* cost) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (!has_.load()) return false;
  *feasible = eval_.feasible();
  *cost = eval_.total_cost;
  return true;
}

bool Incumbent::snapshot(std::vector<int32_t>* out, Evaluation* ev) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (!has_.load()) return false;
  *out = best_;
  if (ev) *ev = eval_;
  return true;
}

}  // namespace iopddl
