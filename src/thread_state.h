// What one search thread's steps share: the model, the thread's random
// stream and scratch, its best answer in the current epoch, and the helpers
// that polish an answer and hand it to the incumbent. Each step (step.h)
// keeps its own state beside this; the thread's loop (worker.cc) only picks
// steps and accounts for them.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "elimination.h"
#include "local_search.h"
#include "memory_relax.h"
#include "mechanisms.h"
#include "part_crossover.h"
#include "rng.h"
#include "search_context.h"
#include "search_state.h"

namespace iopddl {

struct ThreadState {
  ThreadState(SearchContext* ctx, int tid);

  SearchContext* const ctx;
  const SearchModel& m;
  const Params& prm;
  const int tid;  // for diversity only (random streams, rounding variants): never a role
  Rng rng;
  const std::function<bool()> stop;
  // > 0: a round budget. Steps then do a fixed amount of work per run and the
  // schedule counts runs instead of seconds, and several threads keep step
  // (lockstep.h), so that one seed gives one answer.
  const int64_t max_rounds;
  bool counted() const { return max_rounds > 0; }

  MechanismCounts counts{};  // this thread's, added to the shared ones every round and at the end
  LocalSearch ls;
  // Per-node memory prices, bracketed, moved by the priced eliminations'
  // answers; the windows read them as `weight`.
  MemoryRelax relax;
  EliminationSolver elim;
  SearchState st;                   // scratch: the candidate being polished
  std::vector<int32_t> all_free;    // -1 everywhere: an elimination with nothing fixed
  std::vector<double> weight;       // relax's prices per node, as the last elimination set them
  std::vector<int32_t> first;       // the first answer: where every later epoch starts
  double first_cost = kNoCost;
  int epoch = 0;
  std::vector<int32_t> best;        // this thread's best within the limit, in this epoch
  double best_cost = kNoCost;
  bool best_moved = false;          // best changed outside the neighbourhood search
  PartCrossover cross;               // cross_with_best's, and its output
  std::vector<int32_t> crossed;
  // This thread's rounding's latest raw answer; on a thread without a role
  // any thread's (part_partner), on the proof search's thread its own
  // eliminations' latest (elimination_partner); empty until one. The part
  // windows re-solve the parts where it differs from the best.
  std::vector<int32_t> partner;
  // The roles this thread took (a rounding, the proof search's tree). With
  // more than one thread a thread takes at most one: each is given most of
  // its thread's time by its floor, and two floors on one thread squeeze
  // each other.
  bool holds_rounding = false, holds_proof = false;
  bool may_take_role() const { return ctx->threads == 1 || (!holds_rounding && !holds_proof); }
  // Whether this thread, holding the proof search, takes its eliminations'
  // answers as its part windows' partner (elimination_partner): where a
  // proof is in reach the windows would take the proof's time.
  bool proof_takes_partner() const;

  // Offers an answer to the incumbent, and to this epoch's best when it fits.
  void share(const std::vector<int32_t>& a, double cost, bool fits);
  // A bound computed in doubles, offered as an integer after subtracting a
  // margin for the rounding error (`magnitude`: the sum of the magnitudes of
  // the pieces added up).
  void offer_double_bound(double lb, double magnitude);
  // Brings an assignment within the limit (when it is not) and descends to a
  // local optimum (LocalSearch::settle: over every node, or from `seeds`);
  // its cost is recomputed exactly.
  void polish(SearchState* s, const std::vector<int32_t>* seeds = nullptr);
  // Repairs and polishes a candidate, offers it, and keeps it as this
  // thread's best when it fits and is cheaper (true; the fall is added to
  // `count`).
  bool polish_and_offer(const std::vector<int32_t>& cand, MechanismCount* count);
  // The parts of change of a global answer (a rounding, an elimination's)
  // that make this thread's best cheaper, taken into it (part_crossover.h),
  // polished and offered; counted as the crossover. True if it improved.
  bool cross_with_best(const std::vector<int32_t>& other);
  // After polish_and_offer(raw): the crossover of a global answer with the
  // best, from the raw answer, the polished one, or both (crossover_polished);
  // after one that improved, again into the new best (crossover_repeat).
  bool cross_answer_with_best(const std::vector<int32_t>& raw);
  bool st_polished = false;          // polish_and_offer left the polished candidate in st
  std::vector<int32_t> donor;        // cross_answer_with_best's copy of it
  // Keeps an answer that fits as this thread's best when it is cheaper (true).
  bool take_if_better(const std::vector<int32_t>& a, double cost, MechanismCount* count);
};

// Every node at its least-usage live strategy (cheapest on ties): fits the
// limit whenever anything does, since a node's usage is constant over its interval.
std::vector<int32_t> least_usage_start(const SearchModel& m);

}  // namespace iopddl
