// The pipeline: model -> exact reductions -> bound -> portfolio of search
// threads sharing one incumbent -> exact evaluation of the answer.
#include <algorithm>
#include <condition_variable>
#include <thread>

#include "lower_bound.h"
#include "reduce_domains.h"
#include "search_context.h"
#include "solver.h"

namespace iopddl {

SolveResult solve(const Problem& problem, const SolveOptions& options) {
  SolveResult result;
  SearchContext ctx;
  ctx.start = std::chrono::steady_clock::now();
  const double limit_s = std::max(0.0, options.time_limit_seconds);
  ctx.deadline = ctx.start + std::chrono::microseconds(int64_t(std::min(limit_s, 1e9) * 1e6));
  ctx.options = &options;

  Evaluation start_eval;
  if (!options.start.empty()) {
    start_eval = evaluate(problem, options.start);
    if (!start_eval.status.ok) {
      result.status = Status::Error("start: " + start_eval.status.message);
      return result;
    }
  }
  if (problem.num_nodes() == 0) {
    result.feasible = true;
    result.evaluation = evaluate(problem, {});
    return result;
  }
  if (problem.total_strategies() >= UINT32_MAX) {
    result.status = Status::Error("too many strategies in total for the solver (" +
                                  std::to_string(problem.total_strategies()) + ")");
    return result;
  }

  SearchModel model;
  model.build(problem);
  model.params = options.params;
  result.stats.strategies_total = int64_t(model.dom.size());
  const std::function<bool()> should_stop = [&ctx] { return ctx.should_stop(); };
  ReduceStats rs = reduce_domains(&model, &should_stop);
  result.stats.strategies_removed = rs.removed_forbidden_node + rs.removed_arc + rs.removed_memory;
  result.stats.nodes_fixed = rs.nodes_fixed;
  result.stats.reduce_seconds = ctx.elapsed();
  result.proven_infeasible = rs.wiped_out;
  ctx.model = &model;
  TiedGroups groups;
  if (!rs.wiped_out) groups.build(model);
  ctx.groups = &groups;
  Contraction contraction;
  if (groups.size() > 0 && !ctx.should_stop()) {
    contraction.build(model, groups);
    ctx.contraction = &contraction;
  }
  // Every step from here on is skipped once the time is up: an answer on
  // time beats a better one late.
  if (!rs.wiped_out && !ctx.should_stop()) {
    ctx.lower_bound = half_edge_bound(model);
    ctx.has_lower_bound = true;
  }
  ctx.bound_valid = !rs.wiped_out;

  Incumbent incumbent(problem);
  ctx.incumbent = &incumbent;
  // The warm start is the first incumbent, so no report is worse than it.
  if (!options.start.empty()) incumbent.offer(options.start, double(start_eval.total_cost), start_eval.within_limit);
  int threads = options.threads > 0 ? options.threads : int(std::thread::hardware_concurrency());
  threads = std::max(1, std::min(threads, 256));
  result.stats.threads = threads;
  ctx.threads = threads;
  ctx.report("start");

  // Heartbeat: progress at a steady pace even between improvements.
  std::mutex hb_mu;
  std::condition_variable hb_cv;
  bool hb_quit = false;
  std::thread heartbeat;
  if (options.on_progress && options.heartbeat_seconds > 0) {
    heartbeat = std::thread([&] {
      std::unique_lock<std::mutex> lock(hb_mu);
      while (!hb_quit) {
        hb_cv.wait_for(lock, std::chrono::duration<double>(options.heartbeat_seconds));
        if (hb_quit) break;
        lock.unlock();
        ctx.report("heartbeat");
        lock.lock();
      }
    });
  }
  std::vector<std::thread> pool;
  for (int t = 1; t < threads && !ctx.should_stop(); ++t) pool.emplace_back(run_worker, &ctx, t);
  run_worker(&ctx, 0);
  // With a round budget, thread 0 finishing ends the others too.
  ctx.done.store(true);
  for (auto& th : pool) th.join();
  {
    std::lock_guard<std::mutex> lock(hb_mu);
    hb_quit = true;
  }
  hb_cv.notify_all();
  if (heartbeat.joinable()) heartbeat.join();

  incumbent.snapshot(&result.assignment, &result.evaluation);
  result.feasible = result.evaluation.feasible();
  result.has_lower_bound = ctx.has_lower_bound;
  result.lower_bound = ctx.lower_bound;
  result.proven_optimal = result.feasible && result.has_lower_bound &&
                          result.lower_bound >= result.evaluation.total_cost;
  result.elapsed_seconds = ctx.elapsed();
  result.stats.rounds = ctx.rounds.load();
  result.stats.message_passes = ctx.message_passes.load();
  result.stats.windows = ctx.windows.load();
  result.stats.local_moves = ctx.local_moves.load();
  result.stats.repairs = ctx.repairs.load();
  result.stats.improvements = ctx.improvements.load();
  result.stats.first_feasible_seconds = ctx.first_feasible_seconds;
  result.stats.history = ctx.history;
  result.stats.tied_groups = groups.size();
  result.stats.tied_nodes = groups.tied_nodes();
  result.stats.contracted_nodes = ctx.contraction ? ctx.contraction->nodes() : 0;
  for (int k = 0; k < kMechanismCount; ++k)
    result.stats.mechanisms[k] = {ctx.mechanism_counts[2 * k].load(), ctx.mechanism_counts[2 * k + 1].load()};
  ctx.report("done");
  return result;
}

}  // namespace iopddl
