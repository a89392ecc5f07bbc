// Memory-aware local search: best-improvement single-node moves that keep the
// usage within the limit, and a repair that brings an over-limit assignment back
// under it at the least cost per unit of memory freed.
#pragma once
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "rng.h"
#include "group_moves.h"
#include "out_of_line.h"
#include "search_state.h"

namespace iopddl {

class LocalSearch {
 public:
  // `groups` (optional): the tied groups, whose group moves descend() also takes.
  void init(const SearchModel& m, const TiedGroups* groups = nullptr);
  // Descends to a local optimum of single-node moves and group moves that fit
  // the limit (an over-limit state only takes moves that do not raise usage).
  // Returns moves made.
  int64_t descend(SearchState* st, Rng* rng, const std::function<bool()>& should_stop);
  // The same descent, starting from `seeds` only (and spreading to the
  // neighbours of every node that moves); every move is appended to *log as
  // (node, previous strategy) when log is given.
  int64_t descend_from(SearchState* st, const std::vector<int32_t>& seeds, Rng* rng,
                       const std::function<bool()>& should_stop, std::vector<std::pair<int, int>>* log);
  // A candidate made to fit and polished: repaired when it is over the limit,
  // then descended over every node (`seeds` null) or from `seeds` (what a
  // move changed, the rest polished before) and every node the repair moved.
  // With seeds, every change is appended to *log when log is given (an
  // exact undo); a whole descent keeps no log.
  // st->cost stays the running total: callers that keep the state recompute
  // it exactly.
  struct Settled {
    bool repaired = false;  // it was over the limit and repair ran
    int64_t moves = 0;      // descent moves
  };
  Settled settle(SearchState* st, const std::vector<int32_t>* seeds, Rng* rng,
                 const std::function<bool()>& should_stop, std::vector<std::pair<int, int>>* log = nullptr);
  // Lowers usage at the peak until the state fits; false if it cannot.
  // Moves are appended to *log as (node, previous strategy) when log is given.
  bool repair(SearchState* st, const std::function<bool()>& should_stop,
              std::vector<std::pair<int, int>>* log = nullptr);
  // Nodes with an interval and a choice, sorted by their first segment.
  const std::vector<int32_t>& by_start() const { return by_start_; }
  const GroupMoves& group_moves() const { return group_moves_; }
  // Counts group moves (descent and repair) into (*counts)[kGroupMove].
  void set_counts(MechanismCounts* counts) { group_moves_.counts = counts ? &at(*counts, Mechanism::kGroupMove) : nullptr; }

 private:
  const SearchModel* m_ = nullptr;
  std::vector<int32_t> by_start_;  // nodes with an interval, by seg_lo
  std::vector<int32_t> queue_;
  std::vector<char> queued_;
  GroupMoves group_moves_;
  std::vector<std::pair<int, int>> group_moved_;
  std::vector<int32_t> seeds_;
  std::vector<int32_t> settle_seeds_;              // settle(): the seeds and what the repair moved
  std::vector<std::pair<int, int>> settle_log_;   // settle(): the repair's moves when the caller keeps no log
  std::vector<int32_t> group_seen_;  // stamp per group: considered at this repair step
  int32_t stamp_ = 0;
  std::vector<double> delta_;        // a group's deltas (GroupMoves::deltas)
  std::vector<double> node_deltas_;  // descend_from(): one node's move deltas
  std::vector<char> raises_;
  // repair(): the nodes alive at segment alive_at_ (in by_start_'s order),
  // and each node's move deltas (indexed like the model's domains), valid
  // while fresh(node_at_[i], i) (computed in this repair, since it and its
  // neighbours last moved).
  int alive_at_ = -1;
  std::vector<int32_t> alive_;
  std::vector<double> delta_cache_;
  std::vector<uint64_t> node_at_;  // per node: moves_ when its deltas and best were computed (0: never)
  std::vector<std::pair<int, int>> group_log_;
  // A repair move: a node's strategy or a group's choice, ranked by
  // cleanness (no forbidden pair), then cost per unit of memory freed at the
  // peak (of what is needed), then memory freed.
  struct Candidate {
    bool clean = false;
    double delta = 0, score = 0;
    int64_t red = 0;
    int node = -1, group = -1, choice = -1;
    bool empty() const { return node < 0 && group < 0; }
    bool better_than(const Candidate& o) const {
      if (empty()) return false;
      return o.empty() || (clean && !o.clean) ||
             (clean == o.clean && (score < o.score || (score == o.score && red > o.red)));
    }
  };
  // Each node's and group's best candidate, kept while its deltas are: its
  // scores do not depend on the excess while every move it has frees no more
  // than the excess (then a repair step costs a pass over the nodes alive at
  // the peak, not over their strategies). A group's also needs the same peak.
  struct KeptBest {
    Candidate best;
    int64_t max_red = 0;   // the most any of its moves frees
    bool excess_free = false;  // computed with max_red <= the excess then
  };
  std::vector<KeptBest> node_best_, group_best_;
  std::vector<uint64_t> changed_at_;   // per node: moves_ when it or a neighbour last moved
  std::vector<uint64_t> group_at_;     // per group: moves_ when its best was computed (0: never)
  std::vector<int32_t> group_peak_;    // per group: the peak segment it was computed for
  uint64_t moves_ = 0;         // moves counted by moved(), and one more at each repair's start
  uint64_t repair_start_ = 0;  // moves_ at this repair's start: what was computed before is stale
  // Computed at `at` and still valid for node i's moves: in this repair, and
  // since neither i nor a neighbour moved.
  bool fresh(uint64_t at, int i) const { return at >= repair_start_ && changed_at_[i] <= at; }
  void gather_alive(int t);
  IOPDDL_OUT_OF_LINE bool repair_step(SearchState* st, const TiedGroups* groups,
                                      std::vector<std::pair<int, int>>* log);
  void moved(int i);  // node i's strategy changed: its deltas and its neighbours' are stale
};

}  // namespace iopddl
