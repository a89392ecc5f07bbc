// The stall clock behind the restarts and the rounding's refresh
// (stall_clock.h): only falls of a share of the cost count, a stall is
// judged against the time to the last counted fall, and after a stall acted
// on without starting afresh (wait_again) the next one is judged from then,
// against the whole time since the start.
#include <gtest/gtest.h>

#include "stall_clock.h"

using namespace iopddl;

TEST(StallClock, OnlyFallsOfTheShareCount) {
  StallClock c;
  c.start(0);
  EXPECT_TRUE(c.offer(1000, 1, 0.01));  // the first cost always counts
  EXPECT_FALSE(c.offer(995, 2, 0.01));  // 0.5 %
  EXPECT_TRUE(c.offer(989, 3, 0.01));   // 1.1 % below the last counted
  EXPECT_EQ(c.counted_at, 3);
  EXPECT_EQ(c.reached(), 3);
  EXPECT_TRUE(c.offer(988, 4, 0.0));  // with no share, any fall
}

TEST(StallClock, AStallIsAsLongAsTheTimeToTheLastCountedFallAndAtLeastTheMinimum) {
  StallClock c;
  c.start(10);
  c.offer(1000, 30, 0.001);  // reached after 20 s
  EXPECT_FALSE(c.stalled(49, 1.0, 5));
  EXPECT_TRUE(c.stalled(50, 1.0, 5));
  EXPECT_TRUE(c.stalled(40, 0.5, 5));
  EXPECT_FALSE(c.stalled(54, 1.0, 25));  // the minimum rules
  c.start(60);
  EXPECT_FALSE(c.stalled(64, 1.0, 5));  // a fresh start: the minimum
  EXPECT_TRUE(c.stalled(65, 1.0, 5));
}

// The rounding's refresh: fresh prices take as long to settle as the first
// did, so refreshes that do not pay come further and further apart.
TEST(StallClock, AfterAWaitTheNextStallCountsTheWholeTime) {
  StallClock c;
  c.start(0);
  c.offer(1000, 40, 0.001);
  ASSERT_TRUE(c.stalled(60, 0.5, 5));
  c.wait_again(60);
  EXPECT_FALSE(c.stalled(89, 0.5, 5));  // half of the 60 s since the start
  EXPECT_TRUE(c.stalled(90, 0.5, 5));
  c.wait_again(90);
  EXPECT_FALSE(c.offer(999.5, 100, 0.001));  // a tiny fall changes nothing
  EXPECT_FALSE(c.stalled(134, 0.5, 5));
  EXPECT_TRUE(c.stalled(135, 0.5, 5));
  EXPECT_TRUE(c.offer(990, 136, 0.001));  // a counted fall: judged from it
  EXPECT_FALSE(c.stalled(203, 0.5, 5));
  EXPECT_TRUE(c.stalled(204, 0.5, 5));
}
