// The ended epochs' windows: after a restart, windows and part windows on
// the best answer the ended epochs left, the part windows partnered with
// this epoch's best. What they find goes to the incumbent and becomes the
// ended epochs' best, as the epoch crossover's does.
//
// Why: on a memory-bound instance a restart rarely beats the stalled epoch
// as a whole, yet from the restart on every window runs on the new epoch's
// best, and the stalled answer moves only by the epoch crossover's parts,
// which must each make it cheaper as they are. A part window re-solves such
// a part under prices per time segment and repairs its overflow elsewhere
// (part_window.cc): a new epoch's answer, from another basin, holds the
// large changes that a window grown on the stalled answer never proposes.
//
// The fall it makes in the ended epochs' best is credited to it as its
// yield (ThreadState::side_fall), so the scheduler gives it time as far as
// it earns it against the epoch's own steps.
#include "neighbourhood_search.h"
#include "step.h"

namespace iopddl {

namespace {

class EndedWindowsStep : public SearchStep {
 public:
  bool available(ThreadState& t) override {
    if (!t.prm.ended_windows || t.epoch == 0 || !has_cost(t.best_cost)) return false;
    if (!inited_) {
      inited_ = true;
      lns_.init(t.m, &t.elim, &t.ls, t.ctx->groups);
    }
    return true;
  }

  bool sliced() const override { return true; }

  bool run(ThreadState& t, const std::function<bool()>& more) override {
    double cost = kNoCost;
    if (!t.ctx->ended_best(&ended_, &cost)) return true;
    if (cost != lns_cost_) {
      lns_.reset(ended_);
      lns_cost_ = cost;
    }
    MechanismCount& count = at(t.counts, Mechanism::kEndedWindows);
    MechanismTimer timer(&count);
    lns_.partner = t.prm.ended_windows == 2 && t.partner.size() == size_t(t.m.n) ? &t.partner : &t.best;
    int64_t budget = t.prm.lns_round_moves;
    const std::function<bool()> go = [&] { return t.counted() ? budget-- > 0 : more(); };
    const std::function<double()> seconds = [&] { return t.ctx->elapsed() - t0_; };
    count.tried += lns_.run(t.weight, t.relax.needed(), &t.rng, t.counted() ? nullptr : &seconds, go, t.stop,
                            [&](const std::vector<int32_t>& a, double c) {
                              ++count.improved;
                              add_fall(&count, lns_cost_, c);
                              t.side_fall += log_fall(lns_cost_, c);
                              lns_cost_ = c;
                              t.ctx->offer(a, c, true);
                              t.ctx->offer_ended_best(a, c);
                            });
    return !t.ctx->should_stop();
  }

  void restart(ThreadState& t) override {
    t0_ = t.ctx->elapsed();
    if (inited_) lns_.restart_kinds();
  }

 private:
  double t0_ = 0;             // the epoch's start: the kinds' schedule runs from it
  double lns_cost_ = kNoCost;  // the cost of the answer lns_ holds
  std::vector<int32_t> ended_;
  NeighbourhoodSearch lns_;
  bool inited_ = false;
};

}  // namespace

std::unique_ptr<SearchStep> make_ended_windows_step() { return std::make_unique<EndedWindowsStep>(); }

}  // namespace iopddl
