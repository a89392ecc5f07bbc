// One search thread: a first answer, then, until the time is up, the step the
// scheduler picks (scheduler.h), credited with the fall in the thread's best
// cost it produced; restarts when the epoch stalls. What each step does and
// when it may run is in its own file (step_*.cc).
#include <algorithm>
#include <chrono>
#include <cmath>

#include "merge_answers.h"
#include "scheduler.h"
#include "search_context.h"
#include "step.h"
#include "thread_state.h"

namespace iopddl {

class Worker {
 public:
  Worker(SearchContext* ctx, int tid) : t_(ctx, tid), steps_(make_steps()) {
    const int n = int(steps_.size());
    sched_.init(n, t_.prm, tid);
    available_.assign(n, 0);
    floor_.assign(n, 0.0);
    kind_.assign(n, kHardFloor);
  }

  // Searches until the context says stop; a later call resumes where this one
  // stopped (a session's next slice). False once this thread has nothing
  // more to do: its round budget is spent. Its counts reach the context
  // before it returns. Under a round budget a slice ends between rounds, after
  // one round at least.
  bool run() {
    bool more = true;
    if (!started_) started_ = start();  // stopped before its first answer: again next time
    const int64_t rounds_before = rounds_;
    Lockstep& lockstep = t_.ctx->lockstep;
    bool paused = false;  // in lockstep: every thread ends the slice at the same meeting
    // The budget and the slice's end first: in lockstep a thread that wakes
    // from the meeting after thread 0 has ended the slice finds the context
    // paused, and must not take that for a stop of its own.
    while (started_) {
      if (t_.counted() && rounds_ >= t_.max_rounds) {
        more = false;
        break;
      }
      if (t_.counted() && rounds_ > rounds_before &&
          (lockstep.on() ? lockstep.slice_over
                         : std::chrono::steady_clock::now() >= t_.ctx->counted_slice_end)) {
        paused = true;
        break;
      }
      if (t_.ctx->should_stop()) break;
      ++rounds_;
      t_.ctx->count(Counter::rounds);
      if (!run_step() || !end_of_round()) break;
    }
    // Stopped on its own (the time limit, the stop flag): the others no
    // longer wait for it.
    if (lockstep.on() && more && !paused) lockstep.leave(t_.tid);
    t_.ctx->add_counts(&t_.counts);
    return more;
  }

 private:
  ThreadState t_;
  std::vector<std::unique_ptr<SearchStep>> steps_;
  YieldScheduler sched_;
  std::vector<char> available_;
  std::vector<double> floor_;
  std::vector<FloorKind> kind_;
  double slice_ = -1;  // a sliced step's run: the mean time of an atomic step (-1: none yet)
  int64_t rounds_ = 0;
  int64_t waited_us_ = 0, waited_ms_counted_ = 0;  // at lockstep's meetings
  double sched_t0_ = 0;  // the epoch's start: the scheduler's clock runs from it
  bool inited_ = false, started_ = false;
  // meet(): where this thread last met the others (its moves since are its
  // own), and scratch.
  std::vector<int32_t> met_, theirs_, merged_, carried_;

  // The scheduler's clock: seconds, or runs under a round budget.
  double clock() const { return t_.counted() ? double(rounds_) : t_.ctx->elapsed(); }

  // Picks a step, runs it, credits it. False if stopped.
  bool run_step() {
    const double now = clock();
    for (size_t k = 0; k < steps_.size(); ++k) {
      available_[k] = steps_[k]->available(t_);
      floor_[k] = available_[k] ? steps_[k]->floor(t_, now) : 0.0;
      kind_[k] = steps_[k]->floor_kind(t_);
    }
    const int k = sched_.pick(available_, floor_, now - sched_t0_, kind_);
    if (k < 0) return false;
    SearchStep& step = *steps_[k];
    const double before = t_.best_cost;
    const double started = t_.ctx->elapsed();
    const double length = std::min(std::max(slice_ < 0 ? 0.1 : slice_, t_.prm.schedule_slice_min),
                                   t_.prm.schedule_slice_max);
    const std::function<bool()> more = [&] { return t_.ctx->elapsed() < started + length; };
    const bool ok = step.run(t_, more);
    const double took = t_.ctx->elapsed() - started;
    if (ok && !step.sliced()) slice_ = slice_ < 0 ? took : 0.8 * slice_ + 0.2 * took;
    // A sliced step is charged its whole slice even when it returns early
    // (a shared proof tree with no subtree free): else it would be picked
    // again at once, for nothing, over and over.
    const double charged = t_.counted() ? 1.0 : step.sliced() ? std::max(took, length) : took;
    sched_.record(k, charged, log_fall(before, t_.best_cost), clock() - sched_t0_);
    return ok;
  }

  // The state every step needs, then a first answer (and the warm start).
  // False if stopped before the first answer (then the least-usage
  // assignment, which fits whenever anything does, is offered).
  bool start() {
    const SearchModel& m = t_.m;
    if (!inited_) {
      t_.ls.init(m, t_.ctx->groups);
      t_.ls.set_counts(&t_.counts);
      t_.relax.init(m, MemoryRelax::Schedule::kNodes);
      t_.all_free.assign(m.n, -1);
      inited_ = true;
    }
    if (t_.ctx->should_stop()) {
      t_.st.init(m, least_usage_start(m));
      t_.ctx->offer(t_.st.s, t_.st.cost, t_.st.within_limit());
      return false;
    }
    t_.elim.init(m);
    first_answer();
    warm_start();
    return true;
  }

  // A feasible answer first: every node capped at its least usage (which fits
  // whenever anything does), elimination picks the cheapest such assignment
  // free of forbidden pairs; then repair and polish. The plain least-usage
  // assignment is the fallback.
  void first_answer() {
    const SearchModel& m = t_.m;
    std::vector<int32_t> start = least_usage_start(m);
    std::vector<int32_t> y;
    std::vector<int64_t> least(m.n, INT64_MAX);
    if (t_.relax.needed())
      for (int i = 0; i < m.n; ++i) least[i] = m.usage(i, start[i]);
    EliminationOptions eo;
    eo.hint = &start;
    eo.usage_cap = &least;
    eo.should_stop = &t_.stop;
    EliminationStats es = t_.elim.solve(t_.all_free, &y, &t_.rng, eo);
    SearchState& st = t_.st;
    st.init(m, es.complete ? y : start);
    t_.ctx->offer(st.s, st.full_cost(), st.within_limit());
    t_.polish(&st);
    t_.ctx->offer(st.s, st.cost, st.within_limit());
    t_.first = st.s;
    t_.first_cost = st.within_limit() ? st.cost : kNoCost;
  }

  // A warm start, repaired and polished, is where the first epoch starts when
  // it fits and is cheaper than the first answer.
  void warm_start() {
    SearchState& st = t_.st;
    if (!t_.ctx->options->start.empty() && !t_.ctx->should_stop()) {
      SearchState ws;
      ws.init(t_.m, t_.ctx->options->start);
      t_.polish(&ws);
      t_.ctx->offer(ws.s, ws.cost, ws.within_limit());
      if (ws.within_limit() && (!st.within_limit() || ws.cost < st.cost)) st = ws;
    }
    if (st.within_limit()) t_.ctx->offer_epoch(0, st.s, st.cost);
    t_.best = st.s;
    t_.best_cost = st.within_limit() ? st.cost : kNoCost;
    t_.best_moved = true;
    met_ = t_.best;
  }

  // Epochs: a run settles early in a basin and stays there; a fresh start
  // samples another. The opening's probes sample a few, and the search goes
  // on from the best; later, an epoch's stall is judged against how long it
  // took to reach its best, so a search that keeps finding improvements is
  // never cut off. With a round budget there are no restarts (they follow
  // the clock). Otherwise adopt the epoch's best when another thread is ahead.
  // In lockstep (a round budget, several threads) the threads meet at the
  // end of every round, and this thread takes what the others had there
  // (lockstep.h). False if stopped while waiting.
  bool end_of_round() {
    SearchContext* ctx = t_.ctx;
    if (!t_.counted() && t_.prm.restarts && ctx->next_epoch_due()) {
      ++at(t_.counts, Mechanism::kRestart).tried;
      ctx->report(ProgressEvent::kRestart);
    }
    ctx->add_counts(&t_.counts);
    if (ctx->lockstep.on() && !keep_step()) return false;
    if (ctx->epoch.load() != t_.epoch) {
      restart();
    } else {
      meet();
    }
    return true;
  }

  // The round's meeting (lockstep.h), its wait counted. False if stopped.
  bool keep_step() {
    const auto t0 = std::chrono::steady_clock::now();
    const bool met = t_.ctx->lockstep.meet(t_.tid, t_.best, t_.best_cost, t_.stop);
    waited_us_ += std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0).count();
    t_.ctx->count(Counter::meeting_wait_ms, waited_us_ / 1000 - waited_ms_counted_);
    waited_ms_counted_ = waited_us_ / 1000;
    return met;
  }

  // When another thread's best in this epoch is ahead, this thread takes it,
  // with its own moves since they last met carried over when that beats
  // both (merge_answers.h).
  void meet() {
    double theirs_cost = t_.best_cost;
    if (!t_.ctx->adopt_epoch(t_.epoch, &theirs_, &theirs_cost)) {
      met_ = t_.best;
      return;
    }
    carry_over(theirs_, met_, t_.best, &merged_, &carried_);
    t_.best.swap(theirs_);
    t_.best_cost = theirs_cost;
    t_.best_moved = true;
    if (!carried_.empty()) {
      MechanismCount& count = at(t_.counts, Mechanism::kMerge);
      MechanismTimer timer(&count);
      ++count.tried;
      // Made to fit, and polished from the carried nodes: the rest of both
      // answers was polished already.
      t_.st.init(t_.m, merged_);
      t_.polish(&t_.st, &carried_);
      if (t_.st.within_limit()) {
        t_.share(t_.st.s, t_.st.cost, true);
        t_.take_if_better(t_.st.s, t_.st.cost, &count);
      }
    }
    met_ = t_.best;
  }

  // A new epoch is a fresh start: prices, messages and the schedules (on a
  // clock from the epoch's start) as at the solve's start, the best back to
  // the first answer, or to the epoch's own best when it starts with one
  // (after the opening). A restart that kept what the last epoch had learnt
  // stayed far behind the first epoch. The incumbent keeps every epoch's
  // answers; the bounds' state stays.
  void restart() {
    t_.epoch = t_.ctx->epoch.load();
    t_.relax.restart_diversified(&t_.rng);
    for (auto& step : steps_) step->restart(t_);
    sched_t0_ = clock();
    sched_.init(int(steps_.size()), t_.prm, t_.tid);
    t_.best = t_.first;
    t_.best_cost = t_.first_cost;
    t_.ctx->adopt_epoch(t_.epoch, &t_.best, &t_.best_cost);  // after the opening: the probes' best
    t_.best_moved = true;
    met_ = t_.best;
  }
};

SearchThread::SearchThread(SearchContext* ctx, int tid) : w_(new Worker(ctx, tid)) {}
SearchThread::~SearchThread() = default;
bool SearchThread::run() { return w_->run(); }

}  // namespace iopddl
