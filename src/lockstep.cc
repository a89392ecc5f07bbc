#include "lockstep.h"

#include <chrono>

#include "search_state.h"

namespace iopddl {

void Lockstep::init(int threads, Grant grant, std::function<void()> settle) {
  threads_ = threads;
  slots_.assign(threads, Slot());
  grant_ = std::move(grant);
  settle_ = std::move(settle);
}

int Lockstep::present() const {
  int n = 0;
  for (const Slot& s : slots_) n += s.present;
  return n;
}

void Lockstep::complete_if_all_here() {
  if (arrived_ == 0 || arrived_ != present()) return;
  settle_meeting();
  if (settle_) settle_();
  arrived_ = 0;
  ++generation_;
  cv_.notify_all();
}

bool Lockstep::meet(int tid, const std::vector<int32_t>& best, double cost, const std::function<bool()>& stop) {
  std::unique_lock<std::mutex> lock(mu_);
  Slot& me = slots_[tid];
  if (!me.present) return false;
  me.cost = cost;
  if (has_cost(cost)) me.best = best;
  ++arrived_;
  const int64_t gen = generation_;
  complete_if_all_here();
  // The time limit and the stop flag are not signalled: polled.
  while (generation_ == gen) {
    cv_.wait_for(lock, std::chrono::milliseconds(2));
    if (generation_ != gen) break;
    if (stop()) {
      --arrived_;
      me.present = false;
      complete_if_all_here();  // the others may all be here
      return false;
    }
  }
  return true;
}

void Lockstep::leave(int tid) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!slots_[tid].present) return;
  slots_[tid].present = false;
  complete_if_all_here();
}

void Lockstep::settle_meeting() {
  // The cheapest best; ties to the lowest thread.
  int b = -1;
  for (int k = 0; k < threads_; ++k) {
    const Slot& s = slots_[k];
    if (s.present && has_cost(s.cost) && (b < 0 || s.cost < slots_[b].cost)) b = k;
  }
  if (b >= 0) {
    best_ = slots_[b].best;
    best_cost_ = slots_[b].cost;
    has_best_ = true;
  }
  // Roundings in thread order: the highest thread's is the latest.
  for (Slot& s : slots_) {
    if (!s.posted_rounding) continue;
    rounding_.swap(s.rounding);
    s.posted_rounding = false;
    ++rounding_version_;
  }
  // Claims in thread order.
  for (Slot& s : slots_) {
    if (s.pending < 0) continue;
    const Role r = Role(s.pending);
    bool holds_exclusive = false;
    for (int k = 0; k < kRoleCount; ++k)
      if (Role(k) != Role::kLagrangian && s.granted[k] >= 0) holds_exclusive = true;
    const bool may_take = s.may_take && !(r != Role::kLagrangian && holds_exclusive);
    s.granted[s.pending] = grant_(r, may_take);
    s.pending = -1;
  }
}

bool Lockstep::adopt(std::vector<int32_t>* a, double* cost) const {
  if (!has_best_ || best_cost_ >= *cost - 1e-9) return false;
  *a = best_;
  *cost = best_cost_;
  return true;
}

void Lockstep::post_rounding(int tid, const std::vector<int32_t>& a) {
  std::lock_guard<std::mutex> lock(mu_);
  slots_[tid].rounding = a;
  slots_[tid].posted_rounding = true;
}

bool Lockstep::latest_rounding(std::vector<int32_t>* a, int64_t* version) const {
  if (rounding_version_ == *version) return false;
  *a = rounding_;
  *version = rounding_version_;
  return true;
}

int Lockstep::claim(Role role, int tid, bool may_take) {
  std::lock_guard<std::mutex> lock(mu_);
  Slot& s = slots_[tid];
  const int k = int(role);
  if (s.granted[k] != kRolePending) return s.granted[k];
  s.pending = k;
  s.may_take = may_take;
  return kRolePending;
}

}  // namespace iopddl
