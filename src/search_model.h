// The solver's view of a problem: adjacency lists, the live domains left by
// the reductions, and costs as doubles (exact for integers below 2^53; final
// answers are always re-costed exactly by evaluate()).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "int128.h"
#include "params.h"
#include "problem.h"

namespace iopddl {

struct Incidence {
  int32_t edge;
  int32_t other;
  bool self_is_u;  // this node is the row of the edge matrix
};

struct SearchModel {
  const Problem* p = nullptr;
  int n = 0;
  // The limit the search works to (the file's unless the solve says
  // otherwise); `limit` is INT64_MAX when there is none.
  bool has_limit = false;
  int64_t limit = INT64_MAX;
  UsageLimit usage_limit() const { return {has_limit, has_limit ? limit : 0}; }
  std::vector<uint32_t> adj_off;   // n + 1
  std::vector<Incidence> adj;
  // Live strategies (original indices) of node i: dom[dom_off[i] .. dom_off[i+1]).
  std::vector<uint32_t> dom_off;
  std::vector<int32_t> dom;
  // Node cost plus any self-loop edge's diagonal entry, per original strategy
  // (indexed like Problem::node_cost). Self-loops are kept out of `adj`.
  std::vector<double> unary;
  // Edge matrices over the live domains as doubles (forbidden -> big), row =
  // the edge's u end: read by message passing and elimination in every thread,
  // built once. Per edge, where its matrix is: the problem's own storage when
  // that is in the search's form and both ends kept every strategy, else a copy
  // in `mat`. Null for self-loops.
  std::vector<const double*> mat_at;
  std::vector<double> mat;
  // The sweep order: nodes by their live interval (start, then end). In a
  // compiler's output that is nearly program order, so layers
  // and chains are local, but it comes from the graph, not from how the nodes
  // are numbered. A node without an interval goes with the earliest start
  // among its neighbours; ties keep index order.
  std::vector<int32_t> order;
  // The tuned values (params.h), read by every stage; solve() sets them from
  // its options.
  Params params;
  // The scale the memory prices start from (typical_memory_rate), as
  // reduce_domains measured it before removing dominated strategies: those
  // are never needed, but dropping them narrows the nodes' cost and usage
  // ranges and so would move the prices. 0: not measured (measure the domains).
  double memory_rate = 0;

  // Forbidden entries (>= 10^17) cost `big` in the search: more than every
  // finite entry together, so fewer forbidden entries always wins, yet small
  // enough that doubles keep the finite part exact and messages stay meaningful.
  double big = 1e15;
  double value(int64_t c) const { return c >= kForbiddenThreshold ? big : double(c); }

  // Full domains and adjacency. The matrices are built separately, once the
  // domains are final (reduce_domains() does it), so start-up fills them once.
  void build(const Problem& problem);
  void build(const Problem& problem, const UsageLimit& limit);  // at another limit
  void build_matrices();  // over the current domains
  void build_order();     // `order`, from the intervals and the adjacency
  const double* matrix(int e) const { return mat_at[e]; }
  int dom_size(int i) const { return int(dom_off[i + 1] - dom_off[i]); }
  const int32_t* domain(int i) const { return dom.data() + dom_off[i]; }
  double node_cost(int i, int s) const { return unary[p->strategy_offset[i] + s]; }
  int64_t usage(int i, int s) const { return p->usage(i, s); }
  // The least usage over node i's domain (0 for an empty one).
  int64_t least_usage(int i) const {
    const int32_t* d = domain(i);
    const int K = dom_size(i);
    int64_t least = K > 0 ? usage(i, d[0]) : 0;
    for (int k = 1; k < K; ++k) least = std::min(least, usage(i, d[k]));
    return least;
  }
  // Cost of the incidence's edge with this node at `self` and the other at
  // `other` (original strategy indices). Always inlined: callers loop over one
  // incidence, and inlined its loads hoist out of their loops; GCC inlines it
  // by itself, Clang (the WebAssembly build) left it a call.
  __attribute__((always_inline)) double pair_cost(const Incidence& a, int self, int other) const {
    const Problem& q = *p;
    const uint64_t k = a.self_is_u ? uint64_t(self) * q.num_strategies(a.other) + other
                                   : uint64_t(other) * q.num_strategies(q.edge_v[a.edge]) + self;
    if (q.edge_form == EdgeForm::kSearchDoubles) return q.edge_doubles(a.edge)[k];
    return value(q.edge_entry_at(a.edge, k));
  }
  // The incidence's entries with the other end at `other`, for every strategy
  // `self` of this end: ptr[self * stride] == pair_cost(a, self, other). Null
  // when the matrices are not in the search's form (then call pair_cost).
  // For loops over this end's strategies: one lookup of the matrix per edge.
  struct PairLine {
    const double* ptr;
    uint64_t stride;
  };
  PairLine pair_line(const Incidence& a, int other) const {
    const Problem& q = *p;
    if (q.edge_form != EdgeForm::kSearchDoubles) return {nullptr, 0};
    const double* M = q.edge_doubles(a.edge);
    if (a.self_is_u) return {M + other, uint64_t(q.num_strategies(a.other))};
    return {M + uint64_t(other) * uint64_t(q.num_strategies(q.edge_v[a.edge])), 1};
  }
  int64_t pair_raw(const Incidence& a, int self, int other) const {
    return a.self_is_u ? p->edge_entry(a.edge, self, other) : p->edge_entry(a.edge, other, self);
  }
  bool has_interval(int i) const { return p->seg_lo[i] < p->seg_hi[i]; }
};

// A typical cost per unit of memory: over the nodes with an interval and two
// strategies or more, the median of (dearest - cheapest) / (most - least
// usage) among their allowed strategies; 1 / the largest usage where no node
// trades cost for memory. Over the strategies s of node i with
// keep[strategy_offset[i] + s] (null: the live domains).
double typical_memory_rate(const SearchModel& m, const std::vector<char>* keep = nullptr);

}  // namespace iopddl
