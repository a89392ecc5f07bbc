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
    size_for(segments);
    build_maxima();
  }
  // init(segments) followed by adds whose sums per segment are `values`, in
  // O(segments) instead of an O(log) add per interval.
  void init(const std::vector<int64_t>& values) {
    size_for(int(values.size()));
    for (size_t k = 0; k < values.size(); ++k) mx_[size_ + k] = values[k];
    build_maxima();
  }
  // Adds v on segments [lo, hi).
  void add(int lo, int hi, int64_t v) {
    if (lo < hi && v != 0) add_bottom_up(lo, hi, v);
  }
  // Max on segments [lo, hi); INT64_MIN/4 when empty. Bottom-up, as add():
  // the nodes taken on the left all lie under the node just left of l one
  // level up (those on the right under r), so each side adds its ancestors'
  // lazy values as it climbs, then the rest up to the root.
  int64_t max(int lo, int hi) const {
    if (lo >= hi) return INT64_MIN / 4;
    int l = lo + size_, r = hi + size_;
    int64_t left = 0, right = 0;
    bool has_left = false, has_right = false;
    for (; l < r; l >>= 1, r >>= 1) {
      if (l & 1) {
        left = has_left ? std::max(left, mx_[l]) : mx_[l];
        has_left = true;
        ++l;
      }
      if (r & 1) {
        --r;
        right = has_right ? std::max(right, mx_[r]) : mx_[r];
        has_right = true;
      }
      if (has_left) left += lz_[(l - 1) >> 1];
      if (has_right) right += lz_[r >> 1];
    }
    for (int k = (l - 1) >> 1; has_left && k >= 1; k >>= 1) left += lz_[k];
    for (int k = r >> 1; has_right && k >= 1; k >>= 1) right += lz_[k];
    if (!has_left) return right;
    if (!has_right) return left;
    return std::max(left, right);
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

  // Zero on every segment, nothing lazy.
  void size_for(int segments) {
    n_ = std::max(1, segments);
    size_ = 1;
    while (size_ < n_) size_ <<= 1;
    mx_.assign(2 * size_, 0);
    lz_.assign(2 * size_, 0);
    // Unused leaves must never win a max.
    for (int k = n_; k < size_; ++k) mx_[size_ + k] = INT64_MIN / 4;
  }
  // Every inner node's max from its children (no lazy values yet).
  void build_maxima() {
    for (int k = size_ - 1; k >= 1; --k) mx_[k] = std::max(mx_[2 * k], mx_[2 * k + 1]);
  }
  // Bottom-up over the perfect tree: the nodes covering [lo, hi) are the
  // ones a top-down descent would stop at, without its recursion (a call per
  // node visited, which WebAssembly pays for dearly); then the maxima on the
  // two paths from the ends up to the root are redone.
  void add_bottom_up(int lo, int hi, int64_t v) {
    int l = lo + size_, r = hi + size_;
    const int l0 = l, r0 = r - 1;
    for (; l < r; l >>= 1, r >>= 1) {
      if (l & 1) apply(l++, v);
      if (r & 1) apply(--r, v);
    }
    refresh_above(l0);
    refresh_above(r0);
  }
  void apply(int k, int64_t v) {
    mx_[k] += v;
    lz_[k] += v;
  }
  void refresh_above(int k) {
    for (k >>= 1; k >= 1; k >>= 1) mx_[k] = std::max(mx_[2 * k], mx_[2 * k + 1]) + lz_[k];
  }
};

}  // namespace iopddl
