// The problem as flat arrays (offsets + values): one allocation per field, not
// one per node, so a large instance stays a small multiple of its file size.
#pragma once
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "status.h"

namespace iopddl {

// Edge matrices as the loader reads them: in blocks, each matrix whole inside
// one block, never moved into one array. (In WebAssembly, whose memory never
// shrinks, that move was slow on the largest files and left the
// blocks behind as holes as large as the array.) Never written after the load
// (which may leave them in the search's form, search_form.h), so copies of a
// Problem share it.
struct EdgeCostBlocks {
  std::vector<std::unique_ptr<int64_t[]>> blocks;
  std::vector<const int64_t*> matrix;  // per edge, into `blocks`
  uint64_t entries = 0;                // all matrices' entries together
};

// How the edge matrices' 8-byte entries are kept: as the input's integers, or
// in the search's form (search_form.h: doubles, every forbidden entry at
// `forbidden_as`), which lets the search read them in place.
enum class EdgeForm : uint8_t { kIntegers, kSearchDoubles };

// A memory limit: the file's, or another one a solve works to (a device with
// more or less memory). `has` false: no limit.
struct UsageLimit {
  bool has = false;
  int64_t value = 0;
  int64_t or_max() const { return has ? value : INT64_MAX; }
};

struct Problem {
  std::string name;
  bool has_usage_limit = false;
  int64_t usage_limit = 0;

  // Nodes: half-open live interval [lo, hi); strategy s of node i lives at
  // strategy_offset[i] + s in node_cost / node_usage.
  std::vector<int64_t> interval_lo, interval_hi;
  std::vector<uint64_t> strategy_offset{0};
  std::vector<int64_t> node_cost, node_usage;

  // Edges: cost of (s_u, s_v) at entry s_u * K_v + s_v of edge e's matrix. The
  // matrices are either in `edge_cost`, edge e's at edge_cost_offset[e]
  // (problems built in code, files read into a reserved array), or in
  // `edge_blocks` (the loader's other inputs); edge_cost_offset counts entries
  // as if they were all in one array either way.
  std::vector<int32_t> edge_u, edge_v;
  std::vector<uint64_t> edge_cost_offset{0};
  std::vector<int64_t> edge_cost;
  std::shared_ptr<const EdgeCostBlocks> edge_blocks;
  EdgeForm edge_form = EdgeForm::kIntegers;
  double forbidden_as = 0;      // in the search's form: a forbidden entry's stored value,
  int64_t forbidden_value = 0;  // and the input's value for it

  // Compressed time: the distinct interval endpoints, sorted. Segment k is
  // [time_point[k], time_point[k+1]); node i covers segments [seg_lo, seg_hi).
  std::vector<int64_t> time_point;
  std::vector<int32_t> seg_lo, seg_hi;

  int num_nodes() const { return int(interval_lo.size()); }
  int num_edges() const { return int(edge_u.size()); }
  int num_segments() const { return time_point.empty() ? 0 : int(time_point.size()) - 1; }
  int num_strategies(int i) const { return int(strategy_offset[i + 1] - strategy_offset[i]); }
  int64_t cost(int i, int s) const { return node_cost[strategy_offset[i] + s]; }
  int64_t usage(int i, int s) const { return node_usage[strategy_offset[i] + s]; }
  // Edge e's storage, in whichever form (edge_entry() reads it either way).
  const int64_t* edge_words(int e) const {
    return edge_blocks ? edge_blocks->matrix[size_t(e)] : edge_cost.data() + edge_cost_offset[e];
  }
  // Edge e's matrix as the search reads it; only in the search's form.
  const double* edge_doubles(int e) const { return std::launder(reinterpret_cast<const double*>(edge_words(e))); }
  uint64_t edge_size(int e) const { return edge_cost_offset[size_t(e) + 1] - edge_cost_offset[size_t(e)]; }
  uint64_t edge_entries() const { return edge_blocks ? edge_blocks->entries : edge_cost.size(); }
  // Entry k of edge e's matrix, as the input gave it.
  int64_t edge_entry_at(int e, uint64_t k) const {
    if (edge_form == EdgeForm::kIntegers) return edge_words(e)[k];
    const double d = edge_doubles(e)[k];
    return d == forbidden_as ? forbidden_value : int64_t(d);
  }
  int64_t edge_entry(int e, int su, int sv) const {
    return edge_entry_at(e, uint64_t(su) * num_strategies(edge_v[e]) + sv);
  }
  // f(entry) for every entry of edge e's matrix in order, as the input gave it.
  template <class F>
  void for_each_entry(int e, F&& f) const {
    const uint64_t len = edge_size(e);
    if (edge_form == EdgeForm::kIntegers) {
      const int64_t* M = edge_words(e);
      for (uint64_t k = 0; k < len; ++k) f(M[k]);
    } else {
      const double* M = edge_doubles(e);
      for (uint64_t k = 0; k < len; ++k) {
        const int64_t c = int64_t(M[k]);  // forbidden_as is at most 10^15: exact
        f(M[k] == forbidden_as ? forbidden_value : c);
      }
    }
  }
  UsageLimit limit() const { return {has_usage_limit, has_usage_limit ? usage_limit : 0}; }
  int64_t limit_or_max() const { return limit().or_max(); }
  uint64_t total_strategies() const { return node_cost.size(); }
};

// Every edge matrix, in edge order, as one array (a copy; for tests and tools).
std::vector<int64_t> edge_cost_array(const Problem& p);

// A fingerprint of everything the file said (name, limit, every array), as 16
// hex digits: two loads of the same instance, by any route, give the same one.
std::string problem_digest(const Problem& p);

// The same problem at another usage limit (a device with more or less
// memory): what a client's --limit or usageLimit sets after loading. Nothing
// is derived from the limit at load, so the search sees it as if the file
// said it. A negative limit is refused.
Status set_usage_limit(Problem* p, int64_t limit);

// Checks shapes and ranges (counts, lengths, endpoints) and builds the
// compressed time axis. Messages name the field and index. Called by the loader.
Status finalize_problem(Problem* p);

}  // namespace iopddl
