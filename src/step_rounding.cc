// The rounding step: message passing on the priced problem, its rounding
// polished and offered; now and then its bound (penalised_rounding.h).
#include <algorithm>
#include <cmath>

#include "penalised_rounding.h"
#include "step.h"

namespace iopddl {

namespace {

class RoundingStep : public SearchStep {
 public:
  const char* name() const override { return "rounding"; }

  bool available(ThreadState&) override { return !refused_; }

  // Until its first answer fits (the prices still far from settled) it
  // keeps most of its thread: its messages need many passes before its
  // answers say anything, and its yield would starve it before then. From
  // then on, the falls of its own best (progress) and of the thread's best
  // earn its time, as any step's.
  double floor(ThreadState& t, double) override {
    return inited_ && !has_cost(own_best_) ? t.prm.rounding_warm_floor : 0.0;
  }

  bool run(ThreadState& t, const std::function<bool()>&) override {
    if (!inited_) {
      // Half the threads (at least one) hold a rounding, each its own
      // variant: its messages converge over hundreds of passes, which a
      // rounding on every thread would share out too thinly, and two of the
      // same variant would repeat each other. The first to get here hold it.
      const int slot = t.ctx->rounding_slots.fetch_add(1);
      if (slot >= std::max(1, t.ctx->threads / 2)) {
        refused_ = true;
        return true;
      }
      pr_.init(t.m, slot, t.ctx->contraction);
      inited_ = true;
      started_at_ = own_improved_at_ = now(t);
    }
    ++runs_;
    MechanismCount& count = at(t.counts, Mechanism::kPenalisedRounding);
    MechanismTimer timer(&count);
    if (!pr_.step(&rounded_, &t.rng, &t.stop)) return false;
    t.ctx->count(Counter::message_passes, pr_.passes_per_price());
    ++count.tried;
    t.polish_and_offer(rounded_, &count);
    // Its own best answer falling is progress: the messages and prices are
    // still settling, and its later answers may beat the best.
    if (t.st.within_limit() && t.st.cost < own_best_) {
      if (has_cost(own_best_)) t.progress = std::log((own_best_ + 1.0) / (t.st.cost + 1.0));
      own_best_ = t.st.cost;
      own_improved_at_ = now(t);
    }
    if (++calls_ % t.prm.rounding_bound_every == 0) {
      double mag = 0;
      const double lb = pr_.lower_bound(&mag);
      t.offer_double_bound(lb, mag);
    }
    return true;
  }

  void restart(ThreadState& t) override {
    if (inited_) pr_.restart_diversified(&t.rng);
    own_best_ = kNoCost;
    started_at_ = own_improved_at_ = now(t);
  }

 private:
  PenalisedRounding pr_;
  bool inited_ = false, refused_ = false;
  int64_t calls_ = 0;
  std::vector<int32_t> rounded_;
  double own_best_ = kNoCost;  // its best answer within the limit, this epoch ...
  double started_at_ = 0, own_improved_at_ = 0;  // ... when it started and when that last fell
  int64_t runs_ = 0;
  // The scheduler's clock: seconds, or runs under a round budget.
  double now(const ThreadState& t) const { return t.counted() ? double(runs_) : t.ctx->elapsed(); }
};

}  // namespace

std::unique_ptr<SearchStep> make_rounding_step() { return std::make_unique<RoundingStep>(); }

}  // namespace iopddl
