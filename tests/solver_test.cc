#include <cstdio>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "elimination.h"
#include "load_json.h"
#include "penalised_rounding.h"
#include "random_instance.h"
#include "reduce_domains.h"
#include "search_model.h"
#include "solver.h"
#include "test_data.h"

using namespace iopddl;

using test_support::load;
using test_support::rounds;

TEST(Solver, ContestExampleOptimum) {
  Problem p = load("example.json");
  SolveResult r = solve(p, rounds(5));
  ASSERT_TRUE(r.status.ok) << r.status.message;
  EXPECT_TRUE(r.feasible);
  EXPECT_EQ(r.assignment, (std::vector<int32_t>{0, 0, 2, 1, 0}));
  EXPECT_EQ(to_string(r.evaluation.total_cost), "445");
  ASSERT_TRUE(r.has_lower_bound);
  EXPECT_LE(r.lower_bound, r.evaluation.total_cost);
}

// Reduces p and checks the reductions against exhaustive search: a wipe-out
// only where nothing fits, else the same optimum over the reduced domains.
// What came out: the reductions' stats, the live strategies left, and the
// optimum (when feasible).
struct ReducedCheck {
  ReduceStats rs;
  int64_t live = 0;
  test_support::Exhaustive full;
};
// Every rule runs, the dominated strategies' (off by default) too.
ReducedCheck check_reductions_keep_the_optimum(const Problem& p, uint64_t seed) {
  ReducedCheck r;
  r.full = test_support::exhaustive(p);
  SearchModel m;
  m.build(p);
  m.params.dominance_budget = 4096;
  r.rs = reduce_domains(&m);
  if (r.rs.wiped_out) {
    // A wipe-out claims that no feasible assignment exists.
    EXPECT_FALSE(r.full.feasible) << "seed " << seed;
    return r;
  }
  std::vector<std::vector<int32_t>> doms(p.num_nodes());
  for (int i = 0; i < p.num_nodes(); ++i) {
    doms[i].assign(m.domain(i), m.domain(i) + m.dom_size(i));
    r.live += m.dom_size(i);
  }
  test_support::Exhaustive reduced = test_support::exhaustive(p, &doms);
  EXPECT_EQ(r.full.feasible, reduced.feasible) << "seed " << seed;
  if (r.full.feasible && reduced.feasible) EXPECT_EQ(to_string(r.full.cost), to_string(reduced.cost)) << "seed " << seed;
  return r;
}

// The reductions never remove a strategy that an optimal feasible answer
// needs: exhaustive search over the reduced domains finds the same optimum.
TEST(Reductions, ExactOnRandomInstances) {
  int checked = 0, wiped = 0;
  for (uint64_t seed = 1; seed <= 800; ++seed) {
    const ReducedCheck r = check_reductions_keep_the_optimum(test_support::random_instance(seed), seed);
    if (r.rs.wiped_out) ++wiped;
    else ++checked;
  }
  EXPECT_GT(checked, 200);
  EXPECT_GT(wiped, 5);  // the generator must exercise infeasible instances too
}

// Every strategy of `p` twice, the copy's own cost raised by 0-2 (the same
// sometimes), usage and edge entries the same: a repeat of the original (the
// large benchmark files are made so, scripts/triple.py).
Problem with_repeats(const Problem& p, uint64_t seed) {
  Rng rng(seed);
  Problem q;
  q.name = p.name + "-repeated";
  q.interval_lo = p.interval_lo;
  q.interval_hi = p.interval_hi;
  for (int i = 0; i < p.num_nodes(); ++i) {
    for (int s = 0; s < p.num_strategies(i); ++s)
      for (int copy = 0; copy < 2; ++copy) {
        const int64_t c = p.cost(i, s);
        q.node_cost.push_back(copy == 1 && c < kForbidden ? c + int64_t(rng.below(3)) : c);
        q.node_usage.push_back(p.usage(i, s));
      }
    q.strategy_offset.push_back(q.node_cost.size());
  }
  for (int e = 0; e < p.num_edges(); ++e) {
    q.edge_u.push_back(p.edge_u[e]);
    q.edge_v.push_back(p.edge_v[e]);
    const int Ku = p.num_strategies(p.edge_u[e]), Kv = p.num_strategies(p.edge_v[e]);
    for (int a = 0; a < 2 * Ku; ++a)
      for (int b = 0; b < 2 * Kv; ++b) q.edge_cost.push_back(p.edge_entry(e, a / 2, b / 2));
    q.edge_cost_offset.push_back(q.edge_cost.size());
  }
  q.has_usage_limit = p.has_usage_limit;
  q.usage_limit = p.usage_limit;
  finalize_problem(&q);
  return q;
}

// Repeats go (every live strategy of a repeated instance has a copy, so about
// half go), and what is left keeps the optimum: exhaustive search over the
// reduced domains finds the repeated instance's optimum, which is the
// original's.
TEST(Reductions, RepeatsGoAndTheOptimumStays) {
  int checked = 0;
  int64_t repeats = 0, live = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    const Problem original = test_support::random_instance(seed, 5, 2);
    const ReducedCheck r = check_reductions_keep_the_optimum(with_repeats(original, seed), seed);
    if (r.rs.wiped_out) continue;
    live += r.live;
    repeats += r.rs.removed_repeat;
    if (r.full.feasible)
      EXPECT_EQ(to_string(r.full.cost), to_string(test_support::exhaustive(original).cost)) << "seed " << seed;
    ++checked;
  }
  EXPECT_GT(checked, 100);
  // Every copy that survived the other rules has its original beside it.
  EXPECT_GE(repeats, live) << "live after the reductions " << live;
}

// Dominated strategies go (a cheaper strategy of the same node that uses no
// more memory and, against every neighbour choice, is never dearer by more
// than it saves), and what is left keeps the optimum. The random instances
// have tight limits, forbidden entries, multi-edges and self-loops; the
// exhaustive search over the reduced domains must find the same optimum.
TEST(Reductions, DominatedGoAndTheOptimumStays) {
  int checked = 0;
  int64_t dominated = 0;
  for (uint64_t seed = 1; seed <= 1500; ++seed) {
    const ReducedCheck r = check_reductions_keep_the_optimum(test_support::random_instance(seed, 6, 4), seed);
    if (r.rs.wiped_out) continue;
    dominated += r.rs.removed_dominated;
    ++checked;
  }
  EXPECT_GT(checked, 500);
  EXPECT_GT(dominated, 300);
}

// The rule's conditions, one instance each: node 0's strategy 1 costs more
// than strategy 0 by more than it can save on the edge (goes); the same with
// strategy 0 using more memory (stays, but goes without a limit); the same
// with strategy 0 forbidden against a choice of node 1 that strategy 1 may
// meet (stays).
TEST(Reductions, DominanceNeedsCostMemoryAndEveryPartner) {
  const auto two_nodes = [](int64_t usage0, int64_t entry00, bool limited = true) {
    Problem p;
    p.name = "dominance";
    p.interval_lo = {0, 0};
    p.interval_hi = {1, 1};
    p.node_cost = {10, 12, 0, 5};
    p.node_usage = {usage0, 5, 1, 1};
    p.strategy_offset = {0, 2, 4};
    p.edge_u = {0};
    p.edge_v = {1};
    // Rows: strategy 0 of node 0, then 1: strategy 1 is dearer by 3 against
    // node 1's first choice and cheaper by 1 against its second, which its
    // own cost (2 more) outweighs.
    p.edge_cost = {entry00, 7, 8, 6};
    p.edge_cost_offset = {0, 4};
    p.has_usage_limit = limited;
    p.usage_limit = 100;
    finalize_problem(&p);
    return p;
  };
  const auto node0_left = [](const Problem& p) {
    SearchModel m;
    m.build(p);
    m.params.dominance_budget = 4096;
    reduce_domains(&m);
    return m.dom_size(0);
  };
  EXPECT_EQ(node0_left(two_nodes(5, 5)), 1);
  EXPECT_EQ(node0_left(two_nodes(6, 5)), 2);
  EXPECT_EQ(node0_left(two_nodes(6, 5, false)), 1);  // no limit: memory does not count
  EXPECT_EQ(node0_left(two_nodes(5, kForbidden)), 2);
}

// Elimination with functional-edge contraction is exact: whenever it needed no
// heuristic decision, its answer is the optimum (no memory limit here).
TEST(Elimination, ContractionIsExact) {
  int contracted_cases = 0, feasible_cases = 0, undecided = 0;
  for (uint64_t seed = 1; seed <= 3000; ++seed) {
    Problem p = test_support::dense_functional_instance(seed);
    test_support::Exhaustive ex = test_support::exhaustive(p);
    if (!ex.feasible) continue;
    ++feasible_cases;
    SearchModel m;
    m.build(p);  // full domains: no reductions to do the work beforehand
    m.build_matrices();
    EliminationSolver elim;
    elim.init(m);
    Rng rng(seed);
    std::vector<int32_t> y, all_free(m.n, -1);
    EliminationStats es = elim.solve(all_free, &y, &rng);
    ASSERT_TRUE(es.complete);
    if (es.decided > 0) continue;
    ++undecided;
    contracted_cases += es.contracted > 0;
    Evaluation ev = evaluate(p, y);
    EXPECT_TRUE(ev.feasible()) << "seed " << seed;
    EXPECT_EQ(to_string(ev.total_cost), to_string(ex.cost)) << "seed " << seed;
  }
  EXPECT_GT(contracted_cases, 50) << feasible_cases << " feasible, " << undecided << " undecided";
}

// Decisions by min-sum beliefs beat decisions by star estimates on loopy
// graphs where elimination cannot avoid deciding: over many random instances
// (every node of degree 3 or more, no forbidden entries, no limit), they reach
// the exhaustive optimum more often and their total excess is smaller.
TEST(Elimination, BeliefDecisionsBeatStarEstimates) {
  int optimal[2] = {0, 0}, cases = 0;
  double excess[2] = {0, 0};
  for (uint64_t seed = 1; seed <= 150; ++seed) {
    Rng rng(seed);
    Problem p;
    const int n = 8;
    for (int i = 0; i < n; ++i) {
      p.interval_lo.push_back(0);
      p.interval_hi.push_back(1);
      for (int s = 0; s < 3; ++s) {
        p.node_cost.push_back(int64_t(rng.below(100)));
        p.node_usage.push_back(1);
      }
      p.strategy_offset.push_back(p.node_cost.size());
    }
    // A ring with chords: every node has degree 3 or 4.
    for (int u = 0; u < n; ++u)
      for (int v : {(u + 1) % n, (u + 3) % n}) {
        p.edge_u.push_back(u);
        p.edge_v.push_back(v);
        for (int k = 0; k < 9; ++k) p.edge_cost.push_back(int64_t(rng.below(100)));
        p.edge_cost_offset.push_back(p.edge_cost.size());
      }
    ASSERT_TRUE(finalize_problem(&p).ok);
    test_support::Exhaustive ex = test_support::exhaustive(p);
    ASSERT_TRUE(ex.feasible);
    SearchModel m;
    m.build(p);
    m.build_matrices();
    EliminationSolver elim;
    elim.init(m);
    std::vector<int32_t> y, all_free(m.n, -1);
    bool decided = false;
    for (int rule = 0; rule < 2; ++rule) {
      EliminationOptions eo;
      eo.belief_every = rule;  // 0: star estimates, 1: beliefs before every decision
      Rng r2(seed);
      EliminationStats es = elim.solve(all_free, &y, &r2, eo);
      ASSERT_TRUE(es.complete);
      decided = es.decided > 0;
      Evaluation ev = evaluate(p, y);
      ASSERT_TRUE(ev.feasible());
      ASSERT_GE(ev.total_cost, ex.cost);
      optimal[rule] += ev.total_cost == ex.cost;
      excess[rule] += double(ev.total_cost - ex.cost) / double(ex.cost);
    }
    cases += decided;
  }
  EXPECT_GT(cases, 100);
  EXPECT_GT(optimal[1], optimal[0]) << "star " << optimal[0] << ", beliefs " << optimal[1] << " of " << cases;
  EXPECT_LT(excess[1], excess[0]) << "star " << excess[0] << ", beliefs " << excess[1];
  std::printf("belief decisions: optimal in %d vs %d of %d, summed excess %.3f vs %.3f\n", optimal[1], optimal[0],
              cases, excess[1], excess[0]);
}

// The solver's answer against exhaustive search; its bound never above the optimum.
TEST(Solver, MatchesExhaustiveOptimumAndBoundHolds) {
  int feasible_cases = 0, optimal = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    Problem p = test_support::random_instance(seed);
    test_support::Exhaustive ex = test_support::exhaustive(p);
    SolveResult r = solve(p, rounds(20, 1, seed));
    ASSERT_TRUE(r.status.ok);
    ASSERT_EQ(int(r.assignment.size()), p.num_nodes());
    if (!ex.feasible) {
      EXPECT_FALSE(r.feasible) << "seed " << seed;
      continue;
    }
    ++feasible_cases;
    EXPECT_TRUE(r.feasible) << "seed " << seed << ": a feasible assignment exists but none was returned";
    if (!r.feasible) continue;
    EXPECT_GE(r.evaluation.total_cost, ex.cost) << "seed " << seed;
    optimal += r.evaluation.total_cost == ex.cost;
    if (r.has_lower_bound) EXPECT_LE(r.lower_bound, ex.cost) << "seed " << seed << ": bound above the optimum";
  }
  EXPECT_GT(feasible_cases, 100);
  // A heuristic search, but on instances this small it should almost always be optimal.
  EXPECT_GE(optimal * 100, feasible_cases * 95) << optimal << " of " << feasible_cases;
}

// The rounding role's bound (messages on the priced problem, minus the limit
// times a cover of the prices by per-segment multipliers) never exceeds the
// constrained optimum, however the prices have moved.
TEST(PenalisedRounding, BoundNeverAboveOptimum) {
  int checked = 0, priced = 0;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    Problem p = test_support::random_instance(seed);
    // A limit that binds: between the peak of the least-usage assignment and
    // that of the cheapest strategies.
    std::vector<int32_t> least(p.num_nodes(), 0), cheap(p.num_nodes(), 0);
    for (int i = 0; i < p.num_nodes(); ++i)
      for (int s = 1; s < p.num_strategies(i); ++s) {
        if (p.usage(i, s) < p.usage(i, least[i])) least[i] = s;
        if (p.node_cost[p.strategy_offset[i] + s] < p.node_cost[p.strategy_offset[i] + cheap[i]]) cheap[i] = s;
      }
    const Int128 lo = evaluate(p, least).peak_usage, hi = evaluate(p, cheap).peak_usage;
    if (hi <= lo) continue;
    p.has_usage_limit = true;
    p.usage_limit = int64_t(lo + (hi - lo) / 2);
    test_support::Exhaustive ex = test_support::exhaustive(p);
    if (!ex.feasible) continue;
    // Without the reductions, which on instances this small often fix the
    // nodes whose usage matters.
    SearchModel m;
    m.build(p);
    m.build_matrices();
    PenalisedRounding pr;
    pr.init(m);
    Rng rng(seed);
    std::vector<int32_t> a;
    bool any_price = false;
    for (int step = 0; step < 40; ++step) {
      ASSERT_TRUE(pr.step(&a, &rng, nullptr));
      for (double w : pr.prices()) any_price |= w > 0;
      double mag = 0;
      const double lb = pr.lower_bound(&mag);
      EXPECT_LE(lb, double(ex.cost) + 1e-9 * mag + 1e-6) << "seed " << seed << " step " << step;
    }
    ++checked;
    priced += any_price;
  }
  EXPECT_GT(checked, 100);
  EXPECT_GT(priced * 2, checked);  // the prices must actually move
}

TEST(Solver, DeterministicWithOneThreadAndFixedSeed) {
  Problem p = load("asplos-2025-iopddl-G.json.gz");
  SolveResult a = solve(p, rounds(6, 1, 7));
  SolveResult b = solve(p, rounds(6, 1, 7));
  ASSERT_TRUE(a.feasible);
  EXPECT_EQ(a.assignment, b.assignment);
  EXPECT_EQ(to_string(a.evaluation.total_cost), to_string(b.evaluation.total_cost));
}

TEST(Solver, FeasibleWithinDeadlineOnRealInstanceWithThreads) {
  Problem p = load("asplos-2025-iopddl-G.json.gz");
  SolveOptions o;
  o.time_limit_seconds = 1.0;
  o.threads = 2;
  std::atomic<int> calls{0};
  o.on_progress = [&](const Progress& pr) { calls++; };
  auto t0 = std::chrono::steady_clock::now();
  SolveResult r = solve(p, o);
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(r.status.ok);
  EXPECT_TRUE(r.feasible);
  EXPECT_EQ(r.evaluation.forbidden_entries, 0);
  EXPECT_LT(wall, 1.6);
  EXPECT_EQ(r.stats.threads, 2);
  EXPECT_GT(r.stats.rounds, 2);
  EXPECT_GT(calls.load(), 2);
  EXPECT_FALSE(r.stats.history.empty());
  ASSERT_TRUE(r.has_lower_bound);
  EXPECT_LE(r.lower_bound, r.evaluation.total_cost);
}

TEST(Solver, StopFlagEndsTheSearchEarly) {
  Problem p = load("asplos-2025-iopddl-G.json.gz");
  std::atomic<bool> stop{false};
  SolveOptions o;
  o.time_limit_seconds = 30;
  o.threads = 2;
  o.stop = &stop;
  std::thread t([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    stop = true;
  });
  auto t0 = std::chrono::steady_clock::now();
  SolveResult r = solve(p, o);
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  t.join();
  EXPECT_LT(wall, 1.0);
  EXPECT_TRUE(r.feasible);
}

TEST(Solver, ReportsInfeasibleWhenNothingFits) {
  Problem p;
  ASSERT_TRUE(load_problem_from_buffer(
      R"({"problem":{"nodes":{"intervals":[[0,2],[1,3]],"costs":[[1,2],[3]],"usages":[[5,6],[7]]},
          "edges":{"nodes":[],"costs":[]},"usage_limit":10}})", "inline", &p).ok);
  SolveResult r = solve(p, rounds(3));
  EXPECT_FALSE(r.feasible);
  EXPECT_TRUE(r.proven_infeasible());
  EXPECT_EQ(r.outcome, Outcome::kProvenInfeasible);
  EXPECT_EQ(r.assignment.size(), 2u);
}

// By default a solve proven infeasible searches on for the least-violating
// answer; with end_when_proven_infeasible it ends before its first round.
TEST(Solver, EndsWhenProvenInfeasibleOnlyWhenAsked) {
  const Problem p = test_support::forbidden_at_the_least_peak();
  SolveOptions o = rounds(3);
  {
    SolveSession session(p, o);
    ASSERT_TRUE(session.status().ok);
    EXPECT_FALSE(session.finished());
    while (session.run(1e9)) {
    }
    const SolveResult r = session.result();
    EXPECT_TRUE(r.proven_infeasible());
    EXPECT_EQ(r.assignment.size(), 2u);
    EXPECT_GT(r.stats.counter(Counter::rounds), 0);
  }
  o.end_when_proven_infeasible = true;
  SolveSession session(p, o);
  ASSERT_TRUE(session.status().ok);
  EXPECT_TRUE(session.finished());
  EXPECT_FALSE(session.run(1e9));
  const SolveResult r = session.result();
  EXPECT_TRUE(r.proven_infeasible());
  EXPECT_FALSE(r.feasible);
  EXPECT_EQ(r.stats.counter(Counter::rounds), 0);
  // The same problem with room for one larger usage is feasible, flag or not.
  o.usage_limit = UsageLimit{true, 14};
  const SolveResult wider = solve(p, o);
  EXPECT_TRUE(wider.feasible);
  EXPECT_EQ(wider.evaluation.total_cost, 1);
}

// A solve at another usage limit (SolveOptions::usage_limit) is the solve of
// the same problem whose file said that limit: the same answer, bound and
// verdict under a round budget, at limits from the least peak to none, and
// the exhaustive optimum's verdict and cost at each.
TEST(Solver, SolvesAtAnotherUsageLimitAsIfTheFileSaidIt) {
  int binding = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    const Problem p = test_support::random_instance(seed);
    const int64_t least = int64_t(least_peak_usage(p));
    const int64_t file = p.limit_or_max() == INT64_MAX ? least * 2 : p.usage_limit;
    for (const UsageLimit limit : {UsageLimit{true, least - 1}, UsageLimit{true, least}, UsageLimit{true, (least + file) / 2},
                                   UsageLimit{true, file + 3}, UsageLimit{false, 0}}) {
      if (limit.has && limit.value < 0) continue;
      Problem said = p;
      said.has_usage_limit = limit.has;
      said.usage_limit = limit.value;
      SolveOptions o = rounds(10, 1, seed);
      const SolveResult want = solve(said, o);
      o.usage_limit = limit;
      const SolveResult got = solve(p, o);
      const std::string at = "seed " + std::to_string(seed) + ", limit " + (limit.has ? std::to_string(limit.value) : "none");
      ASSERT_TRUE(got.status.ok) << at << ": " << got.status.message;
      EXPECT_EQ(got.assignment, want.assignment) << at;
      EXPECT_EQ(got.feasible, want.feasible) << at;
      EXPECT_EQ(got.outcome, want.outcome) << at;
      EXPECT_EQ(got.has_lower_bound, want.has_lower_bound) << at;
      if (got.has_lower_bound && want.has_lower_bound) EXPECT_EQ(got.lower_bound, want.lower_bound) << at;
      EXPECT_EQ(got.evaluation.within_limit, want.evaluation.within_limit) << at;
      const test_support::Exhaustive ex = test_support::exhaustive(said);
      EXPECT_EQ(got.feasible, ex.feasible) << at;
      if (got.feasible && ex.feasible) EXPECT_GE(got.evaluation.total_cost, ex.cost) << at;
      if (got.has_lower_bound && ex.feasible) EXPECT_LE(got.lower_bound, ex.cost) << at;
      binding += ex.feasible && ex.cost != test_support::exhaustive([&] { Problem q = p; q.has_usage_limit = false; return q; }()).cost;
    }
  }
  // Enough of the limits bind (the optimum moves) for the test to mean something.
  EXPECT_GT(binding, 25);
}

TEST(Solver, RefusesANegativeUsageLimit) {
  const Problem p = test_support::load("example.json");
  SolveOptions o = rounds(3);
  o.usage_limit = UsageLimit{true, -1};
  const SolveResult r = solve(p, o);
  EXPECT_FALSE(r.status.ok);
  EXPECT_NE(r.status.message.find("usage limit"), std::string::npos) << r.status.message;
}
