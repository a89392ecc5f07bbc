// Hardening: the checked-in corpus of malformed problems (tests/data/malformed,
// listed with the expected exit status and message in expected.tsv) against the
// CLI and the library; the model's index limits; out of memory while loading;
// and regression tests for what fuzzing found.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <dirent.h>

#include "evaluate.h"
#include "load_json.h"
#include "problem.h"
#include "test_data.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define IOPDDL_UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define IOPDDL_UNDER_SANITIZER 1
#endif
#endif

namespace iopddl {
namespace {

const std::string kCli = IOPDDL_CLI;
const std::string kData = IOPDDL_TEST_DATA;
const std::string kCorpus = kData + "/malformed";

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

struct Entry {
  std::string file;
  int exit_code = 0;
  std::string message;  // a substring of the message after "iopddl: FILE: "
  int line = 0;
};

// expected.tsv: "file<TAB>exit_code<TAB>message_substring", '#' lines are comments.
std::vector<Entry> read_manifest() {
  std::vector<Entry> entries;
  std::istringstream in(read_file(kCorpus + "/expected.tsv"));
  int line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    Entry e;
    e.line = line_no;
    const size_t t1 = line.find('\t'), t2 = t1 == std::string::npos ? t1 : line.find('\t', t1 + 1);
    if (t2 == std::string::npos) {
      ADD_FAILURE() << "expected.tsv:" << line_no << ": not three tab-separated columns: " << line;
      continue;
    }
    e.file = line.substr(0, t1);
    e.exit_code = std::atoi(line.substr(t1 + 1, t2 - t1 - 1).c_str());
    e.message = line.substr(t2 + 1);
    entries.push_back(e);
  }
  return entries;
}

struct Outcome {
  int exit_code = -1;  // 128 + signal when killed
  std::string out, err;
  double seconds = 0;
};

class MalformedCorpus : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = ::testing::TempDir() + "/iopddl_malformed_XXXXXX";
    ASSERT_NE(mkdtemp(&tmpl[0]), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { std::system(("rm -rf " + quote(dir_)).c_str()); }

  // `prefix` runs before the binary in the same shell (e.g. "ulimit -v N;").
  Outcome run(const std::vector<std::string>& args, const std::string& prefix = "", int timeout = 60) {
    std::string cmd = prefix + "timeout -k 2 " + std::to_string(timeout) + " " + quote(kCli);
    for (const std::string& a : args) cmd += " " + quote(a);
    cmd += " >" + quote(dir_ + "/stdout") + " 2>" + quote(dir_ + "/stderr") + " </dev/null";
    Outcome r;
    const auto t0 = std::chrono::steady_clock::now();
    int status = std::system(("sh -c " + quote(cmd)).c_str());
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status)) r.exit_code = 128 + WTERMSIG(status);
    r.out = read_file(dir_ + "/stdout");
    r.err = read_file(dir_ + "/stderr");
    return r;
  }

  std::string dir_;
};

// Every file of the corpus, run as `iopddl FILE 5` and `iopddl evaluate FILE
// SOLUTION`: the expected exit status, nothing on stdout, and one line on stderr,
// "iopddl: FILE: MESSAGE", the message containing the expected text; and the
// library's load_problem_file gives the same message.
TEST_F(MalformedCorpus, EveryFileFailsWithItsExpectedMessage) {
  const std::vector<Entry> entries = read_manifest();
  EXPECT_GE(entries.size(), 30u);
  const std::string solution = dir_ + "/solution.txt";
  std::ofstream(solution) << "[0, 0, 2, 1, 0]\n";
  for (const Entry& e : entries) {
    SCOPED_TRACE("expected.tsv:" + std::to_string(e.line) + ": " + e.file);
    const std::string path = kCorpus + "/" + e.file;
    ASSERT_EQ(access(path.c_str(), R_OK), 0) << "missing file " << path;
    Problem p;
    Status st = load_problem_file(path, &p);
    if (e.exit_code == 3) {
      ASSERT_FALSE(st.ok) << "loaded";
      EXPECT_EQ(st.message.rfind(path + ": ", 0), 0u) << st.message;
      EXPECT_NE(st.message.find(e.message), std::string::npos) << st.message;
    }
    {
      // The same bytes pushed in pieces of 3 (as chunks from JavaScript arrive)
      // give the same answer.
      std::ifstream f(path, std::ios::binary);
      const std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
      Problem q;
      const Status pieces = test_support::load_in_pieces(bytes, 3, path, &q);
      EXPECT_EQ(pieces.ok, st.ok);
      EXPECT_EQ(pieces.message, st.message);
      if (st.ok) EXPECT_EQ(problem_digest(q), problem_digest(p));
    }
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"--threads", "1", path, "5"}, std::vector<std::string>{"evaluate", path, solution}}) {
      Outcome r = run(args);
      EXPECT_EQ(r.exit_code, e.exit_code) << args[0] << "\n" << r.err;
      if (e.exit_code != 3) continue;
      EXPECT_EQ(r.out, "") << args[0];
      EXPECT_EQ(r.err, "iopddl: " + st.message + "\n") << args[0];
      EXPECT_LT(r.seconds, 20.0) << args[0];
    }
  }
}

// The manifest and the folder agree: no file without an expectation.
TEST_F(MalformedCorpus, ManifestListsEveryFile) {
  std::set<std::string> listed;
  for (const Entry& e : read_manifest()) EXPECT_TRUE(listed.insert(e.file).second) << "listed twice: " << e.file;
  DIR* d = opendir(kCorpus.c_str());
  ASSERT_NE(d, nullptr);
  int files = 0;
  while (dirent* ent = readdir(d)) {
    const std::string name = ent->d_name;
    if (name == "." || name == ".." || name == "expected.tsv" || name == "README.md" || name == "make_corpus.py")
      continue;
    ++files;
    EXPECT_EQ(listed.count(name), 1u) << name << " is not in expected.tsv";
  }
  closedir(d);
  EXPECT_EQ(size_t(files), listed.size());
}

// --- The model's index limits --------------------------------------------------
// Counts beyond 2^31 - 1 need more memory than any test has, so these build
// problems whose offsets claim such counts; the limits are checked before the
// offsets are compared with the arrays' real sizes.

Problem one_node_problem() {
  Problem p;
  p.interval_lo = {0};
  p.interval_hi = {1};
  p.strategy_offset = {0, 1};
  p.node_cost = {5};
  p.node_usage = {1};
  return p;
}

TEST(ModelLimits, TooManyStrategiesAtANode) {
  Problem p = one_node_problem();
  p.strategy_offset = {0, uint64_t(INT32_MAX) + 1};
  Status st = finalize_problem(&p);
  ASSERT_FALSE(st.ok);
  EXPECT_EQ(st.message,
            "problem.nodes.costs[0]: too many strategies: 2147483648 is more than the model can index "
            "(at most 2147483647, 2^31 - 1)");
}

TEST(ModelLimits, TooManyStrategiesInTotal) {
  Problem p = one_node_problem();
  p.interval_lo = {0, 0};
  p.interval_hi = {1, 1};
  p.strategy_offset = {0, uint64_t(INT32_MAX), uint64_t(INT32_MAX) + 2};
  Status st = finalize_problem(&p);
  ASSERT_FALSE(st.ok);
  EXPECT_EQ(st.message,
            "problem.nodes.costs: too many strategies in total (through node 1): 2147483649 is more than the "
            "model can index (at most 2147483647, 2^31 - 1)");
}

TEST(ModelLimits, AtTheLimitIsNotRefusedForItsCount) {
  // 2^31 - 1 strategies at one node is allowed; this problem then fails only
  // because its arrays do not hold them.
  Problem p = one_node_problem();
  p.strategy_offset = {0, uint64_t(INT32_MAX)};
  Status st = finalize_problem(&p);
  ASSERT_FALSE(st.ok);
  EXPECT_EQ(st.message, "inconsistent node arrays");
}

TEST(ModelLimits, EdgeMatrixSizeBeyond32BitsIsComputedExactly) {
  // K_u * K_v = 46341^2 = 2147488281 > 2^31 - 1: no 32-bit overflow in the check.
  const int64_t k = 46341;
  Problem p;
  p.interval_lo = {0, 0};
  p.interval_hi = {1, 1};
  p.strategy_offset = {0, uint64_t(k), uint64_t(2 * k)};
  p.node_cost.assign(2 * k, 0);
  p.node_usage.assign(2 * k, 0);
  p.edge_u = {0};
  p.edge_v = {1};
  p.edge_cost_offset = {0, 1};
  p.edge_cost = {0};
  Status st = finalize_problem(&p);
  ASSERT_FALSE(st.ok);
  EXPECT_EQ(st.message,
            "problem.edges.costs[0]: has 1 entries, expected 2147488281 (46341 strategies of node 0 x 46341 of node 1)");
}

TEST(ModelLimits, InconsistentArraysAreRefusedNotRead) {
  // Problems built in code (the tests, the WebAssembly API) go through the same
  // check; offsets that disagree with the arrays must not be followed.
  {
    Problem p = one_node_problem();
    p.strategy_offset = {0, 3};
    EXPECT_EQ(finalize_problem(&p).message, "inconsistent node arrays");
  }
  {
    Problem p = one_node_problem();
    p.strategy_offset = {1, 2};
    EXPECT_EQ(finalize_problem(&p).message, "inconsistent node arrays");
  }
  {
    Problem p = one_node_problem();
    p.node_usage = {1, 2};
    EXPECT_EQ(finalize_problem(&p).message, "inconsistent node arrays");
  }
  {
    Problem p = one_node_problem();
    p.edge_u = {0};
    p.edge_v = {0};
    p.edge_cost_offset = {0, 1};
    EXPECT_EQ(finalize_problem(&p).message, "inconsistent edge arrays");  // edge_cost is empty
  }
  {
    Problem p = one_node_problem();
    p.edge_cost_offset.clear();
    EXPECT_EQ(finalize_problem(&p).message, "inconsistent edge arrays");
  }
  {
    Problem p = one_node_problem();
    p.edge_u = {0, 0};
    p.edge_v = {0, 0};
    p.edge_cost_offset = {0, 1, 0};  // decreasing
    p.edge_cost = {};
    EXPECT_EQ(finalize_problem(&p).message, "inconsistent edge arrays");
  }
  Problem p = one_node_problem();
  EXPECT_TRUE(finalize_problem(&p).ok);
}

// --- Out of memory while loading ------------------------------------------------

// A gzip bomb whose text must be kept: one edge matrix of 200 million zeros
// (400 members of 1 MB of "0,", 1.6 GB as int64) under a 300 MB address space
// limit: a clear message and exit 3, not std::terminate. (Blanks no longer
// work as a bomb: the loader inflates and parses as it reads, holding neither.)
TEST_F(MalformedCorpus, OutOfMemoryWhileLoadingIsAnError) {
#ifdef IOPDDL_UNDER_SANITIZER
  GTEST_SKIP() << "sanitizers reserve terabytes of address space: ulimit -v does not apply";
#endif
  std::string zeros;
  for (int k = 0; k < (1 << 19); ++k) zeros += "0,";
  const std::string member = test_support::gzip(zeros);
  const std::string path = dir_ + "/bomb.json.gz";
  {
    std::ofstream f(path, std::ios::binary);
    f << test_support::gzip("{\"problem\":{\"edges\":{\"costs\":[[");
    for (int k = 0; k < 400; ++k) f << member;
    f << test_support::gzip("0]]}}}");
  }
  const std::string expected = "iopddl: " + path + ": out of memory while loading the problem (after ";
  Outcome r = run({"--threads", "1", path, "5"}, "ulimit -v 300000; ");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind(expected, 0), 0u) << r.err;
  EXPECT_NE(r.err.find(" bytes of gzip input)\n"), std::string::npos) << r.err;
  r = run({"evaluate", path, path}, "ulimit -v 300000; ");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("out of memory while loading the problem"), std::string::npos) << r.err;
}

// --- Regressions found by fuzzing (fuzz/) ----------------------------------------

// An unknown field's name was copied into messages as it was: an escaped
// newline in it split the message over two lines (and escape sequences reached
// the terminal). Now control and non-ASCII bytes are escaped and long names cut.
TEST(FuzzRegressions, FieldNamesInMessagesAreEscapedAndShort) {
  const struct {
    std::string json, expected;
  } cases[] = {
      {"{\"problem\":{\"namu00e9\\n\",\"unknown\":1}}",
       "in.json: JSON syntax error at byte 24 (in problem.namu00e9\\x0a): expected a colon after an object member's "
       "name, got ','"},
      {"{\"a\\u0000\\t\\\"\\\\\\u00e9\" 1}",
       "in.json: JSON syntax error at byte 23 (in a\\x00\\x09\\\"\\\\\\xc3\\xa9): expected a colon after an object "
       "member's name, got '1'"},
      {"{\"" + std::string(100, 'x') + "\" 1}",
       "in.json: JSON syntax error at byte 104 (in " + std::string(40, 'x') +
           "...): expected a colon after an object member's name, got '1'"},
  };
  for (const auto& c : cases) {
    Problem p;
    Status st = load_problem_from_buffer(c.json, "in.json", &p);
    ASSERT_FALSE(st.ok) << c.json;
    EXPECT_EQ(st.message, c.expected);
    EXPECT_EQ(st.message.find('\n'), std::string::npos);
  }
}

}  // namespace
}  // namespace iopddl
