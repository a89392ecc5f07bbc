// The eliminations' pool: runs stay where they were put while the pool grows,
// each run is whole in one chunk, and a cleared pool reuses its chunks.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "chunked_pool.h"
#include "rng.h"

namespace iopddl {
namespace {

TEST(ChunkedPool, RunsKeepTheirPlaceAndValuesWhileThePoolGrows) {
  ChunkedPool pool;
  Rng rng(7);
  struct Run {
    ChunkedPool::Ref ref;
    const double* at;
    uint64_t len;
    double base;
  };
  std::vector<Run> runs;
  // Lengths from 1 to past the largest chunk (2^20 entries), 40 MB in all.
  uint64_t total = 0;
  for (int r = 0; total < (uint64_t(5) << 20); ++r) {
    const uint64_t len = r % 37 == 36 ? (uint64_t(1) << 20) + 3 : 1 + rng.below(20000);
    const ChunkedPool::Ref ref = pool.append(len);
    double* p = pool.at(ref);
    for (uint64_t k = 0; k < len; ++k) p[k] = double(r) * 1e6 + double(k);
    runs.push_back({ref, p, len, double(r) * 1e6});
    total += len;
  }
  for (const Run& run : runs) {
    ASSERT_EQ(pool.at(run.ref), run.at);  // never moved
    for (uint64_t k = 0; k < run.len; k += 97) ASSERT_EQ(run.at[k], run.base + double(k));
    ASSERT_EQ(run.at[run.len - 1], run.base + double(run.len - 1));
  }
}

TEST(ChunkedPool, ClearReusesTheChunks) {
  ChunkedPool pool;
  std::vector<double*> first;
  for (int r = 0; r < 300; ++r) first.push_back(pool.at(pool.append(5000)));
  pool.clear();
  // The same fill again lands on the same memory: nothing new was allocated.
  for (int r = 0; r < 300; ++r) ASSERT_EQ(pool.at(pool.append(5000)), first[size_t(r)]) << r;
}

TEST(ChunkedPool, AnEmptyRunIsAValidPlace) {
  ChunkedPool pool;
  const ChunkedPool::Ref a = pool.append(0);
  const ChunkedPool::Ref b = pool.append(3);
  pool.at(b)[2] = 1.5;
  EXPECT_NE(pool.at(a), nullptr);
  EXPECT_EQ(pool.at(b)[2], 1.5);
}

}  // namespace
}  // namespace iopddl
