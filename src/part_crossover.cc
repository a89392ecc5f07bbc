#include "part_crossover.h"

#include <algorithm>

#include "search_state.h"

namespace iopddl {

void PartCrossover::flip(const SearchModel& m, const std::vector<int32_t>& base, const std::vector<int32_t>& other,
                         int c) {
  const Problem& p = *m.p;
  const int sign = taken_[c] ? -1 : 1;
  for (int32_t q = parts_off_[c]; q < parts_off_[c + 1]; ++q) {
    const int i = members_[q];
    if (m.has_interval(i)) usage_.add(p.seg_lo[i], p.seg_hi[i], sign * (m.usage(i, other[i]) - m.usage(i, base[i])));
  }
  taken_[c] = !taken_[c];
}

bool PartCrossover::cross(const SearchModel& m, const std::vector<int32_t>& base, const std::vector<int32_t>& other,
                          std::vector<int32_t>* out, CrossoverStats* stats) {
  *stats = CrossoverStats{};
  const int n = m.n;
  // The parts: connected components of the nodes where the answers differ.
  part_of_.assign(n, -1);
  parts_off_.assign(1, 0);
  members_.clear();
  int parts = 0;
  for (int r = 0; r < n; ++r) {
    if (base[r] == other[r] || part_of_[r] >= 0) continue;
    part_of_[r] = parts;
    stack_.assign(1, r);
    while (!stack_.empty()) {
      const int x = stack_.back();
      stack_.pop_back();
      members_.push_back(x);
      for (uint32_t a = m.adj_off[x]; a < m.adj_off[x + 1]; ++a) {
        const int o = m.adj[a].other;
        if (base[o] != other[o] && part_of_[o] < 0) {
          part_of_[o] = parts;
          stack_.push_back(o);
        }
      }
    }
    parts_off_.push_back(int32_t(members_.size()));
    stats->largest = std::max(stats->largest, int(members_.size()) - parts_off_[parts]);
    ++parts;
  }
  stats->differing = int(members_.size());
  stats->parts = parts;
  if (parts == 0) return false;
  // Each part's change of cost: its nodes' own, and every edge that touches
  // it (once: an edge inside the part from its lower end).
  dcost_.assign(parts, 0.0);
  for (int c = 0; c < parts; ++c) {
    double d = 0;
    for (int32_t q = parts_off_[c]; q < parts_off_[c + 1]; ++q) {
      const int i = members_[q];
      d += m.node_cost(i, other[i]) - m.node_cost(i, base[i]);
      for (uint32_t a = m.adj_off[i]; a < m.adj_off[i + 1]; ++a) {
        const Incidence& inc = m.adj[a];
        const int o = inc.other;
        if (part_of_[o] == c) {
          if (o < i) continue;
          d += m.pair_cost(inc, other[i], other[o]) - m.pair_cost(inc, base[i], base[o]);
        } else {
          d += m.pair_cost(inc, other[i], base[o]) - m.pair_cost(inc, base[i], base[o]);
        }
      }
    }
    dcost_[c] = d;
  }
  // The parts that make the base cheaper, taken.
  taken_.assign(parts, 0);
  const Problem& p = *m.p;
  const bool limited = m.has_limit && p.num_segments() > 0;
  if (limited) usage_.init(usage_per_segment(m, base));
  for (int c = 0; c < parts; ++c)
    if (dcost_[c] < 0) {
      if (limited) flip(m, base, other, c);
      else taken_[c] = 1;
    }
  if (limited) {
    at_peak_.assign(parts, 0);
    // While over the limit, one trade at the highest point: drop a taken part
    // that adds memory there or take one that frees it, the least cost per
    // unit of memory first. Each part moves at most once.
    moved_.assign(parts, 0);
    for (int round = 0;; ++round) {
      if (usage_.global_max() <= m.limit) break;
      if (round >= kMaxTrades) return false;
      const int peak = usage_.argmax();
      std::fill(at_peak_.begin(), at_peak_.end(), 0);
      for (const int i : members_)
        if (p.seg_lo[i] <= peak && peak < p.seg_hi[i])
          at_peak_[part_of_[i]] += m.usage(i, other[i]) - m.usage(i, base[i]);
      int pick = -1;
      double pick_rate = 0;
      for (int c = 0; c < parts; ++c) {
        if (moved_[c]) continue;
        // Memory freed at the peak by moving part c, and what it costs.
        const int64_t freed = taken_[c] ? at_peak_[c] : -at_peak_[c];
        if (freed <= 0) continue;
        const double price = taken_[c] ? -dcost_[c] : dcost_[c];
        const double rate = price / double(freed);
        if (pick < 0 || rate < pick_rate) {
          pick = c;
          pick_rate = rate;
        }
      }
      if (pick < 0) return false;
      flip(m, base, other, pick);
      moved_[pick] = 1;
    }
  }
  double total = 0;
  for (int c = 0; c < parts; ++c)
    if (taken_[c]) {
      total += dcost_[c];
      ++stats->taken;
    }
  if (!(total < -0.5)) return false;
  *out = base;
  for (int c = 0; c < parts; ++c)
    if (taken_[c])
      for (int32_t q = parts_off_[c]; q < parts_off_[c + 1]; ++q) (*out)[members_[q]] = other[members_[q]];
  return true;
}

}  // namespace iopddl
