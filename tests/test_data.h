// The tests' bundled instances (tests/data), loading in pieces, and the usual solve options.
#pragma once
#include <gtest/gtest.h>

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
