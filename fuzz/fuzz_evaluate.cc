// libFuzzer target: the loader, then the evaluator, as `iopddl evaluate` runs
// them. The input is a problem (JSON or gzip), optionally followed by the line
// "#solution" and a solution file's text; assignments are also derived from the
// input's bytes. Every evaluation is checked against a slow reference that works
// on the original (uncompressed) time axis, and out-of-range or wrong-length
// assignments must be rejected with a message.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "evaluate.h"
#include "fuzz_common.h"
#include "load_json.h"
#include "solution_io.h"

using namespace iopddl;

namespace {

const char kSeparator[] = "\n#solution\n";  // cannot occur in valid JSON

// The reference: sums in 128 bits, usage at every interval start, first maximum.
void check_against_reference(const Problem& p, const std::vector<int32_t>& a, const Evaluation& ev) {
  FUZZ_CHECK(ev.status.ok, ev.status.message);
  const int n = p.num_nodes();
  Int128 node = 0, edge = 0;
  int64_t forbidden = 0;
  for (int i = 0; i < n; ++i) {
    int64_t c = p.node_cost[p.strategy_offset[i] + a[i]];
    node += c;
    forbidden += c >= kForbidden;
  }
  const std::vector<int64_t> edge_costs = edge_cost_array(p);
  for (int e = 0; e < p.num_edges(); ++e) {
    const int u = p.edge_u[e], v = p.edge_v[e];
    const uint64_t kv = p.strategy_offset[v + 1] - p.strategy_offset[v];
    int64_t c = edge_costs[p.edge_cost_offset[e] + uint64_t(a[u]) * kv + uint64_t(a[v])];
    edge += c;
    forbidden += c >= kForbidden;
  }
  FUZZ_CHECK(ev.node_cost == node, "node cost " + to_string(ev.node_cost) + " != " + to_string(node));
  FUZZ_CHECK(ev.edge_cost == edge, "edge cost " + to_string(ev.edge_cost) + " != " + to_string(edge));
  FUZZ_CHECK(ev.total_cost == node + edge, "total cost");
  FUZZ_CHECK(ev.forbidden_entries == forbidden, "forbidden entries");
  // Usage at each distinct time where some non-empty interval starts or ends.
  std::vector<int64_t> times;
  for (int i = 0; i < n; ++i)
    if (p.interval_lo[i] < p.interval_hi[i]) {
      times.push_back(p.interval_lo[i]);
      times.push_back(p.interval_hi[i]);
    }
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  FUZZ_CHECK(times == p.time_point, "time points");
  const size_t segments = times.empty() ? 0 : times.size() - 1;
  FUZZ_CHECK(ev.usage.size() == segments, "usage profile length");
  Int128 peak = 0;
  int64_t peak_time = 0;
  int64_t peak_segment = -1;
  for (size_t k = 0; k < segments; ++k) {
    Int128 u = 0;
    for (int i = 0; i < n; ++i)
      if (p.interval_lo[i] <= times[k] && times[k] < p.interval_hi[i]) u += p.node_usage[p.strategy_offset[i] + a[i]];
    FUZZ_CHECK(ev.usage[k] == u, "usage at time " + std::to_string(times[k]));
    if (peak_segment < 0 || u > peak) {
      peak = u;
      peak_time = times[k];
      peak_segment = int64_t(k);
    }
  }
  FUZZ_CHECK(ev.peak_usage == peak, "peak usage");
  FUZZ_CHECK(ev.peak_segment == peak_segment, "peak segment");
  if (peak_segment >= 0) FUZZ_CHECK(ev.peak_time == peak_time, "peak time");
  FUZZ_CHECK(ev.within_limit == (!p.has_usage_limit || peak <= p.usage_limit), "within limit");
  FUZZ_CHECK(ev.feasible() == (ev.within_limit && forbidden == 0), "feasible");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const size_t sep = input.find(kSeparator);
  const std::string problem_bytes = input.substr(0, sep);
  Problem p;
  Status st = load_problem_from_buffer(problem_bytes, "fuzz.json", &p);
  if (!st.ok) {
    fuzz::check_message(st.message, "fuzz.json");
    return 0;
  }
  fuzz::check_problem(p);
  const int n = p.num_nodes();
  if (int64_t(n) * (p.num_segments() + 1) > (1 << 22)) return 0;  // keep the reference quick

  // The solution text after the separator, as `iopddl evaluate` reads it.
  if (sep != std::string::npos) {
    std::vector<int32_t> a;
    Status ps = parse_solution(input.substr(sep + std::strlen(kSeparator)), "fuzz.txt", &a);
    if (!ps.ok) {
      fuzz::check_message(ps.message, "fuzz.txt");
      FUZZ_CHECK(a.empty(), "a failed parse left entries");
    } else {
      Evaluation ev = evaluate(p, a);
      bool valid = int64_t(a.size()) == n;
      for (size_t i = 0; valid && i < a.size(); ++i) valid = a[i] >= 0 && a[i] < p.num_strategies(int(i));
      if (valid) {
        check_against_reference(p, a, ev);
      } else {
        FUZZ_CHECK(!ev.status.ok, "an invalid solution was evaluated");
        FUZZ_CHECK(ev.status.message.find("solution") == 0, ev.status.message);
        FUZZ_CHECK(!ev.feasible(), "an invalid solution is feasible");
      }
    }
  }

  // Assignments derived from the bytes: first, last and byte-chosen strategies.
  std::vector<int32_t> first(n, 0), last(n), chosen(n);
  for (int i = 0; i < n; ++i) {
    const int k = p.num_strategies(i);
    last[i] = k - 1;
    chosen[i] = int32_t(uint32_t(uint8_t(input[(size_t(i) * 7 + 3) % size])) % uint32_t(k));
  }
  for (const std::vector<int32_t>* a : {&first, &last, &chosen}) check_against_reference(p, *a, evaluate(p, *a));

  // Invalid assignments: one entry out of range, wrong lengths.
  if (n > 0) {
    std::vector<int32_t> bad = chosen;
    const int j = int(uint8_t(input[0]) % uint32_t(n));
    bad[j] = (uint8_t(input[size - 1]) & 1) ? -1 : p.num_strategies(j);
    Evaluation ev = evaluate(p, bad);
    FUZZ_CHECK(!ev.status.ok && !ev.feasible(), "out-of-range entry accepted");
    FUZZ_CHECK(ev.status.message.rfind("solution[" + std::to_string(j) + "] = ", 0) == 0, ev.status.message);
  }
  for (size_t len : {size_t(n) + 1, size_t(n > 0 ? n - 1 : 1)}) {
    if (len == size_t(n)) continue;
    Evaluation ev = evaluate(p, std::vector<int32_t>(len, 0));
    FUZZ_CHECK(!ev.status.ok, "wrong length accepted");
  }
  return 0;
}
