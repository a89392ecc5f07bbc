// Exact optimisation over an induced forest: pick a set of nodes whose induced
// subgraph has no cycle, fix everything else, and solve the (penalised)
// pairwise problem on it by dynamic programming, leaves to roots. Block
// coordinate descent with huge blocks: each solve moves thousands of nodes at
// once to their jointly best strategies.
#pragma once
#include <cstdint>
#include <vector>

#include "rng.h"
#include "search_model.h"

namespace iopddl {

class ForestDP {
 public:
  void init(const SearchModel& m);
  // Chooses a random induced forest (all nodes, or a connected region of about
  // `region_size` nodes around a random seed node when region_size > 0).
  void pick_forest(Rng* rng, int region_size);
  // Minimises sum(node cost + weight[i] * usage) + edge costs over the forest,
  // with the other nodes held at `assign`; writes the optimum into `assign`.
  // Returns the number of nodes that changed.
  int solve(std::vector<int32_t>* assign, const std::vector<double>& weight);
  int forest_size() const { return int(order_.size()); }

 private:
  const SearchModel* m_ = nullptr;
  std::vector<char> in_forest_;
  std::vector<int32_t> members_;   // forest nodes in insertion order
  std::vector<int32_t> order_;     // BFS order, parents first
  std::vector<int32_t> parent_;
  std::vector<int32_t> uf_;
  std::vector<int32_t> stamp_, root_stamp_;
  int32_t clock_ = 0;
  std::vector<int32_t> seen_, frontier_;
  int32_t seen_clock_ = 0;
  std::vector<double> belief_;     // indexed by dom offset
  std::vector<uint64_t> arg_off_;  // per forest node: start of its argmin table
  std::vector<int32_t> arg_;       // argmin (domain index of the child) per parent value
  std::vector<int32_t> perm_;

  int find(int x) {
    while (uf_[x] != x) { uf_[x] = uf_[uf_[x]]; x = uf_[x]; }
    return x;
  }
  bool try_add(int x);
};

}  // namespace iopddl
