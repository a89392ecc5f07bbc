// The rounding step's role (step_rounding.cc, scheduler.h): held whole where
// no proof is in reach, whatever its faded yield says, and only as far as it
// earns it where every thread joins the proof (rounding_role_earned 1); 0
// and 2 hold it whole or earned everywhere. Driven on the step itself, not
// through a solve, so that a change of rule shows here and not only as a
// shift of CPU shares in a benchmark.
#include <gtest/gtest.h>

#include <chrono>

#include "load_json.h"
#include "search_context.h"
#include "step.h"
#include "thread_state.h"

using namespace iopddl;

namespace {

// Four nodes alive at once, a chain of edges, a limit that binds.
const char* kChain = R"({"problem":{"name":"chain","nodes":{
  "intervals":[[0,10],[0,10],[0,10],[0,10]],
  "costs":[[10,0],[10,0],[0,5],[0,7]],
  "usages":[[10,20],[10,20],[30,10],[30,10]]},
  "edges":{"nodes":[[0,1],[1,2],[2,3]],"costs":[[0,1,2,0],[0,3,1,0],[2,0,0,2]]},
  "usage_limit":80}})";

// A search context as the solve sets one up (solve.cc), for two threads,
// with the rounding step of thread 0.
struct RoundingRole {
  Problem p;
  SearchModel m;
  TiedGroups groups;
  SolveOptions options;
  std::unique_ptr<Incumbent> incumbent;
  SearchContext ctx;
  std::unique_ptr<ThreadState> t;
  std::unique_ptr<SearchStep> step = make_rounding_step();

  RoundingRole(int earned, double helpers_max_strategies) {
    const Status st = load_problem_from_buffer(kChain, "chain.json", &p);
    EXPECT_TRUE(st.ok) << st.message;
    m.params.rounding_role_earned = earned;
    m.params.proof_helpers_max_strategies = helpers_max_strategies;
    m.build(p, p.limit());
    m.build_matrices();  // as reduce_domains() leaves them (solve.cc)
    groups.build(m);
    incumbent = std::make_unique<Incumbent>(p, p.limit());
    ctx.start = std::chrono::steady_clock::now();
    ctx.solve_end = ctx.deadline = ctx.start + std::chrono::seconds(60);
    ctx.options = &options;
    ctx.model = &m;
    ctx.groups = &groups;
    ctx.incumbent = incumbent.get();
    ctx.threads = 2;
    t = std::make_unique<ThreadState>(&ctx, 0);
    t->ls.init(m, &groups);
  }
  // The step's first run takes the role and judges whether a proof is in reach.
  void take() {
    ASSERT_TRUE(step->available(*t));
    ASSERT_TRUE(step->run(*t, [] { return false; }));
    ASSERT_TRUE(t->holds_rounding);
  }
  FloorKind kind() { return step->floor_kind(*t); }
};

}  // namespace

TEST(RoundingRole, WholeWhereNoProofIsInReach) {
  RoundingRole r(/*earned=*/1, /*helpers_max_strategies=*/0);  // no problem is in reach
  r.take();
  EXPECT_EQ(r.kind(), kWholeRole);
  EXPECT_GT(r.step->floor(*r.t, 0.0), 0.0);  // and it has a floor to hold
}

TEST(RoundingRole, EarnedWhereEveryThreadJoinsTheProof) {
  RoundingRole r(1, 50000);  // eight strategies: in reach
  r.take();
  EXPECT_EQ(r.kind(), kEarnedRole);
}

TEST(RoundingRole, TheRuleOverridesWhatIsInReach) {
  RoundingRole whole(0, 50000);
  whole.take();
  EXPECT_EQ(whole.kind(), kWholeRole);
  RoundingRole earned(2, 0);
  earned.take();
  EXPECT_EQ(earned.kind(), kEarnedRole);
}

TEST(RoundingRole, OneThreadHoldsItAndTheNextIsRefused) {
  RoundingRole r(1, 0);
  r.take();
  // rounding_threads 0.25 of two threads: one rounding; thread 1 is refused.
  ThreadState other(&r.ctx, 1);
  other.ls.init(r.m, &r.groups);
  std::unique_ptr<SearchStep> second = make_rounding_step();
  ASSERT_TRUE(second->available(other));
  ASSERT_TRUE(second->run(other, [] { return false; }));
  EXPECT_FALSE(other.holds_rounding);
  EXPECT_FALSE(second->available(other));
  EXPECT_EQ(second->floor(other, 0.0), 0.0);
}

// With rounding_refresh, a rounding whose thread's best has stalled starts
// its prices afresh, counted as roundingRefresh; the next refresh waits
// again (stall_clock.h). Off by default.
TEST(RoundingRefresh, AStalledBestRefreshesThePricesOnce) {
  for (const double refresh : {0.0, 1.0}) {
    RoundingRole r(1, 0);
    r.m.params.rounding_refresh = refresh;
    r.m.params.restart_min_stall = 5.0;
    r.take();  // the first answer, at once: the clock's only counted fall
    const auto run = [&] { ASSERT_TRUE(r.step->run(*r.t, [] { return false; })); };
    const auto refreshes = [&] { return at(r.t->counts, Mechanism::kRoundingRefresh).tried; };
    run();
    EXPECT_EQ(refreshes(), 0);
    r.ctx.start -= std::chrono::seconds(6);
    run();
    EXPECT_EQ(refreshes(), refresh > 0 ? 1 : 0) << refresh;
    run();  // just refreshed: waits again
    EXPECT_EQ(refreshes(), refresh > 0 ? 1 : 0) << refresh;
  }
}

// A thread without a role takes the latest answer of a thread that holds a
// rounding as its part windows' partner (part_partner 1): with many threads
// few hold a rounding, and every other thread's best would otherwise get no
// part windows. With 0 it has none; a newer answer replaces the old; the
// proof search's thread takes none (nor, where a proof is in reach, as here,
// any at all: elimination_partner 1).
TEST(PartPartner, AThreadWithoutARoleTakesTheRoundingsLatestAnswer) {
  for (const int shared : {0, 1}) {
    RoundingRole r(1, 1e12);
    r.m.params.part_partner = shared;
    r.take();
    ASSERT_EQ(r.t->partner.size(), size_t(r.m.n));
    ThreadState other(&r.ctx, 1);
    other.ls.init(r.m, &r.groups);
    other.relax.init(r.m, MemoryRelax::Schedule::kNodes);
    other.elim.init(r.m);
    other.best = least_usage_start(r.m);
    SearchState st;
    st.init(r.m, other.best);
    other.best_cost = st.full_cost();
    std::unique_ptr<SearchStep> lns = make_neighbourhood_step();
    ASSERT_TRUE(lns->available(other));
    ASSERT_TRUE(lns->run(other, [] { return false; }));
    EXPECT_EQ(other.partner, shared ? r.t->partner : std::vector<int32_t>{}) << shared;
    // A later rounding's answer is taken at the step's next run.
    const std::vector<int32_t> later = {1, 0, 1, 0};
    r.ctx.publish_rounding(1, later);
    ASSERT_TRUE(lns->run(other, [] { return false; }));
    EXPECT_EQ(other.partner, shared ? later : std::vector<int32_t>{}) << shared;
    // The thread that holds the proof search's tree gives its time to the proof.
    other.holds_proof = true;
    r.ctx.publish_rounding(1, r.t->partner);
    ASSERT_TRUE(lns->run(other, [] { return false; }));
    EXPECT_TRUE(other.partner.empty()) << shared;
  }
}

// The proof search's thread holds no rounding and takes no other thread's
// (above); its own global eliminations' latest answer is its part windows'
// partner with elimination_partner 2, and with 1 only where a proof is out
// of reach (proof_helpers_max_strategies 0); the neighbourhood step
// keeps it (a newer rounding does not replace it). A thread that holds no
// role keeps the roundings' answers: its eliminations' are not taken.
TEST(EliminationPartner, TheProofsThreadTakesItsOwnEliminationsAnswer) {
  for (const int own : {0, 1, 2}) {
    for (const bool reach : {false, true}) {
      for (const bool proof : {false, true}) {
        RoundingRole r(1, reach ? 1e12 : 0);
        r.m.params.part_partner = 0;
        r.m.params.elimination_partner = own;
        r.take();
        ThreadState t(&r.ctx, 1);
        t.ls.init(r.m, &r.groups);
        t.relax.init(r.m, MemoryRelax::Schedule::kNodes);
        t.elim.init(r.m);
        t.all_free.assign(r.m.n, -1);
        t.best = least_usage_start(r.m);
        SearchState st;
        st.init(r.m, t.best);
        t.best_cost = st.full_cost();
        t.holds_proof = proof;
        std::unique_ptr<SearchStep> elimination = make_elimination_step();
        ASSERT_TRUE(elimination->available(t));
        ASSERT_TRUE(elimination->run(t, [] { return false; }));
        const bool takes = proof && (own == 2 || (own == 1 && !reach));
        ASSERT_EQ(t.partner.size(), takes ? size_t(r.m.n) : 0u) << own << reach << proof;
        const std::vector<int32_t> answer = t.partner;
        r.ctx.publish_rounding(1, {1, 0, 1, 0});
        std::unique_ptr<SearchStep> lns = make_neighbourhood_step();
        ASSERT_TRUE(lns->available(t));
        ASSERT_TRUE(lns->run(t, [] { return false; }));
        EXPECT_EQ(t.partner, answer) << own << reach << proof;
      }
    }
  }
}
