// Checks shared by the fuzz targets: a failed load gives one clear line, a
// successful one a Problem whose arrays agree with each other.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string>

#include "problem.h"

namespace iopddl::fuzz {

[[noreturn]] inline void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz check failed: %s\n%s\n", what, detail.c_str());
  std::abort();
}

#define FUZZ_CHECK(cond, detail) \
  do {                            \
    if (!(cond)) ::iopddl::fuzz::fail(#cond, (detail)); \
  } while (0)

// "SOURCE: what is wrong", on one line, saying something.
inline void check_message(const std::string& message, const std::string& source) {
  FUZZ_CHECK(message.rfind(source + ": ", 0) == 0, message);
  FUZZ_CHECK(message.find('\n') == std::string::npos, message);
  FUZZ_CHECK(message.size() > source.size() + 8, message);
}

inline void check_problem(const Problem& p) {
  const size_t n = p.interval_lo.size();
  FUZZ_CHECK(p.interval_hi.size() == n && p.strategy_offset.size() == n + 1, "node arrays");
  FUZZ_CHECK(p.strategy_offset[0] == 0 && p.strategy_offset[n] == p.node_cost.size(), "strategy offsets");
  FUZZ_CHECK(p.node_usage.size() == p.node_cost.size(), "usage count");
  for (size_t i = 0; i < n; ++i) {
    FUZZ_CHECK(p.strategy_offset[i] < p.strategy_offset[i + 1], "node " + std::to_string(i) + " without strategies");
    FUZZ_CHECK(p.interval_lo[i] <= p.interval_hi[i], "interval " + std::to_string(i));
    FUZZ_CHECK(p.seg_lo[i] <= p.seg_hi[i] && p.seg_hi[i] <= p.num_segments(), "segments of " + std::to_string(i));
    if (p.interval_lo[i] < p.interval_hi[i]) {
      FUZZ_CHECK(p.time_point[p.seg_lo[i]] == p.interval_lo[i], "seg_lo of " + std::to_string(i));
      FUZZ_CHECK(p.time_point[p.seg_hi[i]] == p.interval_hi[i], "seg_hi of " + std::to_string(i));
    } else {
      FUZZ_CHECK(p.seg_lo[i] == p.seg_hi[i], "empty interval " + std::to_string(i) + " covers a segment");
    }
  }
  for (size_t k = 0; k < p.node_cost.size(); ++k)
    FUZZ_CHECK(p.node_cost[k] >= 0 && p.node_usage[k] >= 0, "negative cost or usage at " + std::to_string(k));
  for (size_t k = 1; k < p.time_point.size(); ++k) FUZZ_CHECK(p.time_point[k - 1] < p.time_point[k], "time points");
  const size_t m = p.edge_u.size();
  FUZZ_CHECK(p.edge_v.size() == m && p.edge_cost_offset.size() == m + 1, "edge arrays");
  FUZZ_CHECK(p.edge_cost_offset[0] == 0 && p.edge_cost_offset[m] == p.edge_entries(), "edge offsets");
  FUZZ_CHECK(!p.edge_blocks || (p.edge_cost.empty() && p.edge_blocks->matrix.size() == m), "edge blocks");
  for (size_t e = 0; e < m; ++e) {
    FUZZ_CHECK(p.edge_u[e] >= 0 && size_t(p.edge_u[e]) < n && p.edge_v[e] >= 0 && size_t(p.edge_v[e]) < n,
               "edge " + std::to_string(e) + " endpoints");
    FUZZ_CHECK(p.edge_cost_offset[e + 1] - p.edge_cost_offset[e] ==
                   uint64_t(p.num_strategies(p.edge_u[e])) * uint64_t(p.num_strategies(p.edge_v[e])),
               "edge " + std::to_string(e) + " matrix size");
  }
  for (int64_t c : edge_cost_array(p)) FUZZ_CHECK(c >= 0, "negative edge cost");
  FUZZ_CHECK(!p.has_usage_limit || p.usage_limit >= 0, "negative limit");
}

}  // namespace iopddl::fuzz
