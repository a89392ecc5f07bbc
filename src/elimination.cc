#include "elimination.h"

#include <algorithm>
#include <limits>

namespace iopddl {

namespace {
}

void EliminationSolver::init(const SearchModel& m) {
  m_ = &m;
  inc_.assign(m.n, {});
  deg_.assign(m.n, 0);
  alive_.assign(m.n, 0);
  in_stack_.assign(m.n, 0);
  unary_off_.assign(m.n, 0);
  domidx_.assign(m.n, 0);
}

double EliminationSolver::mat(const Edge& e, int node, int s, int t) const {
  const int Ka = m_->dom_size(e.a), Kb = m_->dom_size(e.b);
  (void)Ka;
  const double* M = matrix(e);
  return node == e.a ? M[uint64_t(s) * Kb + t] : M[uint64_t(t) * Kb + s];
}

const double* EliminationSolver::row_of(const Edge& e, int node, int s, std::vector<double>* scratch) const {
  const int Kb = m_->dom_size(e.b);
  const double* M = matrix(e);
  if (node == e.a) return M + uint64_t(s) * Kb;
  const int Ka = m_->dom_size(e.a);
  scratch->resize(Ka);
  for (int t = 0; t < Ka; ++t) (*scratch)[t] = M[uint64_t(t) * Kb + s];
  return scratch->data();
}

// Drops dead edges from a node's list once they outnumber the live ones, so
// that lookups stay proportional to the live degree.
void EliminationSolver::compact(int x) {
  std::vector<int32_t>& l = inc_[x];
  if (l.size() <= 2 * size_t(deg_[x]) + 8) return;
  size_t k = 0;
  for (int e : l)
    if (edges_[e].alive) l[k++] = e;
  l.resize(k);
}

int EliminationSolver::find_edge(int a, int b) {
  compact(a);
  compact(b);
  const auto& la = inc_[a].size() <= inc_[b].size() ? inc_[a] : inc_[b];
  const int other = inc_[a].size() <= inc_[b].size() ? b : a;
  for (int e : la) {
    const Edge& E = edges_[e];
    if (E.alive && (E.a == other || E.b == other)) return e;
  }
  return -1;
}

double* EliminationSolver::writable(int e) {
  Edge& E = edges_[size_t(e)];
  if (E.view) {
    const uint64_t len = uint64_t(m_->dom_size(E.a)) * m_->dom_size(E.b);
    E.off = pool_.append(len);
    std::copy(E.view, E.view + len, pool_.at(E.off));
    E.view = nullptr;
  }
  return pool_.at(E.off);
}

// Adds the edge a-b to the lists, without a matrix.
int EliminationSolver::add_edge_record(int a, int b) {
  Edge E{a, b, 0, true};
  edges_.push_back(E);
  const int id = int(edges_.size()) - 1;
  inc_[a].push_back(id);
  inc_[b].push_back(id);
  deg_[a]++;
  deg_[b]++;
  return id;
}

// A new edge with its own matrix, all zeros.
int EliminationSolver::add_edge(int a, int b) {
  const uint64_t len = uint64_t(m_->dom_size(a)) * m_->dom_size(b);
  const int id = add_edge_record(a, b);
  edges_[size_t(id)].off = pool_.append(len);
  double* M = pool_.at(edges_[size_t(id)].off);
  std::fill(M, M + len, 0.0);
  pool_entries_ += len;
  return id;
}

// An edge whose matrix is the model's `M` (a x b), not copied until written.
int EliminationSolver::add_view(int a, int b, const double* M) {
  const int id = add_edge_record(a, b);
  edges_[size_t(id)].view = M;
  pool_entries_ += uint64_t(m_->dom_size(a)) * m_->dom_size(b);
  return id;
}

void EliminationSolver::mark_dirty(int e) {
  if (size_t(e) >= is_dirty_.size()) is_dirty_.resize(edges_.size() + 64, 0);
  if (!is_dirty_[e]) {
    is_dirty_[e] = 1;
    dirty_.push_back(e);
  }
}

// Entries at or above half of `big` count as forbidden: sums of finite costs
// never get there, and anything that includes a forbidden entry does.
bool EliminationSolver::functional(int e, int from, std::vector<int32_t>* map) const {
  const Edge& E = edges_[e];
  const int to = E.a == from ? E.b : E.a;
  const double thr = 0.5 * m_->big;
  const int Kf = m_->dom_size(from), Kt = m_->dom_size(to);
  const double* ut = pool_.at(unary_off_[to]);
  map->resize(Kf);
  for (int s = 0; s < Kf; ++s) {
    int allowed = -1;
    double best = std::numeric_limits<double>::infinity();
    int arg = 0;
    for (int t = 0; t < Kt; ++t) {
      const double v = mat(E, from, s, t) + ut[t];
      if (v < best) { best = v; arg = t; }
      if (v < thr) {
        if (allowed >= 0) return false;
        allowed = t;
      }
    }
    (*map)[s] = allowed >= 0 ? allowed : arg;
  }
  return true;
}

bool EliminationSolver::contract_functional(EliminationStats* stats) {
  while (!dirty_.empty()) {
    const int e = dirty_.back();
    dirty_.pop_back();
    is_dirty_[e] = 0;
    const Edge E = edges_[e];
    if (!E.alive || !alive_[E.a] || !alive_[E.b]) continue;
    int u = -1, v = -1;
    // Fold the end with fewer strategies' worth of edges into the other.
    // When both ends determine each other, fold the one with fewer edges.
    const bool a_first = deg_[E.b] <= deg_[E.a];
    const int x = a_first ? E.a : E.b, z = a_first ? E.b : E.a;
    if (functional(e, x, &map_)) { u = x; v = z; }
    else if (functional(e, z, &map_)) { u = z; v = x; }
    if (u < 0) continue;
    // Folding moves every edge of v onto u: only the smaller into the larger
    // (as in union by size, an edge moves a few times at most), and within a
    // work budget.
    if (deg_[v] > deg_[u] + 2) continue;
    uint64_t work = 0;
    for (int f : inc_[v])
      if (edges_[f].alive) work += uint64_t(m_->dom_size(u)) * m_->dom_size(edges_[f].a == v ? edges_[f].b : edges_[f].a);
    if (work > contract_budget_) continue;
    contract_budget_ -= work;
    const int Ku = m_->dom_size(u);
    double* uu = pool_.at(unary_off_[u]);
    const double* uv = pool_.at(unary_off_[v]);
    for (int a = 0; a < Ku; ++a) uu[a] += uv[map_[a]] + mat(edges_[e], u, a, map_[a]);
    kill_edge(e);
    std::vector<int32_t> others;
    for (int f : inc_[v])
      if (edges_[f].alive) others.push_back(f);
    for (int f : others) {
      const int w = edges_[f].a == v ? edges_[f].b : edges_[f].a;
      const int Kw = m_->dom_size(w);
      int g = find_edge(u, w);
      if (g < 0) g = add_edge(u, w);
      double* G = writable(g);
      const bool g_from_u = edges_[g].a == u;
      for (int a = 0; a < Ku; ++a)
        for (int c = 0; c < Kw; ++c) {
          const double val = mat(edges_[f], v, map_[a], c);
          if (g_from_u) G[uint64_t(a) * Kw + c] += val;
          else G[uint64_t(c) * Ku + a] += val;
        }
      kill_edge(f);
      mark_dirty(g);
      push(w);
    }
    Record r{v, RecordKind::kContracted, u, uint32_t(rec_edges_.size()), uint32_t(Ku)};
    for (int a = 0; a < Ku; ++a) rec_edges_.push_back(map_[a]);
    records_.push_back(r);
    alive_[v] = 0;
    push(u);
    ++stats->exact;
    ++stats->contracted;
    return true;
  }
  return false;
}

void EliminationSolver::belief(int i, double* out) const {
  const int Ki = m_->dom_size(i);
  const double* u = pool_.at(unary_off_[i]);
  for (int s = 0; s < Ki; ++s) out[s] = u[s];
  for (int e : inc_[i]) {
    const Edge& E = edges_[e];
    if (!E.alive || size_t(e) >= msg_off_.size() || msg_off_[e] == kNoMsg) continue;
    const double* in = msg_.data() + msg_off_[e] + (E.a == i ? 0 : m_->dom_size(E.a));
    for (int s = 0; s < Ki; ++s) out[s] += in[s];
  }
}

// Node i's messages to its live neighbours (from its belief).
void EliminationSolver::sweep_node(int i) {
  const SearchModel& m = *m_;
  if (!alive_[i] || deg_[i] == 0) return;
  const int Ki = m.dom_size(i);
  belief_.resize(Ki);
  belief(i, belief_.data());
  for (int e : inc_[i]) {
    const Edge& E = edges_[e];
    if (!E.alive) continue;
    if (msg_off_[e] == kNoMsg) {
      msg_off_[e] = msg_.size();
      msg_.resize(msg_.size() + m.dom_size(E.a) + m.dom_size(E.b), 0.0);
    }
    const int j = E.a == i ? E.b : E.a;
    const int Kj = m.dom_size(j);
    double* to_i = msg_.data() + msg_off_[e] + (E.a == i ? 0 : m.dom_size(E.a));
    double* to_j = msg_.data() + msg_off_[e] + (E.a == j ? 0 : m.dom_size(E.a));
    // to_j(t) = min_s belief(s) - to_i(s) + M(s, t), shifted to a zero minimum
    // and clipped at `big` so that forbidden entries stay finite.
    reply_.assign(Kj, std::numeric_limits<double>::infinity());
    for (int s = 0; s < Ki; ++s) {
      const double bs = belief_[s] - to_i[s];
      const double* r = row_of(E, i, s, &row1_);
      for (int t = 0; t < Kj; ++t) reply_[t] = std::min(reply_[t], bs + r[t]);
    }
    const double lo = *std::min_element(reply_.begin(), reply_.end());
    for (int t = 0; t < Kj; ++t) to_j[t] = std::min(reply_[t] - lo, m.big);
    const uint64_t work = uint64_t(Ki) * Kj;
    sweep_budget_ = sweep_budget_ > work ? sweep_budget_ - work : 0;
  }
}

bool EliminationSolver::sweep(const std::function<bool()>* should_stop) {
  if (msg_off_.size() < edges_.size()) msg_off_.resize(edges_.size(), kNoMsg);
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t k = 0; k < live_.size(); ++k) {
      if (should_stop && (k & 1023) == 1023 && (*should_stop)()) return false;
      sweep_node(live_[pass == 0 ? k : live_.size() - 1 - k]);
    }
  }
  return true;
}

void EliminationSolver::kill_edge(int e) {
  Edge& E = edges_[e];
  if (!E.alive) return;
  E.alive = false;
  deg_[E.a]--;
  deg_[E.b]--;
}

void EliminationSolver::push(int i) {
  if (alive_[i] && !in_stack_[i] && deg_[i] <= 2) {
    in_stack_[i] = 1;
    stack_.push_back(i);
  }
}

EliminationStats EliminationSolver::solve(const std::vector<int32_t>& fixed,
                                          std::vector<int32_t>* assign, Rng* rng,
                                          const EliminationOptions& o) {
  EliminationStats stats;
  // A window's solve writes only the window's entries: copying the whole
  // assignment would cost O(n) per window.
  if (!o.free_nodes || assign->size() != fixed.size()) *assign = fixed;
  start_free(fixed, o.free_nodes);
  if (!build_kernel(fixed, o)) {
    stats.complete = false;
    return stats;
  }
  int remaining = int(free_.size());
  int64_t steps = 0;
  bool stuck_once = false;
  while (remaining > 0) {
    if (o.should_stop && (++steps & 1023) == 0 && (*o.should_stop)()) {
      stats.complete = false;
      return stats;
    }
    --remaining;
    const int i = pop_low_degree();
    if (i >= 0) {
      eliminate(i);
      ++stats.exact;
      continue;
    }
    // Stuck: first look for an edge along which one end determines the
    // other, and fold that end away (exact at any degree).
    if (contract_functional(&stats)) continue;
    // Still stuck: decide a node and condition its neighbours on it.
    if (!decide(pick_stuck(o.randomness, rng, &stuck_once), o, rng, &stats)) {
      stats.complete = false;
      return stats;
    }
    ++stats.decided;
  }
  back_substitute(assign);
  return stats;
}

// Forgets the previous solve's state (only on the nodes it freed: a small
// window costs time in its own size, not in the problem's) and frees this
// solve's nodes.
void EliminationSolver::start_free(const std::vector<int32_t>& fixed, const std::vector<int32_t>* free_nodes) {
  pool_.clear();
  pool_entries_ = 0;
  edges_.clear();
  records_.clear();
  rec_edges_.clear();
  stack_.clear();
  for (int i : free_) {
    inc_[i].clear();
    deg_[i] = 0;
    in_stack_[i] = 0;
    alive_[i] = 0;
  }
  free_.clear();
  if (free_nodes) {
    free_ = *free_nodes;
  } else {
    for (int i = 0; i < m_->n; ++i)
      if (fixed[i] < 0) free_.push_back(i);
  }
  for (int i : free_) alive_[i] = 1;
}

// The free nodes' unaries (priced, capped) and the matrices between them;
// edges towards fixed nodes go into the free end's unary. False if stopped.
// Free node i's unary: its costs, the weighted usage, the cap's penalty.
void EliminationSolver::kernel_unary(int i, const EliminationOptions& o) {
  const SearchModel& m = *m_;
  unary_off_[i] = pool_.append(uint64_t(m.dom_size(i)));
  pool_entries_ += uint64_t(m.dom_size(i));
  const double w = o.weight && !o.weight->empty() ? (*o.weight)[i] : 0.0;
  const int32_t* d = m.domain(i);
  const int64_t cap = o.usage_cap ? (*o.usage_cap)[i] : INT64_MAX;
  double* u = pool_.at(unary_off_[i]);
  // Priced on the usage above the node's least (MessagePassing::set_weights
  // says why): a constant per node, which no choice here depends on.
  // In doubles: two usages of opposite signs could overflow an int64 difference.
  const double least = w != 0 ? double(m.least_usage(i)) : 0.0;
  for (int k = 0; k < m.dom_size(i); ++k)
    u[k] = m.node_cost(i, d[k]) + w * (double(m.usage(i, d[k])) - least) + (m.usage(i, d[k]) > cap ? m.big : 0.0);
}

// Free node i's edges: those to fixed nodes folded into its unary, those to
// free nodes (from their row end) viewed or summed into the pair's matrix.
void EliminationSolver::kernel_edges(int i, const std::vector<int32_t>& fixed) {
  const SearchModel& m = *m_;
  const int32_t* di = m.domain(i);
  const int Ki = m.dom_size(i);
  for (uint32_t a = m.adj_off[i]; a < m.adj_off[i + 1]; ++a) {
    const Incidence& inc = m.adj[a];
    const int other = inc.other;
    if (!alive_[other]) {
      double* u = pool_.at(unary_off_[i]);
      for (int k = 0; k < Ki; ++k) u[k] += m.pair_cost(inc, di[k], fixed[other]);
      continue;
    }
    if (!inc.self_is_u) continue;  // each free-free edge once, from its row end
    const int Ko = m.dom_size(other);
    const double* R = m.matrix(inc.edge);  // Ki x Ko: i is the edge's u end
    int e = find_edge(i, other);
    if (e < 0) {
      // The first edge between the two: read from the model until written.
      e = add_view(i, other, R);
      continue;
    }
    const Edge E = edges_[e];
    double* out = writable(e);
    const uint64_t len = uint64_t(Ki) * Ko;
    if (E.a == i) {
      for (uint64_t k = 0; k < len; ++k) out[k] += R[k];
    } else {
      for (int k = 0; k < Ki; ++k)
        for (int q = 0; q < Ko; ++q) out[uint64_t(q) * Ki + k] += R[uint64_t(k) * Ko + q];
    }
  }
}

bool EliminationSolver::build_kernel(const std::vector<int32_t>& fixed, const EliminationOptions& o) {
  const SearchModel& m = *m_;
  for (int i : free_) kernel_unary(i, o);
  // Parallel edges between free nodes are summed into one matrix.
  for (size_t f = 0; f < free_.size(); ++f) {
    if (o.should_stop && (f & 1023) == 1023 && (*o.should_stop)()) return false;
    kernel_edges(free_[f], fixed);
  }
  dirty_.clear();
  contract_budget_ = uint64_t(m.params.contract_budget * double(pool_entries_)) + (1u << 20);
  msg_off_.clear();
  msg_.clear();
  sweep_budget_ = uint64_t(m.params.sweep_budget * double(pool_entries_)) + (1u << 20);
  is_dirty_.assign(edges_.size(), 0);
  for (size_t e = 0; e < edges_.size(); ++e) mark_dirty(int(e));
  for (int i : free_) push(i);
  return true;
}

void EliminationSolver::collect(int i) {
  live_edges_.clear();
  for (int e : inc_[i])
    if (edges_[e].alive) live_edges_.push_back(e);
}

// A node of degree <= 2 whose elimination table stays within the budget, or -1.
int EliminationSolver::pop_low_degree() {
  const SearchModel& m = *m_;
  while (!stack_.empty()) {
    const int c = stack_.back();
    stack_.pop_back();
    in_stack_[c] = 0;
    if (!alive_[c] || deg_[c] > 2) continue;
    if (deg_[c] == 2) {
      collect(c);
      const int a = other_end(live_edges_[0], c), b = other_end(live_edges_[1], c);
      const uint64_t work = uint64_t(m.dom_size(c)) * m.dom_size(a) * m.dom_size(b);
      if (double(work) > m.params.degree2_budget) continue;  // left for a decision
    }
    return c;
  }
  return -1;
}

// Exact elimination of a node of degree <= 2: its minimum over its own
// strategies moves onto its neighbour (a unary) or between its two
// neighbours (a new or summed edge).
void EliminationSolver::eliminate(int i) {
  const SearchModel& m = *m_;
  collect(i);
  const int Ki = m.dom_size(i);
  const double* u = pool_.at(unary_off_[i]);
  Record r{i, RecordKind::kEliminated, 0, uint32_t(rec_edges_.size()), uint32_t(live_edges_.size())};
  for (int e : live_edges_) rec_edges_.push_back(e);
  records_.push_back(r);
  if (live_edges_.size() == 1) {
    const int e = live_edges_[0];
    const int nb = other_end(e, i);
    const int Kn = m.dom_size(nb);
    const Edge E = edges_[e];
    double* un = pool_.at(unary_off_[nb]);
    // For each t the least over s of u[s] + entry(s, t), taken row by row
    // (contiguous, vectorisable) in the order s = 0, 1, ...: the same sums and
    // the same minimum as a loop over s for each t.
    tmp_.assign(Kn, std::numeric_limits<double>::infinity());
    for (int s = 0; s < Ki; ++s) {
      const double us = u[s];
      const double* r = row_of(E, i, s, &row1_);
      for (int t = 0; t < Kn; ++t) {
        const double v = us + r[t];
        tmp_[t] = v < tmp_[t] ? v : tmp_[t];
      }
    }
    for (int t = 0; t < Kn; ++t) un[t] += tmp_[t];
    kill_edge(e);
    push(nb);
  } else if (live_edges_.size() == 2) {
    const int e1 = live_edges_[0], e2 = live_edges_[1];
    const int a = other_end(e1, i), b = other_end(e2, i);
    const Edge E1 = edges_[e1], E2 = edges_[e2];
    const int Ka = m.dom_size(a), Kb = m.dom_size(b);
    // The least over s of u[s] + entry1(s, ta) + entry2(s, tb), row by row
    // as above.
    tmp_.assign(uint64_t(Ka) * Kb, std::numeric_limits<double>::infinity());
    for (int s = 0; s < Ki; ++s) {
      const double us = u[s];
      const double* r1 = row_of(E1, i, s, &row1_);
      const double* r2 = row_of(E2, i, s, &row2_);
      for (int ta = 0; ta < Ka; ++ta) {
        const double base = us + r1[ta];
        double* out = tmp_.data() + uint64_t(ta) * Kb;
        for (int tb = 0; tb < Kb; ++tb) {
          const double v = base + r2[tb];
          out[tb] = v < out[tb] ? v : out[tb];
        }
      }
    }
    kill_edge(e1);
    kill_edge(e2);
    if (a == b) {
      // Both edges lead to the same node: the result is a unary term.
      double* ua = pool_.at(unary_off_[a]);
      for (int ta = 0; ta < Ka; ++ta) ua[ta] += tmp_[uint64_t(ta) * Kb + ta];
    } else {
      int e = find_edge(a, b);
      if (e < 0) e = add_edge(a, b);
      mark_dirty(e);
      const Edge E = edges_[e];
      double* out = writable(e);
      if (E.a == a) {
        for (uint64_t k = 0; k < tmp_.size(); ++k) out[k] += tmp_[k];
      } else {
        for (int ta = 0; ta < Ka; ++ta)
          for (int tb = 0; tb < Kb; ++tb) out[uint64_t(tb) * Ka + ta] += tmp_[uint64_t(ta) * Kb + tb];
      }
    }
    push(a);
    push(b);
  }
  alive_[i] = 0;
}

// The node to decide when elimination is stuck: the one of highest degree (a
// random one of the top few when randomness > 0). The nodes still alive are
// kept in live_, in free_'s order, shrunk at every decision, so that deciding
// and sweeping cost the kernel's size, not the problem's.
int EliminationSolver::pick_stuck(double randomness, Rng* rng, bool* stuck_once) {
  if (!*stuck_once) {
    *stuck_once = true;
    live_.clear();
    for (int c : free_)
      if (alive_[c]) live_.push_back(c);
  } else {
    size_t k = 0;
    for (int c : live_)
      if (alive_[c]) live_[k++] = c;
    live_.resize(k);
  }
  int best_i = -1, best_deg = -1;
  for (int c : live_) {
    int d = deg_[c];
    if (randomness > 0 && rng->uniform() < randomness) d = int(d * (0.5 + rng->uniform()));
    if (d > best_deg) {
      best_deg = d;
      best_i = c;
    }
  }
  return best_i;
}

// Decides node i's strategy (the hint, when followed; else min-sum beliefs
// when on; else the star estimate: its unary plus each neighbour's best
// reply) and conditions its neighbours on it. False if stopped in a sweep.
bool EliminationSolver::decide(int i, const EliminationOptions& o, Rng* rng, EliminationStats* stats) {
  const SearchModel& m = *m_;
  collect(i);
  const int Ki = m.dom_size(i);
  const double* u = pool_.at(unary_off_[i]);
  int best_s = 0;
  double best_v = std::numeric_limits<double>::infinity();
  int hinted = -1;
  if (o.hint && (o.follow_hint >= 1.0 || rng->uniform() < o.follow_hint)) {
    const int32_t* d = m.domain(i);
    const int j = int(std::lower_bound(d, d + Ki, (*o.hint)[i]) - d);
    if (j < Ki && d[j] == (*o.hint)[i]) hinted = j;
  }
  if (o.belief_every > 0 && hinted < 0) {
    if (stats->decided % o.belief_every == 0 && sweep_budget_ > 0 && !sweep(o.should_stop)) return false;
    belief_.resize(Ki);
    belief(i, belief_.data());
    hinted = int(std::min_element(belief_.begin(), belief_.end()) - belief_.begin());
  }
  for (int s = 0; s < Ki && hinted < 0; ++s) {
    double v = u[s];
    for (int e : live_edges_) {
      const int nb = other_end(e, i);
      const double* un = pool_.at(unary_off_[nb]);
      double mn = std::numeric_limits<double>::infinity();
      const double* r = row_of(edges_[e], i, s, &row1_);
      for (int t = 0; t < m.dom_size(nb); ++t) mn = std::min(mn, r[t] + un[t]);
      v += mn;
    }
    if (v < best_v) {
      best_v = v;
      best_s = s;
    }
  }
  if (hinted >= 0) best_s = hinted;
  for (int e : live_edges_) {
    const int nb = other_end(e, i);
    double* un = pool_.at(unary_off_[nb]);
    for (int t = 0; t < m.dom_size(nb); ++t) un[t] += mat(edges_[e], i, best_s, t);
    kill_edge(e);
    push(nb);
  }
  records_.push_back({i, RecordKind::kDecided, best_s, 0, 0});
  alive_[i] = 0;
  return true;
}

// Back-substitution, last eliminated first; domidx_ tracks domain positions.
void EliminationSolver::back_substitute(std::vector<int32_t>* x) {
  const SearchModel& m = *m_;
  for (size_t k = records_.size(); k-- > 0;) {
    const Record& r = records_[k];
    const int i = r.node;
    int j;
    if (r.kind == RecordKind::kDecided) {
      j = r.value;
    } else if (r.kind == RecordKind::kContracted) {
      j = rec_edges_[r.first + domidx_[r.value]];
    } else {
      const double* u = pool_.at(unary_off_[i]);
      double best = std::numeric_limits<double>::infinity();
      j = 0;
      for (int s = 0; s < m.dom_size(i); ++s) {
        double v = u[s];
        for (uint32_t q = 0; q < r.count; ++q) {
          const int e = rec_edges_[r.first + q];
          const int nb = other_end(e, i);
          v += mat(edges_[e], i, s, domidx_[nb]);
        }
        if (v < best) {
          best = v;
          j = s;
        }
      }
    }
    domidx_[i] = j;
    (*x)[i] = m.domain(i)[j];
  }
}

}  // namespace iopddl
