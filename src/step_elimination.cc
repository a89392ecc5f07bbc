// The elimination step: a pass of the bounds it keeps, then one exact
// elimination on the priced problem whose answer moves the memory prices the
// windows read (so it has a floor: it feeds the neighbourhood step).
//
// Its stuck nodes are decided by one of four rules drawn by their recent
// gains: min-sum beliefs (randomised node order), the message-passing
// rounding, the best answer (an exact move around it), or the rounding
// without the prices (when the limit barely binds and the messages have
// converged, the optimum or next to it). The first runs try every rule once.
#include <algorithm>
#include <cmath>

#include "lagrangian_bound.h"
#include "message_passing.h"
#include "roulette.h"
#include "step.h"

namespace iopddl {

namespace {

class EliminationStep : public SearchStep {
 public:
  bool available(ThreadState&) override { return true; }

  double floor(ThreadState& t, double) override { return t.prm.schedule_feeder_floor; }

  bool run(ThreadState& t, const std::function<bool()>&) override {
    if (!inited_) {
      inited_ = true;
      mp_.init(t.m);
      lagrangian_asked_ = !t.relax.needed();
    }
    if (!lagrangian_asked_) {
      // One thread keeps the Lagrangian bounds (lagrangian_bound.h): two
      // would climb the same dual. In lockstep the claim is decided at the
      // round's end; the step runs without them until then.
      const int claim = t.ctx->claim_role(Role::kLagrangian, t.tid, true);
      lagrangian_asked_ = claim != kRolePending;
      lagrangian_ = claim >= 0;
      if (lagrangian_) {
        lag_answers_.init(t.m, LagrangianBound::Source::kSearchAnswers, t.ctx->contraction);
        lag_own_.init(t.m, LagrangianBound::Source::kOwnRounding, t.ctx->contraction);
      }
    }
    ++calls_;
    t.relax.node_weights(&t.weight);
    if (!bound_passes(t)) return false;
    int rule = calls_ <= kRules ? int((calls_ - 1 + t.tid) % kRules) : rules_.pick(&t.rng);
    if (rule == 2 && !has_cost(t.best_cost)) rule = 0;
    static constexpr Mechanism kRule[kRules] = {Mechanism::kEliminationBeliefs, Mechanism::kEliminationRounding,
                                                Mechanism::kEliminationBest, Mechanism::kEliminationUnpriced};
    MechanismCount& count = at(t.counts, kRule[rule]);
    MechanismTimer timer(&count);
    // Global solves decide by min-sum beliefs; the neighbourhood search's
    // windows keep the star estimate.
    EliminationOptions eo;
    eo.weight = &t.weight;
    eo.belief_every = t.prm.belief_every;
    eo.should_stop = &t.stop;
    if (rule == 0) eo.randomness = t.prm.decision_randomness + t.prm.decision_spread * t.rng.uniform();
    if (rule == 1) eo.hint = &rounded_;
    if (rule == 3) {
      eo.weight = nullptr;
      eo.hint = &rounded_;
    }
    if (rule == 2) {
      eo.hint = &t.best;
      eo.follow_hint = t.rng.below(2) ? 1.0 : 0.7 + 0.3 * t.rng.uniform();
      eo.randomness = t.prm.decision_randomness + t.prm.decision_spread * t.rng.uniform();
    }
    const EliminationStats es = t.elim.solve(t.all_free, &y_, &t.rng, eo);
    if (!es.complete) return false;
    if (rule != 3) {  // rule 3 did not minimise the priced problem: no subgradient
      SearchState pen;
      pen.init(t.m, y_);
      t.relax.update(y_, pen.cost, t.best_cost, &t.rng);
      if (lagrangian_) lag_answers_.take_answer(y_, pen.cost, t.best_cost, &t.rng);
    }
    const bool improved = t.polish_and_offer(y_, &count);
    ++count.tried;
    // Like the rounding's, an elimination's answer is a global one whose
    // parts of change may take the best into another basin.
    const bool crossed = !improved && t.prm.elimination_crossover && t.cross_answer_with_best(y_);
    // The proof search's thread holds no rounding and takes none from the
    // others (step_neighbourhood.cc); its eliminations' answers differ from
    // the best in parts as a rounding's do, so its part windows take them.
    if (t.holds_proof && !t.holds_rounding && t.proof_takes_partner()) t.partner = y_;
    rules_.fade(t.prm.rule_decay);
    // A rule whose answers pay only through the crossover still earns its draws.
    if (improved || (crossed && t.prm.rule_credit_crossover)) rules_.reward(rule);
    return true;
  }

  void restart(ThreadState&) override { rules_.reset(); }

 private:
  static constexpr int kRules = 4;
  bool inited_ = false;
  int64_t calls_ = 0;
  MessagePassing mp_;  // unpenalised: guidance and a bound
  std::vector<int32_t> rounded_, y_;
  Roulette<kRules> rules_;
  // The Lagrangian bounds, their multipliers moved by the search's answers
  // and by their own rounding.
  bool lagrangian_ = false, lagrangian_asked_ = false;
  LagrangianBound lag_answers_, lag_own_;
  Rng lag_rng_{0x5DEECE66DULL};  // lag_own_'s steps, apart from the search's stream
  int64_t own_calls_ = 0;
  double lag_best_[2] = {-1e300, -1e300};  // the best bound of lag_answers_ and lag_own_ so far

  // A pass of message passing on the problem without the limit (its
  // messages converge undisturbed by moving prices; rounded, it is guidance
  // too), and, on the thread that keeps them, of the Lagrangian bounds.
  // False if stopped.
  bool bound_passes(ThreadState& t) {
    if (!mp_.iterate(&rounded_, &t.stop)) return false;
    t.ctx->count(Counter::message_passes);
    if (t.ctx->should_stop()) return false;
    if (calls_ >= 2 && calls_ % 2 == 0) {
      double mag = 0;
      const double lb = mp_.lower_bound(&mag);
      t.offer_double_bound(lb, mag);
    }
    if (!lagrangian_) return true;
    // A pass of either, and now and then its bound offered.
    auto pass = [&](LagrangianBound* lag, int64_t call, double* best) {
      if (!lag->iterate(call, t.prm.lagrangian_refresh, t.best_cost, &lag_rng_, &t.stop)) return false;
      if (call % 2 == 0) {
        double mag = 0;
        const double lb = lag->bound(&mag);
        t.offer_double_bound(lb, mag);
        if (std::isfinite(lb)) *best = std::max(*best, lb);
      }
      return true;
    };
    if (!pass(&lag_answers_, calls_, &lag_best_[0])) return false;
    // lag_own_ every other run while its bound is the higher one, every
    // eighth otherwise: its pass is time taken from the search, spent where
    // the other bound leads only to keep a chance of catching up.
    const int own_every = lag_best_[1] >= lag_best_[0] ? 2 : 8;
    if (calls_ % own_every == 1 && !pass(&lag_own_, ++own_calls_, &lag_best_[1])) return false;
    return true;
  }
};

}  // namespace

std::unique_ptr<SearchStep> make_elimination_step() { return std::make_unique<EliminationStep>(); }

}  // namespace iopddl
