// Partition crossover of two answers: the nodes where they differ fall into
// connected parts (no edge joins two parts), so each part's change of cost
// is its own and the parts' changes add up; only the memory couples them,
// through the usage profile. Taking from `other` the parts that make the
// base cheaper, then trading parts while the profile is over the limit
// (dropping a part that adds memory at the highest point, or taking one that
// frees memory there, whichever costs least per unit of memory), recombines
// the two answers at the scale of whole parts.
//
// Why: the answers of the memory-bound instances settle in basins, and the
// better basin is one large connected change that alone overflows the
// limit, paid for by smaller changes elsewhere that free memory at the peak
// (scripts/answer_diff.py). No window holds the large change, and no single
// move makes it without overflowing; a rounding of the priced problem may
// hold both halves among its differences from the best answer, each in a
// part of its own.
#pragma once
#include <cstdint>
#include <vector>

#include "search_model.h"
#include "usage_tree.h"

namespace iopddl {

struct CrossoverStats {
  int differing = 0;  // nodes where the two answers differ
  int parts = 0;      // connected parts of those nodes
  int largest = 0;    // nodes in the largest part
  int taken = 0;      // parts taken from `other`
};

class PartCrossover {
 public:
  // Writes into *out the base with a set of `other`'s parts taken, and returns
  // true, when that fits the limit and costs less than the base by more
  // than a rounding error; false otherwise (*out is then unspecified).
  bool cross(const SearchModel& m, const std::vector<int32_t>& base, const std::vector<int32_t>& other,
             std::vector<int32_t>* out, CrossoverStats* stats);

 private:
  std::vector<int32_t> part_of_, parts_off_, members_, stack_;
  std::vector<double> dcost_;
  std::vector<char> taken_, moved_;
  std::vector<int64_t> at_peak_;
  UsageTree usage_;  // the base's usage with the taken parts' strategies
  // Trades at the peak before giving up: each is a pass over the differing nodes.
  static constexpr int kMaxTrades = 256;
  // Moves part c to or from `other`'s strategies in usage_.
  void flip(const SearchModel& m, const std::vector<int32_t>& base, const std::vector<int32_t>& other, int c);
};

}  // namespace iopddl
