#include <gtest/gtest.h>
#include "load_json.h"
TEST(Smoke, LoadsExample) {
  iopddl::Problem p;
  ASSERT_TRUE(iopddl::load_problem_file(std::string(IOPDDL_TEST_DATA) + "/example.json", &p).ok);
}
