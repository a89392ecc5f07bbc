// Depth-first branch and bound that proves the incumbent optimal on small
// problems (toulbar2's DFBB, with this project's bounds); on larger ones,
// where no proof is in reach, its root's bound and roundings still pay (all
// its steps on one problem, on forward-checked domains). It runs on the
// contracted problem (tied groups as one node) when there is one, else on the
// model itself. At every tree node, over the strategies still live there:
//  - memory forward checking: a strategy that cannot fit, with every other node
//    at its least live usage, at a segment where the limit can bind, goes;
//  - the subtree's Lagrangian bound (multipliers per segment moved by the
//    bound's own rounding, message passing on the live strategies), warm-started
//    from its parent's multipliers and messages. Costs are integers, so the
//    subtree is pruned once the bound exceeds the incumbent's cost minus one;
//  - reduced costs: the bound's pieces with one strategy fixed remove each strategy
//    that alone lifts the bound that far;
//  - branching: where the rounding exceeds the limit, on the node at the most
//    exceeded segment whose rounded strategy uses most above its least there
//    (the memory rows are where the Lagrangian gap sits); otherwise on the
//    node whose pieces the rounding pays most above their minima.
// Every feasible rounding and leaf is offered as an answer. The tree is kept
// on an explicit stack, so the search runs in slices between other work, and
// an incumbent that improves meanwhile only prunes more. Once the stack is
// empty, no answer costs less than the last incumbent cost it pruned against.
// Several searches (one per thread, each with its own scratch) can share one
// tree: each takes subtrees off the shared stack, and the tree is exhausted
// once the stack is empty and no search has a subtree in flight.
#pragma once
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <vector>

#include "contraction.h"
#include "int128.h"
#include "memory_relax.h"
#include "message_passing.h"
#include "rng.h"
#include "search_model.h"
#include "search_state.h"

namespace iopddl {

struct ProofStats {
  int64_t nodes = 0;          // tree nodes processed
  int64_t pruned_bound = 0;   // ... closed by the bound
  int64_t pruned_memory = 0;  // ... closed by forward checking (or an emptied domain)
  int64_t leaves = 0;         // ... with every node decided
  int64_t steps = 0;          // bound steps run to their rounding (a node's bound takes many)
  int64_t answers = 0;        // answers offered (feasible roundings and leaves)
  int64_t restarts = 0;       // the tree started afresh (a better incumbent, or its node budget spent) ...
  int64_t budget_restarts = 0;  // ... of which for its node budget
};

class ProofSearch {
 public:
  // The open subtrees and what the searches working on them share.
  struct Tree;
  static std::shared_ptr<Tree> new_tree();
  ProofSearch();
  ~ProofSearch();
  // False when the problem is too large even for the root's bound to pay
  // (params.proof_max_strategies); the search then does nothing. With
  // `tree`, this search joins that tree (its root pushed by the first that
  // joins; every search on it must have the same model); without, it has
  // its own.
  bool init(const SearchModel& m, const Contraction* contraction, std::shared_ptr<Tree> tree = nullptr);
  // The model the search runs on (the contracted one when there is one), and
  // whether it is small enough for the search at all (proof_max_strategies).
  static const SearchModel& proof_model(const SearchModel& m, const Contraction* contraction) {
    return contraction ? contraction->model() : m;
  }
  static bool within_size(const SearchModel& m, const Contraction* contraction) {
    return double(proof_model(m, contraction).dom.size()) <= m.params.proof_max_strategies;
  }
  // Whether a proof is in reach: small enough for every thread to join the
  // one tree (proof_helpers_max_strategies).
  static bool in_reach(const SearchModel& m, const Contraction* contraction) {
    return within_size(m, contraction) &&
           double(proof_model(m, contraction).dom.size()) <= m.params.proof_helpers_max_strategies;
  }
  bool active() const { return active_; }
  // Processes tree nodes while `more()` holds (asked before each). `upper`
  // gives the incumbent's exact cost when there is one that fits (false
  // otherwise); answers that fit go to `offer` (the model's strategies and
  // their cost). With `more_steps`, a node's bound also pauses between its
  // steps once that says no (or `should_stop` says stop) and the next call
  // resumes it: a node of a large problem takes longer than a slice. True
  // once the tree is exhausted: then proven() is a lower bound on every
  // answer's cost.
  bool run(const std::function<bool(Int128*)>& upper,
           const std::function<void(const std::vector<int32_t>&, double)>& offer,
           const std::function<bool()>& more, const std::function<bool()>* more_steps,
           const std::function<bool()>* should_stop);
  bool exhausted() const;
  // With the tree exhausted: the least incumbent cost any of its searches
  // pruned against (none: no answer fits at all, has_proof() false).
  bool has_proof() const;
  Int128 proven() const;
  // Meanwhile: no answer costs less than the least bound among the subtrees
  // still open, in flight in any search, or the incumbent: every other
  // subtree was pruned against the incumbent of its time. -inf before the
  // root's bound.
  double open_bound() const;
  const ProofStats& stats() const { return stats_; }

 private:
  struct Warm {  // what a child starts from: its parent's multipliers and messages
    MemoryRelax relax;
    std::vector<double> msg;  // laid out as layout_'s messages (the proof model's domains)
  };
  struct Frame {
    std::vector<char> live;  // per position of the proof model's domains
    std::shared_ptr<const Warm> warm;
    double lb;  // its parent's bound (margin taken): none of its answers costs less
    bool root;
  };
  struct InFlight {  // the node whose bound is being computed, kept across slices
    std::shared_ptr<Warm> warm;  // its own copy of its parent's; null: no node in flight
    Frame f;
    int step = 0, since = 0;  // bound steps taken, and since the last gain
    double best = -std::numeric_limits<double>::infinity(), margin = 0;  // the best bound so far and its rounding margin
    std::vector<double> trail{};  // the best bound after each step
    bool on() const { return warm != nullptr; }
  };
  struct Piece {  // a node's usage over segments [lo, hi), per position at usage_[at + k]
    int32_t lo, hi;
    uint64_t at;
  };


  const SearchModel* m_ = nullptr;   // the model answers are given in
  const Contraction* c_ = nullptr;   // null: the proof model is m_
  const SearchModel* pm_ = nullptr;  // the proof model
  bool active_ = false;
  std::shared_ptr<Tree> tree_;
  int lane_ = 0;                  // this search's slot in the tree
  InFlight current_;
  uint64_t generation_ = 0;       // the tree's generation current_ was taken from
  std::vector<Frame> children_;   // scratch: a settled node's children
  double root_upper_ = 0;         // the incumbent's cost the root was settled against
  ProofStats stats_;
  bool has_upper_ = false;
  Int128 upper_ = 0;
  double upper_d_ = 0;  // upper_ as a double (+inf without one)
  Rng rng_{0x2545F4914F6CDD1DULL};

  // Memory: per proof node, its usage over time where the limit can bind.
  int segments_ = 0;
  std::vector<uint32_t> piece_off_;
  std::vector<Piece> pieces_;
  std::vector<int64_t> usage_;
  std::vector<int64_t> least_, piece_least_, table_;  // forward checking's scratch
  std::vector<int32_t> position_;  // per proof-model strategy (problem offsets): its domain position

  // The model the node in flight's bound runs on: the proof model itself, or
  // (view_) the proof model cut down to the node's live strategies, when the
  // matrices to copy for that are at most half the proof model's.
  SearchModel view_;
  const SearchModel* cm_ = nullptr;
  std::vector<int32_t> view_pos_;  // per position of cm_'s domains: the proof model's position
  MessagePassing mp_;              // on cm_
  std::vector<double> view_extra_, view_node_, view_side_;

  // Scratch.
  MessagePassing layout_;  // where each incidence's side of the pieces lies in the proof model
  std::vector<double> weight_, extra_, node_piece_, side_, node_min_, edge_min_;
  std::vector<int32_t> rounded_, best_rounding_, expanded_;
  std::vector<int32_t> refused_rounding_;  // the last rounding costed at or above the upper bound
  std::vector<int64_t> row_sum_;

  // The root (every value live, no multipliers, no messages) on the stack;
  // the tree's lock held.
  void push_root();
  // Drops the tree for a fresh root (the nodes in flight too, by
  // generation), the next one after `budget` tree nodes; the lock held.
  void fresh_start(double budget);
  void refresh_upper(const std::function<bool(Int128*)>& upper);
  // The node in flight is done: its children (children_) go on the stack
  // unless the tree restarted meanwhile.
  void release(bool root_done);
  // Sets cm_ and mp_ up for the node in flight, its warm messages mapped in.
  void open_view();
  // mp_'s messages back into the node in flight's warm start (for its children).
  void close_view();
  // map(offset in layout_, offset in mp_) for every side of a strategy in the
  // view: how messages and pieces move between the two layouts.
  template <class Map>
  void for_each_side(const Map& map) const;
  bool least_usage(const std::vector<char>& live);
  int64_t range_max(int lo, int hi) const;
  bool forward_check(std::vector<char>* live);
  // Moves current_'s bound on; false when paused before it is done. Leaves
  // the pieces and the rounding of the best iterate in the scratch vectors.
  bool bound(const std::function<bool(Int128*)>& upper,
             const std::function<void(const std::vector<int32_t>&, double)>& offer,
             const std::function<bool()>* more_steps, const std::function<bool()>* should_stop);
  // The tree node in flight once its bound is done: prune, reduce, branch.
  void settle(const std::function<bool(Int128*)>& upper,
              const std::function<void(const std::vector<int32_t>&, double)>& offer);
  bool refuses(const SearchState& s) const;
  void offer_if_better(const SearchState& s, const std::function<void(const std::vector<int32_t>&, double)>& offer,
                       const std::function<bool(Int128*)>& upper);
  void expand(const std::vector<int32_t>& proof_assignment, std::vector<int32_t>* out) const;
  bool prunes(double lb, double margin) const { return has_upper_ && lb - margin > upper_d_ - 1; }
  int branch_node(const std::vector<char>& live) const;
  // The edge piece of incidence q (at node a) with a at position k and the other end at t.
  double edge_piece(int a, uint32_t q, int k, int t) const;
};

}  // namespace iopddl
