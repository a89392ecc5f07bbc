// The edge matrices kept in the search's form: the problem still reads the
// input's integers back, the model reads them in place without a copy, and the
// search gives the same answers as from integers.
#include <gtest/gtest.h>

#include "random_instance.h"
#include "reduce_domains.h"
#include "search_form.h"
#include "search_model.h"
#include "solver.h"
#include "test_data.h"

namespace iopddl {
namespace {

using test_support::random_instance;

// The model's matrices over its live domains, entry by entry.
std::vector<double> live_matrices(const SearchModel& m) {
  std::vector<double> all;
  for (int e = 0; e < m.p->num_edges(); ++e) {
    const int u = m.p->edge_u[e], v = m.p->edge_v[e];
    if (u == v) continue;
    const double* M = m.matrix(e);
    all.insert(all.end(), M, M + uint64_t(m.dom_size(u)) * m.dom_size(v));
  }
  return all;
}

TEST(SearchForm, SameProblemSameModelSameAnswers) {
  int converted = 0, shared_edges = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    const Problem ints = random_instance(seed, 8, 4);
    Problem doubles = ints;
    ASSERT_TRUE(store_edges_for_search(&doubles)) << seed;
    ASSERT_EQ(doubles.edge_form, EdgeForm::kSearchDoubles);
    ++converted;
    EXPECT_EQ(edge_cost_array(doubles), edge_cost_array(ints)) << seed;
    EXPECT_EQ(problem_digest(doubles), problem_digest(ints)) << seed;
    Rng rng(seed);
    for (int t = 0; t < 20; ++t) {
      std::vector<int32_t> a(ints.num_nodes());
      for (int i = 0; i < ints.num_nodes(); ++i) a[i] = int32_t(rng.below(uint32_t(ints.num_strategies(i))));
      const Evaluation x = evaluate(ints, a), y = evaluate(doubles, a);
      ASSERT_EQ(x.total_cost, y.total_cost) << seed;
      ASSERT_EQ(x.forbidden_entries, y.forbidden_entries) << seed;
    }

    SearchModel mi, md;
    mi.build(ints);
    md.build(doubles);
    ASSERT_EQ(mi.big, md.big) << seed;
    reduce_domains(&mi);
    reduce_domains(&md);
    ASSERT_EQ(mi.dom, md.dom) << seed;
    ASSERT_EQ(live_matrices(mi), live_matrices(md)) << seed;
    // Edges whose ends kept every strategy are read where the problem keeps
    // them; only the others are copied.
    uint64_t copied = 0;
    for (int e = 0; e < doubles.num_edges(); ++e) {
      const int u = doubles.edge_u[e], v = doubles.edge_v[e];
      if (u == v) continue;
      const bool full = md.dom_size(u) == doubles.num_strategies(u) && md.dom_size(v) == doubles.num_strategies(v);
      EXPECT_EQ(md.matrix(e) == doubles.edge_doubles(e), full) << seed << " edge " << e;
      if (full) ++shared_edges;
      else copied += uint64_t(md.dom_size(u)) * md.dom_size(v);
      for (const Incidence& a : {Incidence{e, v, true}, Incidence{e, u, false}}) {
        const int self = a.self_is_u ? u : v;
        for (int s = 0; s < doubles.num_strategies(self); ++s)
          for (int t = 0; t < doubles.num_strategies(a.other); ++t)
            ASSERT_EQ(md.pair_cost(a, s, t), mi.pair_cost(a, s, t)) << seed;
      }
    }
    EXPECT_EQ(md.mat.size(), copied) << seed;

    SolveOptions o;
    o.threads = 1;
    o.max_rounds = 3;
    o.time_limit_seconds = 60;
    const SolveResult ri = solve(ints, o), rd = solve(doubles, o);
    ASSERT_EQ(ri.assignment, rd.assignment) << seed;
    ASSERT_EQ(ri.evaluation.total_cost, rd.evaluation.total_cost) << seed;
  }
  EXPECT_EQ(converted, 300);
  EXPECT_GT(shared_edges, 100);
}

// Three ways the doubles would lose something: the problem keeps integers.
TEST(SearchForm, KeepsIntegersWhenDoublesWouldLoseAnything) {
  Problem base = random_instance(7, 8, 4);
  ASSERT_GT(base.edge_cost.size(), 4u);
  auto kept_as_integers = [](Problem p, const char* what) {
    const std::vector<int64_t> want = p.edge_cost;
    EXPECT_FALSE(store_edges_for_search(&p)) << what;
    EXPECT_EQ(p.edge_form, EdgeForm::kIntegers) << what;
    EXPECT_EQ(edge_cost_array(p), want) << what;
  };
  Problem two_forbidden = base;
  two_forbidden.edge_cost[0] = kForbidden;
  two_forbidden.edge_cost[1] = kForbidden + 1;
  kept_as_integers(two_forbidden, "two forbidden values");
  Problem inexact = base;
  inexact.edge_cost[0] = (int64_t(1) << 53) + 1;
  kept_as_integers(inexact, "a finite entry above 2^53");
  Problem at_big = base;
  at_big.edge_cost[0] = int64_t(2e15);  // the forbidden cost is capped at 1e15
  kept_as_integers(at_big, "a finite entry above the forbidden cost");
}

TEST(SearchForm, TheLoaderStoresContestFilesForTheSearch) {
  const Problem p = test_support::load("example.json");
  EXPECT_EQ(p.edge_form, EdgeForm::kSearchDoubles);
  // Stored with the forbidden cost the same problem in integers gets.
  Problem ints = p;
  ints.edge_cost = edge_cost_array(p);
  ints.edge_blocks = nullptr;
  ints.edge_form = EdgeForm::kIntegers;
  EXPECT_EQ(p.forbidden_as, forbidden_cost_for_search(ints));
  EXPECT_EQ(problem_digest(ints), problem_digest(p));
}

}  // namespace
}  // namespace iopddl
