#include "reduce_domains.h"

#include <algorithm>

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

}  // namespace

ReduceStats reduce_domains(SearchModel* m, const std::function<bool()>* should_stop) {
  ReduceStats st;
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
        for (uint32_t a = m->adj_off[i]; a < m->adj_off[i + 1]; ++a) {
          int o = m->adj[a].other;
          if (!queued[o]) { queued[o] = 1; queue.push_back(o); }
        }
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
        for (uint32_t a = m->adj_off[i]; a < m->adj_off[i + 1]; ++a) {
          int o = m->adj[a].other;
          if (!queued[o]) { queued[o] = 1; queue.push_back(o); }
        }
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
