// The search's second role: message passing (TRW-S) run to near convergence
// on the problem penalised by per-node memory prices, its forward pass rounded
// to an assignment. The rounding moves the prices (bracketed per node, like
// the eliminations'), so messages and prices settle together.
//
// Why a role of its own: converged messages see the whole graph at once, where
// an elimination sees it one decision at a time. Without a limit the rounding
// of converged messages ends close to their lower bound, below where the
// eliminations stop; with one, the prices steer the whole graph together and
// reach answers the eliminations do not. The messages need a few passes to
// follow each change of prices, so a step is several passes.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "contraction.h"
#include "memory_relax.h"
#include "message_passing.h"
#include "rng.h"
#include "search_model.h"

namespace iopddl {

class PenalisedRounding {
 public:
  // `variant` k > 0 (a second, third... rounding thread) runs k more passes
  // per price, and odd variants sweep breadth-first: the search is otherwise
  // deterministic, and identical threads would repeat each other's work.
  // With `contraction`, the messages run on the contracted problem and their
  // rounding is expanded back.
  void init(const SearchModel& m, int variant = 0, const Contraction* contraction = nullptr);
  int passes_per_price() const { return passes_; }
  // For a restarted search: the prices start again from none, along another
  // path (MemoryRelax::restart_diversified); the messages are kept.
  void restart_diversified(Rng* rng) { relax_.restart_diversified(rng); }
  // Sets the current prices, runs passes_per_price() passes and writes the last
  // forward pass's rounding into *assign, then moves the prices by it.
  // False if stopped first (*assign is then not an answer).
  bool step(std::vector<int32_t>* assign, Rng* rng, const std::function<bool()>* should_stop);
  // A proven lower bound on the constrained optimum, or -inf: the messages'
  // bound on the penalised problem minus limit x the total of per-segment
  // multipliers that cover every node's price (then, for any assignment
  // within the limit, the prices add up to at most that).
  double lower_bound(double* abs_sum) const;
  // The prices the messages were last run with, per node.
  const std::vector<double>& prices() const { return weight_; }

 private:
  const SearchModel* m_ = nullptr;
  MessagePassing mp_;
  MemoryRelax relax_;
  std::vector<double> weight_;
  const Contraction* contraction_ = nullptr;
  std::vector<double> extra_;
  std::vector<int32_t> contracted_;
  bool usage_nonnegative_ = true;
  int passes_ = 3;
  std::vector<int32_t> by_end_;  // nodes with an interval, by the end of it
  double cover_total() const;
};

}  // namespace iopddl
