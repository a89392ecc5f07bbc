// The tests' bundled instances (tests/data), loading in pieces, gzip, and the usual solve options.
#pragma once
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "load_json.h"
#include "solver.h"

namespace iopddl::test_support {

// A file of tests/data, loaded (a failure fails the test).
inline Problem load(const std::string& name) {
  Problem p;
  Status st = load_problem_file(std::string(IOPDDL_TEST_DATA) + "/" + name, &p);
  EXPECT_TRUE(st.ok) << st.message;
  return p;
}

// Two nodes alive together, each with a least usage of 5 and a cheaper usage
// of 9, at limit 10: at the least peak (10) both must take their least
// usage, a pair the edge forbids, so the reductions empty a domain; at 14
// the optimum costs 1.
inline Problem forbidden_at_the_least_peak() {
  Problem p;
  const Status st = load_problem_from_buffer(
      R"({"problem":{"nodes":{"intervals":[[0,2],[0,2]],"costs":[[1,0],[1,0]],"usages":[[5,9],[5,9]]},
          "edges":{"nodes":[[0,1]],"costs":[[1000000000000000000,0,0,0]]},"usage_limit":10}})",
      "forbidden_at_the_least_peak", &p);
  EXPECT_TRUE(st.ok) << st.message;
  return p;
}

// Loads `bytes` through a ProblemLoader in pieces of `piece` bytes (the last
// may be shorter), as a file read in blocks or chunks from JavaScript arrive.
inline Status load_in_pieces(const std::string& bytes, size_t piece, const std::string& source, Problem* p) {
  ProblemLoader loader(source);
  for (size_t at = 0; at < bytes.size(); at += piece) {
    Status st = loader.push(bytes.data() + at, std::min(piece, bytes.size() - at));
    if (!st) return st;
  }
  return loader.finish(p);
}

// gzip (RFC 1952) of `text`, as `members` concatenated gzip members.
inline std::string gzip(const std::string& text, int members = 1) {
  std::string out;
  size_t chunk = (text.size() + members - 1) / members;
  for (int m = 0; m < members; ++m) {
    std::string part = text.substr(std::min(text.size(), m * chunk), chunk);
    z_stream zs{};
    EXPECT_EQ(deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
    std::string buf(deflateBound(&zs, uLong(part.size())) + 64, '\0');
    zs.next_in = (Bytef*)part.data();
    zs.avail_in = uInt(part.size());
    zs.next_out = (Bytef*)&buf[0];
    zs.avail_out = uInt(buf.size());
    EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
    buf.resize(zs.total_out);
    deflateEnd(&zs);
    out += buf;
  }
  return out;
}

// A reproducible solve: `r` rounds per thread, a time limit that never binds.
inline SolveOptions rounds(int64_t r, int threads = 1, uint64_t seed = 1) {
  SolveOptions o;
  o.time_limit_seconds = 60;
  o.max_rounds = r;
  o.threads = threads;
  o.seed = seed;
  return o;
}

}  // namespace iopddl::test_support
