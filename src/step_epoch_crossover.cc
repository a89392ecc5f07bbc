// The epoch crossover: after a restart, each new best of the epoch is
// crossed into the best answer the ended epochs left (part_crossover.h): the
// parts where the two differ that make that answer cheaper are taken into it.
//
// Why: a restart samples another basin, but a later epoch only pays when it
// beats the stalled one as a whole, and on the large files it rarely does.
// Its answers still hold parts that are better than the stalled answer's
// there. The result goes to the incumbent and becomes the ended epochs' best
// (the next restart compares against it), while the epoch goes on from its
// own best: taking the result into it would pull it back into the old basin
// and undo the restart's diversity.
//
// It earns nothing on the thread's own best, so the scheduler gives it its
// exploration floor; it runs only when the epoch's best has moved.
#include "step.h"

namespace iopddl {

namespace {

class EpochCrossoverStep : public SearchStep {
 public:
  bool available(ThreadState& t) override {
    return t.prm.epoch_crossover && t.prm.part_crossover && t.epoch > 0 && has_cost(t.best_cost) &&
           t.best_cost != crossed_cost_;
  }

  bool run(ThreadState& t, const std::function<bool()>&) override {
    crossed_cost_ = t.best_cost;
    if (!t.ctx->ended_best(&ended_, &ended_cost_)) return true;
    MechanismCount& count = at(t.counts, Mechanism::kEpochCrossover);
    MechanismTimer timer(&count);
    ++count.tried;
    CrossoverStats stats;
    if (!t.cross.cross(t.m, ended_, t.best, &t.crossed, &stats)) return true;
    // The ended epochs' best was polished: descend from the parts taken.
    changed_.clear();
    for (int i = 0; i < t.m.n; ++i)
      if (t.crossed[i] != ended_[i]) changed_.push_back(i);
    t.st.init(t.m, t.crossed);
    t.polish(&t.st, &changed_);
    if (!t.st.within_limit() || !(t.st.cost < ended_cost_ - 1e-9)) return true;
    ++count.improved;
    add_fall(&count, ended_cost_, t.st.cost);
    t.ctx->offer(t.st.s, t.st.cost, true);
    t.ctx->offer_ended_best(t.st.s, t.st.cost);
    return true;
  }

  void restart(ThreadState&) override { crossed_cost_ = kNoCost; }

 private:
  double crossed_cost_ = kNoCost;  // the epoch's best cost when it was last crossed
  std::vector<int32_t> ended_, changed_;
  double ended_cost_ = kNoCost;
};

}  // namespace

std::unique_ptr<SearchStep> make_epoch_crossover_step() { return std::make_unique<EpochCrossoverStep>(); }

}  // namespace iopddl
