// Checks shared by the tests of the search's stages.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "elimination.h"
#include "lagrangian_bound.h"
#include "local_search.h"
#include "neighbourhood_search.h"
#include "search_model.h"
#include "search_state.h"
#include "tied_groups.h"

namespace iopddl::test_support {

// Every node at its live strategy of least (or, `largest`, greatest) usage;
// the least-usage one fits whenever anything does.
inline std::vector<int32_t> extreme_usage(const SearchModel& m, bool largest = false) {
  std::vector<int32_t> a(m.n);
  for (int i = 0; i < m.n; ++i) {
    a[i] = m.domain(i)[0];
    for (int k = 1; k < m.dom_size(i); ++k) {
      const int s = m.domain(i)[k];
      if (largest ? m.usage(i, s) > m.usage(i, a[i]) : m.usage(i, s) < m.usage(i, a[i])) a[i] = s;
    }
  }
  return a;
}

// Runs `moves` neighbourhood moves from `start` (which fits) and checks every
// answer reported: it fits, its cost is right, and it is strictly better than
// the one before. True if any was reported.
inline bool neighbourhood_reports_only_better_fitting(const SearchModel& m, const TiedGroups* groups,
                                                      const std::vector<int32_t>& start, uint64_t seed,
                                                      int moves) {
  LocalSearch ls;
  ls.init(m, groups);
  EliminationSolver elim;
  elim.init(m);
  NeighbourhoodSearch lns;
  lns.init(m, &elim, &ls, groups);
  lns.reset(start);
  Rng rng(seed);
  SearchState st;
  st.init(m, start);
  double last = st.full_cost();
  std::vector<double> weight(m.n, 1.0);
  bool any = false;
  lns.run(weight, true, &rng, nullptr, [&] { return moves-- > 0; }, [] { return false; },
          [&](const std::vector<int32_t>& b, double cost) {
            SearchState t;
            t.init(m, b);
            EXPECT_TRUE(t.within_limit()) << "seed " << seed;
            EXPECT_NEAR(t.full_cost(), cost, 1e-6 * std::max(1.0, cost)) << "seed " << seed;
            EXPECT_LT(cost, last) << "seed " << seed;
            last = cost;
            any = true;
          });
  return any;
}

// Drives a Lagrangian bound for `calls` steps towards the optimum `optimum`
// (the kSearchAnswers one fed the largest-usage answer each step), checking
// at every step that the bound stays at or below the optimum; returns the
// best bound seen (-1e300 after a failed check).
inline double drive_lagrangian_bound(const SearchModel& m, LagrangianBound* lag, LagrangianBound::Source source,
                                     double optimum, int calls, uint64_t seed) {
  Rng rng(seed);
  const std::vector<int32_t> largest = extreme_usage(m, true);
  double best = -1e300;
  for (int64_t call = 1; call <= calls; ++call) {
    if (source == LagrangianBound::Source::kSearchAnswers) lag->take_answer(largest, 100.0, optimum, &rng);
    EXPECT_TRUE(lag->iterate(call, 4, optimum, &rng, nullptr));
    double mag = 0;
    const double lb = lag->bound(&mag);
    const double most = optimum + 1e-9 * mag + 1e-6;  // the optimum, with the bound's rounding error
    EXPECT_LE(lb, most) << "seed " << seed << " call " << call;
    if (!(lb <= most)) return -1e300;
    best = std::max(best, lb);
  }
  return best;
}

}  // namespace iopddl::test_support
