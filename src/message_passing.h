// Sequential tree-reweighted message passing (TRW-S, Kolmogorov 2006) on the
// penalised pairwise problem. It does three jobs at once: its messages
// reparametrise the problem, giving a proven lower bound at any time; its
// forward pass rounds to a primal assignment guided by global information; and
// that assignment steers the decisions of the elimination solver.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "search_model.h"

namespace iopddl {

class MessagePassing {
 public:
  // Nodes are swept in their own order, or breadth-first.
  void init(const SearchModel& m, bool breadth_first = false);
  // Sets the unary penalty weight per node (memory multipliers); keeps messages.
  // A node pays its weight on its usage above its least usage (and the bound
  // adds back weight x least usage): the same problem up to a constant, but a
  // strategy at the least usage keeps its cost exactly, however large the
  // weight has grown. Priced in full, a weight of 1e18 leaves nothing of the
  // costs in the doubles, and the node's choice among its least-usage
  // strategies, and its neighbours' messages, become noise.
  void set_weights(const std::vector<double>& weight);
  // Sets an extra unary cost per live strategy (indexed dom_off[i] + k); keeps
  // messages. `constant` is what the extra costs left out (a shift like
  // set_weights'): lower_bound() adds it.
  void set_extra(const std::vector<double>& extra, double constant = 0.0);
  // One forward and one backward pass; the forward pass also rounds to *primal.
  // Returns false when `should_stop` cut it short (the messages stay valid,
  // the rounding does not).
  bool iterate(std::vector<int32_t>* primal, const std::function<bool()>* should_stop = nullptr);
  // The lower bound of the current reparametrisation (min of every node and
  // edge term separately) plus the pricing's constant: a valid bound on the
  // penalised problem.
  // `*abs_sum` receives the sum of the magnitudes of the pieces, which bounds
  // the rounding error of the double arithmetic.
  double lower_bound(double* abs_sum = nullptr) const;
  // The pieces whose minima lower_bound() sums (without the pricing's
  // constant), for searches that fix values:
  // node i's piece per domain position (`node`, indexed dom_off[i] + k), and
  // each edge's piece at (k, t) as side[a][k] + the matrix entry + side[b][t],
  // a and b its two incidences (`side` is indexed like the messages:
  // side_offset(a) + k). Kept in this split form, they take no more memory
  // than the messages.
  void pieces(std::vector<double>* node, std::vector<double>* side) const;
  uint64_t side_offset(uint32_t incidence) const { return msg_off_[incidence]; }
  // The messages, indexed like the sides (side_offset(a) + k): a search that
  // moves them between models with other domains maps them itself.
  std::vector<double>& messages() { return msg_; }
  uint32_t reverse(uint32_t incidence) const { return rev_[incidence]; }

 private:
  const SearchModel* m_ = nullptr;
  std::vector<int32_t> order_, pos_;
  std::vector<double> gamma_;
  std::vector<uint64_t> msg_off_;  // per incidence, into msg_ (over the node's domain)
  std::vector<double> msg_;
  std::vector<uint32_t> rev_;      // the other end's incidence of the same edge
  std::vector<double> unary_;      // per node domain position: cost + weight * (usage - least usage)
  std::vector<double> base_unary_;
  std::vector<double> usage_;
  std::vector<double> least_usage_;  // per node, over its domain (0 without an interval)
  double constant_ = 0;              // what the pricing left out of the unaries
  std::vector<double> h_, out_, hk_;

  // Node i's term with its incoming messages (into h), and the share of it
  // the node keeps: gamma_i of it goes to each edge towards a later node.
  double node_term(int i, double* h) const;  // h: room for the widest domain
  // Node i's unary plus its incoming messages, into h.
  void incoming(int i, double* h) const;
  bool pass(bool forward, std::vector<int32_t>* primal, const std::function<bool()>* should_stop);
};

}  // namespace iopddl
