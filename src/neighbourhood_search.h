// Large neighbourhood search around the best assignment, within the limit at
// every step. Four kinds of move, each given time in proportion to what it
// has recently earned per second (a YieldScheduler of its own; the parameter
// move_kinds switches kinds off, to compare):
//  - connected windows: a connected set of 16..1024 nodes re-solved exactly by
//    elimination with the rest fixed, each node capped at its share of the
//    memory slack, so that the answer always fits;
//  - time windows: nodes alive at one moment (often the peak) and their
//    neighbours, priced by the memory prices and free to trade memory
//    among themselves (kept only if the answer fits);
//  - ejections: one node moved to its best strategy regardless of memory, the
//    overflow repaired at the least cost per unit of memory freed elsewhere;
//  - trade windows: a connected window grown from a node with a memory price,
//    its priced nodes uncapped and paying for memory instead, the prices'
//    scale searched over a few solves, the cheapest answer that fits kept:
//    where the answer is at the limit, the slack caps let no node of a
//    connected window take memory that another could free;
//  - repair windows: a connected window grown from a priced node, uncapped
//    and priced, its answer let over the limit and the overflow repaired
//    as an ejection's is, anywhere: a change that needs memory at the peak
//    (a hub and the nodes that follow it) paid for by the cheapest memory
//    freed elsewhere, which no window that must fit by itself can make;
//  - part windows (part_window.cc): a connected part where the rounding's
//    latest answer differs from the best, re-solved under a price per time
//    segment moved by subgradient steps, each answer's overflow repaired.
// Every move is polished by local search around what changed and kept only if
// the assignment fits and is cheaper; otherwise it is undone exactly.
#pragma once
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "elimination.h"
#include "local_search.h"
#include "rng.h"
#include "scheduler.h"
#include "search_state.h"
#include "tied_groups.h"
#include "usage_tree.h"

namespace iopddl {

class NeighbourhoodSearch {
 public:
  // `groups` (optional): tied groups enter a window whole, or not at all
  // (a member held by a fixed one cannot move).
  void init(const SearchModel& m, EliminationSolver* elim, LocalSearch* ls, const TiedGroups* groups = nullptr);
  // Starts from `best` (an assignment within the limit) and its cost.
  void reset(const std::vector<int32_t>& best);
  // A restarted search learns afresh which kinds of move pay.
  void restart_kinds() { kinds_.init(kKinds, m_->params, 0); }
  bool ready() const { return ready_; }
  // The thread's rounding's latest answer, when it has one: the part
  // windows' source (read during run()).
  const std::vector<int32_t>* partner = nullptr;
  // Where the kinds of move are counted, when set.
  MechanismCounts* counts = nullptr;
  // Tries moves while `more()` is true and `stop()` is false, with the memory
  // per-node memory prices `weight` (empty: none). Calls `improved` with
  // each new best assignment and its cost. Returns the number of moves tried.
  // `seconds` is the clock the kinds' yields are measured on; without it
  // (a round budget) a move counts its work (work_), and the choice is
  // deterministic.
  int64_t run(const std::vector<double>& weight, bool memory_binds, Rng* rng, const std::function<double()>* seconds,
              const std::function<bool()>& more,
              const std::function<bool()>& stop,
              const std::function<void(const std::vector<int32_t>&, double)>& improved);

 private:
  const SearchModel* m_ = nullptr;
  EliminationSolver* elim_ = nullptr;
  LocalSearch* ls_ = nullptr;
  bool ready_ = false;
  SearchState cur_;                 // the current assignment: the best one between moves
  std::vector<int32_t> fixed_;      // cur_.s, with -1 on a window's nodes during a solve
  const TiedGroups* groups_ = nullptr;
  std::vector<int32_t> window_, seen_, in_window_, group_taken_, touched_, y_;
  int32_t clock_ = 0;
  std::vector<std::pair<int, int>> undo_;  // (node, previous strategy) of the move under test
  std::vector<int64_t> cap_;
  std::vector<double> scaled_, delta_;
  std::vector<char> raises_;
  UsageTree overlap_;               // how many window nodes are alive, per segment
  YieldScheduler kinds_;           // the kinds of move (kKinds)
  int64_t moves_ = 0;              // every move tried, all runs
  // Every move's work, all runs: the strategies of the nodes its solves
  // covered and the nodes its repairs settled. With moves_, the kinds' clock
  // under a round budget: counted by moves alone, a part window (thirty
  // solves of up to thousands of nodes) cost what a 16-node window did, and
  // took most of a round-budgeted run, unlike one on the clock.
  int64_t work_ = 0;

  static constexpr int kKinds = 6;  // connected window, time window, ejection, trade window, repair window, part window
  std::vector<int32_t> trade_best_;  // the trade window's cheapest answer that fits (its nodes' entries)
  void connected_window(Rng* rng, int size, const std::vector<double>* priced = nullptr);
  bool priced_connected_window(const std::vector<double>& weight, Rng* rng);
  bool trade_window(const std::vector<double>& weight, Rng* rng, const std::function<bool()>& stop, bool* complete);
  // Adds x to the window, with its whole tied group when the window stays
  // within `cap` nodes; members join the frontier (when given) too.
  void take(int x, size_t cap, std::vector<int32_t>* frontier);
  void time_window(Rng* rng, int size);
  void slack_caps(bool shared);
  void price_window(const std::vector<double>& weight, double f);
  EliminationOptions window_options(const std::vector<double>* weight, Rng* rng, const std::function<bool()>& stop);
  bool solve_window(const EliminationOptions& eo, Rng* rng);
  void apply_window(const std::vector<int32_t>& y);
  void undo_move();  // undoes the move under test (undo_) on cur_
  bool ejection(Rng* rng, const std::function<bool()>& stop);
  bool repair_window(const std::vector<double>& weight, Rng* rng, const std::function<bool()>& stop,
                     bool* complete);
  // part_window.cc
  bool part_window(Rng* rng, const std::function<bool()>& stop, bool* complete);
  void part_of_difference(Rng* rng);
  void segment_prices();  // scaled_ on the window's nodes from lambda_
  void window_profile();  // window_usage_ from cur_
  int seg_lo_ = 0, seg_hi_ = 0;                 // the window's span of segments
  std::vector<double> lambda_, gradient_, lambda_sum_;
  std::vector<int64_t> rest_usage_, window_usage_;
  std::vector<std::pair<int, int>> part_best_;  // (node, strategy) of the cheapest answer that fits
  // Repairs cur_ when it is over the limit, then polishes around what moved.
  void repair_and_descend(Rng* rng, const std::function<bool()>& stop);
  bool window_move(int kind, const std::vector<double>& weight, Rng* rng, const std::function<bool()>& stop,
                   bool* complete);
  // Keeps the move under test if it fits and is cheaper than `best_cost`; undoes it otherwise.
  bool keep_if_better(double best_cost);
};

}  // namespace iopddl
