#include "reduce_domains.h"

#include <algorithm>
#include <cmath>

#include "int128.h"
#include "out_of_line.h"
#include "usage_tree.h"

namespace iopddl {
namespace {

// Rebuilds dom/dom_off keeping strategies with keep[offset + s].
void compact(SearchModel* m, const std::vector<char>& keep) {
  const Problem& p = *m->p;
  std::vector<int32_t> dom;
  dom.reserve(m->dom.size());
  std::vector<uint32_t> off(m->n + 1, 0);
  for (int i = 0; i < m->n; ++i) {
    for (int k = 0; k < m->dom_size(i); ++k) {
      int s = m->domain(i)[k];
      if (keep[p.strategy_offset[i] + s]) dom.push_back(s);
    }
    off[i + 1] = uint32_t(dom.size());
  }
  m->dom.swap(dom);
  m->dom_off.swap(off);
}

// The strategies still live: a flag per strategy (the problem's indexing) and
// a count per node.
struct LiveStrategies {
  const Problem& p;
  std::vector<char> keep;
  std::vector<int> count;
  bool has(int i, int s) const { return keep[p.strategy_offset[i] + s]; }
  void remove(int i, int s, int64_t* counter) {
    keep[p.strategy_offset[i] + s] = 0;
    count[i]--;
    (*counter)++;
  }
};

// Arc consistency at node i: removes each strategy of i that some neighbour
// can meet only with forbidden pairs; true if any went (counted in *removed).
IOPDDL_OUT_OF_LINE bool revise_arcs(const SearchModel& m, int i, LiveStrategies* live, int64_t* removed) {
  const Problem& p = *m.p;
  bool changed = false;
  for (uint32_t a = m.adj_off[i]; a < m.adj_off[i + 1]; ++a) {
    const Incidence& inc = m.adj[a];
    const int o = inc.other;
    for (int s = 0; s < p.num_strategies(i); ++s) {
      if (!live->has(i, s)) continue;
      bool supported = false;
      for (int t = 0; t < p.num_strategies(o) && !supported; ++t)
        supported = live->has(o, t) && m.pair_raw(inc, s, t) < kForbiddenThreshold;
      if (!supported) {
        live->remove(i, s, removed);
        changed = true;
      }
    }
    if (live->count[i] == 0) break;
  }
  return changed;
}

// An edge entry as the reductions compare it: every forbidden value alike.
int64_t entry_key(const SearchModel& m, const Incidence& inc, int s, int t) {
  return std::min<int64_t>(m.pair_raw(inc, s, t), kForbiddenThreshold);
}

// Repeats at node i: live strategies with the same usage (when i has an
// interval) and the same entries on every edge against the neighbours' live
// strategies differ only in their own cost, so the cheapest of them (the
// first among equals) can replace any other in any answer, for no more. The
// others go. Strategies are bucketed by a hash of their usage and a sample of
// their entries (against at most kSampled live strategies per neighbour: the
// whole rows would cost as much as reading every matrix twice), and each is
// checked entry by entry against its bucket's cheapest before it goes.
IOPDDL_OUT_OF_LINE void remove_repeats(const SearchModel& m, int i, LiveStrategies* live, int64_t* removed,
                                       std::vector<std::pair<uint64_t, int>>* scratch,
                                       std::vector<int32_t>* sampled) {
  constexpr int kSampled = 4;
  const Problem& p = *m.p;
  std::vector<std::pair<uint64_t, int>>& sig = *scratch;
  sig.clear();
  const bool timed = m.has_interval(i);
  // A signature's hash: the usage (when it counts), then entries mixed in.
  const auto usage_seed = [&](int s) { return timed ? uint64_t(p.usage(i, s)) * 0x9E3779B97F4A7C15ull : 0; };
  const auto mix = [](uint64_t h, int64_t v) {
    h = (h ^ uint64_t(v)) * 0x100000001B3ull;
    return h ^ (h >> 29);
  };
  // Per incidence, the neighbour's first live strategies (-1: fewer).
  const uint32_t a0 = m.adj_off[i], a1 = m.adj_off[i + 1];
  sampled->assign(size_t(a1 - a0) * kSampled, -1);
  for (uint32_t a = a0; a < a1; ++a) {
    const int o = m.adj[a].other;
    int taken = 0;
    for (int t = 0; t < p.num_strategies(o) && taken < kSampled; ++t)
      if (live->has(o, t)) (*sampled)[size_t(a - a0) * kSampled + taken++] = t;
  }
  for (int s = 0; s < p.num_strategies(i); ++s) {
    if (!live->has(i, s)) continue;
    uint64_t h = usage_seed(s);
    for (uint32_t a = a0; a < a1; ++a)
      for (int k = 0; k < kSampled; ++k) {
        const int t = (*sampled)[size_t(a - a0) * kSampled + k];
        if (t < 0) break;
        h = mix(h, entry_key(m, m.adj[a], s, t));
      }
    sig.push_back({h, s});
  }
  if (sig.size() < 2) return;
  std::sort(sig.begin(), sig.end());  // by hash, then by index
  // The whole signature's hash, for the members of a sampled bucket.
  const auto full_hash = [&](int s) {
    uint64_t h = usage_seed(s);
    for (uint32_t a = a0; a < a1; ++a) {
      const Incidence& inc = m.adj[a];
      for (int t = 0; t < p.num_strategies(inc.other); ++t)
        if (live->has(inc.other, t)) h = mix(h, entry_key(m, inc, s, t));
    }
    return h;
  };
  const auto same = [&](int s, int r) {
    if (timed && p.usage(i, s) != p.usage(i, r)) return false;
    for (uint32_t a = a0; a < a1; ++a) {
      const Incidence& inc = m.adj[a];
      for (int t = 0; t < p.num_strategies(inc.other); ++t)
        if (live->has(inc.other, t) && entry_key(m, inc, s, t) != entry_key(m, inc, r, t)) return false;
    }
    return true;
  };
  for (size_t b = 0; b < sig.size();) {
    size_t e = b + 1;
    while (e < sig.size() && sig[e].first == sig[b].first) ++e;
    if (e - b > 1) {
      // Re-bucketed by the whole signature's hash (by index among equals).
      for (size_t k = b; k < e; ++k) sig[k].first = full_hash(sig[k].second);
      std::sort(sig.begin() + b, sig.begin() + e);
      for (size_t c = b; c < e;) {
        size_t d = c + 1;
        while (d < e && sig[d].first == sig[c].first) ++d;
        // The cheapest, the first among equals.
        int keep = sig[c].second;
        for (size_t k = c + 1; k < d; ++k)
          if (m.node_cost(i, sig[k].second) < m.node_cost(i, keep)) keep = sig[k].second;
        for (size_t k = c; k < d; ++k) {
          const int s = sig[k].second;
          if (s != keep && same(s, keep)) live->remove(i, s, removed);
        }
        c = d;
      }
    }
    b = e;
  }
}

// Dominated strategies at node i (Goldstein's dead-end elimination): b goes
// when some other live a uses no more memory (under a limit) and, whatever the neighbours
// choose among their live strategies, costs no more:
//   unary(b) - unary(a) + sum over edges of min over t (E(b,t) - E(a,t)) >= 0,
// where t runs over the neighbour's strategies that b may meet (a forbidden
// entry of a there rules a out). Any answer with b then costs no less with a,
// and fits as well. Judged against `live` as it was before the pass (a
// smaller neighbour domain only raises the minimums), so the pass's verdicts
// do not depend on the order of the nodes; the removals land in `gone`.
//
// The live strategies' rows are copied side by side first (a node whose rows
// hold more than `budget` entries is skipped). Each edge's term is at most
// its value at t = where b's row is cheapest, so the sum of those values
// bounds the whole from above: a pair starts from that bound and replaces it
// term by term with the true minimum, stopping once it is negative.
struct DominanceScratch {
  std::vector<int32_t> strategies;
  std::vector<uint32_t> col_off;  // incidence e's live partners: columns col_off[e] .. col_off[e + 1]
  std::vector<int64_t> rows;      // strategy x's entries: rows[x * width + column]; forbidden: INT64_MAX
  std::vector<uint32_t> cheapest; // strategy x, incidence e: the column of its row's least allowed entry
  std::vector<char> out;
};

IOPDDL_OUT_OF_LINE void find_dominated(const SearchModel& m, int i, const LiveStrategies& live, double budget,
                                       DominanceScratch* sc, std::vector<std::pair<int, int>>* gone) {
  const Problem& p = *m.p;
  std::vector<int32_t>& L = sc->strategies;
  L.clear();
  for (int s = 0; s < p.num_strategies(i); ++s)
    if (live.has(i, s)) L.push_back(s);
  const int k = int(L.size());
  if (k < 2) return;
  const uint32_t a0 = m.adj_off[i];
  const int degree = int(m.adj_off[i + 1] - a0);
  sc->col_off.assign(1, 0);
  for (int e = 0; e < degree; ++e) sc->col_off.push_back(sc->col_off.back() + live.count[m.adj[a0 + e].other]);
  const size_t width = sc->col_off.back();
  if (double(k) * double(width) > budget) return;
  // Unary costs are doubles; they are exact integers below 2^52.
  for (int s : L)
    if (!(std::abs(m.node_cost(i, s)) < 4503599627370496.0)) return;
  sc->rows.resize(size_t(k) * width);
  sc->cheapest.assign(size_t(k) * degree, UINT32_MAX);
  for (int e = 0; e < degree; ++e) {
    const Incidence& inc = m.adj[a0 + e];
    // Along the matrix's rows (this end is the edge's u) or down its columns.
    const auto put = [&](int x, uint32_t c, int t) {
      const int64_t v = m.pair_raw(inc, L[x], t);
      sc->rows[size_t(x) * width + c] = v >= kForbiddenThreshold ? INT64_MAX : v;
    };
    const int kt = p.num_strategies(inc.other);
    if (inc.self_is_u) {
      for (int x = 0; x < k; ++x)
        for (int t = 0, c = int(sc->col_off[e]); t < kt; ++t)
          if (live.has(inc.other, t)) put(x, uint32_t(c++), t);
    } else {
      for (int t = 0, c = int(sc->col_off[e]); t < kt; ++t)
        if (live.has(inc.other, t)) {
          for (int x = 0; x < k; ++x) put(x, uint32_t(c), t);
          ++c;
        }
    }
    for (int x = 0; x < k; ++x) {
      const int64_t* r = sc->rows.data() + size_t(x) * width;
      uint32_t best = UINT32_MAX;
      for (uint32_t j = sc->col_off[e]; j < sc->col_off[e + 1]; ++j)
        if (r[j] != INT64_MAX && (best == UINT32_MAX || r[j] < r[best])) best = j;
      sc->cheapest[size_t(x) * degree + e] = best;
    }
  }
  // Memory counts where there is a limit to meet.
  const bool timed = m.has_limit && m.has_interval(i);
  sc->out.assign(k, 0);
  for (int x = 0; x < k; ++x) {
    const int b = L[x];
    const int64_t* rb = sc->rows.data() + size_t(x) * width;
    const uint32_t* cb = sc->cheapest.data() + size_t(x) * degree;
    for (int y = 0; y < k && !sc->out[x]; ++y) {
      if (y == x || sc->out[y]) continue;
      const int a = L[y];
      if (timed && p.usage(i, a) > p.usage(i, b)) continue;
      const int64_t* ra = sc->rows.data() + size_t(y) * width;
      // The bound: each term at b's cheapest column (none: b meets nothing
      // there, after arc consistency only if the reductions were cut short,
      // and the term is 0).
      Int128 bound = Int128(int64_t(m.node_cost(i, b))) - Int128(int64_t(m.node_cost(i, a)));
      bool ruled_out = false;
      for (int e = 0; e < degree && !ruled_out; ++e) {
        if (cb[e] == UINT32_MAX) continue;
        if (ra[cb[e]] == INT64_MAX) ruled_out = true;
        else bound += rb[cb[e]] - ra[cb[e]];
      }
      if (ruled_out) continue;
      for (int e = 0; e < degree && bound >= 0; ++e) {
        if (cb[e] == UINT32_MAX) continue;
        const int64_t at_cheapest = rb[cb[e]] - ra[cb[e]];
        int64_t term = at_cheapest;
        for (uint32_t j = sc->col_off[e]; j < sc->col_off[e + 1]; ++j) {
          if (rb[j] == INT64_MAX) continue;
          if (ra[j] == INT64_MAX) {
            term = INT64_MIN;
            break;
          }
          term = std::min(term, rb[j] - ra[j]);
        }
        if (term == INT64_MIN) bound = -1;
        else bound -= at_cheapest - term;
      }
      if (bound >= 0) sc->out[x] = 1;
    }
  }
  for (int x = 0; x < k; ++x)
    if (sc->out[x]) gone->push_back({i, L[x]});
}

// Queues node i's neighbours that are not queued yet (the reductions' work
// lists: a removal at i can only change what its neighbours may lose).
void queue_neighbours(const SearchModel& m, int i, std::vector<char>* queued, std::vector<int>* queue) {
  for (uint32_t a = m.adj_off[i]; a < m.adj_off[i + 1]; ++a) {
    const int o = m.adj[a].other;
    if (!(*queued)[o]) {
      (*queued)[o] = 1;
      queue->push_back(o);
    }
  }
}

}  // namespace

ReduceStats reduce_domains(SearchModel* m, const std::function<bool()>* should_stop) {
  ReduceStats st;
  m->memory_rate = 0;
  const Problem& p = *m->p;
  const int n = m->n;
  LiveStrategies live{p, std::vector<char>(p.total_strategies(), 0), std::vector<int>(n)};
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < m->dom_size(i); ++k) live.keep[p.strategy_offset[i] + m->domain(i)[k]] = 1;
    live.count[i] = m->dom_size(i);
  }

  // 1. Strategies whose own cost is forbidden.
  for (int i = 0; i < n; ++i)
    for (int s = 0; s < p.num_strategies(i); ++s)
      if (live.has(i, s) && m->node_cost(i, s) >= m->big && live.count[i] > 0)
        live.remove(i, s, &st.removed_forbidden_node);

  // 2./3. Arc consistency on forbidden edge entries, and the memory rule, to a fixpoint.
  std::vector<char> queued(n, 1);
  std::vector<int> queue(n);
  for (int i = 0; i < n; ++i) queue[i] = i;
  bool changed_any = true;
  for (int outer = 0; changed_any && outer < 50; ++outer) {
    changed_any = false;
    size_t head = 0;
    while (head < queue.size()) {
      if (should_stop && (head & 255) == 0 && (*should_stop)()) break;
      int i = queue[head++];
      queued[i] = 0;
      const bool changed = revise_arcs(*m, i, &live, &st.removed_arc);
      if (live.count[i] == 0) { st.wiped_out = true; break; }
      if (changed) {
        changed_any = true;
        queue_neighbours(*m, i, &queued, &queue);
      }
    }
    queue.clear();
    if (st.wiped_out) break;
    if (!m->has_limit || p.num_segments() == 0) break;
    // Memory: with every other node at its least usage, strategy s of node i
    // must still fit somewhere in i's interval.
    UsageTree base;
    base.init(p.num_segments());
    std::vector<int64_t> umin(n, 0);
    for (int i = 0; i < n; ++i) {
      if (!m->has_interval(i)) continue;
      int64_t best = INT64_MAX;
      for (int s = 0; s < p.num_strategies(i); ++s)
        if (live.has(i, s)) best = std::min(best, p.usage(i, s));
      umin[i] = best;
      base.add(p.seg_lo[i], p.seg_hi[i], best);
    }
    if (base.global_max() > m->limit) { st.wiped_out = true; break; }
    for (int i = 0; i < n; ++i) {
      if (!m->has_interval(i)) continue;
      int64_t room = m->limit - base.max(p.seg_lo[i], p.seg_hi[i]);
      bool changed = false;
      for (int s = 0; s < p.num_strategies(i); ++s) {
        if (live.has(i, s) && p.usage(i, s) - umin[i] > room) {
          live.remove(i, s, &st.removed_memory);
          changed = true;
        }
      }
      if (changed) {
        changed_any = true;
        queue_neighbours(*m, i, &queued, &queue);
      }
    }
  }
  for (int i = 0; i < n && !st.wiped_out; ++i)
    if (live.count[i] == 0) st.wiped_out = true;
  // 4. Repeats (after the fixpoint: removing one takes no support or room
  // from anything, so nothing else can go because of it).
  if (!st.wiped_out) {
    std::vector<std::pair<uint64_t, int>> scratch;
    std::vector<int32_t> sampled;
    for (int i = 0; i < n; ++i) {
      if (should_stop && (i & 255) == 0 && (*should_stop)()) break;
      if (live.count[i] > 1) remove_repeats(*m, i, &live, &st.removed_repeat, &scratch, &sampled);
    }
  }
  // 5. Dominated strategies, in passes over the nodes next to a removal;
  // the memory prices' scale is measured first (search_model.h).
  if (!st.wiped_out) m->memory_rate = typical_memory_rate(*m, &live.keep);
  if (!st.wiped_out && m->params.dominance_budget > 0) {
    DominanceScratch scratch;
    std::vector<std::pair<int, int>> gone;
    std::vector<int> nodes(n);
    for (int i = 0; i < n; ++i) nodes[i] = i;
    std::vector<char> mark(n, 0);
    for (int pass = 0; pass < 8 && !nodes.empty(); ++pass) {
      gone.clear();
      for (size_t k = 0; k < nodes.size(); ++k) {
        if (should_stop && (k & 255) == 0 && (*should_stop)()) break;
        find_dominated(*m, nodes[k], live, m->params.dominance_budget, &scratch, &gone);
      }
      for (const auto& g : gone) live.remove(g.first, g.second, &st.removed_dominated);
      nodes.clear();
      for (const auto& g : gone) queue_neighbours(*m, g.first, &mark, &nodes);
      std::sort(nodes.begin(), nodes.end());
      for (int o : nodes) mark[o] = 0;
    }
  }
  if (st.wiped_out) {
    m->build(p, m->usage_limit());  // back to full domains; the search minimises the violation
    m->build_matrices();
    return st;
  }
  compact(m, live.keep);
  m->build_matrices();
  for (int i = 0; i < n; ++i) st.nodes_fixed += m->dom_size(i) == 1;
  return st;
}

}  // namespace iopddl
