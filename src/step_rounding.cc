// The rounding step: message passing on the priced problem, its rounding
// polished and offered; now and then its bound (penalised_rounding.h).
#include <algorithm>

#include "penalised_rounding.h"
#include "proof_search.h"
#include "stall_clock.h"
#include "step.h"

namespace iopddl {

namespace {

class RoundingStep : public SearchStep {
 public:
  bool available(ThreadState&) override { return !refused_; }

  // Its messages converge over hundreds of passes before its answers pay,
  // so the thread that holds it gives it most of its time (a role), and the
  // scheduler shares out the rest. A lone thread holds every role: half.
  // Soft: of what the other floors leave, so that on a small problem whose
  // answer has stalled the proof search gets its time first.
  double floor(ThreadState& t, double) override {
    if (!inited_) return 0.0;
    return t.ctx->threads > 1 ? t.prm.rounding_floor : 0.5 * t.prm.rounding_floor;
  }
  // Its falls are rare and large (a move between basins, often through its
  // crossover with the best), so a faded yield judges it too soon: beside the
  // windows' many small falls it would lose the thread just before it pays.
  // Where a proof is in reach the answer is soon optimal and the proof needs
  // the time, so there the role is held only as far as it earns it.
  FloorKind floor_kind(ThreadState& t) const override {
    const int rule = t.prm.rounding_role_earned;
    return rule == 2 || (rule == 1 && in_reach_) ? kEarnedRole : kWholeRole;
  }

  bool run(ThreadState& t, const std::function<bool()>&) override {
    if (!inited_) {
      // A few threads (rounding_threads; at least one) hold a rounding,
      // each its own variant: its messages converge over hundreds of
      // passes, for which the thread gives it most of its time, and where the
      // windows earn more every extra rounding is a thread lost to them. The
      // first to get here hold it, unless they hold the proof search already
      // (thread_state.h).
      const int slot = t.ctx->claim_role(Role::kRounding, t.tid, t.may_take_role());
      if (slot == kRolePending) return true;  // decided at the round's end
      if (slot < 0) {
        refused_ = true;
        return true;
      }
      slot_ = slot;
      pr_.init(t.m, slot, t.ctx->contraction);
      in_reach_ = ProofSearch::in_reach(t.m, t.ctx->contraction);
      inited_ = t.holds_rounding = true;
    }
    MechanismCount& count = at(t.counts, Mechanism::kPenalisedRounding);
    MechanismTimer timer(&count);
    if (!pr_.step(&rounded_, &t.rng, &t.stop)) return false;
    t.ctx->count(Counter::message_passes, pr_.passes_per_price());
    ++count.tried;
    t.polish_and_offer(rounded_, &count);
    // The rounding sees the whole graph, the best holds what the windows
    // found, and the move between basins is often a few whole parts of
    // their difference.
    t.cross_answer_with_best(rounded_);
    t.partner = rounded_;
    if (t.ctx->threads > 1 && t.prm.part_partner > 0) t.ctx->publish_rounding(t.tid, rounded_);
    if (t.prm.rounding_refresh > 0 && !t.counted()) refresh_if_stalled(t);
    if (++calls_ % t.prm.rounding_bound_every == 0) {
      double mag = 0;
      const double lb = pr_.lower_bound(&mag);
      t.offer_double_bound(lb, mag);
    }
    return true;
  }

  void restart(ThreadState& t) override {
    if (!inited_) return;
    pr_.init(t.m, slot_, t.ctx->contraction);
    pr_.restart_diversified(&t.rng);
    clock_.start(t.ctx->elapsed());
    refreshed_ = false;
  }

 private:
  PenalisedRounding pr_;
  bool inited_ = false, refused_ = false, in_reach_ = false;
  int64_t calls_ = 0;
  int slot_ = 0;
  // The refresh's stall clock, from the epoch's start: fresh prices take as
  // long to settle as the first ones did, so a refresh that has not paid is
  // judged against the whole time the epoch took to its last counted fall.
  StallClock clock_;
  bool refreshed_ = false;  // a refresh not yet followed by a counted fall

  // Once the prices have settled, the rounding's answers stay near one
  // basin, and the thread's best is moved only by tiny falls. Prices started
  // afresh take another path through the duals and may reach another basin,
  // which the crossover brings into the best. Unlike a restart, the best and
  // the windows' work are kept, so it needs no time to retrace the search.
  void refresh_if_stalled(ThreadState& t) {
    if (!has_cost(t.best_cost)) return;
    const double now = t.ctx->elapsed();
    MechanismCount& count = at(t.counts, Mechanism::kRoundingRefresh);
    if (clock_.offer(t.best_cost, now, t.prm.restart_min_fall)) {
      if (refreshed_) ++count.improved;
      refreshed_ = false;
      return;
    }
    if (!clock_.stalled(now, t.prm.rounding_refresh, t.prm.restart_min_stall)) return;
    pr_.restart_diversified(&t.rng);
    ++count.tried;
    refreshed_ = true;
    clock_.wait_again(now);
  }
  std::vector<int32_t> rounded_;
};

}  // namespace

std::unique_ptr<SearchStep> make_rounding_step() { return std::make_unique<RoundingStep>(); }

}  // namespace iopddl
