#include "scheduler.h"

#include <algorithm>
#include <cmath>

#include "search_state.h"

namespace iopddl {

double log_fall(double before, double after) {
  if (!has_cost(after) || !(after < before)) return 0.0;
  if (!has_cost(before)) return 1.0;
  return std::log((before + 1.0) / (after + 1.0));
}

void YieldScheduler::init(int steps, const Params& prm, int rotate) {
  arms_.assign(steps, Arm{});
  explore_ = prm.schedule_floor;
  halflife_share_ = prm.schedule_halflife_share;
  halflife_min_ = prm.schedule_halflife_min;
  role_warmup_ = prm.schedule_role_warmup;
  faded_at_ = 0;
  rotate_ = steps > 0 ? rotate % steps : 0;
}

void YieldScheduler::fade(double now) {
  const double dt = now - faded_at_;
  if (dt <= 0) return;
  const double h = std::max(halflife_min_, halflife_share_ * now);
  const double f = std::exp2(-dt / h);
  for (Arm& a : arms_) {
    a.used *= f;
    a.gain *= f;
  }
  faded_at_ = now;
}

double YieldScheduler::yield(int k) const {
  const Arm& a = arms_[k];
  return a.used > 0 ? a.gain / a.used : 0.0;
}

double YieldScheduler::earned(int k, const std::vector<char>& available) const {
  if (arms_[k].runs < role_warmup_) return 1.0;
  double gain = 0, used = 0;
  for (int j = 0; j < int(arms_.size()); ++j)
    if (j != k && available[j]) {
      gain += arms_[j].gain;
      used += arms_[j].used;
    }
  const double others = used > 0 ? gain / used : 0.0;
  if (others <= 0) return 1.0;  // nothing to compare with: the role stands
  return std::min(1.0, yield(k) / others);
}

int YieldScheduler::pick(const std::vector<char>& available, const std::vector<double>& floor, double now,
                        const std::vector<FloorKind>& kind) {
  fade(now);
  const int n = int(arms_.size());
  // Every step once first, in an order that differs between threads.
  for (int j = 0; j < n; ++j) {
    const int k = (rotate_ + j) % n;
    if (available[k] && arms_[k].runs == 0) return k;
  }
  const auto kind_of = [&](int k) { return k < int(kind.size()) ? kind[k] : kHardFloor; };
  const auto is_soft = [&](int k) { return kind_of(k) != kHardFloor; };
  const auto share = [&](int k) { return kind_of(k) == kEarnedRole ? earned(k, available) : 1.0; };
  double used = 0, hard = 0, yields = 0;
  int live = 0;
  for (int k = 0; k < n; ++k) {
    if (!available[k]) continue;
    ++live;
    used += arms_[k].used;
    if (!is_soft(k)) hard += std::max(explore_, floor[k]);
    yields += yield(k);
  }
  if (live == 0) return -1;
  // A soft floor is a share of what the hard ones leave, as far as earned.
  const auto floor_of = [&](int k) {
    return is_soft(k) ? std::max(explore_, floor[k] * std::max(0.0, 1.0 - hard) * share(k))
                      : std::max(explore_, floor[k]);
  };
  double floors = 0;
  for (int k = 0; k < n; ++k)
    if (available[k]) floors += floor_of(k);
  // Floors that add up to more than the whole leave a little to the yields.
  const double scale = floors > 0.95 ? 0.95 / floors : 1.0;
  const double rest = 1.0 - floors * scale;
  int best = -1;
  double best_deficit = 0;
  for (int k = 0; k < n; ++k) {
    if (!available[k]) continue;
    const double target = floor_of(k) * scale + rest * (yields > 0 ? yield(k) / yields : 1.0 / live);
    const double deficit = target * used - arms_[k].used;
    if (best < 0 || deficit > best_deficit) {
      best = k;
      best_deficit = deficit;
    }
  }
  return best;
}

void YieldScheduler::record(int k, double used, double gain, double now) {
  fade(now);
  Arm& a = arms_[k];
  ++a.runs;
  a.used += std::max(used, 0.0);
  a.gain += std::max(gain, 0.0);
}

}  // namespace iopddl
