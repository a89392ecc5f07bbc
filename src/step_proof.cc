// The proof step: the branch and bound towards a proof (proof_search.h), on
// problems (contracted) of at most proof_max_strategies live strategies. Once
// the tree is exhausted, its bound proves the incumbent optimal and the
// search stops.
//
// Who runs it: on a problem small enough for a proof to be in reach
// (proof_helpers_max_strategies), every thread joins the one tree, and its
// floor grows as the incumbent stalls: the answer is often optimal by then
// and only the proof is left to do (not in lockstep: lockstep.h). The thread
// that set the tree up keeps a base share from the start. On larger problems one thread holds it and it
// gets the time its root bound's roundings earn, like any other step.
#include <algorithm>

#include "proof_search.h"
#include "step.h"

namespace iopddl {

namespace {

class ProofStep : public SearchStep {
 public:
  bool available(ThreadState& t) override {
    if (!tried_) {
      tried_ = true;
      in_reach_ = ProofSearch::in_reach(t.m, t.ctx->contraction);
      too_large_ = !ProofSearch::within_size(t.m, t.ctx->contraction);
    }
    if (too_large_ || refused_) return false;
    return !joined_ || (proof_.active() && !proof_.exhausted());
  }

  double floor(ThreadState& t, double now) override {
    Int128 incumbent = 0;
    if (upper(t, &incumbent) && (!inc_feasible_ || incumbent < inc_cost_)) {
      inc_feasible_ = true;
      inc_cost_ = incumbent;
      inc_improved_at_ = now;
    }
    if (!in_reach_) return 0.0;
    // Stalled for as long again as it took to reach the incumbent: the
    // share (of the other steps' time) grows by proof_share.
    const double stall = inc_feasible_ ? now - inc_improved_at_ : 0.0;
    const double grown = t.prm.proof_share * stall / std::max(inc_improved_at_, 1.0);
    const double share = std::min(std::max(t.prm.proof_share, t.prm.proof_share_stalled),
                                  (owner_ ? t.prm.proof_share : 0.0) + grown);
    return share / (1.0 + share);
  }

  bool sliced() const override { return true; }

  bool run(ThreadState& t, const std::function<bool()>& more) override {
    if (!joined_) {
      const int claim = t.ctx->claim_role(Role::kProof, t.tid, t.may_take_role());
      if (claim == kRolePending) return true;  // decided at the round's end
      joined_ = true;
      owner_ = claim >= 0;
      t.holds_proof = owner_;
      // In lockstep no thread joins another's tree: which thread explores
      // which subtree would follow their timing.
      if (!owner_ && (!in_reach_ || t.ctx->lockstep.on())) {
        refused_ = true;
        return true;
      }
      if (!proof_.init(t.m, t.ctx->contraction, t.ctx->proof_tree)) return true;
    }
    MechanismCount& count = at(t.counts, Mechanism::kProofSearch);
    MechanismTimer timer(&count);
    // Each bound step offers at most its rounding and each leaf itself: the
    // attempts that improvements are counted against. A node's bound can
    // improve the incumbent many times, and span several rounds.
    const int64_t tried_before = attempts();
    int64_t budget = t.prm.proof_round_nodes;
    const std::function<bool()> go = [&] { return t.counted() ? budget-- > 0 : more(); };
    const auto up = [&](Int128* cost) { return upper(t, cost); };
    const auto offer = [&](const std::vector<int32_t>& a, double cost) {
      t.share(a, cost, true);
      t.take_if_better(a, cost, &count);
    };
    // With a round budget a node's bound runs whole, so the answer does not
    // depend on the clock.
    if (proof_.run(up, offer, go, t.counted() ? nullptr : &go, &t.stop)) {
      if (proof_.has_proof()) t.ctx->offer_bound(proof_.proven());
    } else {
      t.offer_double_bound(proof_.open_bound(), 0);
    }
    count.tried += attempts() - tried_before;
    return !t.ctx->should_stop();
  }

 private:
  ProofSearch proof_;
  bool tried_ = false, in_reach_ = false, too_large_ = false;
  bool joined_ = false, refused_ = false, owner_ = false;
  bool inc_feasible_ = false;  // the incumbent as this step last saw it ...
  Int128 inc_cost_ = 0;
  double inc_improved_at_ = 0;  // ... and when it last improved (the scheduler's clock)

  int64_t attempts() const { return proof_.stats().steps + proof_.stats().leaves; }

  static bool upper(ThreadState& t, Int128* cost) {
    bool feasible = false;
    return t.ctx->incumbent_summary(&feasible, cost) && feasible;
  }
};

}  // namespace

std::unique_ptr<SearchStep> make_proof_step() { return std::make_unique<ProofStep>(); }

}  // namespace iopddl
