// Lockstep (lockstep.h): under a round budget several threads meet at the end
// of every round and take what the others had there in thread order, so a
// solve repeats itself whatever the threads' timing. The meeting itself, then
// whole solves.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "lockstep.h"
#include "search_state.h"
#include "solver.h"
#include "test_data.h"

using namespace iopddl;

using test_support::load;
using test_support::rounds;

namespace {

const std::function<bool()> kNever = [] { return false; };

// Claims decided as outside lockstep: one Lagrangian holder, three rounding
// slots, one proof search.
struct Grants {
  int lagrangian = 0, rounding = 0, proof = 0;
  int operator()(Role r, bool may_take) {
    if (r == Role::kLagrangian) return lagrangian++ == 0 ? 0 : kRoleRefused;
    if (!may_take) return kRoleRefused;
    if (r == Role::kProof) return proof++ == 0 ? 0 : kRoleRefused;
    const int slot = rounding++;
    return slot < 3 ? slot : kRoleRefused;
  }
};

// Runs f(tid) on `n` threads and waits for them.
template <class F>
void on_threads(int n, F f) {
  std::vector<std::thread> ts;
  for (int k = 0; k < n; ++k) ts.emplace_back([&f, k] { f(k); });
  for (auto& t : ts) t.join();
}

}  // namespace

// The cheapest best of the meeting, ties to the lowest thread, whatever the
// order of arrival; a thread without a best posts none.
TEST(Lockstep, TheMeetingsBestIsTheCheapestTiesToTheLowestThread) {
  for (int order = 0; order < 6; ++order) {
    Lockstep ls;
    int settled = 0;
    ls.init(3, Grants(), [&] { ++settled; });
    const std::vector<std::vector<int32_t>> bests = {{0, 0}, {1, 1}, {2, 2}};
    const double costs[3] = {5, 3, 3};
    // Arrivals staggered in one of the six orders.
    const int perm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    on_threads(3, [&](int tid) {
      int rank = 0;
      while (perm[order][rank] != tid) ++rank;
      std::this_thread::sleep_for(std::chrono::milliseconds(5 * rank));
      EXPECT_TRUE(ls.meet(tid, bests[tid], costs[tid], kNever));
    });
    EXPECT_EQ(settled, 1);
    std::vector<int32_t> a = {9, 9};
    double cost = 4;
    ASSERT_TRUE(ls.adopt(&a, &cost));
    EXPECT_EQ(a, bests[1]) << "order " << order;
    EXPECT_EQ(cost, 3);
    cost = 3;
    EXPECT_FALSE(ls.adopt(&a, &cost));  // not cheaper
  }
  Lockstep none;
  none.init(2, Grants(), nullptr);
  on_threads(2, [&](int tid) { EXPECT_TRUE(none.meet(tid, {}, kNoCost, kNever)); });
  std::vector<int32_t> a;
  double cost = kNoCost;
  EXPECT_FALSE(none.adopt(&a, &cost));
}

// Claims made in one round are decided at its meeting in thread order, not
// in the order made; a thread holds at most one of a rounding and the proof
// search; the Lagrangian bounds go to one thread.
TEST(Lockstep, RolesAreDecidedAtTheMeetingInThreadOrder) {
  Lockstep ls;
  ls.init(3, Grants(), nullptr);
  // Thread 2 claims first, then 1; both pending until the meeting.
  EXPECT_EQ(ls.claim(Role::kRounding, 2, true), kRolePending);
  EXPECT_EQ(ls.claim(Role::kRounding, 1, true), kRolePending);
  EXPECT_EQ(ls.claim(Role::kProof, 0, true), kRolePending);
  on_threads(3, [&](int tid) { EXPECT_TRUE(ls.meet(tid, {}, kNoCost, kNever)); });
  EXPECT_EQ(ls.claim(Role::kRounding, 1, true), 0);
  EXPECT_EQ(ls.claim(Role::kRounding, 2, true), 1);
  EXPECT_EQ(ls.claim(Role::kProof, 0, true), 0);
  // Thread 0 holds the proof search: its claim of a rounding is refused,
  // though a slot is free; the Lagrangian bounds go beside a rounding.
  EXPECT_EQ(ls.claim(Role::kRounding, 0, true), kRolePending);
  EXPECT_EQ(ls.claim(Role::kLagrangian, 2, true), kRolePending);
  on_threads(3, [&](int tid) { EXPECT_TRUE(ls.meet(tid, {}, kNoCost, kNever)); });
  EXPECT_EQ(ls.claim(Role::kRounding, 0, true), kRoleRefused);
  EXPECT_EQ(ls.claim(Role::kLagrangian, 2, true), 0);
  EXPECT_EQ(ls.claim(Role::kLagrangian, 1, true), kRolePending);
  on_threads(3, [&](int tid) { EXPECT_TRUE(ls.meet(tid, {}, kNoCost, kNever)); });
  EXPECT_EQ(ls.claim(Role::kLagrangian, 1, true), kRoleRefused);
}

// The roundings handed over in one round: the highest thread's is the
// latest, and a reader sees each version once.
TEST(Lockstep, TheLatestRoundingIsTheHighestThreads) {
  Lockstep ls;
  ls.init(2, Grants(), nullptr);
  std::vector<int32_t> got;
  int64_t version = 0;
  EXPECT_FALSE(ls.latest_rounding(&got, &version));
  on_threads(2, [&](int tid) {
    ls.post_rounding(tid, {tid, tid});
    EXPECT_TRUE(ls.meet(tid, {}, kNoCost, kNever));
  });
  ASSERT_TRUE(ls.latest_rounding(&got, &version));
  EXPECT_EQ(got, (std::vector<int32_t>{1, 1}));
  EXPECT_FALSE(ls.latest_rounding(&got, &version));
}

// A thread that stops outside a meeting leaves, and the others meet without
// it; a thread told to stop while it waits leaves the meeting (no hang).
TEST(Lockstep, AThreadThatStopsLeavesAndTheOthersGoOn) {
  Lockstep ls;
  int settled = 0;
  ls.init(2, Grants(), [&] { ++settled; });
  std::thread waiter([&] { EXPECT_TRUE(ls.meet(0, {1}, 1, kNever)); });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ls.leave(1);
  waiter.join();
  EXPECT_EQ(settled, 1);
  EXPECT_TRUE(ls.meet(0, {1}, 1, kNever));  // alone now
  EXPECT_EQ(settled, 2);
  EXPECT_FALSE(ls.meet(1, {}, kNoCost, kNever));  // it has left

  Lockstep two;
  two.init(2, Grants(), nullptr);
  std::atomic<bool> stop{false};
  std::thread stopped([&] { EXPECT_FALSE(two.meet(0, {}, kNoCost, [&] { return stop.load(); })); });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  stop = true;
  stopped.join();
  EXPECT_TRUE(two.meet(1, {}, kNoCost, kNever));  // thread 0 has left: alone
}

// Whole solves: under a round budget two and three threads give the same
// answer on every run. Before lockstep, two threads on G gave another answer
// now and then (1 run in 4 with 40 rounds).
TEST(Solver, SeveralThreadsUnderARoundBudgetRepeatThemselves) {
  Problem p = load("asplos-2025-iopddl-G.json.gz");
  for (int threads : {2, 3}) {
    const SolveResult first = solve(p, rounds(25, threads, 3));
    ASSERT_TRUE(first.feasible);
    // Every thread ran as many rounds (G is proven optimal before 25: the
    // threads stop together, at a meeting).
    EXPECT_EQ(first.stats.rounds % threads, 0);
    for (int k = 0; k < 2; ++k) {
      const SolveResult again = solve(p, rounds(25, threads, 3));
      EXPECT_EQ(again.assignment, first.assignment) << threads << " threads, run " << k + 2;
      EXPECT_TRUE(again.evaluation.total_cost == first.evaluation.total_cost);
      EXPECT_EQ(again.stats.rounds, first.stats.rounds);
    }
  }
}

// The same on V, where the threads' answers differ for longer: before
// lockstep, three runs of 20 rounds with two threads gave three answers.
TEST(Solver, TwoThreadsUnderARoundBudgetRepeatThemselvesOnV) {
  Problem p = load("asplos-2025-iopddl-V.json.gz");
  const SolveResult first = solve(p, rounds(20, 2, 1));
  ASSERT_TRUE(first.feasible);
  const SolveResult again = solve(p, rounds(20, 2, 1));
  EXPECT_EQ(again.assignment, first.assignment);
  EXPECT_TRUE(again.evaluation.total_cost == first.evaluation.total_cost);
}

// The time limit still ends a solve whose round budget is far away: the
// threads stop where they are, and none waits for the others for ever (the
// proof search off: it proves G optimal within a second).
TEST(Solver, TheTimeLimitEndsALockstepSolve) {
  Problem p = load("asplos-2025-iopddl-G.json.gz");
  SolveOptions o = rounds(1000000, 2, 1);
  o.time_limit_seconds = 0.5;
  ASSERT_TRUE(set_param(&o.params, "proof_max_strategies", 0).ok);
  const auto t0 = std::chrono::steady_clock::now();
  const SolveResult r = solve(p, o);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(wall, 2.5);
  EXPECT_TRUE(r.feasible);
  EXPECT_LT(r.stats.rounds, 2 * 1000000);
}

// The wait at the meetings is counted (the price of keeping step); without
// lockstep nothing waits.
TEST(Solver, OnlyALockstepSolveWaitsAtMeetings) {
  Problem p = load("asplos-2025-iopddl-G.json.gz");
  EXPECT_EQ(solve(p, rounds(5, 1, 1)).stats.counter(Counter::meeting_wait_ms), 0);
  SolveOptions timed;
  timed.time_limit_seconds = 0.3;
  timed.threads = 2;
  EXPECT_EQ(solve(p, timed).stats.counter(Counter::meeting_wait_ms), 0);
  // In lockstep it is counted in milliseconds: at most the threads' time.
  SolveOptions o = rounds(6, 2, 1);
  ASSERT_TRUE(set_param(&o.params, "proof_max_strategies", 0).ok);
  const SolveResult r = solve(p, o);
  EXPECT_EQ(r.stats.rounds, 12);
  EXPECT_LE(r.stats.counter(Counter::meeting_wait_ms), 2 * 1000 * r.elapsed_seconds + 1);
}
