// Memory against cost (sweep.h): at each limit the sweep's plan is judged at
// that limit, costs and bounds never rise with the limit, every bound holds,
// and on instances small enough to enumerate the costs are the optima.
#include <gtest/gtest.h>

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
}
