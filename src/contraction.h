// The problem with every tied group (tied_groups.h) contracted to one node:
// a group's strategies are its consistent choices, its cost the members'
// costs plus the edges inside it, and the edges between two contracted nodes
// merged into one matrix. Live domains only, no memory (prices enter as
// extra unary costs). Pairwise solvers run on it far faster and never break a
// tie: on graphs tied across distant layers, message passing's rounding of the
// original graph breaks ties and pays for them at the other end.
#pragma once
#include <cstdint>
#include <vector>

#include "message_passing.h"
#include "problem.h"
#include "search_model.h"
#include "tied_groups.h"

namespace iopddl {

class Contraction {
 public:
  void build(const SearchModel& m, const TiedGroups& groups);
  const SearchModel& model() const { return cmodel_; }
  const Problem& problem() const { return cproblem_; }
  int nodes() const { return cmodel_.n; }
  // An assignment of the contracted model (its strategy indices) in the
  // original model's strategies.
  void expand(const std::vector<int32_t>& contracted, std::vector<int32_t>* original) const;
  // The original assignment's strategies in the contracted model (a group
  // takes the choice of its root), so hints carry over.
  void project(const std::vector<int32_t>& original, std::vector<int32_t>* contracted) const;
  // Memory prices per original node as extra unary costs of the contracted
  // model, indexed by its domain positions (dom_off[i] + k). With
  // `constant`, each node pays its weight on its usage above its least usage
  // under the contracted strategies (MessagePassing::set_weights says why),
  // and *constant receives what that left out, the sum of weight x least
  // usage; without it, on its whole usage.
  void prices(const std::vector<double>& weight, std::vector<double>* extra, double* constant = nullptr) const;
  int32_t node_of(int x) const { return node_of_[x]; }
  int32_t strategy_of(int x, int cnode, int k) const;  // original node x's strategy under contracted k

 private:
  const SearchModel* m_ = nullptr;
  const TiedGroups* groups_ = nullptr;
  Problem cproblem_;
  SearchModel cmodel_;
  std::vector<int32_t> node_of_;          // per original node: its contracted node
  std::vector<int32_t> origin_;           // per contracted node: the original node, or -(group + 1)
  std::vector<int32_t> choice_;           // per contracted strategy of a group node: the group's choice
  std::vector<std::vector<int32_t>> choice_of_;  // per group: choice -> contracted strategy, or -1
};

// Prices the messages' problem by per-node memory weights of the original
// model: as they are when the messages run on the original model
// (`contraction` null), through each contracted node's members otherwise
// (`scratch` receives those extra costs). Either way a node pays on its usage
// above its least usage, and the messages' bound adds back the rest.
void price_messages(const Contraction* contraction, const std::vector<double>& weight, MessagePassing* mp,
                    std::vector<double>* scratch);

}  // namespace iopddl
