#include "message_passing.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace iopddl {

namespace {

// Two doubles side by side (GCC's vector extension, also Clang's): one SSE2
// or WebAssembly SIMD register.
typedef double Lanes2 __attribute__((vector_size(16)));

// The least of value(k) over k < n, for the row minima of the passes and the
// bound, in four independent lanes so the loop is not one long dependency,
// two lanes per SIMD instruction (minpd, f64x2.pmin): neither compiler
// vectorises a scalar min reduction by itself. min is exact, so the result is
// a plain left-to-right loop's value.
template <class Value>
inline double least_of(int n, const Value& value) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  Lanes2 lo = {kInf, kInf}, hi = {kInf, kInf};
  int k = 0;
  for (; k + 4 <= n; k += 4) {
    const Lanes2 a = {value(k), value(k + 1)};
    const Lanes2 c = {value(k + 2), value(k + 3)};
    lo = a < lo ? a : lo;
    hi = c < hi ? c : hi;
  }
  double best = std::min(std::min(lo[0], lo[1]), std::min(hi[0], hi[1]));
  for (; k < n; ++k) best = std::min(best, value(k));
  return best;
}

}  // namespace

void MessagePassing::init(const SearchModel& m, bool breadth_first) {
  m_ = &m;
  const Problem& P = *m.p;
  // Order: the model's sweep order (by live interval: layers and chains stay
  // local, so messages travel along the program in one pass and converge
  // fast), or breadth-first from its first node (the odd rounding threads'
  // order with 4 threads or more: a second view of the graph, better on some
  // instances, worse on others).
  order_.clear();
  if (!breadth_first) {
    pos_.resize(m.n);
    order_ = m.order;
    for (int k = 0; k < m.n; ++k) pos_[order_[k]] = k;
  } else {
    pos_.assign(m.n, -1);
    for (int r : m.order) {
      if (pos_[r] >= 0) continue;
      size_t head = order_.size();
      pos_[r] = int(order_.size());
      order_.push_back(r);
      while (head < order_.size()) {
        const int x = order_[head++];
        for (uint32_t a = m.adj_off[x]; a < m.adj_off[x + 1]; ++a) {
          const int o = m.adj[a].other;
          if (pos_[o] < 0) {
            pos_[o] = int(order_.size());
            order_.push_back(o);
          }
        }
      }
    }
  }
  gamma_.assign(m.n, 1.0);
  for (int i = 0; i < m.n; ++i) {
    int before = 0, after = 0;
    for (uint32_t a = m.adj_off[i]; a < m.adj_off[i + 1]; ++a)
      (pos_[m.adj[a].other] < pos_[i] ? before : after)++;
    gamma_[i] = 1.0 / std::max(1, std::max(before, after));
  }
  msg_off_.assign(m.adj.size() + 1, 0);
  for (int i = 0; i < m.n; ++i)
    for (uint32_t a = m.adj_off[i]; a < m.adj_off[i + 1]; ++a) msg_off_[a + 1] = m.dom_size(i);
  for (size_t a = 0; a < m.adj.size(); ++a) msg_off_[a + 1] += msg_off_[a];
  msg_.assign(msg_off_.back(), 0.0);
  // Reverse incidences and reduced matrices (row = the edge's u end).
  rev_.assign(m.adj.size(), 0);
  std::vector<int64_t> at_u(P.num_edges(), -1);
  for (int i = 0; i < m.n; ++i)
    for (uint32_t a = m.adj_off[i]; a < m.adj_off[i + 1]; ++a)
      if (m.adj[a].self_is_u) at_u[m.adj[a].edge] = a;
  for (int i = 0; i < m.n; ++i)
    for (uint32_t a = m.adj_off[i]; a < m.adj_off[i + 1]; ++a)
      if (!m.adj[a].self_is_u) {
        uint32_t b = uint32_t(at_u[m.adj[a].edge]);
        rev_[a] = b;
        rev_[b] = a;
      }
  base_unary_.resize(m.dom.size());
  usage_.resize(m.dom.size());
  for (int i = 0; i < m.n; ++i)
    for (int k = 0; k < m.dom_size(i); ++k) {
      base_unary_[m.dom_off[i] + k] = m.node_cost(i, m.domain(i)[k]);
      usage_[m.dom_off[i] + k] = m.has_interval(i) ? double(m.usage(i, m.domain(i)[k])) : 0.0;
    }
  unary_ = base_unary_;
  least_usage_.assign(m.n, 0.0);
  for (int i = 0; i < m.n; ++i)
    if (m.has_interval(i)) least_usage_[i] = double(m.least_usage(i));
  constant_ = 0;
  int widest = 1;
  for (int i = 0; i < m.n; ++i) widest = std::max(widest, m.dom_size(i));
  h_.assign(widest, 0.0);
  out_.assign(widest, 0.0);
  hk_.assign(widest, 0.0);
}

void MessagePassing::set_weights(const std::vector<double>& w) {
  constant_ = 0;
  for (int i = 0; i < m_->n; ++i) {
    const double wi = w.empty() ? 0.0 : w[i];
    const double least = least_usage_[i];
    constant_ += wi * least;
    for (uint32_t k = m_->dom_off[i]; k < m_->dom_off[i + 1]; ++k)
      unary_[k] = base_unary_[k] + wi * (usage_[k] - least);
  }
}

void MessagePassing::set_extra(const std::vector<double>& extra, double constant) {
  for (size_t k = 0; k < unary_.size(); ++k) unary_[k] = base_unary_[k] + extra[k];
  constant_ = constant;
}

bool MessagePassing::iterate(std::vector<int32_t>* primal, const std::function<bool()>* should_stop) {
  return pass(true, primal, should_stop) && pass(false, nullptr, should_stop);
}

inline void MessagePassing::incoming(int i, double* h) const {
  const SearchModel& m = *m_;
  const int Ki = m.dom_size(i);
  const double* u = unary_.data() + m.dom_off[i];
  for (int k = 0; k < Ki; ++k) h[k] = u[k];
  for (uint32_t a = m.adj_off[i]; a < m.adj_off[i + 1]; ++a) {
    const double* ma = msg_.data() + msg_off_[a];
    for (int k = 0; k < Ki; ++k) h[k] += ma[k];
  }
}

bool MessagePassing::pass(bool forward, std::vector<int32_t>* primal, const std::function<bool()>* should_stop) {
  const SearchModel& m = *m_;
  std::vector<int32_t> pick;  // domain position of the rounded strategy, per node
  if (primal) { primal->resize(m.n); pick.assign(m.n, -1); }
  // Scratch of the largest domain's size (init): no vector bookkeeping per
  // node or edge, where domains of 2-16 strategies make it a large share.
  double* const h = h_.data();
  double* const out = out_.data();
  double* const hk = hk_.data();
  for (int step = 0; step < m.n; ++step) {
    if (should_stop && (step & 1023) == 1023 && (*should_stop)()) return false;
    const int i = forward ? order_[step] : order_[m.n - 1 - step];
    const int Ki = m.dom_size(i);
    incoming(i, h);
    if (primal) {
      // Round: edges to already rounded nodes count exactly, the others through messages.
      double* r = out;
      for (int k = 0; k < Ki; ++k) r[k] = h[k];
      for (uint32_t a = m.adj_off[i]; a < m.adj_off[i + 1]; ++a) {
        const Incidence& inc = m.adj[a];
        const int o = inc.other;
        if (pick[o] < 0) continue;
        const double* ma = msg_.data() + msg_off_[a];
        const double* M = m_->matrix(inc.edge);
        const int Ko = m.dom_size(o);
        for (int k = 0; k < Ki; ++k)
          r[k] += (inc.self_is_u ? M[uint64_t(k) * Ko + pick[o]] : M[uint64_t(pick[o]) * Ki + k]) - ma[k];
      }
      int best = 0;
      for (int k = 1; k < Ki; ++k)
        if (r[k] < r[best]) best = k;
      pick[i] = best;
      (*primal)[i] = m.domain(i)[best];
    }
    const double g = gamma_[i];
    for (uint32_t a = m.adj_off[i]; a < m.adj_off[i + 1]; ++a) {
      const Incidence& inc = m.adj[a];
      const int o = inc.other;
      if ((pos_[o] > pos_[i]) != forward) continue;
      const double* ma = msg_.data() + msg_off_[a];
      double* mo = msg_.data() + msg_off_[rev_[a]];
      const int Ko = m.dom_size(o);
      const double* M = m_->matrix(inc.edge);
      for (int k = 0; k < Ki; ++k) hk[k] = g * h[k] - ma[k];
      if (inc.self_is_u) {
        // Row by row as the matrix is stored, from the first row (the
        // minimum of one value is that value).
        for (int t = 0; t < Ko; ++t) out[t] = hk[0] + M[t];
        for (int k = 1; k < Ki; ++k) {
          const double hkk = hk[k];
          const double* row = M + uint64_t(k) * Ko;
          for (int t = 0; t < Ko; ++t) out[t] = std::min(out[t], hkk + row[t]);
        }
      } else {
        for (int t = 0; t < Ko; ++t) {
          const double* row = M + uint64_t(t) * Ki;
          out[t] = least_of(Ki, [&](int k) { return hk[k] + row[k]; });
        }
      }
      double mn = out[0];
      for (int t = 1; t < Ko; ++t) mn = std::min(mn, out[t]);
      for (int t = 0; t < Ko; ++t) mo[t] = out[t] - mn;
    }
  }
  return true;
}

double MessagePassing::node_term(int i, double* h) const {
  const SearchModel& m = *m_;
  incoming(i, h);
  int after = 0;
  for (uint32_t a = m.adj_off[i]; a < m.adj_off[i + 1]; ++a) after += pos_[m.adj[a].other] > pos_[i];
  return 1.0 - gamma_[i] * after;
}

double MessagePassing::lower_bound(double* abs_sum) const {
  // The reparametrised problem split into pieces that are minimised separately:
  // node i hands gamma_i of its term to each edge towards a later node and
  // keeps the rest; every edge term is then minimised over both ends.
  const SearchModel& m = *m_;
  double lb = 0, mag = 0;
  // Scratch of the widest domain's size, as pass() keeps.
  std::vector<double> h_store(h_.size()), base_store(h_.size());
  double* const h = h_store.data();
  double* const base = base_store.data();
  for (int i = 0; i < m.n; ++i) {
    const int Ki = m.dom_size(i);
    const double keep = node_term(i, h);
    double best = std::numeric_limits<double>::infinity();
    for (int k = 0; k < Ki; ++k) best = std::min(best, keep * h[k]);
    lb += best;
    mag += std::abs(best);
    for (uint32_t a = m.adj_off[i]; a < m.adj_off[i + 1]; ++a) {
      const Incidence& inc = m.adj[a];
      const int o = inc.other;
      if (pos_[o] < pos_[i]) continue;
      const int Ko = m.dom_size(o);
      const double* mi = msg_.data() + msg_off_[a];
      const double* mo = msg_.data() + msg_off_[rev_[a]];
      const double* M = m_->matrix(inc.edge);
      // min over (k, t) of (base[k] + M(k, t)) - mo[t], row by row of the
      // matrix as it is stored.
      double best_e = std::numeric_limits<double>::infinity();
      for (int k = 0; k < Ki; ++k) base[k] = gamma_[i] * h[k] - mi[k];
      if (inc.self_is_u) {
        for (int k = 0; k < Ki; ++k) {
          const double* row = M + uint64_t(k) * Ko;
          const double b = base[k];
          best_e = std::min(best_e, least_of(Ko, [&](int t) { return b + row[t] - mo[t]; }));
        }
      } else {
        const double* b = base;
        for (int t = 0; t < Ko; ++t) {
          const double* row = M + uint64_t(t) * Ki;
          const double sub = mo[t];
          best_e = std::min(best_e, least_of(Ki, [&](int k) { return b[k] + row[k] - sub; }));
        }
      }
      lb += best_e;
      mag += std::abs(best_e);
    }
  }
  if (abs_sum) *abs_sum = mag + std::abs(constant_);
  return lb + constant_;
}

void MessagePassing::pieces(std::vector<double>* node, std::vector<double>* side) const {
  const SearchModel& m = *m_;
  node->assign(m.dom.size(), 0.0);
  side->assign(msg_.size(), 0.0);
  std::vector<double> h(h_.size());
  for (int i = 0; i < m.n; ++i) {
    const int Ki = m.dom_size(i);
    // As lower_bound() splits them: i keeps `keep` of its term and hands
    // gamma_i of it to each edge towards a later node; an edge's earlier end
    // takes that share minus the message it got, its later end minus its own.
    const double keep = node_term(i, h.data());
    for (int k = 0; k < Ki; ++k) (*node)[m.dom_off[i] + k] = keep * h[k];
    for (uint32_t a = m.adj_off[i]; a < m.adj_off[i + 1]; ++a) {
      const bool earlier = pos_[m.adj[a].other] > pos_[i];
      for (int k = 0; k < Ki; ++k)
        (*side)[msg_off_[a] + k] = (earlier ? gamma_[i] * h[k] : 0.0) - msg_[msg_off_[a] + k];
    }
  }
}

}  // namespace iopddl
