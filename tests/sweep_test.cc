// Memory against cost (sweep.h): at each limit the sweep's plan is judged at
// that limit, costs and bounds never rise with the limit, every bound holds,
// and on instances small enough to enumerate the costs are the optima. A
// session run in slices gives sweep()'s points, and its stop flag ends it.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <set>

#include "random_instance.h"
#include "sweep.h"
#include "test_data.h"

using namespace iopddl;

namespace {

// Costs and bounds never rise as the limit grows; each plan fits its limit.
void expect_monotone(const Problem& p, const SweepResult& r, const std::string& at) {
  for (size_t k = 0; k < r.points.size(); ++k) {
    const SweepPoint& pt = r.points[k];
    const Evaluation ev = evaluate(p, pt.assignment, UsageLimit{true, pt.limit});
    ASSERT_TRUE(ev.status.ok) << at;
    EXPECT_EQ(ev.feasible(), pt.feasible) << at << " point " << k;
    EXPECT_EQ(ev.total_cost, pt.cost) << at << " point " << k;
    if (pt.feasible && pt.has_lower_bound) EXPECT_LE(pt.lower_bound, pt.cost) << at << " point " << k;
    if (k == 0) continue;
    const SweepPoint& prev = r.points[k - 1];
    EXPECT_LT(prev.limit, pt.limit) << at;
    if (prev.feasible) {
      EXPECT_TRUE(pt.feasible) << at << " point " << k << ": a plan that fits a limit fits every larger one";
      EXPECT_LE(pt.cost, prev.cost) << at << " point " << k;
    }
    if (prev.has_lower_bound && pt.has_lower_bound) EXPECT_GE(prev.lower_bound, pt.lower_bound) << at << " point " << k;
  }
}

// Every point of `a` as in `b`: limits, plans, costs, peaks, bounds, flags.
void expect_same_points(const SweepResult& a, const SweepResult& b, const std::string& at) {
  ASSERT_TRUE(a.status.ok) << at << ": " << a.status.message;
  ASSERT_TRUE(b.status.ok) << at << ": " << b.status.message;
  EXPECT_EQ(a.least_peak, b.least_peak) << at;
  EXPECT_EQ(a.has_free_plan, b.has_free_plan) << at;
  EXPECT_EQ(a.free_cost, b.free_cost) << at;
  EXPECT_EQ(a.free_peak, b.free_peak) << at;
  EXPECT_EQ(a.free_has_lower_bound, b.free_has_lower_bound) << at;
  EXPECT_EQ(a.free_lower_bound, b.free_lower_bound) << at;
  ASSERT_EQ(a.points.size(), b.points.size()) << at;
  for (size_t k = 0; k < a.points.size(); ++k) {
    const SweepPoint &p = a.points[k], &q = b.points[k];
    const std::string here = at + " point " + std::to_string(k);
    EXPECT_EQ(p.limit, q.limit) << here;
    EXPECT_EQ(p.assignment, q.assignment) << here;
    EXPECT_EQ(p.feasible, q.feasible) << here;
    EXPECT_EQ(p.cost, q.cost) << here;
    EXPECT_EQ(p.peak_usage, q.peak_usage) << here;
    EXPECT_EQ(p.has_lower_bound, q.has_lower_bound) << here;
    EXPECT_EQ(p.lower_bound, q.lower_bound) << here;
    EXPECT_EQ(p.proven_optimal, q.proven_optimal) << here;
    EXPECT_EQ(p.proven_infeasible, q.proven_infeasible) << here;
    EXPECT_EQ(p.from_neighbour, q.from_neighbour) << here;
  }
}

// A session run in slices of `slice` seconds to the end; `slices` counts them.
SweepResult sliced(const Problem& p, const SweepOptions& o, double slice, int* slices,
                   std::vector<int64_t>* reported) {
  SweepOptions so = o;
  so.on_point = [reported](const SweepPoint& pt) { reported->push_back(pt.limit); };
  SweepSession s(p, so);
  *slices = 1;
  while (s.run(slice)) ++*slices;
  EXPECT_TRUE(s.finished());
  EXPECT_FALSE(s.run(1));
  return s.result();
}

}  // namespace

TEST(Sweep, EqualsTheExhaustiveOptimumAtEachLimit) {
  int points = 0, optimal = 0, infeasible = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    const Problem p = test_support::random_instance(seed);
    const int64_t least = int64_t(least_peak_usage(p));
    SweepOptions o;
    o.solve = test_support::rounds(10, 1, seed);
    o.solve.time_limit_seconds = 600;
    o.limits = {least + 7, least - 1, least, least + 2, least * 2, least + 2};  // any order, repeats
    const SweepResult r = sweep(p, o);
    const std::string at = "seed " + std::to_string(seed);
    ASSERT_TRUE(r.status.ok) << at << ": " << r.status.message;
    EXPECT_EQ(r.least_peak, least_peak_usage(p));
    const std::set<int64_t> distinct(o.limits.begin(), o.limits.end());
    ASSERT_EQ(r.points.size(), distinct.size()) << at;
    expect_monotone(p, r, at);
    for (const SweepPoint& pt : r.points) {
      Problem said = p;
      said.has_usage_limit = true;
      said.usage_limit = pt.limit;
      const test_support::Exhaustive ex = test_support::exhaustive(said);
      const std::string here = at + " limit " + std::to_string(pt.limit);
      if (Int128(pt.limit) < r.least_peak) {
        EXPECT_TRUE(pt.proven_infeasible) << here;
        EXPECT_FALSE(ex.feasible) << here;
        ++infeasible;
      }
      EXPECT_EQ(pt.feasible, ex.feasible) << here;
      if (!pt.feasible || !ex.feasible) continue;
      ++points;
      EXPECT_EQ(pt.cost, ex.cost) << here;
      if (pt.has_lower_bound) EXPECT_LE(pt.lower_bound, ex.cost) << here;
      optimal += pt.proven_optimal;
    }
  }
  EXPECT_GT(infeasible, 40);
  EXPECT_GT(points, 150);
  // Under a round budget the answers are the same on every run; on instances
  // this small the search reaches the optimum at every limit and proves it.
  EXPECT_EQ(optimal, points) << "proven optimal";
}

TEST(Sweep, ChoosesItsPointsFromTheLeastPeakToTheFreePlan) {
  const Problem p = test_support::load("asplos-2025-iopddl-G.json.gz");
  SweepOptions o;
  o.solve = test_support::rounds(3, 1, 1);
  o.points = 5;
  std::vector<int64_t> seen;
  o.on_point = [&](const SweepPoint& pt) { seen.push_back(pt.limit); };
  const SweepResult r = sweep(p, o);
  ASSERT_TRUE(r.status.ok) << r.status.message;
  ASSERT_TRUE(r.has_free_plan);
  ASSERT_EQ(r.points.size(), 5u);
  EXPECT_EQ(Int128(r.points.front().limit), r.least_peak);
  EXPECT_EQ(Int128(r.points.back().limit), r.free_peak);
  EXPECT_EQ(r.points.back().cost, r.free_cost);
  EXPECT_GT(r.free_peak, r.least_peak);
  EXPECT_EQ(seen.size(), r.points.size());
  expect_monotone(p, r, "G");
  for (const SweepPoint& pt : r.points) EXPECT_TRUE(pt.feasible) << pt.limit;
  // The limit binds: the least peak's plan costs more than the free one.
  EXPECT_GT(r.points.front().cost, r.points.back().cost);
  EXPECT_TRUE(std::find(seen.begin(), seen.end(), p.usage_limit) != seen.end()) << "the file's limit is a point";
  // A session in slices far shorter than its solves gives the same points.
  int slices = 0;
  std::vector<int64_t> order;
  const SweepResult parts = sliced(p, o, 1e-4, &slices, &order);
  expect_same_points(parts, r, "G sliced");
  EXPECT_EQ(order, seen);
  EXPECT_GT(slices, 3 * int(parts.points.size()));
}

static SweepPoint at(int64_t limit, bool feasible, Int128 cost) {
  SweepPoint pt;
  pt.limit = limit;
  pt.feasible = feasible;
  pt.cost = cost;
  return pt;
}

// The next point goes where the fall in cost times the width in log(limit)
// is largest, at the stretch's geometric middle.
TEST(SweepSplit, SplitsTheLargestFallTimesWidth) {
  // Equal widths (factor 4 each): the larger fall wins.
  std::optional<int64_t> s = split_limit({at(100, true, 900), at(400, true, 800), at(1600, true, 100)});
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(*s, 800);
  // Equal falls: the wider stretch wins.
  s = split_limit({at(100, true, 900), at(200, true, 500), at(1600, true, 100)});
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(*s, 565);  // floor(sqrt(200 * 1600))
  // A flat curve: the widest stretch.
  s = split_limit({at(100, true, 5), at(200, true, 5), at(1600, true, 5)});
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(*s, 565);
  // No room anywhere.
  EXPECT_FALSE(split_limit({at(100, true, 9), at(101, true, 5), at(102, true, 1)}).has_value());
  EXPECT_FALSE(split_limit({at(100, true, 9)}).has_value());
}

// A stretch from a point where nothing fits has no known fall. It counts
// the largest fall known, so a narrow one next to the least peak no longer
// takes every point (K: the least peak 429.4M proven infeasible, the file's
// limit 472.1M, the free plan's peak 6,376M; the sweep placed six of its
// nine points between the least peak and the file's limit, none above it).
TEST(SweepSplit, AStretchWithoutAPlanCountsTheLargestFallKnown) {
  const std::vector<SweepPoint> k = {at(429430072, false, 0), at(472141920, true, 2233581322),
                                     at(6376379148, true, 610951352)};
  std::optional<int64_t> s = split_limit(k);
  ASSERT_TRUE(s.has_value());
  EXPECT_GT(*s, 472141920);
  EXPECT_LT(*s, 6376379148);
  // As wide as the rest, it is split first on a tie of falls (it comes first).
  s = split_limit({at(100, false, 0), at(400, true, 900), at(1600, true, 100)});
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(*s, 200);
  // Wider than the stretch with the largest fall: split first.
  s = split_limit({at(100, false, 0), at(1600, true, 900), at(3200, true, 100)});
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(*s, 400);
  // Nothing fits below the free plan: the widest stretch.
  s = split_limit({at(100, false, 0), at(200, false, 0), at(1600, true, 1)});
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(*s, 565);
}

// A point the reductions prove infeasible (at the least peak, the two
// least usages are a forbidden pair) gets no search: the least-usage plan,
// marked proven infeasible, and the next point is still solved.
TEST(Sweep, APointProvenInfeasibleShowsTheLeastUsagePlan) {
  const Problem p = test_support::forbidden_at_the_least_peak();
  SweepOptions o;
  o.solve = test_support::rounds(3, 1, 1);
  o.limits = {10, 14};
  const SweepResult r = sweep(p, o);
  ASSERT_TRUE(r.status.ok) << r.status.message;
  ASSERT_EQ(r.points.size(), 2u);
  EXPECT_EQ(Int128(r.points[0].limit), r.least_peak);
  EXPECT_TRUE(r.points[0].proven_infeasible);
  EXPECT_FALSE(r.points[0].feasible);
  EXPECT_EQ(r.points[0].assignment, (std::vector<int32_t>{0, 0}));
  EXPECT_EQ(r.points[0].peak_usage, 10);
  EXPECT_TRUE(r.points[1].feasible);
  EXPECT_EQ(r.points[1].cost, 1);
}

TEST(Sweep, RefusesBadLimitsAndPoints) {
  const Problem p = test_support::load("example.json");
  SweepOptions o;
  o.solve = test_support::rounds(2);
  o.limits = {60, -5};
  SweepResult r = sweep(p, o);
  EXPECT_FALSE(r.status.ok);
  EXPECT_NE(r.status.message.find("limits[1]"), std::string::npos) << r.status.message;
  o.limits.clear();
  o.points = 0;
  r = sweep(p, o);
  EXPECT_FALSE(r.status.ok);
  EXPECT_NE(r.status.message.find("points"), std::string::npos) << r.status.message;
  // A session says so at once and does nothing.
  SweepSession s(p, o);
  EXPECT_FALSE(s.status().ok);
  EXPECT_TRUE(s.finished());
  EXPECT_FALSE(s.run(1));
  EXPECT_TRUE(s.result().points.empty());
}

// In slices far shorter than its solves, a session under a round budget gives
// sweep()'s points, chosen or given, reported in the same order.
TEST(SweepSession, SlicedIsTheWholeSweep) {
  int slices_total = 0, points_searched = 0;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    const Problem p = test_support::random_instance(seed, 24, 4);
    const int64_t least = int64_t(least_peak_usage(p));
    for (const bool given : {false, true}) {
      SweepOptions o;
      o.solve = test_support::rounds(6, 1, seed);
      o.solve.time_limit_seconds = 600;
      o.points = 6;
      if (given) o.limits = {least - 1, least, least + 3, least * 2, least * 3 + 7};
      std::vector<int64_t> whole_order, sliced_order;
      o.on_point = [&](const SweepPoint& pt) { whole_order.push_back(pt.limit); };
      const SweepResult whole = sweep(p, o);
      int slices = 0;
      const SweepResult parts = sliced(p, o, 2e-5, &slices, &sliced_order);
      const std::string at = "seed " + std::to_string(seed) + (given ? " given" : " chosen");
      expect_same_points(parts, whole, at);
      EXPECT_EQ(sliced_order, whole_order) << at;
      expect_monotone(p, parts, at);
      slices_total += slices;
      for (const SweepPoint& pt : parts.points) points_searched += pt.feasible;
    }
  }
  // Points proven infeasible take no slice of their own.
  EXPECT_GT(slices_total, points_searched) << "the slices cut into the solves";
}

// Stopped while its third solve runs, a session ends at once: the points
// still to come keep their smaller neighbour's plan, and the curve holds.
TEST(SweepSession, StopFlagEndsIt) {
  const Problem p = test_support::load("asplos-2025-iopddl-G.json.gz");
  std::atomic<bool> stop{false};
  SweepOptions o;
  o.solve.time_limit_seconds = 5;  // 1 s a solve
  o.solve.threads = 1;
  ASSERT_TRUE(set_param(&o.solve.params, "proof_max_strategies", 0).ok);  // else proven and done at once
  o.solve.stop = &stop;
  o.points = 5;
  std::vector<SweepPoint> seen;
  o.on_point = [&](const SweepPoint& pt) { seen.push_back(pt); };
  SweepSession s(p, o);
  // The free solve gives the right end, the next the least peak's point.
  while (seen.size() < 2) ASSERT_TRUE(s.run(0.05));
  EXPECT_TRUE(s.run(0.05)) << "the third solve runs";
  stop.store(true);
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_FALSE(s.run(60));
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(took, 1.0) << "the three solves left would take 3 s";
  ASSERT_TRUE(s.status().ok) << s.status().message;
  const SweepResult& r = s.result();
  ASSERT_EQ(r.points.size(), 5u);
  expect_monotone(p, r, "stopped");
  for (const SweepPoint& pt : r.points) EXPECT_TRUE(pt.feasible) << pt.limit;
  // The points solved before the stop are in the result (costs may only fall).
  for (size_t k = 0; k < 2; ++k) {
    const auto at = std::find_if(r.points.begin(), r.points.end(),
                                 [&](const SweepPoint& pt) { return pt.limit == seen[k].limit; });
    ASSERT_TRUE(at != r.points.end()) << seen[k].limit;
    EXPECT_LE(at->cost, seen[k].cost);
  }
  EXPECT_GT(seen[1].seconds, 0.5) << "the least peak's point searched for its share before the stop";
}
