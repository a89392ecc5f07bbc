// When the search restarts (SearchContext::restart_if_stalled): an epoch has
// stalled when its best has not improved (by restart_min_fall of its cost)
// for restart_stall_factor times as long as the epoch took to reach it (1
// here; 0.5 by default), and at least the minimum, and
// only while a new epoch has the time to get back to it; a new epoch's clock
// starts afresh. The clock is moved by moving the context's start back.
#include <gtest/gtest.h>

#include <chrono>

#include "search_context.h"

using namespace iopddl;

namespace {

struct Epochs {
  SearchModel model;
  SearchContext ctx;
  Epochs() {
    model.params.restart_stall_factor = 1.0;
    model.params.restart_min_stall = 5.0;
    ctx.model = &model;
    ctx.start = std::chrono::steady_clock::now();
  }
  void wait(double seconds) { ctx.start -= std::chrono::microseconds(int64_t(seconds * 1e6)); }
  void offer(double cost) { ctx.offer_epoch(ctx.epoch.load(), {}, cost); }
  bool stalled() { return ctx.restart_if_stalled(); }
};

}  // namespace

TEST(Restarts, AnEpochStallsAfterAsLongAsItTookToReachItsBest) {
  Epochs e;
  EXPECT_FALSE(e.stalled());  // nothing within the limit yet
  e.wait(6);
  EXPECT_FALSE(e.stalled());
  e.offer(1000);  // the first answer at 6 s
  e.wait(4);
  e.offer(500);  // the best at 10 s
  e.wait(9);
  EXPECT_FALSE(e.stalled());  // 9 s without a fall, under the 10 s it took
  e.offer(600);               // not an improvement: the clock goes on
  e.wait(2);
  EXPECT_TRUE(e.stalled());
  EXPECT_EQ(e.ctx.epoch.load(), 1);
  // The restart is on the record: when, and how the ended epoch went.
  const std::vector<EpochStart> starts = e.ctx.epoch_starts();
  ASSERT_EQ(starts.size(), 1u);
  EXPECT_EQ(starts[0].epoch, 1);
  EXPECT_FALSE(starts[0].opening);
  EXPECT_NEAR(starts[0].seconds, 21, 0.5);
  EXPECT_NEAR(starts[0].ended_from, 0, 0.5);
  EXPECT_NEAR(starts[0].ended_last_fall, 10, 0.5);
  ASSERT_TRUE(starts[0].ended_has_best);
  EXPECT_TRUE(starts[0].ended_best_cost == 500);
  // An old epoch's offers no longer count.
  e.ctx.offer_epoch(0, {}, 100);
  double cost = 1000;
  std::vector<int32_t> a;
  EXPECT_FALSE(e.ctx.adopt_epoch(1, &a, &cost));
}

// Each rounding samples its own path through the duals, as a restart does,
// and more threads bring an epoch to its first plateau sooner but not its
// roundings' answers: an epoch holding k roundings stalls after k times as
// long.
TEST(Restarts, AnEpochWithMoreRoundingsIsGivenLonger) {
  Epochs e;
  e.ctx.threads = 4;  // a quarter of the threads hold a rounding (rounding_threads)
  EXPECT_EQ(e.ctx.roundings(), 1);
  e.ctx.threads = 8;
  ASSERT_EQ(e.ctx.roundings(), 2);
  e.offer(1000);
  e.wait(10);
  e.offer(500);  // the best at 10 s
  e.wait(19);
  EXPECT_FALSE(e.stalled());  // with one rounding it would have stalled after 10 s
  e.wait(2);
  EXPECT_TRUE(e.stalled());  // 21 s: twice as long as it took
  e.ctx.threads = 1;
  EXPECT_EQ(e.ctx.roundings(), 1);  // a lone thread holds one
}

TEST(Restarts, ANewEpochStallsNoSoonerThanTheMinimum) {
  Epochs e;
  e.offer(1000);
  e.wait(20);
  ASSERT_TRUE(e.stalled());
  e.offer(2000);  // the new epoch's first answer, at once
  e.wait(4);
  EXPECT_FALSE(e.stalled());
  e.wait(2);
  EXPECT_TRUE(e.stalled());
}

TEST(Restarts, AnImprovementKeepsTheEpochAlive) {
  Epochs e;
  e.model.params.restart_min_fall = 0;  // every fall counts
  e.offer(1000);
  for (int k = 0; k < 10; ++k) {
    e.wait(4);
    e.offer(999 - k);  // an improvement every 4 s, however small
    EXPECT_FALSE(e.stalled()) << k;
  }
  double cost = 2000;
  std::vector<int32_t> a;
  EXPECT_TRUE(e.ctx.adopt_epoch(0, &a, &cost));
  EXPECT_EQ(cost, 990);
}

// With restart_min_fall, only falls that add up to that share of the cost
// since the last counted one restart the stall clock: a search settled in its
// basin that still finds tiny falls is restarted all the same.
TEST(Restarts, TinyFallsDoNotKeepTheEpochAliveWhenAShareIsAsked) {
  Epochs e;
  e.model.params.restart_min_fall = 0.01;
  e.offer(1000);
  e.wait(10);
  e.offer(900);  // the best at 10 s, a counted fall
  for (int k = 1; k <= 2; ++k) {
    e.wait(4);
    e.offer(900 - k);  // 0.1 % each: not counted
    EXPECT_FALSE(e.stalled()) << k;
  }
  e.wait(4);
  e.offer(897);
  EXPECT_TRUE(e.stalled());  // 12 s since the counted fall at 10 s
  EXPECT_EQ(e.ctx.epoch.load(), 1);
}

TEST(Restarts, SmallFallsThatAddUpToTheShareCount) {
  Epochs e;
  e.model.params.restart_min_fall = 0.01;
  e.offer(1000);
  e.wait(10);
  e.offer(900);
  for (int k = 1; k <= 6; ++k) {
    e.wait(4);
    e.offer(900 - 5 * k);  // 0.55 % each: every second one makes 1 % since the last counted
    EXPECT_FALSE(e.stalled()) << k;
  }
}

// A new epoch retraces the search from the first answer, so it starts only
// while the time left is at least what this epoch took to reach its best.
TEST(Restarts, NoNewEpochThatCannotGetBackToTheBest) {
  for (const double left : {5.0, 15.0}) {
    Epochs e;
    e.offer(1000);
    e.wait(10);
    e.offer(500);  // the best at 10 s
    e.wait(11);
    e.ctx.solve_end = std::chrono::steady_clock::now() + std::chrono::seconds(int(left));
    EXPECT_EQ(e.stalled(), left > 10) << left << " s left";
  }
  Epochs e;  // no end: the stall rule alone
  e.offer(1000);
  e.wait(10);
  e.offer(500);
  e.wait(11);
  EXPECT_TRUE(e.stalled());
}

namespace {

struct Opening : Epochs {
  // A 120 s solve whose first quarter is three probes of 10 s each.
  Opening() {
    model.params.probe_epochs = 3;
    model.params.probe_share = 0.25;
    model.params.probe_min_seconds = 10.0;
    ctx.solve_end = ctx.start + std::chrono::seconds(120);
  }
  void wait(double seconds) {
    Epochs::wait(seconds);
    ctx.solve_end -= std::chrono::microseconds(int64_t(seconds * 1e6));
  }
  bool due() { return ctx.next_epoch_due(); }
  void offer(double cost, int32_t tag) { ctx.offer_epoch(ctx.epoch.load(), {tag}, cost); }
};

}  // namespace

TEST(Restarts, TheOpeningsProbesRunEqualLengthsThenTheSearchGoesOnFromTheirBest) {
  Opening o;
  o.wait(1);
  o.offer(1000, 0);
  o.wait(8.9);
  EXPECT_FALSE(o.due());  // 9.9 s: epoch 0 has 10 s
  o.wait(0.2);
  ASSERT_TRUE(o.due());
  EXPECT_EQ(o.ctx.epoch.load(), 1);
  o.offer(800, 1);  // the probes' best, in epoch 1
  o.wait(10);
  ASSERT_TRUE(o.due());
  o.offer(900, 2);
  o.wait(9.8);
  EXPECT_FALSE(o.due());  // 29.9 s
  o.wait(0.2);
  ASSERT_TRUE(o.due());
  EXPECT_EQ(o.ctx.epoch.load(), 3);
  // The epoch after the probes starts with their best as its own.
  double cost = 1e9;
  std::vector<int32_t> a;
  ASSERT_TRUE(o.ctx.adopt_epoch(3, &a, &cost));
  EXPECT_EQ(cost, 800);
  EXPECT_EQ(a, std::vector<int32_t>{1});
  // From here the stall rule: a stall of at least 5 s.
  o.wait(4);
  EXPECT_FALSE(o.due());
  o.wait(2);
  EXPECT_TRUE(o.due());
  EXPECT_EQ(o.ctx.epoch.load(), 4);
  // Three ended on the opening's clock, the last by a stall.
  const std::vector<EpochStart> starts = o.ctx.epoch_starts();
  ASSERT_EQ(starts.size(), 4u);
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(starts[k].epoch, k + 1);
    EXPECT_EQ(starts[k].opening, k < 3) << k;
    if (k > 0) EXPECT_DOUBLE_EQ(starts[k].ended_from, starts[k - 1].seconds);
  }
  EXPECT_NEAR(starts[0].seconds, 10.1, 0.5);
  EXPECT_TRUE(starts[0].ended_best_cost == 1000);
  EXPECT_TRUE(starts[3].ended_best_cost == 800);  // the probes' best, kept by the epoch after them
}

// The epoch after the probes starts with their best, and the stall rule's
// share is counted from it: a tiny fall below it does not keep that epoch alive.
TEST(Restarts, AfterTheProbesTinyFallsCountFromTheirBest) {
  Opening o;
  o.model.params.restart_min_fall = 0.01;
  for (int e = 0; e < 3; ++e) {
    o.offer(1000 - 100 * e, e);
    o.wait(10.1);
    ASSERT_TRUE(o.due());
  }
  ASSERT_EQ(o.ctx.epoch.load(), 3);  // starts with the probes' best, 800
  o.wait(1);
  o.offer(799, 3);  // 0.125 % below it: not counted
  o.wait(4.5);
  EXPECT_TRUE(o.due());  // 5.5 s since the epoch began with 800
}

TEST(Restarts, AProbeWithoutAnAnswerWithinTheLimitGoesOn) {
  Opening o;
  o.wait(25);
  EXPECT_FALSE(o.due());
  o.offer(1000, 0);
  EXPECT_TRUE(o.due());  // its share is long over: cut at once
  EXPECT_EQ(o.ctx.epoch.load(), 1);
  EXPECT_FALSE(o.due());  // epoch 1 has no answer yet
}

TEST(Restarts, WithoutAnEndThereIsNoOpeningOnlyTheStallRule) {
  Epochs e;  // solve_end: none
  e.model.params.probe_epochs = 3;
  e.offer(1000);
  e.wait(4);
  EXPECT_FALSE(e.ctx.next_epoch_due());
  e.wait(2);
  EXPECT_TRUE(e.ctx.next_epoch_due());  // stalled for 6 s
}

TEST(Restarts, OneProbeIsNoOpening) {
  Opening o;
  o.model.params.probe_epochs = 1;
  o.offer(1000, 0);
  o.wait(12);
  EXPECT_TRUE(o.due());  // the stall rule
  o.offer(500, 1);
  double cost = 1e9;
  std::vector<int32_t> a;
  ASSERT_TRUE(o.ctx.adopt_epoch(1, &a, &cost));
  EXPECT_EQ(cost, 500);  // not the earlier epoch's answer
}

TEST(Restarts, NoOpeningWhenAProbeWouldBeTooShort) {
  Opening o;  // probes of 10 s
  o.wait(9);
  o.offer(1000, 0);
  o.wait(1.5);
  o.model.params.probe_min_seconds = 11.0;
  EXPECT_FALSE(o.due());  // under the stall rule: not stalled
  o.model.params.probe_min_seconds = 10.0;
  EXPECT_TRUE(o.due());
}

// --stats counts a restart as improved once per later epoch that found a new
// incumbent, whichever thread found it and however many it found: never more
// than the restarts tried.
TEST(Restarts, AnEpochsNewIncumbentsCountOnce) {
  Epochs e;
  EXPECT_TRUE(e.ctx.first_incumbent_of(1));
  EXPECT_FALSE(e.ctx.first_incumbent_of(1));  // the same epoch again, from another thread
  EXPECT_FALSE(e.ctx.first_incumbent_of(0));  // an answer of an epoch that has ended
  EXPECT_TRUE(e.ctx.first_incumbent_of(3));
  EXPECT_FALSE(e.ctx.first_incumbent_of(2));
}
