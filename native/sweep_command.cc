// `iopddl sweep PROBLEM SECONDS [--points K | --limits A,B,...] [--json]`:
// memory against cost (the core's sweep.h), one line per point or JSON.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cli_common.h"
#include "load_json.h"
#include "solution_io.h"
#include "sweep.h"

namespace iopddl::cli {

namespace {

// "A,B,..." as non-negative integers; false with the offending item named.
bool parse_limits(const char* text, std::vector<int64_t>* out, std::string* why) {
  std::string s(text);
  size_t at = 0;
  int index = 0;
  for (;;) {
    const size_t comma = s.find(',', at);
    const std::string item = s.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    uint64_t v;
    if (!parse_uint(item.c_str(), &v) || v > uint64_t(INT64_MAX)) {
      *why = "--limits item " + std::to_string(index) + " must be a non-negative integer within int64, got '" + item + "'";
      return false;
    }
    out->push_back(int64_t(v));
    if (comma == std::string::npos) return true;
    at = comma + 1;
    ++index;
  }
}

std::string gap_text(const SweepPoint& pt) {
  if (!pt.feasible || !pt.has_lower_bound) return "-";
  return percent(pt.cost - pt.lower_bound, pt.cost) + "%";
}

void print_json(const Problem& p, const SweepResult& r) {
  std::printf("{\"problem\":\"%s\",\"file_limit\":%s,\"least_peak\":%s,", printable(p.name).c_str(),
              p.has_usage_limit ? std::to_string(p.usage_limit).c_str() : "null", to_string(r.least_peak).c_str());
  if (r.has_free_plan)
    std::printf("\"free_plan\":{\"cost\":%s,\"peak_usage\":%s},", to_string(r.free_cost).c_str(),
                to_string(r.free_peak).c_str());
  std::printf("\"points\":[");
  for (size_t k = 0; k < r.points.size(); ++k) {
    const SweepPoint& pt = r.points[k];
    std::printf("%s\n{\"limit\":%lld,\"feasible\":%s,\"cost\":%s,\"lower_bound\":%s,\"proven_optimal\":%s,"
                "\"proven_infeasible\":%s,\"peak_usage\":%s,\"seconds\":%.3f,\"first_feasible_seconds\":%s,"
                "\"from_neighbour\":%s,\"assignment\":%s}",
                k ? "," : "", (long long)pt.limit, pt.feasible ? "true" : "false", to_string(pt.cost).c_str(),
                pt.has_lower_bound ? to_string(pt.lower_bound).c_str() : "null", pt.proven_optimal ? "true" : "false",
                pt.proven_infeasible ? "true" : "false", to_string(pt.peak_usage).c_str(), pt.seconds,
                pt.first_feasible_seconds >= 0 ? std::to_string(pt.first_feasible_seconds).c_str() : "null",
                pt.from_neighbour ? "true" : "false", format_solution(pt.assignment).c_str());
  }
  std::printf("]}\n");
}

}  // namespace

int run_sweep(int argc, char** argv) {
  const auto t0 = std::chrono::steady_clock::now();
  SearchArgs search;
  std::vector<int64_t> limits;
  int points = 0;
  bool json = false;
  std::vector<const char*> pos;
  for (int k = 2; k < argc; ++k) {
    const char* a = argv[k];
    if (!std::strcmp(a, "--json")) { json = true; continue; }
    if (!std::strcmp(a, "--points") || !std::strcmp(a, "--limits")) {
      if (k + 1 >= argc) return usage_error(std::string(a) + " needs a value");
      const char* v = argv[++k];
      if (!std::strcmp(a, "--points")) {
        uint64_t n;
        if (!parse_uint(v, &n) || n < 1 || n > 1000)
          return usage_error(std::string("--points needs an integer from 1 to 1000, got '") + v + "'");
        points = int(n);
      } else {
        std::string why;
        if (!parse_limits(v, &limits, &why)) return usage_error(why);
      }
      if (points > 0 && !limits.empty()) return usage_error("--points and --limits exclude each other");
      continue;
    }
    int status = 0;
    const int took = take_search_arg(argc, argv, &k, &search, &status);
    if (took < 0) return status;
    if (took > 0) continue;
    if (is_option(a)) return usage_error(std::string("unknown sweep option ") + a);
    pos.push_back(a);
  }
  if (pos.size() != 2) return usage_error("sweep needs PROBLEM and SECONDS");
  double seconds;
  if (!parse_number(pos[1], &seconds) || seconds < 0)
    return usage_error(std::string("SECONDS must be a number >= 0, got '") + pos[1] + "'");
  Problem p;
  Status st = load_problem_file(pos[0], &p);
  if (!st) return fail(st);
  const double load_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  SweepOptions o;
  o.solve.time_limit_seconds = std::max(0.0, seconds - load_s);
  o.solve.threads = search.threads;
  o.solve.seed = search.seed;
  o.solve.max_rounds = search.rounds;
  o.solve.params = search.params;
  o.limits = limits;
  if (points > 0) o.points = points;
  if (!json) {
    std::printf("# iopddl sweep: %s, %d nodes, file's limit %s, loaded in %.3f s\n", printable(p.name).c_str(),
                p.num_nodes(), p.has_usage_limit ? std::to_string(p.usage_limit).c_str() : "none", load_s);
    std::fflush(stdout);
    // Each point as it is solved; the table at the end has the final costs and bounds.
    o.on_point = [](const SweepPoint& pt) {
      std::printf("# limit %lld: %s%s in %.2f s\n", (long long)pt.limit,
                  pt.feasible ? ("cost " + to_string(pt.cost)).c_str() : "infeasible",
                  pt.has_lower_bound ? (", bound " + to_string(pt.lower_bound)).c_str() : "", pt.seconds);
      std::fflush(stdout);
    };
  }
  const SweepResult r = sweep(p, o);
  if (!r.status.ok) return fail(r.status);
  bool any = false;
  for (const SweepPoint& pt : r.points) any = any || pt.feasible;
  if (json) {
    print_json(p, r);
  } else {
    std::printf("# least peak %s", to_string(r.least_peak).c_str());
    if (r.has_free_plan)
      std::printf(", cheapest plan without a limit: cost %s, peak %s", to_string(r.free_cost).c_str(),
                  to_string(r.free_peak).c_str());
    std::printf("\n%20s %22s %22s %9s %20s %8s\n", "limit", "cost", "lower_bound", "gap", "peak", "seconds");
    for (const SweepPoint& pt : r.points)
      std::printf("%20lld %22s %22s %9s %20s %8.2f%s\n", (long long)pt.limit,
                  pt.feasible ? to_string(pt.cost).c_str() : "infeasible",
                  pt.has_lower_bound ? to_string(pt.lower_bound).c_str() : "-", gap_text(pt).c_str(),
                  to_string(pt.peak_usage).c_str(), pt.seconds,
                  pt.proven_optimal ? " optimal" : pt.from_neighbour ? " (a smaller limit's plan)" : "");
  }
  return any ? 0 : 1;
}

}  // namespace iopddl::cli
