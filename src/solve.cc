// The pipeline: model -> exact reductions -> bound -> portfolio of search
// threads sharing one incumbent -> exact evaluation of the answer. A session
// keeps all of it between slices of search, so a caller that must give the
// thread back now and then (a browser without shared memory) loses nothing.
#include <algorithm>
#include <condition_variable>
#include <thread>

#include "lower_bound.h"
#include "reduce_domains.h"
#include "search_context.h"
#include "solver.h"

namespace iopddl {

const char* event_name(ProgressEvent e) {
  switch (e) {
    case ProgressEvent::kStart: return "start";
    case ProgressEvent::kImproved: return "improved";
    case ProgressEvent::kBound: return "bound";
    case ProgressEvent::kHeartbeat: return "heartbeat";
    case ProgressEvent::kDone: return "done";
    case ProgressEvent::kRestart: return "restart";
  }
  return "";
}

struct SolveSession::State {
  explicit State(const Problem& p, const SolveOptions& o)
      : problem(p), options(o), limit(o.usage_limit.value_or(p.limit())), incumbent(p, limit) {}
  const Problem& problem;
  const SolveOptions options;
  const UsageLimit limit;  // the file's, or the options'
  SolveResult result;
  SearchContext ctx;
  SearchModel model;
  TiedGroups groups;
  Contraction contraction;
  Incumbent incumbent;
  ReduceStats rs;
  std::vector<std::unique_ptr<SearchThread>> threads;
  bool finished = false;
  bool reported_done = false;
};

SolveSession::SolveSession(const Problem& problem, const SolveOptions& options)
    : s_(new State(problem, options)) {
  State& s = *s_;
  SolveResult& result = s.result;
  SearchContext& ctx = s.ctx;
  ctx.start = std::chrono::steady_clock::now();
  const double limit_s = std::max(0.0, options.time_limit_seconds);
  ctx.solve_end = ctx.start + std::chrono::microseconds(int64_t(std::min(limit_s, 1e9) * 1e6));
  ctx.deadline = ctx.solve_end;
  ctx.options = &s.options;
  s.finished = true;  // until the set-up below succeeds

  result.usage_limit = s.limit;
  if (s.limit.has && s.limit.value < 0) {
    result.status = Status::Error("usage limit: must not be negative, got " + std::to_string(s.limit.value));
    return;
  }
  Evaluation start_eval;
  if (!options.start.empty()) {
    start_eval = evaluate(problem, options.start, s.limit);
    if (!start_eval.status.ok) {
      result.status = Status::Error("start: " + start_eval.status.message);
      return;
    }
  }
  if (problem.num_nodes() == 0) {
    result.feasible = true;
    result.outcome = Outcome::kOptimal;
    result.evaluation = evaluate(problem, {}, s.limit);
    return;
  }
  if (problem.total_strategies() >= UINT32_MAX) {
    result.status = Status::Error("too many strategies in total for the solver (" +
                                  std::to_string(problem.total_strategies()) + ")");
    return;
  }

  SearchModel& model = s.model;
  model.params = options.params;  // first: build() reads sweep_order
  model.build(problem, s.limit);
  result.stats.strategies_total = int64_t(model.dom.size());
  const std::function<bool()> should_stop = [&ctx] { return ctx.should_stop(); };
  s.rs = reduce_domains(&model, &should_stop);
  result.stats.strategies_removed = s.rs.removed_forbidden_node + s.rs.removed_arc + s.rs.removed_memory + s.rs.removed_repeat +
                                    s.rs.removed_dominated;
  result.stats.nodes_fixed = s.rs.nodes_fixed;
  result.stats.reduce_seconds = ctx.elapsed();
  ctx.model = &model;
  if (!s.rs.wiped_out) s.groups.build(model);
  ctx.groups = &s.groups;
  // The contraction copies every matrix twice more (as integers and as
  // doubles): worth it when it shrinks the graph, not when few nodes are tied.
  const int contracted_nodes = model.n - s.groups.tied_nodes() + int(s.groups.size());
  const bool worth_contracting =
      double(model.n - contracted_nodes) >= model.params.contraction_min_removed * double(model.n);
  if (s.groups.size() > 0 && worth_contracting && !ctx.should_stop()) {
    s.contraction.build(model, s.groups);
    ctx.contraction = &s.contraction;
  }
  // Every step from here on is skipped once the time is up: an answer on
  // time beats a better one late.
  if (!s.rs.wiped_out && !ctx.should_stop()) {
    ctx.lower_bound = half_edge_bound(model);
    ctx.has_lower_bound = true;
  }
  ctx.bound_valid = !s.rs.wiped_out;

  ctx.incumbent = &s.incumbent;
  // The warm start is the first incumbent, so no report is worse than it.
  if (!options.start.empty())
    s.incumbent.offer(options.start, double(start_eval.total_cost), start_eval.within_limit);
  int threads = options.threads > 0 ? options.threads : int(std::thread::hardware_concurrency());
  threads = std::max(1, std::min(threads, kMaxThreads));
  result.stats.threads = threads;
  ctx.threads = threads;
  // Under a round budget the threads keep step, so that the answer does not
  // depend on their timing (lockstep.h).
  if (options.max_rounds > 0 && threads > 1) ctx.keep_step(threads);
  for (int t = 0; t < threads; ++t) s.threads.emplace_back(new SearchThread(&ctx, t));
  s.finished = s.rs.wiped_out && options.end_when_proven_infeasible;
  ctx.report(ProgressEvent::kStart);
}

SolveSession::~SolveSession() = default;

const Status& SolveSession::status() const { return s_->result.status; }

bool SolveSession::finished() const { return s_->finished; }

bool SolveSession::run(double seconds) {
  State& s = *s_;
  if (s.finished) return false;
  SearchContext& ctx = s.ctx;
  const auto now = std::chrono::steady_clock::now();
  const auto slice_end = now + std::chrono::microseconds(int64_t(std::min(std::max(0.0, seconds), 1e9) * 1e6));
  // Under a round budget the slice ends between rounds (worker.cc); else
  // at its time, wherever the search is.
  if (s.options.max_rounds > 0) ctx.counted_slice_end = slice_end;
  else ctx.deadline = std::min(ctx.solve_end, slice_end);
  ctx.paused.store(false);

  // Heartbeat: progress at a steady pace even between improvements.
  std::mutex hb_mu;
  std::condition_variable hb_cv;
  bool hb_quit = false;
  std::thread heartbeat;
  if (s.options.on_progress && s.options.heartbeat_seconds > 0) {
    heartbeat = std::thread([&] {
      std::unique_lock<std::mutex> lock(hb_mu);
      while (!hb_quit) {
        hb_cv.wait_for(lock, std::chrono::duration<double>(s.options.heartbeat_seconds));
        if (hb_quit) break;
        lock.unlock();
        ctx.report(ProgressEvent::kHeartbeat);
        lock.lock();
      }
    });
  }
  std::vector<std::thread> pool;
  for (size_t t = 1; t < s.threads.size() && !ctx.should_stop(); ++t)
    pool.emplace_back([&s, t] { s.threads[t]->run(); });
  const bool more = s.threads[0]->run();
  // Thread 0 returning ends the slice for every thread (with a round budget,
  // its budget is the solve's).
  ctx.paused.store(true);
  for (auto& th : pool) th.join();
  {
    std::lock_guard<std::mutex> lock(hb_mu);
    hb_quit = true;
  }
  hb_cv.notify_all();
  if (heartbeat.joinable()) heartbeat.join();

  const bool stopped = s.options.stop && s.options.stop->load();
  if (!more || ctx.done.load() || stopped || std::chrono::steady_clock::now() >= ctx.solve_end) s.finished = true;
  return !s.finished;
}

SolveResult SolveSession::result() {
  State& s = *s_;
  SolveResult result = s.result;
  if (!result.status.ok || s.threads.empty()) return result;
  SearchContext& ctx = s.ctx;
  // No answer yet (a solve ended before its first round): not feasible.
  const bool has_answer = s.incumbent.snapshot(&result.assignment, &result.evaluation);
  result.feasible = has_answer && result.evaluation.feasible();
  {
    std::lock_guard<std::mutex> lock(ctx.progress_mu);
    result.has_lower_bound = ctx.has_lower_bound;
    result.lower_bound = ctx.lower_bound;
    result.stats.first_feasible_seconds = ctx.first_feasible_seconds;
    result.stats.history = ctx.history;
  }
  result.stats.epochs = ctx.epoch_starts();
  if (s.rs.wiped_out) result.outcome = Outcome::kProvenInfeasible;
  else if (!result.feasible) result.outcome = Outcome::kNoFeasibleFound;
  else if (result.has_lower_bound && result.lower_bound >= result.evaluation.total_cost) result.outcome = Outcome::kOptimal;
  else result.outcome = Outcome::kFeasible;
  result.elapsed_seconds = ctx.elapsed();
  for (int k = 0; k < kCounterCount; ++k) result.stats.set_counter(Counter(k), ctx.counters[k].load());
  result.stats.tied_groups = s.groups.size();
  result.stats.tied_nodes = s.groups.tied_nodes();
  result.stats.contracted_nodes = ctx.contraction ? ctx.contraction->nodes() : 0;
  result.stats.mechanisms = ctx.mechanism_totals();
  if (s.finished && !s.reported_done) {
    s.reported_done = true;
    ctx.report(ProgressEvent::kDone);
  }
  return result;
}

SolveResult solve(const Problem& problem, const SolveOptions& options) {
  SolveSession session(problem, options);
  while (session.run(1e9)) {
  }
  return session.result();
}

}  // namespace iopddl
