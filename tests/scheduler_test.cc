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
                          const std::vector<double>& floor, int rounds, const std::vector<FloorKind>& soft = {}) {
  std::vector<int> runs(gain.size(), 0);
  for (int r = 1; r <= rounds; ++r) {
    const int k = s->pick(available, floor, r, soft);
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

// A soft floor (a rounding's role) takes its share of what the hard floors
// leave: beside a stalled proof search's 0.6 a soft 0.9 gets 0.9 * 0.35 (the
// third step's exploration floor is hard too), not a share scaled down with it.
TEST(YieldScheduler, SoftFloorTakesItsShareOfWhatHardFloorsLeave) {
  Params prm;
  prm.schedule_floor = 0.05;
  YieldScheduler s;
  s.init(3, prm, 0);
  const std::vector<int> runs = simulate(&s, {0.0, 0.0, 0.0}, {1, 1, 1}, {0.9, 0.6, 0.0}, 4000, {kEarnedRole, kHardFloor, kHardFloor});
  EXPECT_NEAR(double(runs[1]) / 4000, 0.6, 0.03) << runs[0] << " " << runs[1] << " " << runs[2];
  EXPECT_NEAR(double(runs[0]) / 4000, 0.9 * 0.35, 0.03) << runs[0] << " " << runs[1] << " " << runs[2];
  // Without the hard floor the soft one is a share of the whole.
  YieldScheduler t;
  t.init(3, prm, 0);
  const std::vector<int> alone = simulate(&t, {0.0, 0.0, 0.0}, {1, 1, 1}, {0.9, 0.0, 0.0}, 4000, {kEarnedRole, kHardFloor, kHardFloor});
  EXPECT_NEAR(double(alone[0]) / 4000, 0.9 * 0.9, 0.03) << alone[0] << " " << alone[1] << " " << alone[2];
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

// A role (a soft floor) holds its whole floor for its warm-up runs, whatever
// it earns; after that it keeps its floor only while it earns per unit of
// time what the thread's other steps earn, and falls towards the exploration
// floor when it earns nothing beside a step that does.
TEST(YieldScheduler, ARoleKeepsItsFloorAsFarAsItsYieldEarnsIt) {
  Params prm;
  prm.schedule_floor = 0.05;
  prm.schedule_role_warmup = 100;
  const std::vector<double> floor = {0.9, 0.0};
  const std::vector<FloorKind> soft = {kEarnedRole, kHardFloor};
  // Earning nothing beside a step that earns: whole during the warm-up ...
  YieldScheduler a;
  a.init(2, prm, 0);
  const std::vector<int> warm = simulate(&a, {0.0, 0.01}, {1, 1}, floor, 100, soft);
  EXPECT_GE(warm[0], 80) << warm[0] << " " << warm[1];
  // ... then down to its exploration share (the halflife fades the warm-up).
  YieldScheduler b;
  b.init(2, prm, 0);
  const std::vector<int> runs = simulate(&b, {0.0, 0.01}, {1, 1}, floor, 4000, soft);
  EXPECT_LE(runs[0], int(0.2 * 4000)) << runs[0] << " " << runs[1];
  // Earning as much per run as the other step: the whole floor, as before.
  YieldScheduler c;
  c.init(2, prm, 0);
  const std::vector<int> pays = simulate(&c, {0.01, 0.01}, {1, 1}, floor, 4000, soft);
  EXPECT_NEAR(double(pays[0]) / 4000, 0.9 * 0.95 + 0.095 * 0.5, 0.03) << pays[0] << " " << pays[1];
  // Earning half as much per run: about half its floor.
  YieldScheduler d;
  d.init(2, prm, 0);
  const std::vector<int> half = simulate(&d, {0.005, 0.01}, {1, 1}, floor, 4000, soft);
  EXPECT_GT(half[0], int(0.3 * 4000)) << half[0] << " " << half[1];
  EXPECT_LT(half[0], int(0.75 * 4000)) << half[0] << " " << half[1];
  // A warm-up longer than the run: the whole floor whatever it earns.
  prm.schedule_role_warmup = 1000000;
  YieldScheduler e;
  e.init(2, prm, 0);
  const std::vector<int> held = simulate(&e, {0.0, 0.01}, {1, 1}, floor, 4000, soft);
  // (0.9 of what the other step's exploration floor leaves).
  EXPECT_NEAR(double(held[0]) / 4000, 0.9 * 0.95, 0.03) << held[0] << " " << held[1];
}

// A whole role keeps its floor whatever its yield, after any warm-up, and
// still yields to the hard floors: the same share an earned role holds only
// while it earns as much as the others.
TEST(YieldScheduler, AWholeRoleKeepsItsFloorWhateverItEarns) {
  Params prm;
  prm.schedule_floor = 0.05;
  prm.schedule_role_warmup = 100;
  YieldScheduler a;
  a.init(3, prm, 0);
  const std::vector<FloorKind> whole = {kWholeRole, kHardFloor, kHardFloor};
  const std::vector<int> held = simulate(&a, {0.0, 0.01, 0.0}, {1, 1, 1}, {0.9, 0.0, 0.0}, 4000, whole);
  EXPECT_NEAR(double(held[0]) / 4000, 0.9 * 0.9, 0.03) << held[0] << " " << held[1] << " " << held[2];
  // Beside a hard floor of 0.6 it takes 0.9 of what that leaves.
  YieldScheduler b;
  b.init(3, prm, 0);
  const std::vector<int> beside = simulate(&b, {0.0, 0.01, 0.0}, {1, 1, 1}, {0.9, 0.6, 0.0}, 4000, whole);
  EXPECT_NEAR(double(beside[0]) / 4000, 0.9 * 0.35, 0.03) << beside[0] << " " << beside[1] << " " << beside[2];
  // The same step as an earned role falls to its exploration share.
  YieldScheduler c;
  c.init(3, prm, 0);
  const std::vector<int> earned =
      simulate(&c, {0.0, 0.01, 0.0}, {1, 1, 1}, {0.9, 0.0, 0.0}, 4000, {kEarnedRole, kHardFloor, kHardFloor});
  EXPECT_LE(earned[0], int(0.2 * 4000)) << earned[0] << " " << earned[1] << " " << earned[2];
}
