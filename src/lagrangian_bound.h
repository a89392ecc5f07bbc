// A proven bound from the memory rows' Lagrangian dual: multipliers per time
// segment (MemoryRelax::kSegments) price the memory, message passing bounds
// the priced pairwise problem, and the bound minus the multipliers' offset
// holds for the constrained problem, whatever the multipliers are.
//
// What moves the multipliers decides how high the bound gets, and no one
// source does well everywhere, so thread 0 keeps two:
//  - kSearchAnswers: the usage of the search's priced answers (near the
//    limit, they set prices that keep answers near it). Those answers are
//    priced per node, not by these multipliers, so their usage is no
//    subgradient of this dual: it climbs fast, then can stall far below it.
//  - kOwnRounding: the rounding of its own priced problem, an approximate
//    minimiser of the Lagrangian, so its usage is an approximate subgradient.
//    It needs many steps, each after passes for the messages to follow, so
//    it gains most where passes are cheap (small instances).
// The bound offered is the larger of the two.
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

class LagrangianBound {
 public:
  enum class Source { kSearchAnswers, kOwnRounding };
  // With `contraction`, the messages run on the contracted problem (tied
  // groups as one node each): a pass costs less and the messages never pay
  // for breaking a tie, so the bound climbs faster; the multipliers stay the
  // original model's.
  void init(const SearchModel& m, Source source, const Contraction* contraction = nullptr);
  bool needed() const { return relax_.needed(); }
  // kSearchAnswers: moves the multipliers by a priced answer of the search
  // (its plain cost `cost`) towards the best feasible cost `upper`, drawing
  // the step's jitter from `rng`.
  void take_answer(const std::vector<int32_t>& assign, double cost, double upper, Rng* rng);
  // One message-passing pass on the problem priced by the current snapshot
  // of the multipliers; every `refresh` calls the snapshot is renewed (for
  // kOwnRounding, after a step by the last pass's rounding). False if stopped.
  // kOwnRounding draws its steps' jitter from `rng`.
  bool iterate(int64_t call, int refresh, double upper, Rng* rng, const std::function<bool()>* should_stop);
  // The bound of the constrained problem, in doubles; `*magnitude` bounds its
  // rounding error (MessagePassing::lower_bound).
  double bound(double* magnitude) const;

 private:
  const SearchModel* m_ = nullptr;
  Source source_ = Source::kSearchAnswers;
  MemoryRelax relax_;
  MessagePassing mp_;
  double offset_ = 0;
  const Contraction* contraction_ = nullptr;
  std::vector<int32_t> rounding_;  // in the messages' model
  std::vector<int32_t> expanded_;  // the rounding in the original model
  std::vector<double> weight_, extra_;
};

}  // namespace iopddl
