// The contest binary: `iopddl PROBLEM TIMEOUT_SECONDS`, plus `iopddl evaluate`.
// A thin client of the core: parse arguments, load, solve, print.
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "evaluate.h"
#include "load_json.h"
#include "params.h"
#include "solution_io.h"
#include "solver.h"
#include "version.h"

#include "cli_common.h"

using namespace iopddl;
using namespace iopddl::cli;

namespace iopddl::cli {

int run_evaluate(int argc, char** argv) {
  if (argc != 4) return usage_error("evaluate needs PROBLEM and SOLUTION_FILE");
  // The solution file is checked before the problem is loaded: a wrong path
  // should not wait for a large problem to load.
  std::string why;
  if (!readable(argv[3], &why)) return usage_error(std::string("cannot read SOLUTION_FILE ") + argv[3] + ": " + why);
  Problem p;
  Status st = load_problem_file(argv[2], &p);
  if (!st) return fail(st);
  std::string text;
  st = read_text_file(argv[3], &text);
  if (!st) return fail(st);
  std::vector<int32_t> a;
  st = parse_solution(text, argv[3], &a);
  if (!st) return fail(st);
  Evaluation ev = evaluate(p, a);
  if (!ev.status.ok) { std::fprintf(stderr, "iopddl: %s: %s\n", argv[3], ev.status.message.c_str()); return 3; }
  std::printf("problem:           %s (%d nodes, %d edges)\n", printable(p.name).c_str(), p.num_nodes(), p.num_edges());
  std::printf("node cost:         %s\n", to_string(ev.node_cost).c_str());
  std::printf("edge cost:         %s\n", to_string(ev.edge_cost).c_str());
  std::printf("total cost:        %s\n", to_string(ev.total_cost).c_str());
  std::printf("forbidden entries: %lld\n", (long long)ev.forbidden_entries);
  std::printf("peak usage:        %s at time %lld\n", to_string(ev.peak_usage).c_str(), (long long)ev.peak_time);
  if (p.has_usage_limit)
    std::printf("usage limit:       %lld (%s)\n", (long long)p.usage_limit,
                ev.within_limit ? "within" : "EXCEEDED");
  else
    std::printf("usage limit:       none\n");
  std::printf("feasible:          %s\n", ev.feasible() ? "yes" : "no");
  return ev.feasible() ? 0 : 1;
}

// `iopddl check PROBLEM`: loads and validates, then prints what was loaded and
// its digest (the same as the package's summary.digest for the same file).
int run_check(int argc, char** argv) {
  if (argc != 3) return usage_error("check needs PROBLEM");
  const auto t0 = std::chrono::steady_clock::now();
  Problem p;
  Status st = load_problem_file(argv[2], &p);
  if (!st) return fail(st);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("problem:     %s\n", printable(p.name).c_str());
  std::printf("nodes:       %d (%llu strategies)\n", p.num_nodes(), (unsigned long long)p.total_strategies());
  std::printf("edges:       %d (%llu matrix entries)\n", p.num_edges(), (unsigned long long)p.edge_entries());
  std::printf("usage limit: %s\n", p.has_usage_limit ? std::to_string(p.usage_limit).c_str() : "none");
  std::printf("digest:      %s\n", problem_digest(p).c_str());
  std::printf("loaded in:   %.3f s\n", s);
  return 0;
}

}  // namespace iopddl::cli

int main(int argc, char** argv) {
  const auto t0 = std::chrono::steady_clock::now();
  if (argc >= 2 && std::strcmp(argv[1], "evaluate") == 0) return run_evaluate(argc, argv);
  if (argc >= 2 && std::strcmp(argv[1], "check") == 0) return run_check(argc, argv);
  if (argc >= 2 && std::strcmp(argv[1], "sweep") == 0) return run_sweep(argc, argv);
  SearchArgs search;
  bool quiet = false;
  bool print_stats = false;
  const char* start_file = nullptr;
  int64_t limit = -1;       // --limit N (-1: not given)
  double limit_scale = 0;  // --limit-scale X (0: not given)
  std::vector<const char*> pos;
  for (int k = 1; k < argc; ++k) {
    const char* a = argv[k];
    if (!std::strcmp(a, "--help") || !std::strcmp(a, "-h")) { std::fputs(kUsage, stdout); return 0; }
    if (!std::strcmp(a, "--version")) { std::printf("iopddl %s\n", IOPDDL_VERSION); return 0; }
    if (!std::strcmp(a, "--quiet")) { quiet = true; continue; }
    if (!std::strcmp(a, "--stats")) { print_stats = true; continue; }
    if (!std::strcmp(a, "--list-params")) { list_params(); return 0; }
    if (!std::strcmp(a, "--start")) {
      if (k + 1 >= argc) return usage_error(std::string(a) + " needs a value");
      start_file = argv[++k];
      continue;
    }
    int status = 0;
    const int took = take_search_arg(argc, argv, &k, &search, &status);
    if (took < 0) return status;
    if (took > 0) continue;
    if (!std::strcmp(a, "--limit") || !std::strcmp(a, "--limit-scale")) {
      if (k + 1 >= argc) return usage_error(std::string(a) + " needs a value");
      const char* v = argv[++k];
      if (!std::strcmp(a, "--limit")) {
        uint64_t n;
        if (!parse_uint(v, &n) || n > uint64_t(INT64_MAX))
          return usage_error(std::string("--limit needs a non-negative integer within int64, got '") + v + "'");
        limit = int64_t(n);
      } else if (!parse_number(v, &limit_scale) || !(limit_scale > 0)) {
        return usage_error(std::string("--limit-scale needs a number above 0, got '") + v + "'");
      }
      if (limit >= 0 && limit_scale > 0) return usage_error("--limit and --limit-scale exclude each other");
      continue;
    }
    if (is_option(a)) return usage_error(std::string("unknown option ") + a);
    pos.push_back(a);
  }
  if (pos.size() != 2) return usage_error("expected PROBLEM and TIMEOUT_SECONDS");
  double timeout;
  if (!parse_number(pos[1], &timeout)) return usage_error(std::string("TIMEOUT_SECONDS must be a number, got '") + pos[1] + "'");
  if (timeout < 0) return usage_error("TIMEOUT_SECONDS must not be negative");
  // The start file is checked before the problem is loaded: a wrong path
  // should not wait for a large problem to load.
  std::string why;
  if (start_file && !readable(start_file, &why))
    return usage_error(std::string("cannot read --start ") + start_file + ": " + why);

  Problem p;
  Status st = load_problem_file(pos[0], &p);
  if (!st) return fail(st);
  if (limit >= 0 || limit_scale > 0) {
    if (limit_scale > 0) {
      if (!p.has_usage_limit)
        return usage_error(std::string("--limit-scale needs a usage_limit in ") + pos[0] + ", which has none");
      const long double scaled = (long double)p.usage_limit * limit_scale;
      if (scaled >= 9.2e18L) return usage_error("--limit-scale: the scaled limit is beyond int64");
      limit = int64_t(scaled);
    }
    st = set_usage_limit(&p, limit);
    if (!st) return usage_error("--limit: " + st.message);
  }
  const double load_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // Keep a margin for stopping threads and printing: the contest counts it all.
  const Params& params = search.params;
  const double margin = std::min(params.stop_margin_share * timeout,
                                 params.stop_margin_base + params.stop_margin_rate * timeout);
  SolveOptions opt;
  opt.time_limit_seconds = std::max(0.0, timeout - margin - load_s);
  opt.threads = search.threads;
  opt.seed = search.seed;
  opt.max_rounds = search.rounds;
  opt.params = params;
  if (start_file) {
    std::string text;
    st = read_text_file(start_file, &text);
    if (st) st = parse_solution(text, start_file, &opt.start);
    if (!st) return fail(st, "--start: ");
  }
  if (!quiet) {
    std::printf("# iopddl %s: %s, %d nodes, %d edges, limit %s, loaded in %.3f s\n", IOPDDL_VERSION,
                printable(p.name).c_str(), p.num_nodes(), p.num_edges(),
                p.has_usage_limit ? std::to_string(p.usage_limit).c_str() : "none", load_s);
    double last_bound_line = -1;
    opt.on_progress = [&, last_bound_line](const Progress& pr) mutable {
      const bool bound_event = pr.event == ProgressEvent::kBound;
      // A warm start is already an answer when the search starts: its cost is
      // the first cost line, even if nothing beats it later.
      const bool start_answer = pr.event == ProgressEvent::kStart && pr.has_solution;
      if (pr.event == ProgressEvent::kImproved || start_answer ||
          (bound_event && pr.has_solution && pr.feasible && pr.elapsed_seconds >= last_bound_line + 1.0)) {
        if (bound_event) last_bound_line = pr.elapsed_seconds;
        std::printf("# %.3f s cost %s%s", pr.elapsed_seconds + load_s, to_string(pr.best_cost).c_str(),
                    pr.feasible ? "" : " (infeasible)");
        if (pr.has_lower_bound && pr.feasible)
          std::printf(" bound %s gap %s%%", to_string(pr.lower_bound).c_str(),
                      percent(pr.best_cost - pr.lower_bound, pr.best_cost).c_str());
        std::printf("\n");
        std::fflush(stdout);
      } else if (pr.event == ProgressEvent::kRestart) {
        std::printf("# %.3f s restart: epoch %d\n", pr.elapsed_seconds + load_s, pr.epoch);
        std::fflush(stdout);
      } else if (pr.event == ProgressEvent::kStart && pr.has_lower_bound) {
        std::printf("# %.3f s bound %s\n", pr.elapsed_seconds + load_s, to_string(pr.lower_bound).c_str());
        std::fflush(stdout);
      }
    };
    opt.heartbeat_seconds = 0;
  }
  SolveResult r = solve(p, opt);
  if (!r.status.ok) return fail(r.status);
  if (!quiet) {
    const auto& s = r.stats;
    std::printf("# done in %.3f s:", r.elapsed_seconds + load_s);
    for (int k = 0; k < kCounterCount; ++k)
      std::printf(" %lld %s,", (long long)s.counter(Counter(k)), kCounterInfo[k].label);
    std::printf(" %lld of %lld strategies removed, %lld threads\n", (long long)s.strategies_removed,
                (long long)s.strategies_total, (long long)s.threads);
    if (print_stats) {
      std::printf("# model and exact reductions in %.3f s\n", s.reduce_seconds);
      std::printf("# tied groups %lld (%lld nodes), contracted problem %lld nodes\n", (long long)s.tied_groups,
                  (long long)s.tied_nodes, (long long)s.contracted_nodes);
      std::printf("# %-22s %12s %10s %10s %7s %12s  %s\n", "mechanism", "tried", "improved", "seconds", "share",
                  "fall/s", "what");
      for (int k = 0; k < kMechanismCount; ++k) {
        const MechanismCount& c = s.mechanisms[k];
        std::printf("# %-22s %12lld %10lld %10.3f %6.1f%% %12.4g  %s\n", kMechanismInfo[k].name, (long long)c.tried,
                    (long long)c.improved, double(c.micros) / 1e6, 100.0 * time_share(s.mechanisms, k),
                    fall_per_second(c), kMechanismInfo[k].what);
      }
      // The restarts' timeline: an ended epoch whose last counted fall is
      // close to its end was cut off while it still fell.
      if (!s.epochs.empty()) {
        std::printf("# %-6s %10s %16s %16s %20s  %s\n", "epoch", "began s", "previous from s",
                    "its last fall s", "its best", "ended by");
        for (const EpochStart& e : s.epochs)
          std::printf("# %-6d %10.3f %16.3f %16.3f %20s  %s\n", e.epoch, e.seconds, e.ended_from,
                      e.ended_last_fall, e.ended_has_best ? to_string(e.ended_best_cost).c_str() : "none",
                      e.opening ? "the opening's clock" : "a stall");
      }
    }
    if (r.feasible)
      std::printf("# cost %s (nodes %s, edges %s), peak usage %s%s%s\n", to_string(r.evaluation.total_cost).c_str(),
                  to_string(r.evaluation.node_cost).c_str(), to_string(r.evaluation.edge_cost).c_str(),
                  to_string(r.evaluation.peak_usage).c_str(), p.has_usage_limit ? " of " : "",
                  p.has_usage_limit ? std::to_string(p.usage_limit).c_str() : "");
    if (r.proven_optimal())
      std::printf("# proven optimal: lower bound %s equals the cost\n", to_string(r.lower_bound).c_str());
    else if (r.feasible && r.has_lower_bound)
      std::printf("# lower bound %s, gap %s%%\n", to_string(r.lower_bound).c_str(),
                  percent(r.evaluation.total_cost - r.lower_bound, r.evaluation.total_cost).c_str());
  }
  if (!r.feasible) {
    if (r.proven_infeasible())
      std::fprintf(stderr, "iopddl: no feasible assignment exists (the reductions emptied a domain); printing the least-violating one found\n");
    else
      std::fprintf(stderr, "iopddl: no feasible assignment found within the time limit; printing the least-violating one found\n");
    const Int128 least = least_peak_usage(p);
    if (p.has_usage_limit && least > p.usage_limit)
      std::fprintf(stderr, "iopddl: the usage limit %lld is below the least peak usage any assignment has, %s\n",
                   (long long)p.usage_limit, to_string(least).c_str());
  }
  std::string line = format_solution(r.assignment);
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
  return r.feasible ? 0 : 1;
}
