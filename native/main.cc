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

using namespace iopddl;

namespace {

const char* kUsage =
    "usage: iopddl [options] PROBLEM TIMEOUT_SECONDS\n"
    "       iopddl evaluate PROBLEM SOLUTION_FILE\n"
    "       iopddl check PROBLEM\n"
    "\n"
    "Solves an intra-operator parallelism problem (contest JSON, plain or .gz)\n"
    "within TIMEOUT_SECONDS of wall time, load and output included. Progress lines\n"
    "start with '#'; the last line is the solution [s0, s1, ...].\n"
    "\n"
    "options:\n"
    "  --threads N   search threads (default: all cores)\n"
    "  --seed N      random seed (default: 1)\n"
    "  --rounds N    stop after N search rounds per thread (with --threads 1 and a\n"
    "                fixed seed the answer is then reproducible)\n"
    "  --quiet       print only the solution line\n"
    "  --stats       at the end, print per mechanism how often it was tried and improved,\n"
    "                its share of the search's time and its fall in cost per second\n"
    "  --start FILE  start from the solution in FILE (its last line [s0, s1, ...], such\n"
    "                as a previous run's output)\n"
    "  --limit N     solve at usage limit N instead of the file's (a non-negative integer)\n"
    "  --limit-scale X\n"
    "                solve at the file's usage limit times X (X > 0, rounded down)\n"
    "  --set NAME=VALUE\n"
    "                set a search parameter (repeatable; --list-params lists them)\n"
    "  --list-params the search parameters: name, default, range and what each does\n"
    "  --help        this text\n"
    "  --version     the version\n"
    "\n"
    "exit status: 0 feasible answer; 1 no feasible answer found (the least-violating\n"
    "one is still printed); 2 bad arguments (including a file that cannot be\n"
    "opened); 3 invalid input. evaluate exits 0 when the solution is feasible, 1 when\n"
    "it is infeasible, 2 on bad arguments, 3 when the problem or solution is invalid.\n"
    "check loads and validates PROBLEM and prints its counts and digest (exit 0, or 2\n"
    "or 3 as above).\n";

// The problem's name as one safe line: control bytes (a newline would start a
// line that is not a '#' progress line) shown as \xHH.
std::string printable(const std::string& name) {
  std::string out;
  for (unsigned char c : name) {
    if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out.push_back(char(c));
    }
  }
  return out;
}

int usage_error(const std::string& msg) {
  std::fprintf(stderr, "iopddl: %s\n\n%s", msg.c_str(), kUsage);
  return 2;
}

// A file that cannot be opened for reading is a bad argument (exit 2), not bad input.
bool readable(const char* path, std::string* why) {
  FILE* f = std::fopen(path, "rb");
  if (!f) {
    *why = std::strerror(errno);
    return false;
  }
  struct stat sb;
  const bool dir = fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode);
  std::fclose(f);
  if (dir) {
    *why = "is a directory";
    return false;
  }
  return true;
}

bool parse_number(const char* s, double* out) {
  if (!*s) return false;
  char* end = nullptr;
  double v = std::strtod(s, &end);
  if (*end != '\0' || !std::isfinite(v)) return false;
  *out = v;
  return true;
}

bool parse_uint(const char* s, uint64_t* out) {
  if (!*s) return false;
  for (const char* c = s; *c; ++c)
    if (*c < '0' || *c > '9') return false;
  errno = 0;
  unsigned long long v = std::strtoull(s, nullptr, 10);
  if (errno) return false;
  *out = v;
  return true;
}

std::string percent(Int128 num, Int128 den) {
  if (den <= 0) return "?";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", 100.0 * double(num) / double(den));
  return buf;
}

// A whole (small) text file, such as a solution.
Status read_text_file(const char* path, std::string* text) {
  FILE* f = std::fopen(path, "rb");
  if (!f) return Status::Error(std::string(path) + ": cannot open file: " + std::strerror(errno), StatusCode::kIo);
  text->clear();
  char buf[1 << 16];
  size_t got;
  while ((got = std::fread(buf, 1, sizeof buf, f)) > 0) text->append(buf, got);
  const bool read_failed = std::ferror(f) != 0;
  std::fclose(f);
  if (read_failed) return Status::Error(std::string(path) + ": read error", StatusCode::kIo);
  return Status::Ok();
}

void list_params() {
  std::printf("%-24s %12s  %-24s %s\n", "parameter", "default", "range", "what it does");
  for (int k = 0; k < kParamCount; ++k) {
    const ParamInfo& info = kParamInfo[k];
    char range[64];
    std::snprintf(range, sizeof range, "[%.10g, %.10g]%s", info.lo, info.hi, info.integer ? " integer" : "");
    std::printf("%-24s %12.10g  %-24s %s\n", info.name, info.def, range, info.why);
  }
}

// The exit status for a failed step, from the kind of error: a file that
// cannot be read or a bad option is a bad argument (2, with the usage), the
// rest invalid input (3).
int fail(const Status& st, const std::string& prefix = "") {
  if (st.code == StatusCode::kIo || st.code == StatusCode::kBadArgument) return usage_error(prefix + st.message);
  std::fprintf(stderr, "iopddl: %s%s\n", prefix.c_str(), st.message.c_str());
  return 3;
}

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

}  // namespace

int main(int argc, char** argv) {
  const auto t0 = std::chrono::steady_clock::now();
  if (argc >= 2 && std::strcmp(argv[1], "evaluate") == 0) return run_evaluate(argc, argv);
  if (argc >= 2 && std::strcmp(argv[1], "check") == 0) return run_check(argc, argv);
  int threads = 0;
  uint64_t seed = 1;
  int64_t rounds = 0;
  bool quiet = false;
  bool print_stats = false;
  const char* start_file = nullptr;
  int64_t limit = -1;       // --limit N (-1: not given)
  double limit_scale = 0;  // --limit-scale X (0: not given)
  Params params;
  std::vector<const char*> pos;
  for (int k = 1; k < argc; ++k) {
    const char* a = argv[k];
    if (!std::strcmp(a, "--help") || !std::strcmp(a, "-h")) { std::fputs(kUsage, stdout); return 0; }
    if (!std::strcmp(a, "--version")) { std::printf("iopddl %s\n", IOPDDL_VERSION); return 0; }
    if (!std::strcmp(a, "--quiet")) { quiet = true; continue; }
    if (!std::strcmp(a, "--stats")) { print_stats = true; continue; }
    if (!std::strcmp(a, "--list-params")) { list_params(); return 0; }
    if (!std::strcmp(a, "--set") || !std::strcmp(a, "--start")) {
      if (k + 1 >= argc) return usage_error(std::string(a) + " needs a value");
      if (!std::strcmp(a, "--start")) {
        start_file = argv[++k];
        continue;
      }
      Status ps = set_param(&params, argv[++k]);
      if (!ps) return usage_error("--set: " + ps.message);
      continue;
    }
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
    if (!std::strcmp(a, "--threads") || !std::strcmp(a, "--seed") || !std::strcmp(a, "--rounds")) {
      if (k + 1 >= argc) return usage_error(std::string(a) + " needs a value");
      uint64_t v;
      if (!parse_uint(argv[k + 1], &v)) return usage_error(std::string(a) + " needs a non-negative integer, got '" + argv[k + 1] + "'");
      if (!std::strcmp(a, "--threads")) {
        if (v < 1 || v > uint64_t(kMaxThreads))
          return usage_error("--threads must be between 1 and " + std::to_string(kMaxThreads));
        threads = int(v);
      } else if (!std::strcmp(a, "--rounds")) {
        rounds = int64_t(v);
      } else {
        seed = v;
      }
      ++k;
      continue;
    }
    // "-1" is a (negative) number; any other word starting with '-' is an option.
    if (a[0] == '-' && a[1] != '\0' && !(a[1] >= '0' && a[1] <= '9') && a[1] != '.')
      return usage_error(std::string("unknown option ") + a);
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
  const double margin = std::min(params.stop_margin_share * timeout,
                                 params.stop_margin_base + params.stop_margin_rate * timeout);
  SolveOptions opt;
  opt.time_limit_seconds = std::max(0.0, timeout - margin - load_s);
  opt.threads = threads;
  opt.seed = seed;
  opt.max_rounds = rounds;
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
