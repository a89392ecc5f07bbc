#include "search_form.h"

#include <algorithm>
#include <new>
#include <vector>

#include "int128.h"

namespace iopddl {

namespace {

// The edge's storage, whatever it holds, for the one pass that rewrites it.
int64_t* writable_words(Problem* p, int e) {
  return const_cast<int64_t*>(p->edge_words(e));
}

// 1 + the sum of every node's and every edge's largest finite cost, given the
// edges' (one pass over the matrices, shared with the check below).
double forbidden_cost_from(const Problem& p, const std::vector<int64_t>& edge_max) {
  double total = 1;
  for (int i = 0; i < p.num_nodes(); ++i) {
    int64_t mx = 0;
    for (int s = 0; s < p.num_strategies(i); ++s)
      if (p.cost(i, s) < kForbiddenThreshold) mx = std::max(mx, p.cost(i, s));
    total += double(mx);
  }
  for (int64_t mx : edge_max) total += double(mx);
  return std::min(std::max(total, 1e6), 1e15);
}

// The summary of matrices still in integers, edge by edge.
EdgeCostSummary summarize(const Problem& p) {
  EdgeCostSummary summary;
  for (int e = 0; e < p.num_edges(); ++e) summary.add_row(p.edge_words(e), p.edge_size(e));
  return summary;
}

}  // namespace

double forbidden_cost_for_search(const Problem& p) {
  if (p.edge_form == EdgeForm::kSearchDoubles) return p.forbidden_as;
  return forbidden_cost_from(p, summarize(p).edge_max);
}

// Without branches: whether an entry is forbidden is as good as random, and a
// mispredicted branch per entry cost as much as the whole pass.
void EdgeCostSummary::add_row(const int64_t* row, uint64_t len) {
  int64_t mx = 0, mn = 0, fmin = INT64_MAX, fmax = INT64_MIN;
  for (uint64_t k = 0; k < len; ++k) {
    const int64_t c = row[k];
    const bool forbidden = c >= kForbiddenThreshold;
    mx = std::max(mx, forbidden ? 0 : c);
    mn = std::min(mn, c);
    fmin = std::min(fmin, forbidden ? c : INT64_MAX);
    fmax = std::max(fmax, forbidden ? c : INT64_MIN);
  }
  edge_max.push_back(mx);
  finite_max = std::max(finite_max, mx);
  finite_min = std::min(finite_min, mn);
  forbidden_min = std::min(forbidden_min, fmin);
  forbidden_max = std::max(forbidden_max, fmax);
}

bool store_edges_for_search(Problem* p, const EdgeCostSummary* summary) {
  if (p->edge_form == EdgeForm::kSearchDoubles) return true;
  EdgeCostSummary own;
  if (!summary) {
    own = summarize(*p);
    summary = &own;
  }
  constexpr int64_t kExact = int64_t(1) << 53;
  if (summary->forbidden_min < summary->forbidden_max || summary->finite_min <= -kExact ||
      summary->finite_max >= kExact)
    return false;
  const double big = forbidden_cost_from(*p, summary->edge_max);
  if (double(summary->finite_max) >= big) return false;
  // Each entry becomes a double object in the same 8 bytes (placement new ends
  // the integer's lifetime), so that the search may read the rows as doubles.
  for (int e = 0; e < p->num_edges(); ++e) {
    int64_t* M = writable_words(p, e);
    const uint64_t len = p->edge_size(e);
    for (uint64_t k = 0; k < len; ++k) {
      const int64_t c = M[k];
      const double d = double(c);
      new (&M[k]) double(c >= kForbiddenThreshold ? big : d);
    }
  }
  p->edge_form = EdgeForm::kSearchDoubles;
  p->forbidden_as = big;
  p->forbidden_value = summary->seen_forbidden() ? summary->forbidden_min : kForbiddenThreshold;
  return true;
}

}  // namespace iopddl
