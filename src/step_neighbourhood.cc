// The neighbourhood step: windows and ejections around the thread's best
// (neighbourhood_search.h), priced by the memory prices the elimination step
// last set. A sliced step: it runs for as long as the scheduler gives it
// (under a round budget, a fixed number of moves).
#include "neighbourhood_search.h"
#include "step.h"

namespace iopddl {

namespace {

class NeighbourhoodStep : public SearchStep {
 public:
  bool available(ThreadState& t) override {
    if (!inited_) {
      inited_ = true;
      lns_.init(t.m, &t.elim, &t.ls, t.ctx->groups);
      lns_.counts = &t.counts;
    }
    return has_cost(t.best_cost);
  }

  bool sliced() const override { return true; }

  bool run(ThreadState& t, const std::function<bool()>& more) override {
    if (t.best_moved) {
      lns_.reset(t.best);
      t.best_moved = false;
    }
    // A thread without a role takes the latest answer of any thread's
    // rounding. The proof search's thread takes its own eliminations'
    // answers instead (step_elimination.cc), and none where a proof is in
    // reach (elimination_partner 1): part windows there slow its proofs,
    // with the roundings' answers and with its own (docs/benchmarks.md).
    if (!t.holds_rounding) {
      if (t.holds_proof) {
        if (!t.proof_takes_partner()) t.partner.clear();
      } else if (t.prm.part_partner > 0) {
        t.ctx->latest_rounding(&t.partner, &partner_version_);
      } else {
        t.partner.clear();
      }
    }
    lns_.partner = t.partner.empty() ? nullptr : &t.partner;
    int64_t budget = t.prm.lns_round_moves;
    const std::function<bool()> go = [&] { return t.counted() ? budget-- > 0 : more(); };
    const std::function<double()> seconds = [&] { return t.ctx->elapsed() - t0_; };
    t.ctx->count(Counter::windows, lns_.run(t.weight, t.relax.needed(), &t.rng, t.counted() ? nullptr : &seconds, go, t.stop,
                                            [&](const std::vector<int32_t>& a, double cost) {
                                              // The fall is counted per kind of move by lns_.
                                              t.best = a;
                                              t.best_cost = cost;
                                              t.share(a, cost, true);
                                            }));
    return !t.ctx->should_stop();
  }

  void restart(ThreadState& t) override {
    t0_ = t.ctx->elapsed();
    if (inited_) lns_.restart_kinds();
  }

 private:
  double t0_ = 0;  // the epoch's start: the kinds' schedule runs from it
  int64_t partner_version_ = 0;  // the shared rounding answer last taken
  NeighbourhoodSearch lns_;
  bool inited_ = false;
};

}  // namespace

std::unique_ptr<SearchStep> make_neighbourhood_step() { return std::make_unique<NeighbourhoodStep>(); }

}  // namespace iopddl
