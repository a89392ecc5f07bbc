#include <algorithm>
#include <cmath>

#include "elimination.h"
#include "local_search.h"
#include "lagrangian_bound.h"
#include "memory_relax.h"
#include "message_passing.h"
#include "search_context.h"
#include "neighbourhood_search.h"
#include "penalised_rounding.h"
#include "proof_search.h"
#include "roulette.h"
#include "search_state.h"

namespace iopddl {

namespace {

// Every node at its least-usage live strategy (cheapest on ties): fits the
// limit whenever anything does, since a node's usage is constant over its interval.
std::vector<int32_t> least_usage_start(const SearchModel& m) {
  std::vector<int32_t> a(m.n);
  for (int i = 0; i < m.n; ++i) {
    const int32_t* d = m.domain(i);
    int best = d[0];
    for (int k = 1; k < m.dom_size(i); ++k) {
      int s = d[k];
      if (m.usage(i, s) < m.usage(i, best) ||
          (m.usage(i, s) == m.usage(i, best) && m.node_cost(i, s) < m.node_cost(i, best)))
        best = s;
    }
    a[i] = best;
  }
  return a;
}

}  // namespace

// One search thread. run() is the dispatcher: a first answer, then rounds of
// named steps until the time is up. Two roles share the steps (one thread
// plays both): eliminating threads (even) run the elimination step and the
// neighbourhood step around the best; rounding threads (odd) run the rounding
// step. Converged message passing sees the whole graph at once and finds
// answers the eliminations miss (M: the family near 49.9-50.0e9 against
// 51.9e9); the two roles together beat either alone.
class Worker {
 public:
  Worker(SearchContext* ctx, int tid)
      : ctx_(ctx),
        m_(*ctx->model),
        prm_(ctx->model->params),
        tid_(tid),
        rng_(ctx->options->seed * 0x9E3779B97F4A7C15ULL + uint64_t(tid) * 7919 + 1),
        stop_([ctx] { return ctx->should_stop(); }),
        eliminates_(ctx->threads == 1 || tid % 2 == 0),
        rounds_penalised_(ctx->threads == 1 || tid % 2 == 1),
        max_rounds_(ctx->options->max_rounds) {}

  // Searches until the context says stop; a later call resumes where this one
  // stopped (a session's next slice). False once this thread has nothing
  // more to do: its round budget is spent. Its counts reach the context
  // before it returns.
  bool run() {
    bool more = true;
    if (!started_) started_ = start();  // stopped before its first answer: again next time
    while (started_ && !ctx_->should_stop()) {
      if (max_rounds_ > 0 && rounds_ >= max_rounds_) {
        more = false;
        break;
      }
      ++rounds_;
      ctx_->count(Counter::rounds);
      const double round_start = ctx_->elapsed();
      if (rounds_penalised_ && (!rounding_step() || ctx_->should_stop())) break;
      if (eliminates_) {
        if (!elimination_step() || ctx_->should_stop()) break;
        neighbourhood_step(round_start);
      }
      proof_step(round_start);
      end_of_round();
    }
    ctx_->add_counts(&counts_);
    return more;
  }

 private:
  SearchContext* ctx_;
  const SearchModel& m_;
  const Params& prm_;
  const int tid_;
  Rng rng_;
  const std::function<bool()> stop_;
  const bool eliminates_, rounds_penalised_;
  const int64_t max_rounds_;
  MechanismCounts counts_{};  // this thread's, added to the shared ones every round and at the end
  LocalSearch ls_;
  MemoryRelax relax_;
  EliminationSolver elim_;
  SearchState st_;  // scratch: the candidate being polished
  std::vector<int32_t> first_;  // the first answer: where every later epoch starts
  double first_cost_ = kNoCost;
  int epoch_ = 0;
  std::vector<int32_t> best_;  // this thread's best within the limit, in this epoch
  double best_cost_ = kNoCost;
  MessagePassing mp_;      // unpenalised: guidance and a bound for the eliminations
  bool lagrangian_bound_ = false;
  // Thread 0: the Lagrangian bounds, their multipliers moved by the search's
  // answers and by their own rounding (lagrangian_bound.h).
  LagrangianBound lag_answers_, lag_own_;
  Rng lag_rng_{0x5DEECE66DULL};  // lag_own_'s steps, apart from the search's stream
  int64_t own_calls_ = 0;
  double lag_best_[2] = {-1e300, -1e300};  // the best bound of lag_answers_ and lag_own_ so far
  std::vector<int32_t> rounded_, y_, all_free_, prounded_;
  std::vector<double> weight_;
  int64_t rounds_ = 0;
  static constexpr int kRules = 4;
  Roulette<kRules> rules_;
  NeighbourhoodSearch lns_;
  bool lns_synced_ = false;  // false: best_ changed outside the neighbourhood search
  PenalisedRounding pr_;
  ProofSearch proof_;          // thread 0, problems up to proof_max_strategies; the others join as it stalls
  bool proof_joined_ = false;  // this thread's search is on the shared tree
  double proof_seconds_ = 0;   // time spent in it
  double search_seconds_ = 0;  // ... and in the rest of the rounds
  bool inc_feasible_ = false;  // the incumbent as the proof search last saw it
  Int128 inc_cost_ = 0;
  double inc_improved_at_ = 0;  // ... and when it last improved
  bool inited_ = false, started_ = false;

  // The state every step needs, then a first answer (and the warm start).
  // False if stopped before the first answer (then the least-usage
  // assignment, which fits whenever anything does, is offered).
  bool start() {
    if (!inited_) {
      ls_.init(m_, ctx_->groups);
      ls_.set_counts(&counts_);
      // Every thread's search prices memory per node, bracketed; thread 0
      // also keeps multipliers per segment for the Lagrangian bounds
      // (per-node prices give none).
      relax_.init(m_, MemoryRelax::Schedule::kNodes);
      all_free_.assign(m_.n, -1);
      inited_ = true;
    }
    if (ctx_->should_stop()) {
      st_.init(m_, least_usage_start(m_));
      ctx_->offer(st_.s, st_.cost, st_.within_limit());
      return false;
    }
    elim_.init(m_);
    first_answer();
    warm_start();
    init_roles();
    return true;
  }

  // A feasible answer first: every node capped at its least usage (which fits
  // whenever anything does), elimination picks the cheapest such assignment
  // free of forbidden pairs; then repair and polish. The plain least-usage
  // assignment is the fallback.
  void first_answer() {
    std::vector<int32_t> start = least_usage_start(m_);
    std::vector<int32_t> y;
    std::vector<int64_t> least(m_.n, INT64_MAX);
    if (relax_.needed())
      for (int i = 0; i < m_.n; ++i) least[i] = m_.usage(i, start[i]);
    EliminationOptions eo;
    eo.hint = &start;
    eo.usage_cap = &least;
    eo.should_stop = &stop_;
    EliminationStats es = elim_.solve(all_free_, &y, &rng_, eo);
    st_.init(m_, es.complete ? y : start);
    ctx_->offer(st_.s, st_.full_cost(), st_.within_limit());
    polish(&st_);
    ctx_->offer(st_.s, st_.cost, st_.within_limit());
    first_ = st_.s;
    first_cost_ = st_.within_limit() ? st_.cost : kNoCost;
  }

  // A warm start, repaired and polished, is where the first epoch starts when
  // it fits and is cheaper than the first answer.
  void warm_start() {
    if (!ctx_->options->start.empty() && !ctx_->should_stop()) {
      SearchState ws;
      ws.init(m_, ctx_->options->start);
      polish(&ws);
      ctx_->offer(ws.s, ws.cost, ws.within_limit());
      if (ws.within_limit() && (!st_.within_limit() || ws.cost < st_.cost)) st_ = ws;
    }
    if (st_.within_limit()) ctx_->offer_epoch(0, st_.s, st_.cost);
    best_ = st_.s;
    best_cost_ = st_.within_limit() ? st_.cost : kNoCost;
  }

  void init_roles() {
    if (eliminates_) mp_.init(m_);
    // Thread 0 also bounds the Lagrangian dual (lagrangian_bound.h).
    lagrangian_bound_ = relax_.needed() && tid_ == 0;
    if (lagrangian_bound_) {
      lag_answers_.init(m_, LagrangianBound::Source::kSearchAnswers, ctx_->contraction);
      lag_own_.init(m_, LagrangianBound::Source::kOwnRounding, ctx_->contraction);
    }
    lns_.init(m_, &elim_, &ls_, ctx_->groups);
    lns_.counts = &counts_;
    if (rounds_penalised_) pr_.init(m_, tid_ / 2, ctx_->contraction);
    if (tid_ == 0) {
      proof_joined_ = true;
      proof_.init(m_, ctx_->contraction, ctx_->proof_tree);
    }
  }

  // Offers an answer to the incumbent, and to this epoch's best when it fits.
  void share(const std::vector<int32_t>& a, double cost, bool fits) {
    if (ctx_->offer(a, cost, fits) && epoch_ > 0) ++at(counts_, Mechanism::kRestart).improved;
    if (fits) ctx_->offer_epoch(epoch_, a, cost);
  }

  // A bound computed in doubles, offered as an integer after subtracting a
  // margin for the rounding error (`magnitude`: the sum of the magnitudes of
  // the pieces added up).
  void offer_double_bound(double lb, double magnitude) {
    const double margin = 1e-9 * magnitude + 1;
    if (std::isfinite(lb) && lb - margin > 0) ctx_->offer_bound(Int128(std::floor(lb - margin)));
  }

  // Brings an assignment within the limit (when it is not) and descends to a
  // local optimum; its cost is recomputed exactly.
  void polish(SearchState* s) {
    if (!s->within_limit()) {
      ctx_->count(Counter::repairs);
      ls_.repair(s, stop_);
    }
    ctx_->count(Counter::local_moves, ls_.descend(s, &rng_, stop_));
    s->cost = s->full_cost();
  }

  // Repairs and polishes a candidate, offers it, and keeps it as this
  // thread's best when it fits and is cheaper (true).
  bool polish_and_offer(const std::vector<int32_t>& cand) {
    st_.init(m_, cand);
    // Far over the limit, repair would be slow and lead nowhere good: the
    // candidate has done its job by moving the prices.
    if (double(st_.peak()) > prm_.repair_over * double(m_.limit) && has_cost(best_cost_)) return false;
    polish(&st_);
    const bool fits = st_.within_limit();
    share(st_.s, st_.cost, fits);
    if (fits && st_.cost < best_cost_ - 1e-9) {
      best_ = st_.s;
      best_cost_ = st_.cost;
      lns_synced_ = false;
      return true;
    }
    return false;
  }

  // The rounding role: message passing on the priced problem, its rounding
  // polished and offered; now and then its bound. False if stopped.
  bool rounding_step() {
    MechanismTimer timer(&at(counts_, Mechanism::kPenalisedRounding));
    if (!pr_.step(&prounded_, &rng_, &stop_)) return false;
    ctx_->count(Counter::message_passes, pr_.passes_per_price());
    ++at(counts_, Mechanism::kPenalisedRounding).tried;
    if (polish_and_offer(prounded_)) ++at(counts_, Mechanism::kPenalisedRounding).improved;
    if (rounds_ % prm_.rounding_bound_every == 0) {
      double mag = 0;
      const double lb = pr_.lower_bound(&mag);
      offer_double_bound(lb, mag);
    }
    return true;
  }

  // The bounds kept by eliminating threads: a pass of message passing on the
  // problem without the limit (its messages converge undisturbed by moving
  // prices; rounded, it is guidance too), and on thread 0 the Lagrangian
  // bound. False if stopped.
  bool bound_passes() {
    if (!mp_.iterate(&rounded_, &stop_)) return false;
    ctx_->count(Counter::message_passes);
    if (ctx_->should_stop()) return false;
    if (rounds_ >= 2 && rounds_ % 2 == 0) {
      double mag = 0;
      const double lb = mp_.lower_bound(&mag);
      offer_double_bound(lb, mag);
    }
    if (lagrangian_bound_) {
      // A pass of either, and now and then its bound offered.
      auto pass = [&](LagrangianBound* lag, int64_t call, double* best) {
        if (!lag->iterate(call, prm_.lagrangian_refresh, best_cost_, &lag_rng_, &stop_)) return false;
        if (call % 2 == 0) {
          double mag = 0;
          const double lb = lag->bound(&mag);
          offer_double_bound(lb, mag);
          if (std::isfinite(lb)) *best = std::max(*best, lb);
        }
        return true;
      };
      if (!pass(&lag_answers_, rounds_, &lag_best_[0])) return false;
      // lag_own_ every other round while its bound is the higher one, every
      // eighth otherwise: its pass is thread 0's time taken from the search,
      // spent where the other bound leads only to keep a chance of catching up.
      const int own_every = lag_best_[1] >= lag_best_[0] ? 2 : 8;
      if (rounds_ % own_every == 1 && !pass(&lag_own_, ++own_calls_, &lag_best_[1])) return false;
    }
    return true;
  }

  // One exact elimination on the priced problem, its stuck nodes decided by
  // one of four rules drawn by their recent gains: min-sum beliefs
  // (randomised node order), the message-passing rounding, the best answer
  // (an exact move around it), or the rounding without the prices (when the
  // limit barely binds and the messages have converged, the optimum or next
  // to it). The first rounds try every rule once. False if stopped.
  bool elimination_step() {
    relax_.node_weights(&weight_);
    if (!bound_passes()) return false;
    int rule = rounds_ <= kRules ? int((rounds_ - 1 + tid_) % kRules) : rules_.pick(&rng_);
    if (rule == 2 && !has_cost(best_cost_)) rule = 0;
    static constexpr Mechanism kRule[kRules] = {Mechanism::kEliminationBeliefs, Mechanism::kEliminationRounding,
                                                Mechanism::kEliminationBest, Mechanism::kEliminationUnpriced};
    MechanismTimer timer(&at(counts_, kRule[rule]));
    // Global solves decide by min-sum beliefs; the neighbourhood search's
    // windows keep the star estimate.
    EliminationOptions eo;
    eo.weight = &weight_;
    eo.belief_every = prm_.belief_every;
    eo.should_stop = &stop_;
    if (rule == 0) eo.randomness = prm_.decision_randomness + prm_.decision_spread * rng_.uniform();
    if (rule == 1) eo.hint = &rounded_;
    if (rule == 3) {
      eo.weight = nullptr;
      eo.hint = &rounded_;
    }
    if (rule == 2) {
      eo.hint = &best_;
      eo.follow_hint = rng_.below(2) ? 1.0 : 0.7 + 0.3 * rng_.uniform();
      eo.randomness = prm_.decision_randomness + prm_.decision_spread * rng_.uniform();
    }
    const EliminationStats es = elim_.solve(all_free_, &y_, &rng_, eo);
    if (!es.complete) return false;
    if (rule != 3) {  // rule 3 did not minimise the priced problem: no subgradient
      SearchState pen;
      pen.init(m_, y_);
      relax_.update(y_, pen.cost, best_cost_, &rng_);
      if (lagrangian_bound_) lag_answers_.take_answer(y_, pen.cost, best_cost_, &rng_);
    }
    const bool improved = polish_and_offer(y_);
    ++at(counts_, kRule[rule]).tried;
    if (improved) ++at(counts_, kRule[rule]).improved;
    rules_.fade(prm_.rule_decay);
    if (improved) rules_.reward(rule);
    return true;
  }

  // The neighbourhood search around the best, for a share of the time the
  // round's global step took (the jumps to better basins come from the priced
  // solves; the search refines). With a round budget its move count is fixed
  // too, so that one thread and one seed give one answer.
  void neighbourhood_step(double round_start) {
    if (!has_cost(best_cost_)) return;
    if (!lns_synced_) {
      lns_.reset(best_);
      lns_synced_ = true;
    }
    const double until = ctx_->elapsed() + prm_.lns_share * (ctx_->elapsed() - round_start);
    int64_t budget = prm_.lns_round_moves;
    const std::function<bool()> more = [&] { return max_rounds_ > 0 ? budget-- > 0 : ctx_->elapsed() < until; };
    ctx_->count(Counter::windows, lns_.run(weight_, relax_.needed(), &rng_, more, stop_,
                                           [&](const std::vector<int32_t>& a, double cost) {
                                             best_ = a;
                                             best_cost_ = cost;
                                             share(best_, best_cost_, true);
                                           }));
  }

  // The branch and bound towards a proof (proof_search.h), up to
  // proof_max_strategies: thread 0's, kept to a share of the time the rest of
  // its rounds took (with a round budget, a fixed number of tree nodes per
  // round). Once the tree is exhausted, its bound proves the incumbent
  // optimal and the search stops.
  void proof_step(double round_start) {
    const double now = ctx_->elapsed();
    search_seconds_ += now - round_start;
    if (ctx_->should_stop() || (tid_ != 0 && max_rounds_ > 0)) return;  // a round budget: thread 0 alone
    if (proof_joined_ && (!proof_.active() || proof_.exhausted())) return;
    const auto upper = [&](Int128* cost) {
      bool feasible = false;
      return ctx_->incumbent->summary(&feasible, cost) && feasible;
    };
    // The incumbent's last improvement: once it has stalled for as long as it
    // took to get there, the proof search's share grows (up to
    // proof_share_stalled): on a small problem the answer is often optimal
    // by then and only the proof is left to do. On small problems the other
    // threads join the tree then, with the share grown so far: a proof
    // within reach comes that much sooner.
    Int128 incumbent = 0;
    if (upper(&incumbent) && (!inc_feasible_ || incumbent < inc_cost_)) {
      inc_feasible_ = true;
      inc_cost_ = incumbent;
      inc_improved_at_ = now;
    }
    const double stall = inc_feasible_ ? now - inc_improved_at_ : 0.0;
    const double grown = prm_.proof_share * stall / std::max(inc_improved_at_, 1.0);
    const double share = std::min(std::max(prm_.proof_share, prm_.proof_share_stalled),
                                  (tid_ == 0 ? prm_.proof_share : 0.0) + grown);
    if (!proof_joined_) {
      const SearchModel& pm = ctx_->contraction ? ctx_->contraction->model() : m_;
      if (share <= 0 || double(pm.dom.size()) > prm_.proof_helpers_max_strategies) return;
      proof_joined_ = true;
      if (!proof_.init(m_, ctx_->contraction, ctx_->proof_tree)) return;
    }
    if (max_rounds_ == 0 && proof_seconds_ >= share * search_seconds_) return;
    MechanismCount& count = at(counts_, Mechanism::kProofSearch);
    MechanismTimer timer(&count);
    const int64_t nodes_before = proof_.stats().nodes;
    int64_t budget = prm_.proof_round_nodes;
    const std::function<bool()> more = [&] {
      if (max_rounds_ > 0) return budget-- > 0;
      return proof_seconds_ + (ctx_->elapsed() - now) < share * search_seconds_;
    };
    const auto offer = [&](const std::vector<int32_t>& a, double cost) {
      if (ctx_->offer(a, cost, true)) ++count.improved;
      ctx_->offer_epoch(epoch_, a, cost);
    };
    // With a round budget a node's bound runs whole, so the answer does not
    // depend on the clock.
    if (proof_.run(upper, offer, more, max_rounds_ > 0 ? nullptr : &more, &stop_)) {
      if (proof_.has_proof()) ctx_->offer_bound(proof_.proven());
    } else {
      offer_double_bound(proof_.open_bound(), 0);
    }
    count.tried += proof_.stats().nodes - nodes_before;
    proof_seconds_ += ctx_->elapsed() - now;
  }

  // Restarts: runs on small, memory-bound instances settle early, each in its
  // own basin, and stay there; a fresh start samples another. The epoch's
  // stall is judged against how long the epoch took to reach its best, so a
  // search that keeps finding improvements is never cut off. With a round
  // budget there are no restarts (they follow the clock). Otherwise adopt the
  // epoch's best when another thread is ahead.
  void end_of_round() {
    if (tid_ == 0 && max_rounds_ == 0 && prm_.restarts &&
        ctx_->restart_if_stalled(prm_.restart_stall_factor, prm_.restart_min_stall))
      ++at(counts_, Mechanism::kRestart).tried;
    ctx_->add_counts(&counts_);
    if (ctx_->epoch.load() != epoch_) {
      restart();
    } else if (ctx_->adopt_epoch(epoch_, &best_, &best_cost_)) {
      lns_synced_ = false;
    }
  }

  // A new epoch: this thread's prices, rule weights and best start afresh
  // (the incumbent keeps every epoch's answers); the bounds' state stays.
  void restart() {
    epoch_ = ctx_->epoch.load();
    relax_.restart_diversified(&rng_);
    if (rounds_penalised_) pr_.restart_diversified(&rng_);
    rules_.reset();
    best_ = first_;
    best_cost_ = first_cost_;
    lns_synced_ = false;
  }
};

SearchThread::SearchThread(SearchContext* ctx, int tid) : w_(new Worker(ctx, tid)) {}
SearchThread::~SearchThread() = default;
bool SearchThread::run() { return w_->run(); }

}  // namespace iopddl
