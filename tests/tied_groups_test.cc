// Tied groups, their contraction and group moves: exact on small random
// instances whose edges are often bijections (with costs, and cycles whose
// ties may disagree).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <mutex>
#include <thread>

#include "contraction.h"
#include "group_moves.h"
#include "lagrangian_bound.h"
#include "local_search.h"
#include "neighbourhood_search.h"
#include "proof_search.h"
#include "elimination.h"
#include "random_instance.h"
#include "search_checks.h"
#include "reduce_domains.h"
#include "search_state.h"
#include "tied_groups.h"

using namespace iopddl;

namespace {

// Random graphs on 3..8 nodes of 1..3 strategies where most edges between
// nodes of equal strategy counts are bijections (a permutation allowed, the
// rest forbidden; allowed entries cost 0 or more), the others ordinary.
// `cost_scale` > 1 makes each finite cost c into c * cost_scale + c % 7 (large
// totals whose answers still differ by a few units), `usage_scale` multiplies
// the usages and the limit.
Problem tied_instance(uint64_t seed, int64_t cost_scale = 1, int64_t usage_scale = 1) {
  Rng rng(seed);
  Problem p;
  p.name = "tied-" + std::to_string(seed);
  const int n = 3 + int(rng.below(6));
  for (int i = 0; i < n; ++i) {
    const int lo = int(rng.below(6));
    p.interval_lo.push_back(lo);
    p.interval_hi.push_back(lo + int(rng.below(6)));
    const int K = 1 + int(rng.below(3));
    for (int s = 0; s < K; ++s) {
      p.node_cost.push_back(rng.below(12) == 0 ? kForbidden : int64_t(rng.below(50)));
      p.node_usage.push_back(int64_t(rng.below(20)));
    }
    p.strategy_offset.push_back(p.node_cost.size());
  }
  const int m = int(rng.below(uint32_t(2 * n + 2)));
  for (int e = 0; e < m; ++e) {
    const int u = int(rng.below(uint32_t(n)));
    int v = int(rng.below(uint32_t(n)));
    if (u == v && rng.below(4) != 0) v = (u + 1) % n;
    p.edge_u.push_back(u);
    p.edge_v.push_back(v);
    const int Ku = p.num_strategies(u), Kv = p.num_strategies(v);
    if (Ku == Kv && u != v && rng.below(4) != 0) {
      std::vector<int> perm(Ku);
      for (int k = 0; k < Ku; ++k) perm[k] = k;
      for (int k = Ku; k > 1; --k) std::swap(perm[k - 1], perm[rng.below(uint32_t(k))]);
      for (int r = 0; r < Ku; ++r)
        for (int c = 0; c < Kv; ++c)
          p.edge_cost.push_back(c != perm[r] ? kForbidden : rng.below(2) ? 0 : int64_t(rng.below(30)));
    } else {
      for (int k = 0; k < Ku * Kv; ++k)
        p.edge_cost.push_back(rng.below(6) == 0 ? kForbidden : int64_t(rng.below(60)));
    }
    p.edge_cost_offset.push_back(p.edge_cost.size());
  }
  p.has_usage_limit = rng.below(3) != 0;
  p.usage_limit = int64_t(20 + rng.below(40));
  if (cost_scale > 1) {
    for (int64_t& c : p.node_cost)
      if (c < kForbidden) c = c * cost_scale + c % 7;
    for (int64_t& c : p.edge_cost)
      if (c < kForbidden) c = c * cost_scale + c % 7;
  }
  for (int64_t& u : p.node_usage) u *= usage_scale;
  p.usage_limit *= usage_scale;
  finalize_problem(&p);
  return p;
}

struct Prepared {
  SearchModel m;
  TiedGroups groups;
  bool wiped = false;
};

// Model, reductions and groups; false when the reductions wipe a domain out
// or no node is tied (nothing for these tests to check).
bool prepare(const Problem& p, Prepared* out) {
  out->m.build(p);
  out->wiped = reduce_domains(&out->m).wiped_out;
  if (!out->wiped) out->groups.build(out->m);
  return !out->wiped && out->groups.size() > 0;
}

// Every node at a live strategy drawn at random.
std::vector<int32_t> random_assignment(const SearchModel& m, Rng* rng) {
  std::vector<int32_t> a(m.n);
  for (int i = 0; i < m.n; ++i) a[i] = m.domain(i)[rng->below(uint32_t(m.dom_size(i)))];
  return a;
}

std::vector<std::vector<int32_t>> live_domains(const SearchModel& m) {
  std::vector<std::vector<int32_t>> d(m.n);
  for (int i = 0; i < m.n; ++i) d[i].assign(m.domain(i), m.domain(i) + m.dom_size(i));
  return d;
}

}  // namespace

// Every contracted assignment costs exactly what its expansion costs, and the
// contracted problem's optimum is the original's (without the limit, over the
// live domains).
TEST(Contraction, ExactOnRandomTiedInstances) {
  int with_groups = 0, compared = 0;
  for (uint64_t seed = 1; seed <= 5000; ++seed) {
    Problem p = tied_instance(seed);
    p.has_usage_limit = false;
    Prepared pr;
    if (!prepare(p, &pr)) continue;
    ++with_groups;
    Contraction c;
    c.build(pr.m, pr.groups);
    const Problem& cp = c.problem();
    ASSERT_EQ(cp.num_nodes(), c.nodes());
    // Walk every contracted assignment.
    std::vector<int32_t> a(cp.num_nodes(), 0), x;
    Int128 best_contracted = -1;
    for (;;) {
      c.expand(a, &x);
      // Every node gets one of its live strategies, even in a group whose
      // ties disagree on every choice (its contracted strategy is forbidden).
      for (int i = 0; i < pr.m.n; ++i) {
        const int32_t* d = pr.m.domain(i);
        ASSERT_NE(std::find(d, d + pr.m.dom_size(i), x[i]), d + pr.m.dom_size(i)) << "seed " << seed;
      }
      const Evaluation ec = evaluate(cp, a), ex = evaluate(p, x);
      if (ec.feasible()) {
        ASSERT_TRUE(ex.feasible()) << "seed " << seed;
        ASSERT_EQ(to_string(ec.total_cost), to_string(ex.total_cost)) << "seed " << seed;
        if (best_contracted < 0 || ec.total_cost < best_contracted) best_contracted = ec.total_cost;
      }
      std::vector<int32_t> back;
      c.project(x, &back);
      if (ec.feasible()) ASSERT_EQ(back, a) << "seed " << seed;
      int k = 0;
      while (k < cp.num_nodes() && ++a[k] == cp.num_strategies(k)) a[k++] = 0;
      if (k == cp.num_nodes()) break;
    }
    const auto doms = live_domains(pr.m);
    const test_support::Exhaustive ex = test_support::exhaustive(p, &doms);
    ASSERT_EQ(ex.feasible, best_contracted >= 0) << "seed " << seed;
    if (ex.feasible) {
      EXPECT_EQ(to_string(ex.cost), to_string(best_contracted)) << "seed " << seed;
      ++compared;
    }
  }
  EXPECT_GT(with_groups, 600);
  EXPECT_GT(compared, 200);
}

// The Lagrangian bound whose messages run on the contracted problem holds for
// the constrained optimum (the multipliers stay the original model's, the
// prices reach the contracted nodes through their members), and its own
// rounding, expanded back, moves the multipliers so that it climbs above
// the bound without prices where that is below the optimum.
TEST(Contraction, LagrangianBoundOnTheContractedProblemValidAndClimbs) {
  int binding = 0, climbed = 0;
  for (uint64_t seed = 1; seed <= 30000; ++seed) {
    Problem p = tied_instance(seed);
    if (!p.has_usage_limit) continue;
    Prepared pr;
    if (!prepare(p, &pr)) continue;
    Contraction c;
    c.build(pr.m, pr.groups);
    const test_support::Exhaustive ex = test_support::exhaustive(p);
    if (!ex.feasible) continue;
    const double upper = double(ex.cost);
    MessagePassing plain;
    plain.init(c.model());
    for (int it = 0; it < 200; ++it) ASSERT_TRUE(plain.iterate(nullptr));
    const double unpriced = plain.lower_bound();
    for (auto source : {LagrangianBound::Source::kSearchAnswers, LagrangianBound::Source::kOwnRounding}) {
      LagrangianBound lag;
      lag.init(pr.m, source, &c);
      if (!lag.needed()) break;
      const double best = test_support::drive_lagrangian_bound(pr.m, &lag, source, upper, 200, seed);
      ASSERT_GT(best, -1e300) << "seed " << seed;
      if (source == LagrangianBound::Source::kOwnRounding && upper > unpriced + 0.5) {
        ++binding;
        if (best > unpriced + 0.5) ++climbed;
      }
    }
  }
  EXPECT_GT(binding, 100);
  EXPECT_GE(climbed, binding / 3) << "of " << binding;
}

// A group move's predicted cost change is the exact change, and the descent
// keeps a state that fits within the limit and never raises its cost.
TEST(GroupMoves, DeltasExactAndDescentSafe) {
  int checked = 0, moved = 0;
  for (uint64_t seed = 1; seed <= 5000; ++seed) {
    Problem p = tied_instance(seed);
    Prepared pr;
    if (!prepare(p, &pr)) continue;
    GroupMoves gm;
    gm.init(pr.m, &pr.groups);
    Rng rng(seed);
    std::vector<int32_t> a = random_assignment(pr.m, &rng);
    SearchState st;
    st.init(pr.m, a);
    std::vector<double> delta;
    std::vector<char> raises;
    for (int g = 0; g < pr.groups.size(); ++g) {
      gm.deltas(st, g, &delta, &raises);
      for (int c = 0; c < pr.groups.choices(g); ++c) {
        if (!std::isfinite(delta[c])) continue;
        SearchState t = st;
        for (int k = 0; k < pr.groups.member_count(g); ++k)
          t.set(pr.groups.members(g)[k], pr.groups.strategy(g, k, c));
        EXPECT_NEAR(t.full_cost() - st.full_cost(), delta[c], 1e-6 * std::max(1.0, std::abs(delta[c])))
            << "seed " << seed;
        ++checked;
      }
    }
    const bool fits = st.within_limit();
    const double before = st.full_cost();
    moved += gm.descend(&st, &rng, [] { return false; }) > 0;
    EXPECT_LE(st.full_cost(), before + 1e-6) << "seed " << seed;
    EXPECT_NEAR(st.cost, st.full_cost(), 1e-6 * std::max(1.0, before)) << "seed " << seed;
    if (fits) EXPECT_TRUE(st.within_limit()) << "seed " << seed;
  }
  EXPECT_GT(checked, 1000);
  EXPECT_GT(moved, 100);
}

// A chain of tied pairs: nodes 2g and 2g+1 joined by a bijection (group g),
// each pair joined to the next by an ordinary edge; no limit. A group's best
// choice depends on its neighbours', so a descent must look again at the
// groups next to one that moved.
Problem group_chain_instance(uint64_t seed, int groups) {
  Rng rng(seed);
  Problem p;
  p.name = "group-chain-" + std::to_string(seed);
  const int K = 3;
  for (int i = 0; i < 2 * groups; ++i) {
    p.interval_lo.push_back(0);
    p.interval_hi.push_back(1);
    for (int s = 0; s < K; ++s) {
      p.node_cost.push_back(int64_t(rng.below(50)));
      p.node_usage.push_back(1);
    }
    p.strategy_offset.push_back(p.node_cost.size());
  }
  for (int i = 0; i + 1 < 2 * groups; ++i) {
    p.edge_u.push_back(i);
    p.edge_v.push_back(i + 1);
    for (int r = 0; r < K; ++r)
      for (int c = 0; c < K; ++c)
        p.edge_cost.push_back(i % 2 == 0 ? (r == c ? 0 : kForbidden) : int64_t(rng.below(60)));
    p.edge_cost_offset.push_back(p.edge_cost.size());
  }
  p.has_usage_limit = false;
  finalize_problem(&p);
  return p;
}

// The work-list descent stops only at a local optimum: no group move that
// raises no member's usage (always possible) lowers the cost, whether the
// descent began with every group or with a few seeds. (A move that raises
// usage may have been blocked by the limit when last looked at.)
TEST(GroupMoves, DescentEndsWhereNoGroupMoveThatRaisesNothingGains) {
  int checked = 0, seeded = 0;
  for (uint64_t seed = 1; seed <= 600; ++seed) {
    Problem p = seed % 3 == 0 ? group_chain_instance(seed, 40) : tied_instance(seed);
    Prepared pr;
    if (!prepare(p, &pr) || pr.groups.size() == 0) continue;
    GroupMoves gm;
    gm.init(pr.m, &pr.groups);
    Rng rng(seed);
    std::vector<int32_t> a = random_assignment(pr.m, &rng);
    SearchState st;
    st.init(pr.m, a);
    const auto stop = [] { return false; };
    gm.descend(&st, &rng, stop);
    // Then one group set to another choice, and a descent seeded with its members only.
    const int g0 = int(rng.below(uint32_t(pr.groups.size())));
    if (seed % 2 == 0) {
      const int c = int(rng.below(uint32_t(pr.groups.choices(g0))));
      bool whole = true;
      for (int k = 0; k < pr.groups.member_count(g0); ++k) whole = whole && pr.groups.strategy(g0, k, c) >= 0;
      if (whole) {
        for (int k = 0; k < pr.groups.member_count(g0); ++k)
          st.set(pr.groups.members(g0)[k], pr.groups.strategy(g0, k, c));
        st.cost = st.full_cost();
        const std::vector<int32_t> seeds(pr.groups.members(g0), pr.groups.members(g0) + pr.groups.member_count(g0));
        gm.descend(&st, &rng, stop, nullptr, &seeds);
        ++seeded;
      }
    }
    EXPECT_NEAR(st.cost, st.full_cost(), 1e-6 * std::max(1.0, std::abs(st.cost))) << "seed " << seed;
    std::vector<double> delta;
    std::vector<char> raises;
    for (int g = 0; g < pr.groups.size(); ++g) {
      gm.deltas(st, g, &delta, &raises);
      for (int c = 0; c < pr.groups.choices(g); ++c) {
        if (raises[c] || !std::isfinite(delta[c])) continue;
        EXPECT_GE(delta[c], -1e-6 * std::max(1.0, std::abs(st.cost))) << "seed " << seed << " group " << g;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 3000);
  EXPECT_GT(seeded, 100);
}

// Repair with group moves: when it succeeds the state fits, its running cost
// is its exact cost, and ties kept by the start stay kept.
TEST(GroupMoves, RepairKeepsTiesAndBookkeeping) {
  int repaired = 0;
  for (uint64_t seed = 1; seed <= 3000; ++seed) {
    Problem p = tied_instance(seed);
    if (!p.has_usage_limit) continue;
    Prepared pr;
    if (!prepare(p, &pr)) continue;
    Rng rng(seed);
    std::vector<int32_t> a = random_assignment(pr.m, &rng);
    // Every group at one consistent choice, when it has one.
    for (int g = 0; g < pr.groups.size(); ++g)
      for (int c = 0; c < pr.groups.choices(g); ++c) {
        if (pr.groups.strategy(g, 0, c) < 0) continue;
        for (int k = 0; k < pr.groups.member_count(g); ++k) a[pr.groups.members(g)[k]] = pr.groups.strategy(g, k, c);
        break;
      }
    LocalSearch ls;
    ls.init(pr.m, &pr.groups);
    SearchState st;
    st.init(pr.m, a);
    if (st.within_limit()) continue;
    const bool ok = ls.repair(&st, [] { return false; });
    EXPECT_NEAR(st.cost, st.full_cost(), 1e-6 * std::max(1.0, std::abs(st.full_cost()))) << "seed " << seed;
    if (!ok) continue;
    ++repaired;
    EXPECT_TRUE(st.within_limit()) << "seed " << seed;
  }
  EXPECT_GT(repaired, 10);
}

// Repair as it was written before it kept each node's and group's best move
// between steps: every step scans every move of the nodes alive at the peak
// and every group with a member there, from fresh deltas. Same ranking, same
// ties (the first in the scan wins).
bool repair_by_fresh_scans(const SearchModel& m, const LocalSearch& ls, SearchState* st,
                           std::vector<std::pair<int, int>>* log) {
  const GroupMoves& gm = ls.group_moves();
  const TiedGroups& G = *gm.groups();
  struct Best {
    bool set = false, clean = false;
    double delta = 0, score = 0;
    int64_t red = 0;
    int node = -1, group = -1, choice = -1;
  };
  std::vector<double> delta;
  std::vector<char> raises;
  while (st->peak() > m.limit) {
    const int t = st->usage.argmax();
    const int64_t excess = st->peak() - m.limit;
    Best best;
    const auto consider = [&](double d, int64_t red, int node, int group, int choice) {
      const bool clean = d < 0.5 * m.big;
      const double score = d / double(std::min(red, excess));
      if (!best.set || (clean && !best.clean) ||
          (clean == best.clean && (score < best.score || (score == best.score && red > best.red))))
        best = {true, clean, d, score, red, node, group, choice};
    };
    std::vector<int> alive;
    for (int i : ls.by_start())
      if (m.p->seg_lo[i] <= t && t < m.p->seg_hi[i]) alive.push_back(i);
    for (int i : alive)
      for (int k = 0; k < m.dom_size(i); ++k) {
        const int to = m.domain(i)[k];
        const int64_t red = m.usage(i, st->s[i]) - m.usage(i, to);
        if (red > 0) consider(st->move_delta(i, to), red, i, -1, to);
      }
    std::vector<char> seen(G.size(), 0);
    for (int i : alive) {
      const int g = G.group_of(i);
      if (g < 0 || seen[g]) continue;
      seen[g] = 1;
      gm.deltas(*st, g, &delta, &raises);
      for (int c = 0; c < G.choices(g); ++c) {
        if (raises[c] || !std::isfinite(delta[c])) continue;
        int64_t red = 0;
        for (int k = 0; k < G.member_count(g); ++k) {
          const int x = G.members(g)[k];
          if (m.has_interval(x) && m.p->seg_lo[x] <= t && t < m.p->seg_hi[x])
            red += m.usage(x, st->s[x]) - m.usage(x, G.strategy(g, k, c));
        }
        if (red > 0) consider(delta[c], red, -1, g, c);
      }
    }
    if (best.group >= 0) {
      gm.apply(st, best.group, best.choice, best.delta, log);
      continue;
    }
    if (best.node < 0) return false;
    log->push_back({best.node, st->s[best.node]});
    st->apply(best.node, best.choice, best.delta);
  }
  return true;
}

// Repair keeps each node's and each tied group's best move while its deltas
// stand: it makes the very moves of a repair that scans everything afresh at
// every step, on states far over the limit (every node at its largest usage)
// and on random ones, twice through the same object.
TEST(GroupMoves, RepairWithKeptBestsMakesTheFreshScansMoves) {
  int compared = 0, with_group_moves = 0;
  for (uint64_t seed = 1; seed <= 20000; ++seed) {
    Problem p = tied_instance(seed);
    if (!p.has_usage_limit) continue;
    Prepared pr;
    if (!prepare(p, &pr)) continue;
    LocalSearch ls;
    ls.init(pr.m, &pr.groups);
    Rng rng(seed);
    for (int round = 0; round < 2; ++round) {
      std::vector<int32_t> a = test_support::extreme_usage(pr.m, true);
      if (round == 1)
        for (int i = 0; i < pr.m.n; ++i)
          if (rng.below(2)) a[i] = pr.m.domain(i)[rng.below(uint32_t(pr.m.dom_size(i)))];
      SearchState kept, fresh;
      kept.init(pr.m, a);
      fresh.init(pr.m, a);
      if (kept.within_limit()) continue;
      std::vector<std::pair<int, int>> kept_log, fresh_log;
      const bool kept_ok = ls.repair(&kept, [] { return false; }, &kept_log);
      const bool fresh_ok = repair_by_fresh_scans(pr.m, ls, &fresh, &fresh_log);
      ASSERT_EQ(kept_ok, fresh_ok) << "seed " << seed << " round " << round;
      ASSERT_EQ(kept_log, fresh_log) << "seed " << seed << " round " << round;
      ASSERT_EQ(kept.s, fresh.s) << "seed " << seed << " round " << round;
      ++compared;
      std::vector<int> moves_of(pr.m.n, 0);
      for (const auto& mv : kept_log) ++moves_of[mv.first];
      for (int g = 0; g < pr.groups.size(); ++g)
        if (pr.groups.member_count(g) > 1 && moves_of[pr.groups.members(g)[0]] > 0 &&
            moves_of[pr.groups.members(g)[1]] > 0) {
          ++with_group_moves;
          break;
        }
    }
  }
  EXPECT_GT(compared, 100);
  EXPECT_GT(with_group_moves, 10);
}

// The neighbourhood search on tied instances (windows take groups whole,
// ejections move them): every answer it reports fits, costs what it says and
// is cheaper than the one before.
TEST(NeighbourhoodSearch, ReportsOnlyBetterFittingAnswersOnTiedInstances) {
  int improved_cases = 0;
  for (uint64_t seed = 1; seed <= 1500; ++seed) {
    Problem p = tied_instance(seed);
    Prepared pr;
    if (!prepare(p, &pr)) continue;
    const std::vector<int32_t> a = test_support::extreme_usage(pr.m);
    SearchState st;
    st.init(pr.m, a);
    if (!st.within_limit()) continue;
    const bool any = test_support::neighbourhood_reports_only_better_fitting(pr.m, &pr.groups, a, seed, 64);
    improved_cases += any;
  }
  EXPECT_GT(improved_cases, 100);
}

// The proof search, run to the end from no answer at all, finds an optimum
// (every answer it offers fits and costs what it says) and proves it: its
// bound is the exhaustive optimum, on the contracted problem and on the model
// itself. Given the optimum up front, it proves it and offers nothing cheaper.
// With two searches on one tree (taking turns a tree node at a time, or in
// two threads at once), the same holds for both.
enum class Lanes { kOne, kTwoInTurns, kTwoThreads };

void expect_proofs_exact(int64_t cost_scale, int64_t usage_scale, Lanes lanes = Lanes::kOne, uint64_t seeds = 4000) {
  int proven = 0, branched = 0, infeasible = 0, memory_pruned = 0, both_worked = 0, restarted = 0, answers_over_nodes = 0;
  const int L = lanes == Lanes::kOne ? 1 : 2;
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    Problem p = tied_instance(seed, cost_scale, usage_scale);
    Prepared pr;
    pr.m.build(p);
    if (reduce_domains(&pr.m).wiped_out) continue;
    pr.groups.build(pr.m);
    Contraction c;
    if (pr.groups.size() > 0) c.build(pr.m, pr.groups);
    const test_support::Exhaustive ex = test_support::exhaustive(p);
    for (const Contraction* contraction : std::vector<const Contraction*>{pr.groups.size() > 0 ? &c : nullptr, nullptr}) {
      for (bool given : {false, true}) {
        if (given && !ex.feasible) continue;
        const std::shared_ptr<ProofSearch::Tree> tree = ProofSearch::new_tree();
        ProofSearch ps[2];
        for (int l = 0; l < L; ++l) ASSERT_TRUE(ps[l].init(pr.m, contraction, tree));
        std::mutex mu;  // guards the incumbent below
        bool have = given;
        Int128 best = given ? ex.cost : Int128(0);
        const auto upper = [&](Int128* cost) {
          std::lock_guard<std::mutex> lock(mu);
          *cost = best;
          return have;
        };
        bool bad_offer = false;
        const auto offer = [&](const std::vector<int32_t>& a, double cost) {
          const Evaluation ev = evaluate(p, a);
          std::lock_guard<std::mutex> lock(mu);
          if (!ev.feasible() || double(ev.total_cost) != cost) {
            ADD_FAILURE() << "seed " << seed << " offered " << cost << " feasible " << ev.feasible() << " cost "
                          << double(ev.total_cost);
            bad_offer = true;
          }
          if (have && ev.total_cost >= best) {
            // One search only: another may offer an answer it found before
            // it read the incumbent this one just offered.
            if (L == 1) {
              ADD_FAILURE() << "seed " << seed << " offered " << cost << " against best " << double(best);
              bad_offer = true;
            }
            return;
          }
          have = true;
          best = ev.total_cost;
        };
        std::atomic<int> budget{20000};
        bool exhausted = false;
        if (lanes == Lanes::kTwoThreads) {
          // Each thread until the tree is exhausted (a search whose stack is
          // empty while the other has a node in flight tries again).
          std::atomic<bool> done{false};
          const auto work = [&](int l) {
            const std::function<bool()> more = [&] { return budget.fetch_sub(1) > 0; };
            for (int calls = 0; calls < 1000000 && !done.load(); ++calls) {
              if (ps[l].run(upper, offer, more, nullptr, nullptr)) done.store(true);
              std::this_thread::yield();
            }
          };
          std::thread other(work, 1);
          work(0);
          other.join();
          exhausted = done.load();
        } else {
          // Every other instance in slices of a tree node and three bound
          // steps: a node paused mid-bound resumes where it was. Two searches
          // take turns at each call, one tree node each.
          int steps = 0, per_call = 0;
          const std::function<bool()> more = [&] { return (L == 1 || per_call-- > 0) && budget.fetch_sub(1) > 0; };
          const std::function<bool()> more_steps = [&] { return steps-- > 0; };
          for (int calls = 0; calls < 1000000 && !exhausted; ++calls) {
            steps = 3;
            per_call = 1;
            exhausted = ps[calls % L].run(upper, offer, more, seed % 2 ? &more_steps : nullptr, nullptr);
          }
        }
        ASSERT_TRUE(exhausted) << "seed " << seed << " not exhausted";
        ASSERT_FALSE(bad_offer) << "seed " << seed;
        int64_t nodes = 0, pruned_memory = 0, restarts = 0;
        for (int l = 0; l < L; ++l) {
          ASSERT_TRUE(ps[l].exhausted()) << "seed " << seed << " search " << l;
          ASSERT_EQ(ps[l].has_proof(), ex.feasible) << "seed " << seed << " search " << l;
          if (ex.feasible) ASSERT_TRUE(ps[l].proven() == ex.cost) << "seed " << seed << " search " << l;
          // Every answer offered comes from a bound step's rounding or a
          // leaf: --stats counts improvements against those (a node's bound
          // can offer many answers, so not against tree nodes).
          const ProofStats& st = ps[l].stats();
          ASSERT_LE(st.answers, st.steps + st.leaves) << "seed " << seed << " search " << l;
          answers_over_nodes += st.answers > st.nodes;
          nodes += ps[l].stats().nodes;
          pruned_memory += ps[l].stats().pruned_memory;
          restarts += ps[l].stats().budget_restarts;
        }
        if (!ex.feasible) {
          ++infeasible;
          continue;
        }
        ASSERT_TRUE(best == ex.cost) << "seed " << seed << " given " << given;
        ++proven;
        if (nodes > 1) ++branched;
        if (pruned_memory > 0) ++memory_pruned;
        if (restarts > 0) ++restarted;
        if (L == 2 && ps[0].stats().nodes > 0 && ps[1].stats().nodes > 0) ++both_worked;
      }
    }
  }
  EXPECT_GT(proven, int(seeds));
  EXPECT_GT(branched, int(seeds / 40));
  EXPECT_GT(memory_pruned, int(seeds / 80));
  EXPECT_GT(infeasible, int(seeds / 200));
  if (lanes == Lanes::kTwoInTurns) EXPECT_GT(both_worked, int(seeds / 40));
  EXPECT_GT(restarted, int(seeds / 200));  // trees that spent their node budget and started afresh
  EXPECT_GT(answers_over_nodes, 0);  // more answers than tree nodes: no bound on them
}

TEST(ProofSearch, FindsAndProvesTheOptimumOnRandomInstances) { expect_proofs_exact(1, 1); }

// The same with totals near 10^11 and usages near 10^7 (V's are 1.6e6 and
// 1.4e7, M's 5e10): the bound's rounding margin, relative to its magnitudes,
// must still let ties be pruned (costs are integers) and never prune an
// answer cheaper than the incumbent.
TEST(ProofSearch, FindsAndProvesTheOptimumWithLargeCosts) { expect_proofs_exact(1000000000, 1000000); }

// Two searches on one tree: taking turns a tree node at a time (every
// hand-over between them, deterministic), and in two threads at once (the
// threaded suite runs this under TSan).
TEST(ProofSearch, SharedTreeInTurnsFindsAndProvesTheOptimum) { expect_proofs_exact(1, 1, Lanes::kTwoInTurns); }
TEST(ProofSearch, SharedTreeInTwoThreadsFindsAndProvesTheOptimum) {
  expect_proofs_exact(1, 1, Lanes::kTwoThreads, 1000);
}
