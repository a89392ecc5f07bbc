// Direct tests of the search's stages on small random instances, each against
// brute force: the usage tree, message passing, memory prices, local search and
// the neighbourhood search, and the roulette that picks among mechanisms.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <cmath>
#include <functional>

#include "elimination.h"
#include "load_json.h"
#include "local_search.h"
#include "lagrangian_bound.h"
#include "memory_relax.h"
#include "merge_answers.h"
#include "message_passing.h"
#include "neighbourhood_search.h"
#include "random_instance.h"
#include "reduce_domains.h"
#include "roulette.h"
#include "search_checks.h"
#include "search_form.h"
#include "search_model.h"
#include "search_state.h"
#include "usage_tree.h"

using namespace iopddl;

namespace {

// A random instance's model after the reductions, or false when it has no
// feasible assignment (then there is nothing to search).
bool prepared(uint64_t seed, Problem* p, SearchModel* m) {
  *p = test_support::random_instance(seed);
  m->build(*p);
  if (reduce_domains(m).wiped_out) return false;
  return true;
}

std::vector<int32_t> least_usage(const SearchModel& m) { return test_support::extreme_usage(m); }
std::vector<int32_t> largest_usage(const SearchModel& m) { return test_support::extreme_usage(m, true); }

}  // namespace

TEST(UsageTree, MatchesBruteForce) {
  Rng rng(11);
  for (int round = 0; round < 200; ++round) {
    const int S = 1 + int(rng.below(round < 100 ? 40 : 300));  // trees of up to 9 levels
    UsageTree t;
    std::vector<int64_t> plain(S, 0);
    // Half the rounds start from given values (the bulk build), half empty.
    if (round % 2) {
      for (int64_t& v : plain) v = int64_t(rng.below(2001)) - 1000;
      t.init(plain);
    } else {
      t.init(S);
    }
    for (int step = 0; step < 60; ++step) {
      int lo = int(rng.below(uint32_t(S))), hi = int(rng.below(uint32_t(S + 1)));
      if (lo > hi) std::swap(lo, hi);
      const int64_t v = int64_t(rng.below(2001)) - 1000;
      t.add(lo, hi, v);
      for (int k = lo; k < hi; ++k) plain[k] += v;
      int a = int(rng.below(uint32_t(S))), b = int(rng.below(uint32_t(S + 1)));
      if (a > b) std::swap(a, b);
      const int64_t want = a < b ? *std::max_element(plain.begin() + a, plain.begin() + b) : INT64_MIN / 4;
      ASSERT_EQ(t.max(a, b), want) << "round " << round << " step " << step;
      const int64_t top = *std::max_element(plain.begin(), plain.end());
      ASSERT_EQ(t.global_max(), top);
      ASSERT_EQ(t.argmax(), int(std::find(plain.begin(), plain.end(), top) - plain.begin()));
    }
  }
}

// The sweep order: by live interval, a node without one right after the
// neighbour it takes its start from (its producer), whatever the numbering.
// Before, it went first among the nodes starting there, so the rounding's
// forward pass chose consumers before producers (forbidden pairs on K).
TEST(SearchModel, SweepOrderPutsANodeWithoutIntervalAfterItsProducer) {
  const auto order_of = [](const std::string& intervals, const std::string& edges) {
    const std::string json = R"({"problem": {"name": "order", "nodes": {"intervals": )" + intervals +
                             R"(, "costs": [[1],[1],[1],[1]], "usages": [[1],[1],[1],[1]]}, "edges": {"nodes": )" +
                             edges + R"(, "costs": [[0],[0]]}, "usage_limit": 100}})";
    Problem p;
    const Status st = load_problem_from_buffer(json, "order", &p);
    EXPECT_TRUE(st.ok) << st.message;
    SearchModel m;
    m.build(p);
    return m.order;
  };
  // Node 0 lives [0,10), node 3 [0,3), node 2 [5,8); node 1 has no interval
  // and neighbours 0 and 2: it follows both nodes that start at 0.
  EXPECT_EQ(order_of("[[0,10],[0,0],[5,8],[0,3]]", "[[0,1],[1,2]]"), (std::vector<int32_t>{3, 0, 1, 2}));
  // Renumbered (i -> 3 - i), edge ends swapped: the same nodes in the same order.
  EXPECT_EQ(order_of("[[0,3],[5,8],[0,0],[0,10]]", "[[2,3],[1,2]]"), (std::vector<int32_t>{0, 3, 2, 1}));
}

// TRW-S: its bound never exceeds the unconstrained optimum, and on a tree
// (here: instances whose edges form a forest) it converges to that optimum
// and its rounding reaches it.
TEST(MessagePassing, BoundValidAndExactOnForests) {
  int forests = 0, exact = 0;
  for (uint64_t seed = 1; seed <= 600; ++seed) {
    Problem p = test_support::random_instance(seed);
    Problem free_p = p;
    free_p.has_usage_limit = false;  // message passing ignores memory
    test_support::Exhaustive ex = test_support::exhaustive(free_p);
    SearchModel m;
    m.build(free_p);
    m.build_matrices();
    m.build_order();
    MessagePassing mp;
    mp.init(m);
    std::vector<int32_t> primal;
    for (int it = 0; it < 60; ++it) ASSERT_TRUE(mp.iterate(&primal));
    double mag = 0;
    const double lb = mp.lower_bound(&mag);
    if (!ex.feasible) continue;
    ASSERT_LE(lb, double(ex.cost) + 1e-6 * (1 + mag)) << "seed " << seed;
    // A forest: no self-loop, no parallel edge, edges = nodes - components.
    std::vector<int> root(p.num_nodes());
    for (int i = 0; i < p.num_nodes(); ++i) root[i] = i;
    auto find = [&](int x) {
      while (root[x] != x) x = root[x] = root[root[x]];
      return x;
    };
    bool forest = true;
    for (int e = 0; e < p.num_edges() && forest; ++e) {
      const int a = find(p.edge_u[e]), b = find(p.edge_v[e]);
      if (a == b) forest = false;
      root[a] = b;
    }
    if (!forest) continue;
    ++forests;
    EXPECT_NEAR(lb, double(ex.cost), 1e-6 * (1 + mag)) << "seed " << seed;
    SearchState st;
    st.init(m, primal);
    if (std::abs(st.full_cost() - double(ex.cost)) < 1e-6) ++exact;
  }
  EXPECT_GT(forests, 50);
  EXPECT_GE(exact, forests * 9 / 10);
}

// Two nodes alive together; node 0 has two strategies at its least usage (1),
// costing 20 and 10, and one above it; node 1 follows node 0's choice along
// the edge. However large node 0's memory price, the cheaper of its
// least-usage strategies still decides, and node 1 still follows it.
Problem priced_pair() {
  Problem p;
  p.name = "priced-pair";
  p.interval_lo = {0, 0};
  p.interval_hi = {2, 2};
  p.node_cost = {20, 10, 0, 0, 0};
  p.node_usage = {1, 1, 5, 1, 1};
  p.strategy_offset = {0, 3, 5};
  p.edge_u = {0};
  p.edge_v = {1};
  p.edge_cost = {0, 30, 30, 0, 0, 0};  // (s0, s1) at s0 * 2 + s1
  p.edge_cost_offset = {0, 6};
  finalize_problem(&p);
  return p;
}

TEST(MessagePassing, HugePriceKeepsTheCostsAmongLeastUsage) {
  const Problem p = priced_pair();
  SearchModel m;
  m.build(p);
  m.build_matrices();
  m.build_order();
  ASSERT_EQ(m.dom_size(0), 3);
  for (double price : {100.0, 1e12, 1e30}) {
    MessagePassing mp;
    mp.init(m);
    mp.set_weights({price, 0.0});
    std::vector<int32_t> primal;
    for (int it = 0; it < 5; ++it) ASSERT_TRUE(mp.iterate(&primal));
    EXPECT_EQ(primal, (std::vector<int32_t>{1, 1})) << "price " << price;
    // The bound adds back what the pricing left out: price x least usage.
    double mag = 0;
    const double lb = mp.lower_bound(&mag);
    EXPECT_NEAR(lb, 10.0 + price, 1e-9 * mag + 1e-9) << "price " << price;
  }
}

TEST(Elimination, HugePriceKeepsTheCostsAmongLeastUsage) {
  const Problem p = priced_pair();
  SearchModel m;
  m.build(p);
  m.build_matrices();
  for (double price : {100.0, 1e12, 1e30}) {
    EliminationSolver elim;
    elim.init(m);
    Rng rng(1);
    std::vector<int32_t> y, all_free(m.n, -1);
    const std::vector<double> weight{price, 0.0};
    EliminationOptions eo;
    eo.weight = &weight;
    ASSERT_TRUE(elim.solve(all_free, &y, &rng, eo).complete);
    EXPECT_EQ(y, (std::vector<int32_t>{1, 1})) << "price " << price;
  }
}

// Per-segment multipliers: a node's weight is the sum over its segments, the
// offset is the limit times their total, and for any assignment within the
// limit the prices add up to at most the offset (which makes the bound valid).
TEST(MemoryRelax, SegmentMultipliersGiveAValidOffset) {
  int moved = 0;
  for (uint64_t seed = 1; seed <= 3000; ++seed) {
    Problem p;
    SearchModel m;
    if (!prepared(seed, &p, &m)) continue;
    MemoryRelax relax;
    relax.init(m, MemoryRelax::Schedule::kSegments);
    if (!relax.needed()) continue;
    Rng rng(seed);
    // Prices from answers that break the limit: every node at its largest usage.
    const std::vector<int32_t> greedy = largest_usage(m);
    for (int step = 0; step < 5; ++step) relax.update(greedy, 100.0, 1000.0, &rng);
    std::vector<double> w;
    relax.node_weights(&w);
    if (relax.penalty_offset() > 0) ++moved;
    // Brute force over every assignment within the limit.
    test_support::Exhaustive any = test_support::exhaustive(p);
    if (!any.feasible) continue;
    std::vector<int> idx(p.num_nodes(), 0);
    for (;;) {
      std::vector<int32_t> a(idx.begin(), idx.end());
      Evaluation ev = evaluate(p, a);
      if (ev.within_limit) {
        double priced = 0;
        for (int i = 0; i < m.n; ++i) priced += w[i] * double(m.usage(i, a[i]));
        ASSERT_LE(priced, relax.penalty_offset() * (1 + 1e-9) + 1e-9) << "seed " << seed;
      }
      int k = 0;
      while (k < p.num_nodes() && ++idx[k] == p.num_strategies(k)) idx[k++] = 0;
      if (k == p.num_nodes()) break;
    }
  }
  EXPECT_GT(moved, 50);
}

// The Lagrangian bounds hold for the constrained optimum whatever moves their
// multipliers, and the one moved by its own rounding alone climbs above the
// bound without prices where that is below the optimum (the one moved by the search's
// answers is fed the largest-usage answer here).
TEST(LagrangianBound, ValidFromBothSourcesAndOwnRoundingClimbs) {
  int binding = 0, climbed = 0;
  for (uint64_t seed = 1; seed <= 5000; ++seed) {
    Problem p;
    SearchModel m;
    if (!prepared(seed, &p, &m)) continue;
    test_support::Exhaustive ex = test_support::exhaustive(p);
    if (!ex.feasible) continue;
    // What the same messages bound without prices (over the reduced domains).
    MessagePassing plain;
    plain.init(m);
    for (int it = 0; it < 400; ++it) ASSERT_TRUE(plain.iterate(nullptr));
    const double unpriced = plain.lower_bound();
    const double upper = double(ex.cost);
    for (auto source : {LagrangianBound::Source::kSearchAnswers, LagrangianBound::Source::kOwnRounding}) {
      LagrangianBound lag;
      lag.init(m, source);
      if (!lag.needed()) break;
      const double best = test_support::drive_lagrangian_bound(m, &lag, source, upper, 400, seed);
      ASSERT_GT(best, -1e300) << "seed " << seed;
      if (source == LagrangianBound::Source::kOwnRounding && double(ex.cost) > unpriced + 0.5) {
        ++binding;
        if (best > unpriced + 0.5) ++climbed;
      }
    }
  }
  EXPECT_GT(binding, 50);
  EXPECT_GE(climbed, binding / 3) << "of " << binding;  // without its steps, none climbs
}

// Per-node prices rise on nodes alive where the limit is broken and start
// again from none after restart_diversified().
TEST(MemoryRelax, NodePricesRiseWhereTheLimitBreaksAndRestart) {
  int checked = 0;
  for (uint64_t seed = 1; seed <= 3000; ++seed) {
    Problem p;
    SearchModel m;
    if (!prepared(seed, &p, &m)) continue;
    MemoryRelax relax;
    relax.init(m, MemoryRelax::Schedule::kNodes);
    if (!relax.needed()) continue;
    const std::vector<int32_t> greedy = largest_usage(m);
    SearchState st;
    st.init(m, greedy);
    if (st.within_limit()) continue;
    Rng rng(seed);
    relax.update(greedy, 0, 0, &rng);
    std::vector<double> w;
    relax.node_weights(&w);
    for (int i = 0; i < m.n; ++i) {
      const bool over = m.has_interval(i) && m.dom_size(i) >= 2 && st.max_over(i) > m.limit;
      EXPECT_EQ(w[i] > 0, over) << "seed " << seed << " node " << i;
    }
    relax.restart_diversified(&rng);
    relax.node_weights(&w);
    for (double x : w) EXPECT_EQ(x, 0.0);
    ++checked;
  }
  EXPECT_GT(checked, 50);
}

// All of a node's move deltas at once are bit for bit the single ones (the
// descent and the repair read the former, and answers must not change), in
// the search's form of the matrices and in the input's.
TEST(SearchState, MoveDeltasEqualMoveDeltaBitForBit) {
  int checked = 0;
  int doubles = 0;
  for (uint64_t seed = 1; seed <= 1000; ++seed) {
    Problem p = test_support::random_instance(seed);
    if (seed % 2 == 0 && store_edges_for_search(&p)) ++doubles;
    SearchModel m;
    m.build(p);
    if (reduce_domains(&m).wiped_out) continue;
    Rng rng(seed);
    std::vector<int32_t> a(m.n);
    for (int i = 0; i < m.n; ++i) a[i] = m.domain(i)[rng.below(uint32_t(m.dom_size(i)))];
    SearchState st;
    st.init(m, a);
    std::vector<double> all;
    for (int i = 0; i < m.n; ++i) {
      all.assign(m.dom_size(i), -1.0);
      st.move_deltas(i, all.data());
      for (int k = 0; k < m.dom_size(i); ++k) {
        const double one = st.move_delta(i, m.domain(i)[k]);
        EXPECT_EQ(std::memcmp(&one, &all[k], sizeof one), 0) << "seed " << seed << " node " << i << " k " << k;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 2000);
  EXPECT_GT(doubles, 300);
}

// Descent never raises the cost and keeps an assignment that fits within the
// limit; at its end no single move that fits is better. Repair brings the
// least-usage start's worse relatives back within the limit.
TEST(LocalSearch, DescentEndsAtAFittingLocalOptimumAndRepairFits) {
  int descents = 0, repairs = 0;
  for (uint64_t seed = 1; seed <= 3000; ++seed) {
    Problem p;
    SearchModel m;
    if (!prepared(seed, &p, &m)) continue;
    LocalSearch ls;
    ls.init(m);
    Rng rng(seed);
    SearchState st;
    st.init(m, least_usage(m));
    if (!st.within_limit()) continue;
    const double before = st.full_cost();
    ls.descend(&st, &rng, [] { return false; });
    ASSERT_TRUE(st.within_limit()) << "seed " << seed;
    ASSERT_LE(st.full_cost(), before + 1e-9) << "seed " << seed;
    ASSERT_NEAR(st.cost, st.full_cost(), 1e-6) << "seed " << seed;
    for (int i = 0; i < m.n; ++i)
      for (int k = 0; k < m.dom_size(i); ++k) {
        const int t = m.domain(i)[k];
        const double d = st.move_delta(i, t);
        if (d >= -1e-9) continue;
        SearchState trial = st;
        trial.set(i, t);
        EXPECT_FALSE(trial.within_limit()) << "seed " << seed << ": node " << i << " -> " << t << " improves by " << -d;
      }
    ++descents;
    // Break the limit by moving nodes to their largest usage, then repair.
    SearchState worse = st;
    for (int i = 0; i < m.n; ++i)
      for (int k = 0; k < m.dom_size(i); ++k)
        if (m.usage(i, m.domain(i)[k]) > m.usage(i, worse.s[i])) worse.set(i, m.domain(i)[k]);
    if (worse.within_limit()) continue;
    EXPECT_TRUE(ls.repair(&worse, [] { return false; })) << "seed " << seed;
    EXPECT_TRUE(worse.within_limit()) << "seed " << seed;
    EXPECT_NEAR(worse.cost, worse.full_cost(), 1e-6) << "seed " << seed;
    ++repairs;
  }
  EXPECT_GT(descents, 1000);
  EXPECT_GT(repairs, 50);
}

// settle(): an over-limit state is repaired, then descended from the seeds
// and every node the repair moved, which end with no single move that fits
// and is cheaper; the log undoes every change, the repair's and the
// descent's, exactly.
TEST(LocalSearch, SettleDescendsFromTheSeedsAndWhatRepairMovedAndLogsAnExactUndo) {
  int settled = 0;
  for (uint64_t seed = 1; seed <= 3000; ++seed) {
    Problem p;
    SearchModel m;
    if (!prepared(seed, &p, &m)) continue;
    LocalSearch ls;
    ls.init(m);
    SearchState st;
    st.init(m, largest_usage(m));
    if (st.within_limit()) continue;
    const SearchState start = st;
    Rng rng(seed);
    std::vector<int32_t> seeds;
    for (int i = 0; i < m.n; ++i)
      if (rng.below(4) == 0) seeds.push_back(i);
    std::vector<std::pair<int, int>> log;
    const LocalSearch::Settled r = ls.settle(&st, &seeds, &rng, [] { return false; }, &log);
    ASSERT_TRUE(r.repaired) << "seed " << seed;
    if (!st.within_limit()) continue;
    ++settled;
    ASSERT_NEAR(st.cost, st.full_cost(), 1e-6) << "seed " << seed;
    std::vector<int32_t> descended = seeds;
    for (const auto& u : log) descended.push_back(u.first);
    for (int i : descended)
      for (int k = 0; k < m.dom_size(i); ++k) {
        const int t = m.domain(i)[k];
        if (st.move_delta(i, t) >= -1e-9) continue;
        SearchState trial = st;
        trial.set(i, t);
        EXPECT_FALSE(trial.within_limit()) << "seed " << seed << ": node " << i << " -> " << t;
      }
    for (size_t j = log.size(); j-- > 0;) st.set(log[j].first, log[j].second);
    EXPECT_EQ(st.s, start.s) << "seed " << seed;
  }
  EXPECT_GT(settled, 50);
}

// Repair keeps each node's move deltas from one step to the next and
// recomputes them only around what moved. Replayed step by step from fresh
// deltas, every move it made is one of the best at its step: fitting-pair
// moves first, then least cost per unit of the needed memory freed at the peak.
TEST(LocalSearch, RepairWithKeptDeltasPicksAFreshBestMoveAtEveryStep) {
  int steps = 0, repairs = 0;
  for (uint64_t seed = 1; seed <= 20000; ++seed) {
    Problem p;
    SearchModel m;
    if (!prepared(seed, &p, &m)) continue;
    LocalSearch ls;
    ls.init(m);
    // Two repairs through the same object, so kept deltas of the first call
    // cannot leak into the second.
    for (int round = 0; round < 2; ++round) {
      SearchState st;
      st.init(m, round == 0 ? largest_usage(m) : least_usage(m));
      if (round == 1) {
        Rng rng(seed);
        for (int i = 0; i < m.n; ++i)
          if (rng.below(2)) st.set(i, m.domain(i)[rng.below(uint32_t(m.dom_size(i)))]);
      }
      if (st.within_limit()) continue;
      SearchState replay = st;
      std::vector<std::pair<int, int>> log;
      if (!ls.repair(&st, [] { return false; }, &log)) continue;
      ++repairs;
      for (size_t j = 0; j < log.size(); ++j) {
        const int i = log[j].first;
        ASSERT_EQ(replay.s[i], log[j].second) << "seed " << seed;
        int to = st.s[i];  // the strategy it took: its next logged old one, or its final one
        for (size_t k = j + 1; k < log.size(); ++k)
          if (log[k].first == i) {
            to = log[k].second;
            break;
          }
        const int t = replay.usage.argmax();
        const int64_t excess = replay.peak() - m.limit;
        ASSERT_GT(excess, 0) << "seed " << seed;
        auto rank = [&](int x, int y) {  // (fits, score) of moving x to y, fresh
          const double delta = replay.move_delta(x, y);
          const int64_t red = m.usage(x, replay.s[x]) - m.usage(x, y);
          return std::make_pair(delta < 0.5 * m.big ? 0 : 1, delta / double(std::min(red, excess)));
        };
        std::pair<int, double> best{2, 0};
        for (int x = 0; x < m.n; ++x) {
          if (!m.has_interval(x) || p.seg_lo[x] > t || p.seg_hi[x] <= t) continue;
          for (int k = 0; k < m.dom_size(x); ++k) {
            const int y = m.domain(x)[k];
            if (m.usage(x, replay.s[x]) - m.usage(x, y) <= 0) continue;
            best = std::min(best, rank(x, y));
          }
        }
        const auto took = rank(i, to);
        ASSERT_EQ(took.first, best.first) << "seed " << seed << " step " << j;
        ASSERT_NEAR(took.second, best.second, 1e-9 * (1 + std::fabs(best.second))) << "seed " << seed << " step " << j;
        replay.set(i, to);
        ++steps;
      }
      ASSERT_EQ(replay.s, st.s) << "seed " << seed;
    }
  }
  EXPECT_GT(repairs, 500);
  EXPECT_GT(steps, 1000);
}

// Every answer the neighbourhood search reports fits, is costed right and is
// strictly better than the one before; it never reports a worse answer.
TEST(NeighbourhoodSearch, ReportsOnlyBetterFittingAnswers) {
  int improved_cases = 0;
  for (uint64_t seed = 1; seed <= 600; ++seed) {
    Problem p;
    SearchModel m;
    if (!prepared(seed, &p, &m)) continue;
    SearchState st;
    st.init(m, least_usage(m));
    if (!st.within_limit()) continue;
    const bool any = test_support::neighbourhood_reports_only_better_fitting(m, nullptr, st.s, seed, 48);
    improved_cases += any;
  }
  EXPECT_GT(improved_cases, 50);
}

// The last cost the neighbourhood search reports in `moves` moves (under a
// round budget) from the all-zero answer of `p` (`start_cost` if none), with
// `tune` applied to the parameters; every answer it reports must fit. The
// kinds of move are counted in `counts` and the moves made in `made`, when given.
static double neighbourhood_best(const Problem& p, const std::function<void(Params*)>& tune, const std::vector<double>& weight,
                                 bool memory_binds, double start_cost, const std::vector<int32_t>* partner = nullptr,
                                 int moves = 50, MechanismCounts* counts = nullptr, int64_t* made = nullptr) {
  SearchModel m;
  m.build(p);
  tune(&m.params);
  EXPECT_FALSE(reduce_domains(&m).wiped_out);
  LocalSearch ls;
  ls.init(m);
  EliminationSolver elim;
  elim.init(m);
  NeighbourhoodSearch lns;
  lns.init(m, &elim, &ls);
  lns.reset(std::vector<int32_t>(m.n, 0));
  lns.partner = partner;
  lns.counts = counts;
  Rng rng(1);
  double best = start_cost;
  const int64_t n_made = lns.run(weight, memory_binds, &rng, nullptr, [&] { return moves-- > 0; }, [] { return false; },
          [&](const std::vector<int32_t>& a, double cost) {
            SearchState t;
            t.init(m, a);
            EXPECT_TRUE(t.within_limit());
            best = cost;
          });
  if (made) *made = n_made;
  return best;
}

// A move that needs one node to take the whole slack: a and b only gain
// together (edge cost 100 unless both take strategy 1), and a's strategy 1
// needs all 10 units of slack while b and c, alive at the same time, are in
// the window too. Shared caps give a a third of the slack, so no connected
// window can make the move; caps of the whole slack can, and the answer fits.
TEST(NeighbourhoodSearch, ConnectedWindowsCanGiveOneNodeTheWholeSlack) {
  Problem p;
  ASSERT_TRUE(load_problem_from_buffer(
                  R"({"problem":{"nodes":{"intervals":[[0,10],[0,10],[0,10]],"costs":[[0,0],[0,0],[0,1]],)"
                  R"("usages":[[0,10],[5,5],[0,0]]},"edges":{"nodes":[[0,1],[0,2]],"costs":[[100,100,100,0],[0,0,0,0]]},)"
                  R"("usage_limit":15}})",
                  "slack.json", &p)
                  .ok);
  for (double share : {0.0, 1.0}) {
    const double best = neighbourhood_best(p, [&](Params* prm) { prm->full_slack_window_share = share; }, {}, false, 100);
    EXPECT_EQ(best, share == 0.0 ? 100 : 0) << "full_slack_window_share " << share;
  }
}

// A trade at the limit: a and b gain 100 only together (edge cost 100 unless
// both take strategy 1), a's strategy 1 needs the 10 units c holds, and c
// gives them up for 1. The answer starts at the limit, so no slack cap lets a
// move (connected windows), and an ejection of a alone gains nothing. A trade
// window, its priced nodes uncapped, makes the move: 100 -> 1.
TEST(NeighbourhoodSearch, TradeWindowsTradeMemoryWhereTheAnswerIsAtTheLimit) {
  Problem p;
  ASSERT_TRUE(load_problem_from_buffer(
                  R"({"problem":{"nodes":{"intervals":[[0,10],[0,10],[0,10]],)"
                  R"("costs":[[0,0],[0,0],[0,1]],"usages":[[0,10],[0,0],[10,0]]},)"
                  R"("edges":{"nodes":[[0,1],[1,2]],"costs":[[100,100,100,0],[0,0,0,0]]},)"
                  R"("usage_limit":10}})",
                  "trade.json", &p)
                  .ok);
  for (int kinds : {1, 1 + 4, 8}) {
    const double best = neighbourhood_best(p, [&](Params* prm) { prm->move_kinds = kinds; }, {1.0, 1.0, 1.0}, true, 100);
    EXPECT_EQ(best, kinds == 8 ? 1 : 100) << "move_kinds " << kinds;
  }
}

// A trade across the graph: a and b gain 100 only together (edge cost 100
// unless both take strategy 1), a's strategy 1 needs the 10 units c holds,
// and c, not connected to either, gives them up for 1. The answer starts at
// the limit. With windows of two nodes, no window that must fit by itself
// can make the move (c is in no connected window grown from a or b, and a time
// window holds one alive node and a neighbour), nor an ejection of a alone (it
// gains nothing without b). A repair window lets {a, b} go over the limit and
// the repair frees the 10 units at c: 100 -> 1.
TEST(NeighbourhoodSearch, RepairWindowsPayForMemoryAnywhere) {
  Problem p;
  ASSERT_TRUE(load_problem_from_buffer(
                  R"({"problem":{"nodes":{"intervals":[[0,10],[0,10],[0,10],[0,10]],)"
                  R"("costs":[[0,0],[0,0],[0,1],[0,0]],"usages":[[0,10],[0,0],[10,0],[0,0]]},)"
                  R"("edges":{"nodes":[[0,1],[2,3]],"costs":[[100,100,100,0],[0,0,0,0]]},)"
                  R"("usage_limit":10}})",
                  "repair.json", &p)
                  .ok);
  for (int kinds : {1 + 2 + 4 + 8, 16}) {
    const double best =
        neighbourhood_best(p,
                           [&](Params* prm) {
                             prm->move_kinds = kinds;
                             prm->window_min = 2;
                             prm->window_sizes = 1;
                           },
                           {1.0, 1.0, 1.0, 1.0}, true, 100);
    EXPECT_EQ(best, kinds == 16 ? 1 : 100) << "move_kinds " << kinds;
  }
}

// A hub that must move with its leaves: hub 0 saves 100 at strategy 1, but
// each of its five leaves pays 1,000 unless it takes the hub's strategy, and
// 1 at strategy 1. All at 1 costs 5 against 100 at 0. A window of two nodes
// holds the hub and one leaf, never the move; when a window takes its
// nodes' leaves uncounted, the hub's come with it and the move is made.
// Plain connected windows take them at window_leaves=2 only.
// With memory, a node c (6) holds the 10 units (the limit) that the hub's
// strategy 1 needs, and gives them up for 1.
static std::string star_problem(bool with_memory) {
  std::string intervals = "[0,1]", costs = "[100,0]", usages = with_memory ? "[0,10]" : "[0,0]", nodes, edges;
  for (int leaf = 1; leaf <= 5; ++leaf) {
    intervals += ",[0,1]";
    costs += ",[0,1]";
    usages += ",[0,0]";
    nodes += std::string(leaf > 1 ? "," : "") + "[0," + std::to_string(leaf) + "]";
    edges += std::string(leaf > 1 ? "," : "") + "[0,1000,1000,0]";
  }
  if (with_memory) {
    intervals += ",[0,1]";
    costs += ",[0,1]";
    usages += ",[10,0]";
  }
  return R"({"problem":{"nodes":{"intervals":[)" + intervals + R"(],"costs":[)" + costs + R"(],"usages":[)" + usages +
         R"(]},"edges":{"nodes":[)" + nodes + R"(],"costs":[)" + edges + "]}" +
         (with_memory ? R"(,"usage_limit":10)" : "") + "}}";
}

TEST(NeighbourhoodSearch, WindowsTakeAHubsLeavesWithIt) {
  Problem p;
  ASSERT_TRUE(load_problem_from_buffer(star_problem(false), "star.json", &p).ok);
  for (int leaves : {0, 1, 2}) {
    const double best = neighbourhood_best(p,
                                           [&](Params* prm) {
                                             prm->window_leaves = leaves;
                                             prm->window_min = 2;
                                             prm->window_sizes = 1;
                                           },
                                           {}, false, 100);
    EXPECT_EQ(best, leaves == 2 ? 5 : 100) << "window_leaves " << leaves;
  }
}

// The same star where the hub's strategy 1 needs the 10 units of memory an
// unconnected node c holds, which c gives up for 1 (limit 10). A repair
// window grown from the hub or a leaf makes the move, over the limit, and
// the repair frees c's memory: 100 -> 6, once the window takes the leaves.
TEST(NeighbourhoodSearch, RepairWindowsTakeAHubsLeavesWithIt) {
  Problem p;
  ASSERT_TRUE(load_problem_from_buffer(star_problem(true), "star.json", &p).ok);
  for (int leaves : {0, 1}) {
    const double best = neighbourhood_best(p,
                                           [&](Params* prm) {
                                             prm->window_leaves = leaves;
                                             prm->move_kinds = 16;
                                             prm->window_min = 2;
                                             prm->window_sizes = 1;
                                           },
                                           std::vector<double>(7, 1.0), true, 100);
    EXPECT_EQ(best, leaves ? 6 : 100) << "window_leaves " << leaves;
  }
}

// The same star, and a rounding's answer with the hub and its leaves at 1.
// A part window re-solves the part where it differs from the best (the hub
// and its leaves, c not among them) with c held fixed: unpriced, all six
// take 1 (5), 10 units over the limit, and the repair frees them at c: 100
// -> 6. Without a rounding's answer, or with one equal to the best, there is
// no part and no move.
TEST(NeighbourhoodSearch, PartWindowsResolveWhereARoundingDiffers) {
  Problem p;
  ASSERT_TRUE(load_problem_from_buffer(star_problem(true), "star.json", &p).ok);
  const std::vector<int32_t> same(7, 0), hub_and_leaves = {1, 1, 1, 1, 1, 1, 0};
  const std::vector<const std::vector<int32_t>*> partners = {nullptr, &same, &hub_and_leaves};
  for (const std::vector<int32_t>* partner : partners) {
    const double best = neighbourhood_best(p, [&](Params* prm) { prm->move_kinds = 32; }, {}, true, 100, partner);
    EXPECT_EQ(best, partner == &hub_and_leaves ? 6 : 100) << (partner ? "partner given" : "no partner");
  }
}

// Under a round budget the kinds of move share a clock of work, not of
// moves: a part window (up to thirty solves of its whole part, each answer
// repaired) is charged what it does. A path of 1,000 nodes already at its
// optimum (so no move gains and the kinds share the clock evenly), a
// rounding's answer that differs from it on every node (each part window
// solves all 1,000 nodes) and connected windows of 16 nodes: counted by
// moves, part windows took half the moves; charged their work, a few.
TEST(NeighbourhoodSearch, UnderARoundBudgetAPartWindowIsChargedItsWork) {
  Problem p;
  p.name = "path";
  Rng rng(5);
  const int n = 1000;
  for (int i = 0; i < n; ++i) {
    p.interval_lo.push_back(i);
    p.interval_hi.push_back(i + 3);
    p.node_cost.insert(p.node_cost.end(), {0, 0});
    p.node_usage.insert(p.node_usage.end(), {0, 3});
    p.strategy_offset.push_back(p.node_cost.size());
  }
  for (int i = 0; i + 1 < n; ++i) {
    p.edge_u.push_back(i);
    p.edge_v.push_back(i + 1);
    p.edge_cost.push_back(0);
    for (int k = 1; k < 4; ++k) p.edge_cost.push_back(1 + int64_t(rng.below(3)));
    p.edge_cost_offset.push_back(p.edge_cost.size());
  }
  p.has_usage_limit = true;
  p.usage_limit = 3;
  ASSERT_TRUE(finalize_problem(&p).ok);
  const std::vector<int32_t> partner(n, 1);
  MechanismCounts counts{};
  int64_t made = 0;
  const double best = neighbourhood_best(p,
                                         [](Params* prm) {
                                           prm->move_kinds = 1 + 32;
                                           prm->window_min = 16;
                                           prm->window_sizes = 1;
                                         },
                                         {}, true, -1, &partner, 400, &counts, &made);
  EXPECT_EQ(made, 400);
  EXPECT_EQ(best, -1) << "no move can gain";
  const int64_t parts = at(counts, Mechanism::kPartWindow).tried;
  EXPECT_GE(parts, 1);
  EXPECT_LE(parts, 400 / 20) << "part windows among 400 moves";
}

// Two threads' moves from where they last met (all strategies 0, cost 200):
// one set the pair a-b to 1 (100 cheaper), the other c-d (100 cheaper).
// The merge carries a-b over to the other's answer: 0, both gains. When a's
// and c's strategy 1 each take the whole limit, the merge overflows, repair
// makes it fit, and it beats neither (the caller keeps the other's best).
TEST(MergeAnswers, CarriesOneThreadsMovesOntoTheOthersBest) {
  for (bool binds : {false, true}) {
    Problem p;
    const std::string usages = binds ? R"([[0,10],[0,0],[0,10],[0,0]])" : R"([[0,0],[0,0],[0,0],[0,0]])";
    ASSERT_TRUE(load_problem_from_buffer(
                    R"({"problem":{"nodes":{"intervals":[[0,10],[0,10],[0,10],[0,10]],)"
                    R"("costs":[[0,0],[0,0],[0,0],[0,0]],"usages":)" + usages + R"(},)"
                    R"("edges":{"nodes":[[0,1],[2,3]],"costs":[[100,100,100,0],[100,100,100,0]]},)"
                    R"("usage_limit":10}})",
                    "merge.json", &p)
                    .ok);
    SearchModel m;
    m.build(p);
    const std::vector<int32_t> met = {0, 0, 0, 0}, mine = {1, 1, 0, 0}, theirs = {0, 0, 1, 1};
    std::vector<int32_t> merged, carried;
    carry_over(theirs, met, mine, &merged, &carried);
    EXPECT_EQ(merged, (std::vector<int32_t>{1, 1, 1, 1}));
    EXPECT_EQ(carried, (std::vector<int32_t>{0, 1}));
    // What both already agree on, or mine never moved, is not carried.
    std::vector<int32_t> none;
    carry_over(theirs, met, met, &merged, &none);
    EXPECT_TRUE(none.empty());
    EXPECT_EQ(merged, theirs);
    carry_over(theirs, met, theirs, &merged, &none);
    EXPECT_TRUE(none.empty());

    carry_over(theirs, met, mine, &merged, &carried);
    LocalSearch ls;
    ls.init(m);
    Rng rng(1);
    SearchState st;
    st.init(m, merged);
    const LocalSearch::Settled s = ls.settle(&st, &carried, &rng, [] { return false; });
    st.cost = st.full_cost();
    EXPECT_EQ(s.repaired, binds) << "binds " << binds;
    EXPECT_TRUE(st.within_limit()) << "binds " << binds;
    EXPECT_EQ(st.cost, binds ? 100 : 0) << "binds " << binds;
    EXPECT_EQ(st.cost, st.full_cost());
  }
}

TEST(Roulette, FollowsTheGainsAndKeepsAFloor) {
  Roulette<3> r;
  Rng rng(5);
  for (int k = 0; k < 20; ++k) r.reward(2);
  int count[3] = {0, 0, 0};
  for (int k = 0; k < 30000; ++k) ++count[r.pick(&rng)];
  // Weights 1.5, 1.5, 21.5 out of 24.5.
  EXPECT_NEAR(count[2] / 30000.0, 21.5 / 24.5, 0.02);
  EXPECT_GT(count[0], 1000);
  EXPECT_GT(count[1], 1000);
  r.fade(0.0);  // only the floors are left: uniform
  count[0] = count[1] = count[2] = 0;
  for (int k = 0; k < 30000; ++k) ++count[r.pick(&rng)];
  for (int c : count) EXPECT_NEAR(c / 30000.0, 1.0 / 3, 0.02);
  EXPECT_EQ(r.pick(&rng, 1), 0);
}
