// The tests' bundled instances (tests/data) and the usual solve options.
#pragma once
#include <gtest/gtest.h>

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
