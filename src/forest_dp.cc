#include "forest_dp.h"

#include <algorithm>
#include <limits>

namespace iopddl {

void ForestDP::init(const SearchModel& m) {
  m_ = &m;
  in_forest_.assign(m.n, 0);
  parent_.assign(m.n, -1);
  uf_.resize(m.n);
  stamp_.assign(m.n, 0);
  root_stamp_.assign(m.n, 0);
  seen_.assign(m.n, 0);
  belief_.assign(m.dom.size(), 0);
  arg_off_.assign(m.n + 1, 0);
  perm_.clear();
  for (int i = 0; i < m.n; ++i)
    if (m.dom_size(i) > 1) perm_.push_back(i);
}

// x may join if its forest neighbours all lie in different trees (no cycle).
bool ForestDP::try_add(int x) {
  const SearchModel& m = *m_;
  ++clock_;
  for (uint32_t a = m.adj_off[x]; a < m.adj_off[x + 1]; ++a) {
    int o = m.adj[a].other;
    if (!in_forest_[o] || stamp_[o] == clock_) continue;
    stamp_[o] = clock_;
    int r = find(o);
    if (root_stamp_[r] == clock_) return false;
    root_stamp_[r] = clock_;
  }
  in_forest_[x] = 1;
  uf_[x] = x;
  for (uint32_t a = m.adj_off[x]; a < m.adj_off[x + 1]; ++a) {
    int o = m.adj[a].other;
    if (in_forest_[o] && o != x) uf_[find(o)] = x;
  }
  members_.push_back(x);
  return true;
}

void ForestDP::pick_forest(Rng* rng, int region_size) {
  const SearchModel& m = *m_;
  for (int x : members_) in_forest_[x] = 0;
  members_.clear();
  if (perm_.empty()) { order_.clear(); return; }
  if (region_size <= 0 || region_size >= int(perm_.size())) {
    for (size_t k = perm_.size(); k > 1; --k) std::swap(perm_[k - 1], perm_[rng->below(uint32_t(k))]);
    for (int x : perm_) try_add(x);
  } else {
    // Grow from a random seed in (randomised) BFS order; nodes that would
    // close a cycle are skipped but still passed through.
    ++seen_clock_;
    std::vector<int32_t>& frontier = frontier_;
    frontier.clear();
    frontier.push_back(perm_[rng->below(uint32_t(perm_.size()))]);
    seen_[frontier[0]] = seen_clock_;
    size_t head = 0;
    while (head < frontier.size() && int(members_.size()) < region_size) {
      size_t span = std::min<size_t>(frontier.size() - head, 8);
      std::swap(frontier[head], frontier[head + rng->below(uint32_t(span))]);
      int x = frontier[head++];
      if (m.dom_size(x) > 1) try_add(x);
      for (uint32_t a = m.adj_off[x]; a < m.adj_off[x + 1]; ++a) {
        int o = m.adj[a].other;
        if (seen_[o] != seen_clock_) { seen_[o] = seen_clock_; frontier.push_back(o); }
      }
    }
  }
  // Root every tree and order parents before children.
  order_.clear();
  for (int x : members_) parent_[x] = -2;
  for (int r : members_) {
    if (parent_[r] != -2) continue;
    parent_[r] = -1;
    size_t head = order_.size();
    order_.push_back(r);
    while (head < order_.size()) {
      int x = order_[head++];
      for (uint32_t a = m.adj_off[x]; a < m.adj_off[x + 1]; ++a) {
        int o = m.adj[a].other;
        if (in_forest_[o] && parent_[o] == -2) {
          parent_[o] = x;
          order_.push_back(o);
        }
      }
    }
  }
}

int ForestDP::solve(std::vector<int32_t>* assign_ptr, const std::vector<double>& weight) {
  const SearchModel& m = *m_;
  std::vector<int32_t>& s = *assign_ptr;
  // Unary terms: node cost, memory penalty, edges to nodes outside the forest.
  for (int x : order_) {
    const int32_t* d = m.domain(x);
    double* b = belief_.data() + m.dom_off[x];
    const int K = m.dom_size(x);
    const double w = weight.empty() ? 0.0 : weight[x];
    for (int k = 0; k < K; ++k) b[k] = m.node_cost(x, d[k]) + w * double(m.usage(x, d[k]));
    for (uint32_t a = m.adj_off[x]; a < m.adj_off[x + 1]; ++a) {
      const Incidence& inc = m.adj[a];
      if (in_forest_[inc.other]) continue;
      const int so = s[inc.other];
      for (int k = 0; k < K; ++k) b[k] += m.pair_cost(inc, d[k], so);
    }
  }
  // Argmin tables: one entry per strategy of the parent.
  uint64_t total = 0;
  for (int x : order_) {
    arg_off_[x] = total;
    if (parent_[x] >= 0) total += uint64_t(m.dom_size(parent_[x]));
  }
  if (arg_.size() < total) arg_.resize(total);
  // Leaves to roots.
  for (size_t k = order_.size(); k-- > 0;) {
    const int c = order_[k];
    const int p = parent_[c];
    if (p < 0) continue;
    const int Kc = m.dom_size(c), Kp = m.dom_size(p);
    const int32_t* dc = m.domain(c);
    const int32_t* dp = m.domain(p);
    const double* bc = belief_.data() + m.dom_off[c];
    double* bp = belief_.data() + m.dom_off[p];
    int32_t* arg = arg_.data() + arg_off_[c];
    // The incidences of c that lead to p (parallel edges are summed).
    uint32_t first = 0, count = 0;
    for (uint32_t a = m.adj_off[c]; a < m.adj_off[c + 1]; ++a)
      if (m.adj[a].other == p) { if (!count) first = a; ++count; }
    const Problem& P = *m.p;
    for (int jp = 0; jp < Kp; ++jp) {
      const int sp = dp[jp];
      double best = std::numeric_limits<double>::infinity();
      int best_j = 0;
      if (count == 1) {
        const Incidence& inc = m.adj[first];
        const int64_t* M = P.edge_matrix(inc.edge);
        if (inc.self_is_u) {
          const uint64_t stride = uint64_t(P.num_strategies(p));
          for (int jc = 0; jc < Kc; ++jc) {
            double v = bc[jc] + m.value(M[uint64_t(dc[jc]) * stride + sp]);
            if (v < best) { best = v; best_j = jc; }
          }
        } else {
          const int64_t* row = M + uint64_t(sp) * uint64_t(P.num_strategies(c));
          for (int jc = 0; jc < Kc; ++jc) {
            double v = bc[jc] + m.value(row[dc[jc]]);
            if (v < best) { best = v; best_j = jc; }
          }
        }
      } else {
        for (int jc = 0; jc < Kc; ++jc) {
          double v = bc[jc];
          for (uint32_t a = first; a < m.adj_off[c + 1]; ++a)
            if (m.adj[a].other == p) v += m.pair_cost(m.adj[a], dc[jc], sp);
          if (v < best) { best = v; best_j = jc; }
        }
      }
      bp[jp] += best;
      arg[jp] = best_j;
    }
  }
  // Roots to leaves.
  int changed = 0;
  for (int x : order_) {
    const int32_t* d = m.domain(x);
    int j;
    if (parent_[x] < 0) {
      const double* b = belief_.data() + m.dom_off[x];
      j = 0;
      for (int k = 1; k < m.dom_size(x); ++k)
        if (b[k] < b[j]) j = k;
      // Keep the current strategy on ties: fewer pointless changes.
      for (int k = 0; k < m.dom_size(x); ++k)
        if (d[k] == s[x] && b[k] <= b[j]) { j = k; break; }
    } else {
      const int p = parent_[x];
      // Domain index of the parent's chosen strategy.
      const int32_t* dp = m.domain(p);
      int jp = int(std::lower_bound(dp, dp + m.dom_size(p), s[p]) - dp);
      j = arg_[arg_off_[x] + jp];
    }
    if (d[j] != s[x]) ++changed;
    s[x] = d[j];
  }
  return changed;
}

}  // namespace iopddl
