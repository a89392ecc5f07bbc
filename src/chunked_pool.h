// Doubles in chunks that never move, for a store filled, read and cleared
// again and again (the eliminations' unaries and matrices). A run of entries
// never spans two chunks, so a pointer into it stays valid while the pool
// grows, and clear() keeps the chunks for the next fill. A std::vector growing
// by doubling holds old and new at once and, in WebAssembly (whose memory
// never shrinks), leaves every old one behind as a hole, so the eliminations'
// module memory would grow to several times their entries on large instances.
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

namespace iopddl {

class ChunkedPool {
 public:
  // A run's place: its chunk and its position there.
  using Ref = uint64_t;

  // Room for `len` more entries, not initialised.
  Ref append(uint64_t len) {
    while (cur_ < chunks_.size() && fill_ + len > chunks_[cur_].size) {
      ++cur_;
      fill_ = 0;
    }
    if (cur_ == chunks_.size()) {
      // Small chunks first (small problems stay small), 8 MB at most, unless
      // one run needs more.
      const uint64_t size =
          std::max(len, chunks_.empty() ? kFirst : std::min(2 * chunks_.back().size, kLargest));
      chunks_.push_back(Chunk{std::unique_ptr<double[]>(new double[size_t(size)]), size});
      fill_ = 0;
    }
    const Ref r = (uint64_t(cur_) << kPositionBits) | fill_;
    fill_ += len;
    return r;
  }
  double* at(Ref r) { return chunks_[size_t(r >> kPositionBits)].data.get() + (r & kPositionMask); }
  const double* at(Ref r) const { return chunks_[size_t(r >> kPositionBits)].data.get() + (r & kPositionMask); }
  // Empties the pool; its chunks stay for the next fill.
  void clear() {
    cur_ = 0;
    fill_ = 0;
  }

 private:
  static constexpr unsigned kPositionBits = 40;
  static constexpr uint64_t kPositionMask = (uint64_t(1) << kPositionBits) - 1;
  static constexpr uint64_t kFirst = uint64_t(1) << 14, kLargest = uint64_t(1) << 20;
  struct Chunk {
    std::unique_ptr<double[]> data;
    uint64_t size;
  };
  std::vector<Chunk> chunks_;
  size_t cur_ = 0;
  uint64_t fill_ = 0;
};

}  // namespace iopddl
