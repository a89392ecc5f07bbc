// Memory usage over compressed time: a lazy segment tree with range add and
// range max, so a move's feasibility costs O(log T) instead of a scan.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace iopddl {

class UsageTree {
 public:
  void init(int segments) {
    n_ = std::max(1, segments);
    size_ = 1;
    while (size_ < n_) size_ <<= 1;
    mx_.assign(2 * size_, 0);
    lz_.assign(2 * size_, 0);
    // Unused leaves must never win a max.
    for (int k = n_; k < size_; ++k) mx_[size_ + k] = INT64_MIN / 4;
    for (int k = size_ - 1; k >= 1; --k) mx_[k] = std::max(mx_[2 * k], mx_[2 * k + 1]);
  }
  // Adds v on segments [lo, hi).
  void add(int lo, int hi, int64_t v) {
    if (lo < hi && v != 0) add(1, 0, size_, lo, hi, v);
  }
  // Max on segments [lo, hi); INT64_MIN/4 when empty.
  int64_t max(int lo, int hi) const {
    if (lo >= hi) return INT64_MIN / 4;
    return max(1, 0, size_, lo, hi);
  }
  int64_t global_max() const { return mx_[1]; }
  // The first segment holding the global max.
  int argmax() const {
    int k = 1;
    while (k < size_) {
      // A node's lazy value lifts both children equally: compare them directly.
      k = mx_[2 * k] >= mx_[2 * k + 1] ? 2 * k : 2 * k + 1;
    }
    return k - size_;
  }
  int segments() const { return n_; }

 private:
  int n_ = 1, size_ = 1;
  std::vector<int64_t> mx_, lz_;  // mx_[k] excludes lazies of k's ancestors, includes lz_[k]

  void add(int k, int l, int r, int lo, int hi, int64_t v) {
    if (hi <= l || r <= lo) return;
    if (lo <= l && r <= hi) {
      mx_[k] += v;
      lz_[k] += v;
      return;
    }
    int m = (l + r) / 2;
    add(2 * k, l, m, lo, hi, v);
    add(2 * k + 1, m, r, lo, hi, v);
    mx_[k] = std::max(mx_[2 * k], mx_[2 * k + 1]) + lz_[k];
  }
  int64_t max(int k, int l, int r, int lo, int hi) const {
    if (lo <= l && r <= hi) return mx_[k];
    int m = (l + r) / 2;
    int64_t best = INT64_MIN / 4;
    if (lo < m) best = std::max(best, max(2 * k, l, m, lo, hi));
    if (hi > m) best = std::max(best, max(2 * k + 1, m, r, lo, hi));
    return best + lz_[k];
  }
};

}  // namespace iopddl
