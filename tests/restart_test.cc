// When the search restarts (SearchContext::restart_if_stalled): an epoch has
// stalled when its best has not improved for as long as the epoch took to
// reach it, and at least the minimum; a new epoch's clock starts afresh. The
// clock is moved by moving the context's start back.
#include <gtest/gtest.h>

#include <chrono>

#include "search_context.h"

using namespace iopddl;

namespace {

struct Epochs {
  SearchModel model;
  SearchContext ctx;
  Epochs() {
    ctx.model = &model;
    ctx.start = std::chrono::steady_clock::now();
  }
  void wait(double seconds) { ctx.start -= std::chrono::microseconds(int64_t(seconds * 1e6)); }
  void offer(double cost) { ctx.offer_epoch(ctx.epoch.load(), {}, cost); }
  bool stalled() { return ctx.restart_if_stalled(1.0, 5.0); }
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
  // An old epoch's offers no longer count.
  e.ctx.offer_epoch(0, {}, 100);
  double cost = 1000;
  std::vector<int32_t> a;
  EXPECT_FALSE(e.ctx.adopt_epoch(1, &a, &cost));
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
