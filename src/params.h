// The search's tuned values, listed once: name, default, range and why. The
// list drives the `Params` struct the stages read (through SearchModel), the
// CLI's --list-params and --set, the package's `params` object and the
// range checks, so a value is changed, listed and swept in one place.
// Measurements behind the defaults are in the commit messages and docs/.
#pragma once
#include <cstdint>
#include <string>
#include <type_traits>

#include "status.h"

namespace iopddl {

// X(name, C++ type, default, least, greatest, why)
#define IOPDDL_PARAMS(X)                                                                                        \
  /* restarts (worker.cc) */                                                                                    \
  X(restarts, int, 1, 0, 1, "restart the search when the epoch's best stalls (0: never)")                      \
  X(restart_stall_factor, double, 0.5, 0.0, 1e6,                                                                \
    "stalled: no improvement for this many times as long as the epoch took to reach its best, "                \
    "times the roundings it holds (rounding_threads)")                                                          \
  X(restart_min_stall, double, 5.0, 0.0, 1e9, "stalled: and no improvement for at least this many seconds")     \
  X(restart_min_fall, double, 1e-3, 0.0, 1.0,                                                                   \
    "stalled: only a fall of the epoch's best of at least this share of the cost, since the last such fall, counts as an improvement (0: any fall)") \
  X(epoch_crossover, int, 1, 0, 1,                                                                             \
    "after a restart, cross each new best of the epoch into the ended epochs' best (with part_crossover; step_epoch_crossover.cc)")   \
  X(probe_epochs, int, 0, 0, 1000,                                                                              \
    "the opening: this many epochs of equal length, each from the first answer, then the search goes on from the best of them (0 or 1: none)") \
  X(probe_share, double, 0.25, 0.0, 1.0, "the opening's share of the solve's time")                            \
  X(probe_min_seconds, double, 10.0, 0.0, 1e9,                                                                  \
    "no opening when a probe would get fewer seconds than this (too short a run to tell a good basin from a bad one)") \
  /* set-up (solve.cc) */                                                                                       \
  X(contraction_min_removed, double, 0.1, 0.0, 1.0,                                                             \
    "contract tied groups only when that removes at least this share of the nodes (each copy of the matrices costs memory in the problem's size)") \
  /* the schedule of a thread's steps (scheduler.h) */                                                         \
  X(schedule_floor, double, 0.05, 0.0, 0.25, "every step's least share of a thread's time, whatever it earns (exploration)") \
  X(schedule_feeder_floor, double, 0.1, 0.0, 0.9,                                                               \
    "the elimination step's least share: its answers move the memory prices the windows read")                \
  X(schedule_role_warmup, int, 100, 0, 1000000000,                                                             \
    "an earned role (a soft floor: the rounding, rounding_role_earned) holds its whole floor for its first this many runs, then keeps the share of it its yield earns against the thread's other steps (0: from the start; a huge value: always whole)") \
  X(schedule_halflife_share, double, 0.25, 0.0, 100.0,                                                          \
    "the steps' recent gains and times fade with a half-life of this share of the time elapsed ...")           \
  X(schedule_halflife_min, double, 1.0, 0.0, 1e9, "... and of at least this many seconds (runs under a round budget)") \
  X(schedule_slice_min, double, 0.01, 0.0, 1e6,                                                                 \
    "a sliced step (windows, proof search) runs for the thread's mean atomic step time, at least this many seconds ...") \
  X(schedule_slice_max, double, 1.0, 0.0, 1e6, "... and at most this many")                                    \
  /* the steps (step_*.cc) */                                                                                   \
  X(belief_every, int, 16, 1, 1000000, "global eliminations sweep min-sum beliefs every this many decisions")   \
  X(decision_randomness, double, 0.2, 0.0, 1.0,                                                                 \
    "eliminations by beliefs or near the best pick stuck nodes with randomness from this ...")                 \
  X(decision_spread, double, 0.6, 0.0, 1.0, "... to this much more (drawn per solve)")                          \
  X(rule_decay, double, 0.95, 0.0, 1.0, "per round, the elimination rules' recent gains fade by this factor")  \
  X(lns_round_moves, int, 64, 1, 1000000000, "neighbourhood moves per run when a round budget is set")          \
  X(repair_over, double, 1.5, 1.0, 1e9,                                                                         \
    "once an answer fits, candidates peaking above this many times the limit are not repaired")                \
  X(lagrangian_refresh, int, 8, 1, 1000000, "rounds between snapshots of the multipliers for the Lagrangian bound") \
  X(rounding_bound_every, int, 4, 1, 1000000, "rounding rounds between two bounds from the rounding role")       \
  X(part_crossover, int, 1, 0, 1,                                                                               \
    "after each rounding (and elimination: elimination_crossover), take its parts that make the thread's best cheaper, traded at the peak until it fits (part_crossover.h)") \
  X(elimination_crossover, int, 1, 0, 1,                                                                       \
    "after an elimination whose answer is not the thread's new best, take its parts likewise (with part_crossover)") \
  X(crossover_repeat, int, 0, 0, 100,                                                                           \
    "after a global answer's crossover improves the best, cross the same answer into the new best again, up to this many times (off: it gains early and loses at the contest timeouts, docs/benchmarks.md)") \
  X(crossover_polished, int, 2, 0, 2,                                                                           \
    "the global answer crossed with the best: 0 as found, 1 after its polish, 2 as found and, if that fails, after its polish") \
  X(rule_credit_crossover, int, 1, 0, 1,                                                                       \
    "an elimination rule is rewarded when its answer lowers the thread's best directly or through its crossover (0: directly only)") \
  /* the proof search (proof_search.cc, step_proof.cc) */                                                         \
  X(proof_max_strategies, double, 200000.0, 0.0, 1e12,                                                          \
    "branch and bound towards a proof (and its root's bound and roundings) only on problems (contracted) with at most this many live strategies") \
  X(proof_share, double, 0.5, 0.0, 100.0, "the proof search's floor on small problems, as a share of the other steps' time, for the thread that set its tree up")            \
  X(proof_share_stalled, double, 2.0, 0.0, 100.0, "... growing to at most this share as the incumbent stalls (no improvement for as long again as it took to reach it doubles the share)") \
  X(proof_helpers_max_strategies, double, 50000.0, 0.0, 1e12,                                                    \
    "every thread joins the proof search, its floor growing as the incumbent stalls (up to proof_share_stalled), only on problems (contracted) with at most this many live strategies; on larger ones one thread runs it for what it earns") \
  X(proof_restart_growth, double, 1.5, 0.0, 1e6,                                                               \
    "the proof tree starts afresh after as many tree nodes as the problem (contracted) has free nodes, then after this many times as many as the time before (0: never)") \
  X(proof_round_nodes, int, 4, 1, 1000000, "proof tree nodes per run when a round budget is set")              \
  X(proof_branch_classes, int, 1, 0, 1, "branch on a node's usage classes (values alike on every memory piece) rather than its values") \
  X(proof_steps, int, 600, 1, 1000000, "multiplier steps at most per proof tree node")                          \
  X(proof_passes_per_step, int, 3, 1, 1000, "message-passing passes per multiplier step of a proof tree node's bound") \
  X(proof_stall, int, 60, 1, 1000000, "... and at most this many without a gain")                               \
  X(proof_trend_window, int, 20, 1, 1000000, "the pace of a tree node's bound is its gain over this many steps")   \
  X(proof_trend_horizon, double, 100.0, 0.0, 1e9,                                                                 \
    "a tree node branches once its bound, climbing at its pace for this many more steps, would still not prune it (0: never)") \
  /* message passing's sweep order (search_model.cc) */                                                        \
  X(sweep_order, int, 0, 0, 2,                                                                                  \
    "message passing's sweep order: 0 by live interval, a node without one right after its producer; 1 the file's numbering; 2 by live interval with such nodes before their producer (1 and 2 to compare only: 1 is not invariant to renumbering)") \
  /* the rounding role (penalised_rounding.cc) */                                                               \
  X(rounding_floor, double, 0.9, 0.0, 0.95,                                                                       \
    "a rounding's least share of the thread that holds it (half that with one thread), a role: whole, or whole while its messages settle (schedule_role_warmup) and then as far as its yield earns it (rounding_role_earned)") \
  X(rounding_role_earned, int, 1, 0, 2,                                                                          \
    "a rounding's role is held as far as its yield earns it (after schedule_role_warmup): 0 never (always whole), 1 only where a proof is in reach (proof_helpers_max_strategies), 2 always") \
  X(rounding_threads, double, 0.25, 0.0, 1.0,                                                                   \
    "the share of the threads that hold a rounding, each its own variant (at least one): a rounding takes most of its thread while its messages settle, and its answers are every thread's part windows' partners") \
  X(rounding_refresh, double, 0.0, 0.0, 1e6,                                                                     \
    "a rounding whose thread's best has not fallen by restart_min_fall for this many times as long as the epoch took to its last such fall (a refresh counting as one), and at least restart_min_stall seconds, starts its prices afresh, the best kept (0: never; stall_clock.h)") \
  X(passes_per_price, int, 5, 1, 1000, "message-passing passes between two moves of the rounding role's prices") \
  /* memory prices (memory_relax.cc) */                                                                         \
  X(first_price, double, 0.05, 1e-9, 1e9, "a node's first price, as a share of the typical cost per unit of memory") \
  X(dual_stall, int, 4, 1, 1000000, "subgradient steps without a better dual before the step shrinks")          \
  X(dual_shrink, double, 0.6, 0.01, 1.0, "the subgradient step factor's shrink after a stall")                  \
  X(dual_step_floor, double, 0.02, 0.0, 1.0, "the subgradient step factor never shrinks below this")            \
  X(restart_price_spread, double, 0.0, 0.0, 60.0,                                                              \
    "after a restart, a node's first price is scaled by 2^u, u uniform over a range this wide around 0")       \
  /* neighbourhood search (neighbourhood_search.cc) */                                                          \
  X(window_min, int, 16, 1, 1000000, "the smallest connected or time window, in nodes")                         \
  X(window_sizes, int, 7, 1, 20, "window sizes drawn: window_min times 1, 2, 4, ... (this many)")               \
  X(window_leaves, int, 1, 0, 2,                                                                                \
    "a window takes each node's leaves (neighbours of degree 1) with it, uncounted in its size: 0 never, 1 trade and repair windows, 2 every connected window") \
  X(unpriced_window_every, int, 4, 1, 1000000, "one connected window in this many is solved without memory prices") \
  X(full_slack_window_share, double, 0.5, 0.0, 1.0,                                                              \
    "share of connected windows first solved with each node capped at the whole slack over its interval (kept only if the answer fits; else the slack is shared)") \
  X(window_price_tries, int, 3, 1, 100,                                                                         \
    "a priced time window whose answer does not fit is solved again with doubled prices, up to this many times in all") \
  X(move_kinds, int, 63, 1, 63,                                                                                  \
    "the neighbourhood's kinds of move, a sum of: 1 connected windows, 2 time windows, 4 ejections, 8 trade windows, 16 repair windows, 32 part windows (to compare)") \
  X(part_window_solves, int, 30, 1, 1000,                                                                        \
    "a part window is solved this many times, its prices per time segment moved by a subgradient step after each") \
  X(part_window_max, int, 4096, 16, 1000000, "a part window's most nodes (a larger part: a connected piece of it)") \
  X(part_partner, int, 1, 0, 1,                                                                                  \
    "the part windows' partner on a thread that holds neither a rounding nor the proof search: 0 none, 1 the latest answer of any thread's rounding") \
  X(elimination_partner, int, 1, 0, 2,                                                                           \
    "the part windows' partner on the proof search's thread, which holds no rounding, is the latest answer of its own global eliminations: 0 never, 1 only where a proof is out of reach (proof_helpers_max_strategies), 2 always") \
  X(trade_window_tries, int, 4, 1, 100,                                                                          \
    "a trade window is solved this many times, its prices' scale halved after an answer that fits, doubled after one that does not") \
  /* elimination (elimination.cc) */                                                                            \
  X(degree2_budget, double, 16777216.0, 0.0, 1e12, "largest K_i x K_a x K_b table a degree-2 elimination builds") \
  X(contract_budget, double, 4.0, 0.0, 1e6, "functional-edge folding work, per live strategy")                  \
  X(dominance_budget, double, 0.0, 0.0, 1e12,                                                                   \
    "dominated strategies are removed at nodes whose live strategies meet at most this many edge entries in all (0: off; 4096 covers K's and M's)") \
  X(sweep_budget, double, 32.0, 0.0, 1e6, "belief-sweep work per decision, per live strategy")                 \
  /* the CLI's deadline (native/main.cc) */                                                                     \
  X(stop_margin_share, double, 0.3, 0.0, 1.0, "the CLI stops searching early by at most this share of the timeout ...") \
  X(stop_margin_base, double, 0.4, 0.0, 3600.0, "... and at most this many seconds ...")                        \
  X(stop_margin_rate, double, 0.01, 0.0, 1.0, "... plus this share of the timeout (for stopping and printing)")

struct Params {
#define IOPDDL_PARAM_FIELD(name, type, def, lo, hi, why) type name = def;
  IOPDDL_PARAMS(IOPDDL_PARAM_FIELD)
#undef IOPDDL_PARAM_FIELD
};

struct ParamInfo {
  const char* name;
  bool integer;
  double def, lo, hi;
  const char* why;
};

#define IOPDDL_PARAM_INFO(name, type, def, lo, hi, why) \
  {#name, std::is_integral<type>::value, double(def), double(lo), double(hi), why},
constexpr ParamInfo kParamInfo[] = {IOPDDL_PARAMS(IOPDDL_PARAM_INFO)};
#undef IOPDDL_PARAM_INFO
constexpr int kParamCount = int(sizeof(kParamInfo) / sizeof(kParamInfo[0]));

// Sets the parameter `name` to `value`: an unknown name, a value out of range,
// or a fraction for an integer parameter is an error that names the parameter
// and its range.
Status set_param(Params* params, const std::string& name, double value);
// "name=value", as on the command line.
Status set_param(Params* params, const std::string& assignment);
// The value of parameter k (kParamInfo's order), as a double.
double param_value(const Params& params, int k);

}  // namespace iopddl
