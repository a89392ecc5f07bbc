#include "sweep.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace iopddl {

namespace {

// A point from a solve's result, judged at the point's limit (the solve's
// own evaluation when it ran at that limit).
void fill(const Problem& p, const SolveResult& r, SweepPoint* pt) {
  pt->assignment = r.assignment;
  const bool same = r.usage_limit.has && r.usage_limit.value == pt->limit;
  const Evaluation other = same ? Evaluation() : evaluate(p, r.assignment, UsageLimit{true, pt->limit});
  const Evaluation& ev = same ? r.evaluation : other;
  pt->feasible = ev.feasible();
  pt->cost = ev.total_cost;
  pt->peak_usage = ev.peak_usage;
  pt->has_lower_bound = r.has_lower_bound;
  pt->lower_bound = r.lower_bound;
  pt->proven_infeasible = r.proven_infeasible();
  pt->seconds = r.elapsed_seconds;
  pt->first_feasible_seconds = r.stats.first_feasible_seconds;
}

// A plan found at a smaller limit replaces the point's own when it is cheaper
// (it fits: its peak is within the smaller limit).
void take_if_cheaper(const SweepPoint& smaller, SweepPoint* pt) {
  if (!smaller.feasible || (pt->feasible && pt->cost <= smaller.cost)) return;
  pt->assignment = smaller.assignment;
  pt->feasible = true;
  pt->cost = smaller.cost;
  pt->peak_usage = smaller.peak_usage;
  pt->from_neighbour = true;
}

}  // namespace

SweepResult sweep(const Problem& p, const SweepOptions& o) {
  SweepResult out;
  const auto t0 = std::chrono::steady_clock::now();
  const double total = std::max(0.0, o.solve.time_limit_seconds);
  const auto left = [&] {
    return std::max(0.0, total - std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  };
  std::vector<int64_t> limits = o.limits;
  for (size_t k = 0; k < limits.size(); ++k)
    if (limits[k] < 0) {
      out.status = Status::Error("limits[" + std::to_string(k) + "]: a usage limit must not be negative, got " +
                                 std::to_string(limits[k]), StatusCode::kBadArgument);
      return out;
    }
  if (limits.empty() && o.points < 1) {
    out.status = Status::Error("points must be at least 1, got " + std::to_string(o.points), StatusCode::kBadArgument);
    return out;
  }
  std::sort(limits.begin(), limits.end());
  limits.erase(std::unique(limits.begin(), limits.end()), limits.end());
  // Every node at its least usage: no plan peaks lower (and below that peak,
  // it is the plan that comes closest).
  const std::vector<int32_t> least_plan = least_usage_plan(p);
  const Evaluation least_ev = evaluate(p, least_plan, UsageLimit{false, 0});
  out.least_peak = least_ev.peak_usage;

  // Each solve gets an equal part of the time left.
  int solves_left = 0;
  const auto run = [&](const UsageLimit& limit, const std::vector<int32_t>* start) {
    SolveOptions so = o.solve;
    so.usage_limit = limit;
    so.start = start ? *start : std::vector<int32_t>{};
    so.time_limit_seconds = left() / std::max(1, solves_left);
    --solves_left;
    return solve(p, so);
  };
  std::vector<SweepPoint>& pts = out.points;  // kept in order of limit
  // The plan of the largest point below `limit` that has one: it fits `limit`.
  const auto smaller_plan = [&](int64_t limit) -> const std::vector<int32_t>* {
    const std::vector<int32_t>* plan = nullptr;
    for (const SweepPoint& q : pts)
      if (q.limit < limit && q.feasible) plan = &q.assignment;
    return plan;
  };
  const auto add = [&](SweepPoint pt) {
    auto at = std::lower_bound(pts.begin(), pts.end(), pt.limit,
                               [](const SweepPoint& q, int64_t l) { return q.limit < l; });
    at = pts.insert(at, std::move(pt));
    if (o.on_point) o.on_point(*at);
  };
  // Solves at `limit` from the next smaller point's plan; false on an error.
  const auto solve_at = [&](int64_t limit) {
    SweepPoint pt;
    pt.limit = limit;
    if (Int128(limit) < out.least_peak) {
      // Nothing fits: the least-usage plan, which comes closest.
      pt.assignment = least_plan;
      pt.cost = least_ev.total_cost;
      pt.peak_usage = least_ev.peak_usage;
      pt.proven_infeasible = true;
    } else {
      const SolveResult r = run(UsageLimit{true, limit}, smaller_plan(limit));
      if (!r.status.ok) {
        out.status = r.status;
        return false;
      }
      fill(p, r, &pt);
    }
    add(std::move(pt));
    return true;
  };

  if (!limits.empty()) {
    for (int64_t l : limits) solves_left += Int128(l) >= out.least_peak;
    for (int64_t l : limits)
      if (!solve_at(l)) return out;
  } else {
    // The cheapest plan without a limit sets the right end; the least peak
    // the left; the file's limit, when between, comes next. The rest split
    // the stretch where the curve is least known: the largest fall in cost
    // times the width in log(limit), at its geometric middle.
    solves_left = o.points;
    const SolveResult free = run(UsageLimit{false, 0}, nullptr);
    if (!free.status.ok) {
      out.status = free.status;
      return out;
    }
    out.has_free_plan = free.feasible;  // free of forbidden entries
    if (out.has_free_plan) {
      out.free_cost = free.evaluation.total_cost;
      out.free_peak = free.evaluation.peak_usage;
      out.free_has_lower_bound = free.has_lower_bound;
      out.free_lower_bound = free.lower_bound;
    }
    const int64_t lo = int64_t(std::min(out.least_peak, Int128(INT64_MAX)));
    if (!out.has_free_plan || out.free_peak <= out.least_peak || out.free_peak > Int128(INT64_MAX)) {
      if (!solve_at(lo)) return out;
    } else {
      SweepPoint right;
      right.limit = int64_t(out.free_peak);
      fill(p, free, &right);
      right.seconds = 0;
      right.first_feasible_seconds = -1;
      add(std::move(right));
      if (o.points > 1 && !solve_at(lo)) return out;
      if (o.points > 2 && p.has_usage_limit && p.usage_limit > lo && Int128(p.usage_limit) < out.free_peak &&
          !solve_at(p.usage_limit))
        return out;
      while (int(pts.size()) < o.points) {
        int best = -1;
        double best_score = -1;
        for (size_t k = 0; k + 1 < pts.size(); ++k) {
          const int64_t a = pts[k].limit, b = pts[k + 1].limit;
          if (b - a < 2) continue;
          const double width = std::log(double(b) / double(std::max<int64_t>(a, 1)));
          const double fall = pts[k].feasible ? std::max(0.0, double(pts[k].cost - pts[k + 1].cost)) : 1e300;
          // No fall anywhere: the widest stretch.
          const double score = fall * width + width * 1e-300;
          if (score > best_score) {
            best = int(k);
            best_score = score;
          }
        }
        if (best < 0) break;
        const int64_t a = pts[best].limit, b = pts[best + 1].limit;
        int64_t mid = int64_t(std::sqrt(double(std::max<int64_t>(a, 1)) * double(b)));
        mid = std::min(std::max(mid, a + 1), b - 1);
        if (!solve_at(mid)) return out;
      }
    }
  }

  // A plan found at a smaller limit fits every larger one.
  for (size_t k = 1; k < pts.size(); ++k) take_if_cheaper(pts[k - 1], &pts[k]);

  // A bound at a larger limit holds at every smaller one, as does the free
  // solve's; a point proven infeasible has no finite bound to raise.
  bool have = out.has_free_plan && out.free_has_lower_bound;
  Int128 carry = have ? out.free_lower_bound : 0;
  for (size_t k = out.points.size(); k-- > 0;) {
    SweepPoint& pt = out.points[k];
    if (pt.proven_infeasible) continue;
    if (pt.has_lower_bound && (!have || pt.lower_bound > carry)) {
      carry = pt.lower_bound;
      have = true;
    }
    if (have) {
      pt.has_lower_bound = true;
      pt.lower_bound = carry;
    }
    pt.proven_optimal = pt.feasible && pt.has_lower_bound && pt.cost <= pt.lower_bound;
  }
  return out;
}

}  // namespace iopddl
