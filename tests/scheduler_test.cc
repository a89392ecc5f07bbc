// The yield scheduler (src/scheduler.h): every step tried once first, time
// shared in proportion to recent yield, floors honoured, unavailable steps
// never picked.
#include <gtest/gtest.h>

#include <vector>

#include "params.h"
#include "scheduler.h"

using namespace iopddl;

namespace {

// Runs `rounds` picks on a counted clock (one unit per run), each run of step
// k earning gain[k]; returns how often each step ran.
std::vector<int> simulate(YieldScheduler* s, const std::vector<double>& gain, const std::vector<char>& available,
                          const std::vector<double>& floor, int rounds) {
  std::vector<int> runs(gain.size(), 0);
  for (int r = 1; r <= rounds; ++r) {
    const int k = s->pick(available, floor, r);
    EXPECT_GE(k, 0);
    if (k < 0) break;
    ++runs[k];
    s->record(k, 1.0, gain[k], r);
  }
  return runs;
}

}  // namespace

TEST(YieldScheduler, TriesEveryAvailableStepOnceFirstInARotatedOrder) {
  Params prm;
  YieldScheduler s;
  s.init(4, prm, 2);
  const std::vector<char> available = {1, 1, 0, 1};
  const std::vector<double> floor(4, 0.0);
  std::vector<int> order;
  for (int r = 1; r <= 3; ++r) {
    const int k = s.pick(available, floor, r);
    order.push_back(k);
    s.record(k, 1.0, 0.0, r);
  }
  EXPECT_EQ(order, (std::vector<int>{3, 0, 1}));  // from step 2 on, step 2 unavailable
}

TEST(YieldScheduler, SharesFollowYieldAndFloorsHold) {
  Params prm;
  prm.schedule_floor = 0.05;
  YieldScheduler s;
  s.init(3, prm, 0);
  // Step 0 earns nothing, step 1 a little, step 2 four times as much.
  const std::vector<double> gain = {0.0, 0.001, 0.004};
  const std::vector<int> runs = simulate(&s, gain, {1, 1, 1}, {0.0, 0.0, 0.0}, 4000);
  EXPECT_GT(runs[2], 3 * runs[1]) << runs[0] << " " << runs[1] << " " << runs[2];
  EXPECT_GT(runs[1], runs[0]);
  // The exploration floor keeps the step that earns nothing alive.
  EXPECT_GE(runs[0], int(0.03 * 4000));
  EXPECT_LE(runs[0], int(0.08 * 4000));
}

TEST(YieldScheduler, ExplicitFloorGivesAStepItsShareWhateverItEarns) {
  Params prm;
  YieldScheduler s;
  s.init(2, prm, 0);
  const std::vector<int> runs = simulate(&s, {0.0, 0.01}, {1, 1}, {0.5, 0.0}, 2000);
  EXPECT_NEAR(double(runs[0]) / 2000, 0.5, 0.05);
}

TEST(YieldScheduler, NothingAvailableIsMinusOne) {
  Params prm;
  YieldScheduler s;
  s.init(2, prm, 0);
  EXPECT_EQ(s.pick({0, 0}, {0.0, 0.0}, 1), -1);
}

TEST(YieldScheduler, DeterministicOnACountedClock) {
  Params prm;
  YieldScheduler a, b;
  a.init(3, prm, 1);
  b.init(3, prm, 1);
  const std::vector<double> gain = {0.002, 0.0, 0.001};
  EXPECT_EQ(simulate(&a, gain, {1, 1, 1}, {0.1, 0.0, 0.0}, 500), simulate(&b, gain, {1, 1, 1}, {0.1, 0.0, 0.0}, 500));
}
