// Variable elimination with heuristic decisions (the PBQP reductions used in
// register allocation): nodes of degree 0, 1 and 2 are eliminated exactly
// (degree 2 creates or updates an edge between its two neighbours, while the
// product of the three domain sizes stays within a work budget); a node of any
// degree whose value is determined by a neighbour's (every strategy of the
// neighbour allows at most one of its own: a functional edge) is folded into
// that neighbour exactly, its other edges re-indexed onto it; when neither is
// left, the node of highest degree is decided and conditioned on. A decision
// takes the strategy of least min-sum belief over the graph still left
// (messages swept over it now and then), or, with beliefs off, of least star
// estimate (its unary plus, per edge, the neighbour's best reply).
// Back-substitution then recovers every eliminated node's best strategy. On the
// sparse, nearly tree-shaped graphs of this problem most nodes are eliminated
// exactly, so this is a near-exact solver of the (penalised) pairwise problem.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "chunked_pool.h"
#include "out_of_line.h"
#include "rng.h"
#include "search_model.h"

namespace iopddl {

struct EliminationStats {
  int64_t exact = 0;      // nodes eliminated exactly (degree <= 2 or contracted)
  int64_t contracted = 0; // of which folded into a neighbour along a functional edge
  int64_t decided = 0;    // nodes decided heuristically
  bool complete = true;   // false: stopped early, *assign is not an answer
};

// How one solve runs: what it minimises, how it decides stuck nodes, and
// which part of the problem it touches.
struct EliminationOptions {
  // Price per node: the solve minimises sum(node cost + weight[i] x usage) +
  // edge costs (each node priced on its usage above its least, the same
  // minimum). Null: no prices.
  const std::vector<double>* weight = nullptr;
  // In [0, 1]: perturbs which node is decided when elimination is stuck.
  double randomness = 0.0;
  // An assignment: a decided node takes its hinted strategy, so the answer is
  // optimal given the hint on the decided nodes and never worse than the hint
  // itself (an exact move in a very large neighbourhood). With follow_hint < 1
  // each decided node follows the hint only with that probability and is
  // decided by the rule below otherwise, which moves the few decided nodes too.
  const std::vector<int32_t>* hint = nullptr;
  double follow_hint = 1.0;
  // Decisions by min-sum beliefs: a forward and backward sweep of messages
  // over the remaining graph before every `belief_every`-th decision (the
  // messages in between are kept; an edge made since starts at zero). 0: star
  // estimates. Beliefs see how a node's neighbours agree among themselves,
  // which the star estimate cannot, so on densely coupled graphs a global
  // solve's first answer is far better, with a memory limit or without.
  // The sweeps' matrix work is capped at 32 times the elimination's own;
  // past it, decisions read the last messages.
  int belief_every = 0;
  // Per node: strategies using more are priced like forbidden ones.
  const std::vector<int64_t>* usage_cap = nullptr;
  // Exactly the nodes with fixed[i] < 0 (no repeats), so that a small window
  // is solved in time proportional to its size; then only those entries of
  // *assign are written (the others keep what they held, or fixed's values if
  // *assign had another size).
  const std::vector<int32_t>* free_nodes = nullptr;
  const std::function<bool()>* should_stop = nullptr;
};

class EliminationSolver {
 public:
  void init(const SearchModel& m);
  // Minimises the (priced) problem over the nodes with fixed[i] < 0; the
  // others are held at fixed[i] (an original strategy index). Writes the
  // answer into *assign (fixed nodes copied; see free_nodes).
  EliminationStats solve(const std::vector<int32_t>& fixed, std::vector<int32_t>* assign, Rng* rng,
                         const EliminationOptions& options = {});

 private:
  struct Edge {
    int32_t a, b;
    ChunkedPool::Ref off;  // matrix a x b (domain positions), row-major, in pool_
    bool alive;
    // Until first written, an edge read straight from the model's matrix
    // (a x b already) is not copied: a whole-problem solve would otherwise
    // copy every matrix in every thread.
    const double* view = nullptr;
  };
  enum class RecordKind : int32_t {
    kEliminated,  // its strategy is the argmin over its recorded edges
    kDecided,     // `value` is its domain position
    kContracted,  // folded into node `value`: its strategy per strategy of that node
  };
  struct Record {
    int32_t node;
    RecordKind kind;
    int32_t value;      // domain position when decided; the node it was folded into when contracted
    uint32_t first, count;  // recorded edges in rec_edges_ (contracted: its strategy per strategy of `value`)
  };
  const SearchModel* m_ = nullptr;
  ChunkedPool pool_;                  // unaries (first) then matrices
  uint64_t pool_entries_ = 0;         // unaries and matrices, viewed ones included (work budgets)
  std::vector<ChunkedPool::Ref> unary_off_;  // per node, into pool_
  std::vector<Edge> edges_;
  std::vector<std::vector<int32_t>> inc_;  // edge ids per node (dead ones skipped)
  std::vector<int32_t> deg_;
  std::vector<char> alive_;
  std::vector<Record> records_;
  std::vector<int32_t> rec_edges_;
  std::vector<int32_t> stack_;
  std::vector<char> in_stack_;
  std::vector<int32_t> domidx_;       // domain position of each solved node (back-substitution)
  std::vector<int32_t> free_;         // the nodes being optimised
  std::vector<int32_t> live_;         // those still alive once elimination got stuck (swept, decided from)
  std::vector<int32_t> dirty_;        // edges whose matrix changed since they were last checked
  std::vector<char> is_dirty_;
  std::vector<int32_t> map_;
  uint64_t contract_budget_ = 0;     // matrix entries contraction may still write
  std::vector<uint64_t> msg_off_;     // per edge: message to a (K_a values), then to b; kNoMsg if none yet
  std::vector<double> msg_;
  std::vector<double> belief_, reply_;
  uint64_t sweep_budget_ = 0;        // matrix entries the sweeps may still read
  static constexpr uint64_t kNoMsg = UINT64_MAX;
  std::vector<int32_t> live_edges_;  // collect()'s answer
  std::vector<double> tmp_;
  std::vector<double> row1_, row2_;  // eliminate(): an edge's entries with the eliminated node fixed

  // The phases of solve().
  const double* matrix(const Edge& e) const { return e.view ? e.view : pool_.at(e.off); }
  double* writable(int e);  // the edge's own copy, made on first write
  int add_edge_record(int a, int b);
  int add_view(int a, int b, const double* M);
  void start_free(const std::vector<int32_t>& fixed, const std::vector<int32_t>* free_nodes);
  bool build_kernel(const std::vector<int32_t>& fixed, const EliminationOptions& o);
  IOPDDL_OUT_OF_LINE void kernel_unary(int i, const EliminationOptions& o);
  IOPDDL_OUT_OF_LINE void kernel_edges(int i, const std::vector<int32_t>& fixed);
  IOPDDL_OUT_OF_LINE int pop_low_degree();
  IOPDDL_OUT_OF_LINE void eliminate(int i);
  int pick_stuck(double randomness, Rng* rng, bool* stuck_once);
  IOPDDL_OUT_OF_LINE bool decide(int i, const EliminationOptions& o, Rng* rng, EliminationStats* stats);
  void back_substitute(std::vector<int32_t>* x);
  void collect(int i);  // node i's live edges into live_edges_
  int other_end(int e, int i) const { return edges_[e].a == i ? edges_[e].b : edges_[e].a; }
  // Forward and backward min-sum sweeps over live_;
  // false if stopped (the solve is then incomplete).
  bool sweep(const std::function<bool()>* should_stop);
  IOPDDL_OUT_OF_LINE void sweep_node(int i);  // i's messages to its live neighbours
  void belief(int i, double* out) const;  // unary plus incoming messages

  double mat(const Edge& e, int node, int s, int t) const;  // entry with `node` at s, the other at t
  // mat(e, node, s, t) for every t, contiguous: the matrix's own row when
  // `node` is its first end, else its column gathered into *scratch.
  const double* row_of(const Edge& e, int node, int s, std::vector<double>* scratch) const;
  int find_edge(int a, int b);
  void compact(int x);
  int add_edge(int a, int b);  // new zero matrix
  void kill_edge(int e);
  void push(int i);
  void mark_dirty(int e);
  // Finds an edge along which one end determines the other (every strategy of
  // u allows at most one strategy of v) and folds v into u. False if none.
  IOPDDL_OUT_OF_LINE bool contract_functional(EliminationStats* stats);
  bool functional(int e, int from, std::vector<int32_t>* map) const;
};

}  // namespace iopddl
