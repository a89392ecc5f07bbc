#include "proof_search.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "search_state.h"

namespace iopddl {

// The bound's rounding error, relative to the magnitudes it sums (its pieces'
// minima and the multipliers' offset). Each piece is computed from the same
// stored messages that cancel between pieces, so the error is that of the
// arithmetic inside a piece and of the sum over pieces: a few units of 1e-16
// per operation, over at most a few thousand operations per term, well
// inside 1e-11. A margin must stay well below one unit, or it decides ties:
// a relative 1e-9 is already several units on costs of 10^9 and more, and no
// subtree whose least cost equals the incumbent's could then be pruned.
constexpr double kRoundingMargin = 1e-11;

struct ProofSearch::Tree {
  std::mutex mu;  // guards everything below
  std::vector<Frame> stack;
  std::vector<double> flight;  // per search: its node in flight's parent bound (+inf: none)
  int in_flight = 0;
  uint64_t generation = 0;             // counts the fresh starts
  int64_t popped = 0;                  // tree nodes taken since the last fresh start
  double first_budget = 0, budget = 0; // how many before the next (0: no limit)
  std::shared_ptr<const Warm> fresh;   // the root's start: no multipliers, no messages
  bool root_done = false;              // the root is bounded ...
  double root_upper = 0;               // ... against this incumbent's cost
  bool has_upper = false;              // the least incumbent cost any search read
  Int128 upper = 0;
};

std::shared_ptr<ProofSearch::Tree> ProofSearch::new_tree() { return std::make_shared<Tree>(); }
ProofSearch::ProofSearch() = default;
ProofSearch::~ProofSearch() {
  if (!tree_) return;
  // A node this search leaves in flight goes back on the stack for the others.
  std::lock_guard<std::mutex> lock(tree_->mu);
  if (current_.on() && generation_ == tree_->generation) {
    --tree_->in_flight;
    tree_->flight[lane_] = std::numeric_limits<double>::infinity();
    tree_->stack.push_back(std::move(current_.f));
  }
}

bool ProofSearch::init(const SearchModel& m, const Contraction* contraction, std::shared_ptr<Tree> tree) {
  m_ = &m;
  c_ = contraction;
  pm_ = &proof_model(m, contraction);
  current_ = {};
  stats_ = {};
  tree_.reset();
  has_upper_ = false;
  refused_rounding_.clear();
  upper_d_ = std::numeric_limits<double>::infinity();
  active_ = within_size(m, contraction);
  if (!active_) return false;
  const SearchModel& pm = *pm_;
  const Problem& pp = *pm.p;
  position_.assign(pp.node_cost.size(), -1);
  for (int i = 0; i < pm.n; ++i)
    for (int k = 0; k < pm.dom_size(i); ++k) position_[pp.strategy_offset[i] + pm.domain(i)[k]] = k;

  // Memory: per proof node, its usage over time as pieces (maximal ranges
  // of segments where the same members are alive; a contracted node sums its
  // members'), only where the limit can bind: the largest usage possible
  // exceeds it. Pieces number at most twice the members, so the table stays
  // within the problem's size however long the tied groups live.
  const Problem& p = *m.p;
  segments_ = m.has_limit ? p.num_segments() : 0;
  const int S = segments_;
  std::vector<int64_t> most(S + 1, 0);
  for (int x = 0; x < m.n && S > 0; ++x) {
    if (!m.has_interval(x)) continue;
    int64_t hi = 0;
    for (int k = 0; k < m.dom_size(x); ++k) hi = std::max(hi, m.usage(x, m.domain(x)[k]));
    most[p.seg_lo[x]] += hi;
    most[p.seg_hi[x]] -= hi;
  }
  std::vector<int32_t> binding(S + 1, 0);  // binding segments before each one
  int64_t run = 0;
  for (int t = 0; t < S; ++t) {
    run += most[t];
    binding[t + 1] = binding[t] + (run > m.limit);
  }
  std::vector<uint32_t> member_off(pm.n + 1, 0);
  std::vector<int32_t> member(m.n);
  for (int x = 0; x < m.n; ++x) ++member_off[(c_ ? c_->node_of(x) : x) + 1];
  for (int a = 0; a < pm.n; ++a) member_off[a + 1] += member_off[a];
  {
    std::vector<uint32_t> fill(member_off.begin(), member_off.end() - 1);
    for (int x = 0; x < m.n; ++x) member[fill[c_ ? c_->node_of(x) : x]++] = x;
  }
  piece_off_.assign(pm.n + 1, 0);
  pieces_.clear();
  usage_.clear();
  std::vector<std::pair<int32_t, int32_t>> events;  // (segment, +/- (member index + 1))
  std::vector<int64_t> sum, u_x;
  for (int a = 0; a < pm.n && binding[S] > 0; ++a) {
    const int K = pm.dom_size(a);
    events.clear();
    for (uint32_t q = member_off[a]; q < member_off[a + 1]; ++q) {
      const int x = member[q];
      if (!m.has_interval(x) || binding[p.seg_hi[x]] == binding[p.seg_lo[x]]) continue;
      events.push_back({p.seg_lo[x], int32_t(q + 1)});
      events.push_back({p.seg_hi[x], -int32_t(q + 1)});
    }
    std::sort(events.begin(), events.end());
    sum.assign(K, 0);
    int alive = 0;
    for (size_t e = 0; e < events.size();) {
      const int32_t t = events[e].first;
      for (; e < events.size() && events[e].first == t; ++e) {
        const int x = member[std::abs(events[e].second) - 1];
        const int sign = events[e].second > 0 ? 1 : -1;
        for (int k = 0; k < K; ++k)
          sum[k] += sign * m.usage(x, c_ ? c_->strategy_of(x, a, pm.domain(a)[k]) : pm.domain(a)[k]);
        alive += sign;
      }
      if (alive == 0 || e == events.size()) continue;
      const int32_t next = events[e].first;
      if (binding[next] == binding[t]) continue;  // the limit cannot bind in [t, next)
      pieces_.push_back({t, next, usage_.size()});
      usage_.insert(usage_.end(), sum.begin(), sum.end());
    }
    piece_off_[a + 1] = uint32_t(pieces_.size());
  }
  for (int a = 0; a < pm.n && binding[S] == 0; ++a) piece_off_[a + 1] = 0;

  layout_.init(pm);
  auto root = std::make_shared<Warm>();
  root->relax.init(m, MemoryRelax::Schedule::kSegments);
  root->msg.assign(layout_.messages().size(), 0.0);
  // The view shares everything with the proof model but its domains and
  // matrices, which open_view() sets per tree node.
  view_ = SearchModel();
  view_.p = pm.p;
  view_.n = pm.n;
  view_.limit = pm.limit;
  view_.adj_off = pm.adj_off;
  view_.adj = pm.adj;
  view_.unary = pm.unary;
  view_.order = pm.order;
  view_.params = pm.params;
  view_.big = pm.big;
  tree_ = tree ? std::move(tree) : new_tree();
  std::lock_guard<std::mutex> lock(tree_->mu);
  lane_ = int(tree_->flight.size());
  tree_->flight.push_back(std::numeric_limits<double>::infinity());
  if (!tree_->fresh) {
    tree_->fresh = std::move(root);
    if (m.params.proof_restart_growth > 0)
      for (int a = 0; a < pm.n; ++a) tree_->first_budget += pm.dom_size(a) > 1;
    tree_->budget = tree_->first_budget;
    push_root();
  }
  return true;
}

void ProofSearch::fresh_start(double budget) {
  Tree& t = *tree_;
  t.stack.clear();
  ++t.generation;
  t.in_flight = 0;
  std::fill(t.flight.begin(), t.flight.end(), std::numeric_limits<double>::infinity());
  t.popped = 0;
  t.budget = budget;
  push_root();
  ++stats_.restarts;
}

void ProofSearch::push_root() {
  tree_->stack.push_back({std::vector<char>(pm_->dom.size(), 1), tree_->fresh, -std::numeric_limits<double>::infinity(), true});
  tree_->root_done = false;
}

void ProofSearch::refresh_upper(const std::function<bool(Int128*)>& upper) {
  Int128 u = 0;
  // Doubles hold the search's costs exactly only below 2^53.
  if (upper(&u) && u < Int128(int64_t(1) << 52) && (!has_upper_ || u < upper_)) {
    has_upper_ = true;
    upper_ = u;
    upper_d_ = double(int64_t(u));
    std::lock_guard<std::mutex> lock(tree_->mu);
    if (!tree_->has_upper || u < tree_->upper) {
      tree_->has_upper = true;
      tree_->upper = u;
    }
  }
}

// Over the limit, forbidden (`big` exceeds every finite total), or not below
// the upper bound (which only falls): refused now and whenever offered again.
bool ProofSearch::refuses(const SearchState& s) const {
  return !s.within_limit() || !(s.cost < m_->big) || (has_upper_ && !(s.cost < upper_d_));
}

// Offers an answer (a rounding or a leaf, in the model's strategies) unless
// it refuses it: within the limit, free of forbidden entries and cheaper
// than the incumbent.
void ProofSearch::offer_if_better(const SearchState& s,
                                  const std::function<void(const std::vector<int32_t>&, double)>& offer,
                                  const std::function<bool(Int128*)>& upper) {
  if (refuses(s)) return;
  ++stats_.answers;
  offer(s.s, s.cost);
  refresh_upper(upper);
}

void ProofSearch::expand(const std::vector<int32_t>& a, std::vector<int32_t>* out) const {
  if (c_)
    c_->expand(a, out);
  else
    *out = a;
}

// The least usage at every segment with each node at its least live usage
// (by piece), in least_, and the range maxima of that over pieces, in
// table_ (a sparse table). False if it exceeds the limit somewhere.
bool ProofSearch::least_usage(const std::vector<char>& live) {
  const SearchModel& pm = *pm_;
  const int S = segments_;
  least_.assign(S + 1, 0);
  piece_least_.resize(pieces_.size());
  for (int a = 0; a < pm.n; ++a)
    for (uint32_t q = piece_off_[a]; q < piece_off_[a + 1]; ++q) {
      int64_t lo = std::numeric_limits<int64_t>::max();
      for (int k = 0; k < pm.dom_size(a); ++k)
        if (live[pm.dom_off[a] + k]) lo = std::min(lo, usage_[pieces_[q].at + k]);
      piece_least_[q] = lo;
      least_[pieces_[q].lo] += lo;
      least_[pieces_[q].hi] -= lo;
    }
  int levels = 1;
  while ((1 << levels) <= S) ++levels;
  table_.resize(size_t(levels) * S);
  int64_t run = 0;
  for (int t = 0; t < S; ++t) {
    table_[t] = run += least_[t];
    if (run > m_->limit) return false;
  }
  for (int l = 1; l < levels; ++l)
    for (int t = 0; t + (1 << l) <= S; ++t)
      table_[size_t(l) * S + t] = std::max(table_[size_t(l - 1) * S + t], table_[size_t(l - 1) * S + t + (1 << (l - 1))]);
  return true;
}

int64_t ProofSearch::range_max(int lo, int hi) const {
  int l = 0;
  while ((2 << l) <= hi - lo) ++l;
  const int64_t* row = table_.data() + size_t(l) * segments_;
  return std::max(row[lo], row[hi - (1 << l)]);
}

bool ProofSearch::forward_check(std::vector<char>* live) {
  const SearchModel& pm = *pm_;
  if (pieces_.empty()) return true;
  for (bool changed = true; changed;) {
    changed = false;
    if (!least_usage(*live)) return false;
    for (int a = 0; a < pm.n; ++a) {
      if (piece_off_[a] == piece_off_[a + 1]) continue;
      int left = 0;
      for (int k = 0; k < pm.dom_size(a); ++k) {
        char& l = (*live)[pm.dom_off[a] + k];
        if (!l) continue;
        for (uint32_t q = piece_off_[a]; q < piece_off_[a + 1] && l; ++q) {
          const Piece& pc = pieces_[q];
          if (range_max(pc.lo, pc.hi) - piece_least_[q] + usage_[pc.at + k] > m_->limit) {
            l = 0;
            changed = true;
          }
        }
        left += l;
      }
      if (left == 0) return false;
    }
  }
  return true;
}

void ProofSearch::open_view() {
  const SearchModel& pm = *pm_;
  const std::vector<char>& live = current_.f.live;
  // Deep in the tree most values are dead: passes over only the live ones
  // cost a fraction of passes over the whole matrices. Near the root few
  // are, and a copy of nearly every matrix would cost memory for little.
  std::vector<uint32_t>& count = view_.dom_off;  // live strategies per node, then offsets
  count.assign(pm.n + 1, 0);
  for (int a = 0; a < pm.n; ++a)
    for (int k = 0; k < pm.dom_size(a); ++k) count[a + 1] += live[pm.dom_off[a] + k];
  const Problem& pp = *pm.p;
  auto cut = [&](int a) { return int(count[a + 1]) < pm.dom_size(a); };
  uint64_t whole = 0, copied = 0;
  for (int e = 0; e < pp.num_edges(); ++e) {
    const int u = pp.edge_u[e], v = pp.edge_v[e];
    if (u == v) continue;
    whole += uint64_t(pm.dom_size(u)) * pm.dom_size(v);
    if (cut(u) || cut(v)) copied += uint64_t(count[u + 1]) * count[v + 1];
  }
  view_pos_.clear();
  if (2 * copied > whole) {
    cm_ = pm_;
    for (size_t d = 0; d < pm.dom.size(); ++d) view_pos_.push_back(int32_t(d));
  } else {
    cm_ = &view_;
    view_.dom.clear();
    for (int a = 0; a < pm.n; ++a) {
      for (int k = 0; k < pm.dom_size(a); ++k)
        if (live[pm.dom_off[a] + k]) {
          view_.dom.push_back(pm.domain(a)[k]);
          view_pos_.push_back(int32_t(pm.dom_off[a] + k));
        }
      count[a + 1] = uint32_t(view_.dom.size());
    }
    view_.mat.resize(copied);
    view_.mat_at.assign(pp.num_edges(), nullptr);
    uint64_t at = 0;
    for (int e = 0; e < pp.num_edges(); ++e) {
      const int u = pp.edge_u[e], v = pp.edge_v[e];
      if (u == v) continue;
      if (view_.dom_size(u) == pm.dom_size(u) && view_.dom_size(v) == pm.dom_size(v)) {
        view_.mat_at[e] = pm.matrix(e);
        continue;
      }
      const double* M = pm.matrix(e);
      view_.mat_at[e] = view_.mat.data() + at;
      const int Kv = pm.dom_size(v);
      for (uint32_t j = view_.dom_off[u]; j < view_.dom_off[u + 1]; ++j) {
        const double* row = M + uint64_t(view_pos_[j] - pm.dom_off[u]) * Kv;
        for (uint32_t l = view_.dom_off[v]; l < view_.dom_off[v + 1]; ++l) view_.mat[at++] = row[view_pos_[l] - pm.dom_off[v]];
      }
    }
  }
  mp_.init(*cm_);
  // The warm messages, position by position.
  const std::vector<double>& from = current_.warm->msg;
  std::vector<double>& to = mp_.messages();
  for_each_side([&](uint64_t whole_at, uint64_t view_at) { to[view_at] = from[whole_at]; });
}

void ProofSearch::close_view() {
  std::vector<double>& to = current_.warm->msg;
  const std::vector<double>& from = mp_.messages();
  for_each_side([&](uint64_t whole_at, uint64_t view_at) { to[whole_at] = from[view_at]; });
}

template <class Map>
void ProofSearch::for_each_side(const Map& map) const {
  const SearchModel& pm = *pm_;
  for (int a = 0; a < pm.n; ++a)
    for (uint32_t j = cm_->dom_off[a]; j < cm_->dom_off[a + 1]; ++j) {
      const int k = view_pos_[j] - int(pm.dom_off[a]), kv = int(j - cm_->dom_off[a]);
      for (uint32_t q = pm.adj_off[a]; q < pm.adj_off[a + 1]; ++q)
        map(layout_.side_offset(q) + k, mp_.side_offset(q) + kv);
    }
}

bool ProofSearch::bound(const std::function<bool(Int128*)>& upper,
                       const std::function<void(const std::vector<int32_t>&, double)>& offer,
                       const std::function<bool()>* more_steps, const std::function<bool()>* should_stop) {
  const SearchModel& pm = *pm_;
  const Params& prm = m_->params;
  InFlight& c = current_;
  const std::vector<char>& live = c.f.live;
  Warm* w = c.warm.get();
  for (; c.step < prm.proof_steps; ++c.step) {
    // A pass checks the stop flag only every 1024 nodes: on small problems,
    // never; a step here is short enough to check before each.
    if (should_stop && (*should_stop)()) return false;
    if (c.step > 0 && more_steps && !(*more_steps)()) return false;
    w->relax.node_weights(&weight_);
    if (c_) {
      c_->prices(weight_, &extra_);
    } else {
      extra_.assign(pm.dom.size(), 0.0);
      for (int i = 0; i < pm.n; ++i)
        if (pm.has_interval(i))
          for (int k = 0; k < pm.dom_size(i); ++k)
            extra_[pm.dom_off[i] + k] = weight_[i] * double(pm.usage(i, pm.domain(i)[k]));
    }
    // A dead strategy left in the view costs as much as a forbidden entry: the
    // bound of this problem holds for every assignment of live strategies.
    for (size_t d = 0; d < extra_.size(); ++d)
      if (!live[d]) extra_[d] += pm.big;
    const SearchModel& cm = *cm_;
    view_extra_.resize(cm.dom.size());
    for (size_t j = 0; j < view_extra_.size(); ++j) view_extra_[j] = extra_[view_pos_[j]];
    mp_.set_extra(view_extra_);
    // A pass cut short leaves messages whose bound still holds: the step is
    // redone from them.
    for (int r = 0; r < prm.proof_passes_per_step; ++r)
      if (!mp_.iterate(&rounded_, should_stop)) return false;
    ++stats_.steps;
    double mag = 0;
    const double offset = w->relax.penalty_offset();
    const double lb = mp_.lower_bound(&mag) - offset;
    expand(rounded_, &expanded_);
    bool all_live = true;
    for (int i = 0; i < pm.n && all_live; ++i)
      all_live = live[pm.dom_off[i] + position_[pm.p->strategy_offset[i] + rounded_[i]]];
    // Costing a rounding takes a pass over the whole graph. Only a live one
    // can be offered, one refused before would be refused again, and the
    // multipliers' step needs its cost only when the bound is not a number.
    double rounding_cost = std::numeric_limits<double>::quiet_NaN();
    if ((all_live && rounded_ != refused_rounding_) || std::isnan(lb)) {
      SearchState s;
      s.init(*m_, expanded_);
      rounding_cost = s.cost;
      if (all_live) {
        offer_if_better(s, offer, upper);
        if (refuses(s)) refused_rounding_ = rounded_;
      }
    }
    const bool gained = !std::isfinite(c.best) || lb > c.best + 1e-9 * std::abs(c.best);
    if (lb > c.best) {
      c.best = lb;
      c.margin = kRoundingMargin * (mag + offset) + 1e-6;
      // The pieces in the proof model's layout; a strategy outside the view is
      // dead and has none (+inf: no minimum takes it).
      mp_.pieces(&view_node_, &view_side_);
      const double inf = std::numeric_limits<double>::infinity();
      node_piece_.assign(pm.dom.size(), inf);
      for (size_t j = 0; j < view_pos_.size(); ++j) node_piece_[view_pos_[j]] = view_node_[j];
      side_.assign(layout_.messages().size(), inf);
      for_each_side([&](uint64_t whole_at, uint64_t view_at) { side_[whole_at] = view_side_[view_at]; });
      best_rounding_ = rounded_;
    }
    c.since = gained ? 0 : c.since + 1;
    if (c.since >= prm.proof_stall) break;
    if (prunes(c.best, c.margin)) break;
    // A bound that climbs too slowly to prune its node soon is worth less
    // than its children's: each starts from its multipliers and messages
    // with one more node decided, which is where the memory rows' gap sits.
    c.trail.push_back(c.best);
    const int W = prm.proof_trend_window;
    if (prm.proof_trend_horizon > 0 && has_upper_ && int(c.trail.size()) > W) {
      const double pace = (c.best - c.trail[c.trail.size() - 1 - W]) / W;
      if (!prunes(c.best + pace * prm.proof_trend_horizon, c.margin)) break;
    }
    // The step is sized by the bound itself, not by the rounding's value: a
    // rounding that takes a removed strategy pays a forbidden entry's price, and
    // a step sized by that overshoots the multipliers far out.
    w->relax.update(expanded_, rounding_cost, upper_d_, &rng_, lb);
  }
  return true;
}

double ProofSearch::edge_piece(int a, uint32_t q, int k, int t) const {
  const SearchModel& pm = *pm_;
  const Incidence& in = pm.adj[q];
  const MessagePassing& mp = layout_;
  const double* M = pm.matrix(in.edge);
  const double entry = in.self_is_u ? M[uint64_t(k) * pm.dom_size(in.other) + t] : M[uint64_t(t) * pm.dom_size(a) + k];
  return side_[mp.side_offset(q) + k] + entry + side_[mp.side_offset(mp.reverse(q)) + t];
}

int ProofSearch::branch_node(const std::vector<char>& live) const {
  const SearchModel& pm = *pm_;
  auto free = [&](int a) {
    int n = 0;
    for (int k = 0; k < pm.dom_size(a) && n < 2; ++k) n += live[pm.dom_off[a] + k];
    return n >= 2;
  };
  auto pos = [&](int a) { return position_[pm.p->strategy_offset[a] + best_rounding_[a]]; };
  // The rounding over the limit: the most exceeded segment, and there the
  // free node whose rounded strategy uses most above its least live usage.
  const int S = segments_;
  std::vector<int64_t> over(S + 1, 0);
  for (int a = 0; a < pm.n; ++a)
    for (uint32_t q = piece_off_[a]; q < piece_off_[a + 1]; ++q) {
      over[pieces_[q].lo] += usage_[pieces_[q].at + pos(a)];
      over[pieces_[q].hi] -= usage_[pieces_[q].at + pos(a)];
    }
  int worst = -1;
  int64_t run = 0, most = m_->limit;
  for (int t = 0; t < S; ++t)
    if ((run += over[t]) > most) {
      most = run;
      worst = t;
    }
  int pick = -1;
  double score = 0;
  if (worst >= 0) {
    for (int a = 0; a < pm.n; ++a) {
      if (!free(a)) continue;
      for (uint32_t q = piece_off_[a]; q < piece_off_[a + 1]; ++q) {
        if (pieces_[q].lo > worst || pieces_[q].hi <= worst) continue;
        const int64_t* u = usage_.data() + pieces_[q].at;
        int64_t lo = std::numeric_limits<int64_t>::max();
        for (int k = 0; k < pm.dom_size(a); ++k)
          if (live[pm.dom_off[a] + k]) lo = std::min(lo, u[k]);
        const double above = double(u[pos(a)] - lo);
        if (above > score) {
          score = above;
          pick = a;
        }
      }
    }
    if (pick >= 0) return pick;
  }
  // Otherwise the node whose pieces the rounding pays most above their minima
  // (half of each edge's excess to each end).
  score = -1;
  for (int a = 0; a < pm.n; ++a) {
    if (!free(a)) continue;
    double r = node_piece_[pm.dom_off[a] + pos(a)] - node_min_[a];
    for (uint32_t q = pm.adj_off[a]; q < pm.adj_off[a + 1]; ++q)
      r += 0.5 * (edge_piece(a, q, pos(a), pos(pm.adj[q].other)) - edge_min_[pm.adj[q].edge]);
    if (r > score) {
      score = r;
      pick = a;
    }
  }
  return pick;
}

bool ProofSearch::exhausted() const {
  if (!active_) return false;
  std::lock_guard<std::mutex> lock(tree_->mu);
  return tree_->stack.empty() && tree_->in_flight == 0;
}

bool ProofSearch::has_proof() const {
  if (!exhausted()) return false;
  std::lock_guard<std::mutex> lock(tree_->mu);
  return tree_->has_upper;
}

Int128 ProofSearch::proven() const {
  std::lock_guard<std::mutex> lock(tree_->mu);
  return tree_->upper;
}

double ProofSearch::open_bound() const {
  const Tree& t = *tree_;
  std::lock_guard<std::mutex> lock(tree_->mu);
  double b = t.has_upper ? double(int64_t(t.upper)) : std::numeric_limits<double>::infinity();
  for (const Frame& f : t.stack) b = std::min(b, f.lb);
  // The nodes in flight: their parents' bounds; this search's own, its best
  // iterate's when higher, the rounding margin taken.
  for (size_t l = 0; l < t.flight.size(); ++l)
    if (int(l) != lane_) b = std::min(b, t.flight[l]);
  if (current_.on() && generation_ == t.generation)
    b = std::min(b, std::max(current_.f.lb, current_.best - current_.margin));
  return b;
}

void ProofSearch::release(bool root_done) {
  Tree& t = *tree_;
  std::lock_guard<std::mutex> lock(t.mu);
  if (generation_ == t.generation) {  // else the tree started afresh meanwhile
    --t.in_flight;
    t.flight[lane_] = std::numeric_limits<double>::infinity();
    if (root_done) {
      t.root_done = true;
      t.root_upper = root_upper_;
    }
    for (Frame& c : children_) t.stack.push_back(std::move(c));
  }
  children_.clear();
}

bool ProofSearch::run(const std::function<bool(Int128*)>& upper,
                      const std::function<void(const std::vector<int32_t>&, double)>& offer,
                      const std::function<bool()>& more, const std::function<bool()>* more_steps,
                      const std::function<bool()>* should_stop) {
  if (!active_) return false;
  refresh_upper(upper);
  Tree& t = *tree_;
  // The tree starts afresh, from the root, when the incumbent improved since
  // its root was bounded: a root bounded against a worse incumbent steers its
  // multipliers and its branching elsewhere, and subtrees branched against it
  // are costly (a proof started from the optimum can take many times as many
  // tree nodes without the restart as with it). Only once
  // the root is done, so a large problem's root, slower than the incumbent's
  // improvements, is still finished. The nodes in flight in other searches
  // are then dropped by them (their generation is past).
  {
    std::lock_guard<std::mutex> lock(t.mu);
    if (t.root_done && has_upper_ && upper_d_ < t.root_upper) fresh_start(t.first_budget);
    if (current_.on() && generation_ != t.generation) current_ = {};
  }
  const auto stack_empty = [&] {
    std::lock_guard<std::mutex> lock(t.mu);
    return t.stack.empty();
  };
  while (current_.on() || (!stack_empty() && more())) {
    if (!current_.on()) {
      Frame f;
      {
        std::lock_guard<std::mutex> lock(t.mu);
        if (t.stack.empty()) break;  // another search took the last one
        // Tree sizes are heavy-tailed: the random steps of the bounds make
        // some paths through the same tree far longer than others (the same
        // proof can be done in a few hundred tree nodes on one stream of
        // random steps and not after several times that on another). A fresh start
        // after a budget of nodes that grows each time (after Luby et al.)
        // samples another path, and the growing budget still gives a tree
        // that needs a long path one.
        if (t.budget > 0 && t.root_done && double(t.popped) >= t.budget) {
          fresh_start(t.budget * std::max(1.0, m_->params.proof_restart_growth));
          ++stats_.budget_restarts;
        }
        ++t.popped;
        f = std::move(t.stack.back());
        t.stack.pop_back();
        ++t.in_flight;
        t.flight[lane_] = f.lb;
        generation_ = t.generation;
      }
      ++stats_.nodes;
      // Its parent's bound, against an incumbent that may have improved
      // since the parent was branched.
      if (prunes(f.lb, 0)) {
        ++stats_.pruned_bound;
        release(false);
        continue;
      }
      if (!forward_check(&f.live)) {
        ++stats_.pruned_memory;
        release(false);
        continue;
      }
      current_ = InFlight{std::make_shared<Warm>(*f.warm), std::move(f)};
      open_view();
    }
    if (!bound(upper, offer, more_steps, should_stop)) return false;  // paused: again next time
    close_view();
    const bool root = current_.f.root;
    settle(upper, offer);  // takes the node out of flight
    release(root);
  }
  return exhausted();
}

void ProofSearch::settle(const std::function<bool(Int128*)>& upper,
                         const std::function<void(const std::vector<int32_t>&, double)>& offer) {
  const SearchModel& pm = *pm_;
  Frame& f = current_.f;
  const double lb = current_.best, margin = current_.margin;
  std::shared_ptr<const Warm> shared = std::move(current_.warm);  // out of flight
  if (f.root) root_upper_ = upper_d_;
  if (prunes(lb, margin)) {
    ++stats_.pruned_bound;
    return;
  }
  // Reduced costs: the pieces' minima, and each strategy's bound with it fixed.
  node_min_.assign(pm.n, 0.0);
  edge_min_.assign(pm.p->num_edges(), 0.0);
  for (int a = 0; a < pm.n; ++a) {
    node_min_[a] = *std::min_element(node_piece_.begin() + pm.dom_off[a], node_piece_.begin() + pm.dom_off[a + 1]);
    for (uint32_t q = pm.adj_off[a]; q < pm.adj_off[a + 1]; ++q) {
      if (!pm.adj[q].self_is_u) continue;
      double lo = std::numeric_limits<double>::infinity();
      for (int k = 0; k < pm.dom_size(a); ++k)
        for (int t = 0; t < pm.dom_size(pm.adj[q].other); ++t) lo = std::min(lo, edge_piece(a, q, k, t));
      edge_min_[pm.adj[q].edge] = lo;
    }
  }
  bool empty = false;
  for (int a = 0; a < pm.n && !empty && has_upper_; ++a) {
    const int Ka = pm.dom_size(a);
    int left = 0;
    for (int k = 0; k < Ka; ++k) {
      char& l = f.live[pm.dom_off[a] + k];
      if (!l) continue;
      double v = lb - node_min_[a] + node_piece_[pm.dom_off[a] + k];
      for (uint32_t q = pm.adj_off[a]; q < pm.adj_off[a + 1]; ++q) {
        const int o = pm.adj[q].other;
        double lo = std::numeric_limits<double>::infinity();
        for (int t = 0; t < pm.dom_size(o); ++t)
          if (f.live[pm.dom_off[o] + t]) lo = std::min(lo, edge_piece(a, q, k, t));
        v += lo - edge_min_[pm.adj[q].edge];
      }
      if (prunes(v, margin)) l = 0;
      left += l;
    }
    empty = left == 0;
  }
  if (empty) {
    ++stats_.pruned_bound;
    return;
  }
  const int a = branch_node(f.live);
  if (a < 0) {  // every node decided: a leaf, costed exactly
    ++stats_.leaves;
    std::vector<int32_t> leaf(pm.n);
    for (int i = 0; i < pm.n; ++i)
      for (int k = 0; k < pm.dom_size(i); ++k)
        if (f.live[pm.dom_off[i] + k]) leaf[i] = pm.domain(i)[k];
    expand(leaf, &expanded_);
    SearchState s;
    s.init(*m_, expanded_);
    offer_if_better(s, offer, upper);
    return;
  }
  // Children: one per usage class of the node's live strategies (strategies with
  // the same usage on each of its pieces: memory cannot tell them apart, the
  // pairwise bound can), or one per strategy when all share one class. The
  // rounding's class first, then by the least node piece in the class;
  // pushed in reverse so the first is searched first.
  const int Ka = pm.dom_size(a);
  const int first = position_[pm.p->strategy_offset[a] + best_rounding_[a]];
  std::vector<int> cls(Ka, -1);  // per live strategy: the least live strategy of its class
  std::vector<int> heads;        // one strategy per class
  for (int k = 0; k < Ka; ++k) {
    if (!f.live[pm.dom_off[a] + k]) continue;
    if (m_->params.proof_branch_classes)
      for (int h : heads) {
        bool same = true;
        for (uint32_t q = piece_off_[a]; q < piece_off_[a + 1] && same; ++q)
          same = usage_[pieces_[q].at + k] == usage_[pieces_[q].at + h];
        if (same) {
          cls[k] = h;
          break;
        }
      }
    if (cls[k] < 0) {
      cls[k] = k;
      heads.push_back(k);
    }
  }
  if (heads.size() < 2) {  // one class: branch on the strategies
    heads.clear();
    for (int k = 0; k < Ka; ++k)
      if (f.live[pm.dom_off[a] + k]) heads.push_back(cls[k] = k);
  }
  std::vector<double> least(Ka, std::numeric_limits<double>::infinity());
  for (int k = 0; k < Ka; ++k)
    if (f.live[pm.dom_off[a] + k]) least[cls[k]] = std::min(least[cls[k]], node_piece_[pm.dom_off[a] + k]);
  const int first_class = cls[first];
  std::sort(heads.begin(), heads.end(), [&](int x, int y) {
    if ((x == first_class) != (y == first_class)) return x == first_class;
    if (least[x] != least[y]) return least[x] < least[y];
    return x < y;
  });
  // A child's bound: its parent's, or its parent's parent's when that is
  // higher (a bound warm-started from its parent can end below it).
  const double inherited = std::max(lb - margin, f.lb);
  for (auto it = heads.rbegin(); it != heads.rend(); ++it) {
    Frame child{f.live, shared, inherited, false};
    for (int k = 0; k < Ka; ++k)
      if (f.live[pm.dom_off[a] + k] && cls[k] != *it) child.live[pm.dom_off[a] + k] = 0;
    children_.push_back(std::move(child));
  }
}

}  // namespace iopddl
