#include "contraction.h"

#include <algorithm>
#include <unordered_map>

#include "int128.h"

namespace iopddl {

namespace {

// Costs add up; anything at or beyond the forbidden threshold stays forbidden.
int64_t add_cost(int64_t a, int64_t b) {
  if (a >= kForbiddenThreshold || b >= kForbiddenThreshold) return kForbidden;
  const Int128 s = Int128(a) + b;
  return s >= kForbiddenThreshold ? kForbidden : int64_t(s);
}

}  // namespace

int32_t Contraction::strategy_of(int x, int cnode, int k) const {
  const int o = origin_[cnode];
  if (o >= 0) return m_->domain(x)[k];
  const int g = -o - 1;
  const int32_t t = groups_->strategy(g, groups_->position(x), choice_[cproblem_.strategy_offset[cnode] + k]);
  // A group without a consistent choice keeps one, forbidden, whose members
  // take their first live strategy wherever the ties disagree.
  return t >= 0 ? t : m_->domain(x)[0];
}

void Contraction::build(const SearchModel& m, const TiedGroups& groups) {
  m_ = &m;
  groups_ = &groups;
  const Problem& p = *m.p;
  Problem& c = cproblem_;
  c = Problem();
  c.name = p.name + " (tied groups contracted)";
  node_of_.assign(m.n, -1);
  origin_.clear();
  choice_.clear();
  choice_of_.assign(groups.size(), {});
  // Contracted nodes in the sweep order of their first member, so that the
  // contracted model's own index order is a sweep order too.
  std::vector<char> placed(groups.size(), 0);
  for (int x : m.order) {
    const int g = groups.group_of(x);
    if (g >= 0 && placed[g]) continue;
    if (g >= 0) placed[g] = 1;
    const int id = int(origin_.size());
    c.interval_lo.push_back(0);
    c.interval_hi.push_back(0);
    if (g < 0) {
      origin_.push_back(x);
      node_of_[x] = id;
      for (int k = 0; k < m.dom_size(x); ++k) {
        c.node_cost.push_back(p.cost(x, m.domain(x)[k]));
        choice_.push_back(-1);
      }
    } else {
      origin_.push_back(-(g + 1));
      for (int k = 0; k < groups.member_count(g); ++k) node_of_[groups.members(g)[k]] = id;
      choice_of_[g].assign(groups.choices(g), -1);
      const size_t before = c.node_cost.size();
      for (int ch = 0; ch < groups.choices(g); ++ch) {
        bool ok = true;
        int64_t cost = 0;
        for (int k = 0; k < groups.member_count(g) && ok; ++k) {
          const int32_t t = groups.strategy(g, k, ch);
          if (t < 0) ok = false;
          else cost = add_cost(cost, p.cost(groups.members(g)[k], t));
        }
        if (!ok) continue;
        choice_of_[g][ch] = int32_t(c.node_cost.size() - before);
        c.node_cost.push_back(cost);
        choice_.push_back(ch);
      }
      if (c.node_cost.size() == before) {  // no consistent choice: keep one, forbidden
        choice_of_[g][0] = 0;
        c.node_cost.push_back(kForbidden);
        choice_.push_back(0);
      }
    }
    c.strategy_offset.push_back(c.node_cost.size());
  }
  c.node_usage.assign(c.node_cost.size(), 0);
  // Edges: inside a contracted node they add to its unary; between two they
  // merge into one matrix per pair.
  // First the merged edges and their sizes, so that the matrices are
  // allocated once, at their final size (growing them would copy, and hold
  // old and new at once); each original edge between two contracted nodes
  // remembers its merged edge.
  std::unordered_map<uint64_t, int32_t> pair_edge;
  std::vector<int32_t> merged(size_t(p.num_edges()), -1);
  for (int e = 0; e < p.num_edges(); ++e) {
    const int a = node_of_[p.edge_u[e]], b = node_of_[p.edge_v[e]];
    if (a == b) continue;
    const uint64_t key = uint64_t(std::min(a, b)) << 32 | uint32_t(std::max(a, b));
    const auto it = pair_edge.emplace(key, int32_t(c.edge_u.size()));
    if (it.second) {
      c.edge_u.push_back(a);
      c.edge_v.push_back(b);
      c.edge_cost_offset.push_back(c.edge_cost_offset.back() + uint64_t(c.num_strategies(a)) * c.num_strategies(b));
    }
    merged[size_t(e)] = it.first->second;
  }
  c.edge_cost.assign(c.edge_cost_offset.back(), 0);
  for (int e = 0; e < p.num_edges(); ++e) {
    const int u = p.edge_u[e], v = p.edge_v[e];
    const int a = node_of_[u], b = node_of_[v];
    const int Ka = c.num_strategies(a), Kb = c.num_strategies(b);
    if (a == b) {
      for (int k = 0; k < Ka; ++k) {
        int64_t& cost = c.node_cost[c.strategy_offset[a] + k];
        cost = add_cost(cost, p.edge_entry(e, strategy_of(u, a, k), strategy_of(v, a, k)));
      }
      continue;
    }
    const int32_t ce = merged[size_t(e)];
    const bool flipped = c.edge_u[ce] != a;
    const int Kv = c.num_strategies(c.edge_v[ce]);
    int64_t* M = c.edge_cost.data() + c.edge_cost_offset[ce];
    for (int j = 0; j < Ka; ++j) {
      const int su = strategy_of(u, a, j);
      for (int k = 0; k < Kb; ++k) {
        int64_t& cell = flipped ? M[uint64_t(k) * Kv + j] : M[uint64_t(j) * Kv + k];
        cell = add_cost(cell, p.edge_entry(e, su, strategy_of(v, b, k)));
      }
    }
  }
  finalize_problem(&c);
  cmodel_.params = m.params;  // first: build() reads sweep_order
  cmodel_.build(c);
  cmodel_.build_matrices();
}

void Contraction::expand(const std::vector<int32_t>& contracted, std::vector<int32_t>* original) const {
  original->resize(m_->n);
  for (int x = 0; x < m_->n; ++x) {
    const int a = node_of_[x];
    (*original)[x] = strategy_of(x, a, contracted[a]);
  }
}

void Contraction::project(const std::vector<int32_t>& original, std::vector<int32_t>* contracted) const {
  contracted->assign(cmodel_.n, 0);
  for (int a = 0; a < cmodel_.n; ++a) {
    const int o = origin_[a];
    if (o >= 0) {
      const int32_t* d = m_->domain(o);
      const int k = int(std::find(d, d + m_->dom_size(o), original[o]) - d);
      (*contracted)[a] = k < m_->dom_size(o) ? k : 0;
    } else {
      const int g = -o - 1;
      const int root = groups_->members(g)[0];
      const int32_t* d = m_->domain(root);
      const int ch = int(std::find(d, d + m_->dom_size(root), original[root]) - d);
      const int k = ch < groups_->choices(g) ? choice_of_[g][ch] : -1;
      (*contracted)[a] = k >= 0 ? k : 0;
    }
  }
}

void Contraction::prices(const std::vector<double>& weight, std::vector<double>* extra, double* constant) const {
  extra->assign(cproblem_.node_cost.size(), 0.0);
  if (constant) *constant = 0;
  if (weight.empty()) return;
  for (int x = 0; x < m_->n; ++x) {
    if (!m_->has_interval(x) || weight[x] == 0) continue;
    const int a = node_of_[x];
    const uint64_t off = cproblem_.strategy_offset[a];
    const int K = cproblem_.num_strategies(a);
    if (K == 0) continue;
    int64_t least = 0;
    if (constant) {
      least = INT64_MAX;
      for (int k = 0; k < K; ++k) least = std::min(least, m_->usage(x, strategy_of(x, a, k)));
      *constant += weight[x] * double(least);
    }
    for (int k = 0; k < K; ++k)  // in doubles, as the elimination's unaries
      (*extra)[off + k] += weight[x] * (double(m_->usage(x, strategy_of(x, a, k))) - double(least));
  }
}

void price_messages(const Contraction* contraction, const std::vector<double>& weight, MessagePassing* mp,
                    std::vector<double>* scratch) {
  if (!contraction) {
    mp->set_weights(weight);
    return;
  }
  double constant = 0;
  contraction->prices(weight, scratch, &constant);
  mp->set_extra(*scratch, constant);
}

}  // namespace iopddl
