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

}  // namespace

double forbidden_cost_for_search(const Problem& p) {
  std::vector<int64_t> edge_max(p.num_edges(), 0);
  for (int e = 0; e < p.num_edges(); ++e)
    p.for_each_entry(e, [&mx = edge_max[e]](int64_t c) {
      if (c < kForbiddenThreshold) mx = std::max(mx, c);
    });
  return forbidden_cost_from(p, edge_max);
}

bool store_edges_for_search(Problem* p) {
  if (p->edge_form == EdgeForm::kSearchDoubles) return true;
  constexpr int64_t kExact = int64_t(1) << 53;
  bool seen_forbidden = false;
  int64_t forbidden = 0, finite_max = 0;
  std::vector<int64_t> edge_max(p->num_edges(), 0);
  for (int e = 0; e < p->num_edges(); ++e) {
    const int64_t* M = p->edge_words(e);
    const uint64_t len = p->edge_size(e);
    int64_t mx = 0;
    for (uint64_t k = 0; k < len; ++k) {
      const int64_t c = M[k];
      if (c >= kForbiddenThreshold) {
        if (seen_forbidden && c != forbidden) return false;
        seen_forbidden = true;
        forbidden = c;
      } else {
        if (c <= -kExact) return false;
        mx = std::max(mx, c);
      }
    }
    edge_max[e] = mx;
    finite_max = std::max(finite_max, mx);
  }
  const double big = forbidden_cost_from(*p, edge_max);
  if (finite_max >= kExact || double(finite_max) >= big) return false;
  // Each entry becomes a double object in the same 8 bytes (placement new ends
  // the integer's lifetime), so that the search may read the rows as doubles.
  for (int e = 0; e < p->num_edges(); ++e) {
    int64_t* M = writable_words(p, e);
    const uint64_t len = p->edge_size(e);
    for (uint64_t k = 0; k < len; ++k) {
      const int64_t c = M[k];
      new (&M[k]) double(c >= kForbiddenThreshold ? big : double(c));
    }
  }
  p->edge_form = EdgeForm::kSearchDoubles;
  p->forbidden_as = big;
  p->forbidden_value = seen_forbidden ? forbidden : kForbiddenThreshold;
  return true;
}

}  // namespace iopddl
