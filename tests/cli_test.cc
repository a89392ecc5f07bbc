// The iopddl binary, end to end: output format, exit status, time limit,
// argument errors, invalid input and the evaluate subcommand.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "evaluate.h"
#include "load_json.h"
#include "mechanisms.h"
#include "params.h"
#include "solution_io.h"
#include "test_data.h"
#include "version.h"

namespace iopddl {
namespace {

const std::string kCli = IOPDDL_CLI;
const std::string kData = IOPDDL_TEST_DATA;
const std::string kExample = kData + "/example.json";
const std::string kG = kData + "/asplos-2025-iopddl-G.json.gz";

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
}

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream ss(text);
  for (std::string line; std::getline(ss, line);) lines.push_back(line);
  return lines;
}

struct Outcome {
  int exit_code = -1;  // 128 + signal when killed
  std::string out, err;
  double seconds = 0;
  std::vector<std::string> out_lines() const { return lines_of(out); }
};

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = ::testing::TempDir() + "/iopddl_cli_XXXXXX";
    ASSERT_NE(mkdtemp(&tmpl[0]), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { std::system(("rm -rf " + quote(dir_)).c_str()); }

  std::string path(const std::string& name) const { return dir_ + "/" + name; }

  // Runs the binary with `args`, capturing stdout, stderr, status and wall time.
  // `timeout` guards against a hung binary (it is killed, and the test fails).
  Outcome run(const std::vector<std::string>& args, int timeout = 20) {
    std::string cmd = "timeout -k 2 " + std::to_string(timeout) + " " + quote(kCli);
    for (const std::string& a : args) cmd += " " + quote(a);
    cmd += " >" + quote(path("stdout")) + " 2>" + quote(path("stderr")) + " </dev/null";
    Outcome r;
    const auto t0 = std::chrono::steady_clock::now();
    int status = std::system(cmd.c_str());
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status)) r.exit_code = 128 + WTERMSIG(status);
    r.out = read_file(path("stdout"));
    r.err = read_file(path("stderr"));
    return r;
  }

  std::string dir_;
};

std::string describe(const Outcome& r) {
  return "exit " + std::to_string(r.exit_code) + "\n--- stdout:\n" + r.out + "--- stderr:\n" + r.err;
}

// "key:   value" lines of `iopddl evaluate` as a map.
std::map<std::string, std::string> report(const std::string& out) {
  std::map<std::string, std::string> m;
  for (const std::string& line : lines_of(out)) {
    size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    size_t v = line.find_first_not_of(' ', colon + 1);
    m[line.substr(0, colon)] = v == std::string::npos ? "" : line.substr(v);
  }
  return m;
}

// The '#' lines, then the solution line; nothing else.
void expect_contest_output(const Outcome& r) {
  const std::vector<std::string> lines = r.out_lines();
  ASSERT_GE(lines.size(), 2u) << describe(r);
  for (size_t i = 0; i + 1 < lines.size(); ++i)
    EXPECT_EQ(lines[i].rfind("# ", 0), 0u) << "line " << i << ": " << lines[i];
  EXPECT_EQ(lines.back().rfind("[", 0), 0u) << lines.back();
  ASSERT_FALSE(r.out.empty());
  EXPECT_EQ(r.out.back(), '\n');
}

// --- Solving ----------------------------------------------------------------

TEST_F(Cli, SolvesTheExampleWithinTheTimeout) {
  Outcome r = run({kExample, "2"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  expect_contest_output(r);
  EXPECT_EQ(r.out_lines().back(), "[0, 0, 2, 1, 0]");
  EXPECT_EQ(r.err, "");
  EXPECT_LT(r.seconds, 2.0);
  // The first line names the version and the instance.
  EXPECT_EQ(r.out_lines().front().rfind(std::string("# iopddl ") + IOPDDL_VERSION + ": example, 5 nodes, 5 edges", 0),
            0u)
      << r.out;
  // The whole output is a valid solution file for `evaluate`.
  write_file(path("solution.txt"), r.out);
  Outcome ev = run({"evaluate", kExample, path("solution.txt")});
  EXPECT_EQ(ev.exit_code, 0) << describe(ev);
  EXPECT_EQ(report(ev.out)["total cost"], "445") << ev.out;
}

// `iopddl check`: loads, validates, and prints the counts and the digest the
// core computes (the package's summary.digest is the same function).
TEST_F(Cli, CheckPrintsCountsAndTheDigest) {
  Outcome r = run({"check", kG});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  Problem p;
  ASSERT_TRUE(load_problem_file(kG, &p).ok);
  auto m = report(r.out);
  EXPECT_EQ(m["digest"], problem_digest(p));
  EXPECT_EQ(m["nodes"], std::to_string(p.num_nodes()) + " (" + std::to_string(p.total_strategies()) + " strategies)");
  EXPECT_EQ(m["usage limit"], std::to_string(p.usage_limit));
  std::ofstream(path("cut.json")) << "{\"problem\":{\"nodes\":";
  r = run({"check", path("cut.json")});
  EXPECT_EQ(r.exit_code, 3) << describe(r);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("cut.json: JSON syntax error at byte 20 (in problem.nodes)"), std::string::npos) << r.err;
  EXPECT_EQ(run({"check"}).exit_code, 2);
  EXPECT_EQ(run({"check", path("missing.json")}).exit_code, 2);
}

TEST_F(Cli, QuietPrintsOnlyTheSolution) {
  Outcome r = run({"--quiet", "--threads", "1", "--seed", "7", kExample, "0.5"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.out, "[0, 0, 2, 1, 0]\n");
  EXPECT_EQ(r.err, "");
  EXPECT_LT(r.seconds, 0.5);
}

// --stats prints the tied groups and one line per mechanism of
// src/mechanisms.h, each with its counts, its share of the search's time and
// its fall in cost per second, and the solution stays the last line.
TEST_F(Cli, StatsPrintsEveryMechanism) {
  Outcome r = run({"--stats", "--threads", "2", kG, "1"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  expect_contest_output(r);
  EXPECT_NE(r.out.find("# tied groups "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("# model and exact reductions in "), std::string::npos) << r.out;
  for (int k = 0; k < kMechanismCount; ++k) {
    const std::string name = kMechanismInfo[k].name;
    const size_t at = r.out.find("# " + name + " ");
    ASSERT_NE(at, std::string::npos) << name << "\n" << r.out;
    long long tried = -1, improved = -1;
    double seconds = -1, share = -1, fall_per_second = -1;
    ASSERT_EQ(std::sscanf(r.out.c_str() + at + 2 + name.size(), "%lld %lld %lf %lf%% %lf", &tried, &improved, &seconds,
                          &share, &fall_per_second),
              5)
        << name;
    EXPECT_GE(share, 0) << name;
    EXPECT_LE(share, 100) << name;
    EXPECT_GE(fall_per_second, 0) << name;
    EXPECT_GE(tried, improved) << name;
    EXPECT_GE(improved, 0) << name;
    EXPECT_GE(seconds, 0) << name;
    EXPECT_LE(seconds, 2 * 1.0) << name;  // at most the run's time on each of its 2 threads
  }
  // G has tied groups: group moves run.
  const size_t g = r.out.find("# groupMove ");
  long long tried = 0;
  std::sscanf(r.out.c_str() + g + 12, "%lld", &tried);
  EXPECT_GT(tried, 0);
}

// Each restart has its progress line as it happens, one per row of --stats'
// epoch table, numbered from 1.
TEST_F(Cli, RestartsHaveTheirProgressLines) {
  Outcome r = run({"--stats", "--threads", "1", "--set", "proof_max_strategies=0", "--set", "restart_stall_factor=0",
                   "--set", "restart_min_stall=0.2", kG, "2"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  expect_contest_output(r);
  int lines = 0, rows = 0;
  bool in_table = false;
  for (const std::string& line : r.out_lines()) {
    double t = -1;
    int epoch = -1;
    if (std::sscanf(line.c_str(), "# %lf s restart: epoch %d", &t, &epoch) == 2) {
      EXPECT_EQ(epoch, ++lines) << line;
      EXPECT_GT(t, 0) << line;
    }
    if (line.rfind("# epoch ", 0) == 0) in_table = true;
    else if (in_table && std::sscanf(line.c_str(), "# %d ", &epoch) == 1) ++rows;
    else in_table = false;
  }
  EXPECT_GE(lines, 1) << r.out;
  EXPECT_EQ(lines, rows) << r.out;
}

// --list-params prints every parameter of src/params.h with its default.
TEST_F(Cli, ListParamsPrintsTheTable) {
  Outcome r = run({"--list-params"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  for (int k = 0; k < kParamCount; ++k) {
    const std::string name = kParamInfo[k].name;
    const size_t at = r.out.find("\n" + name + " ");
    ASSERT_NE(at, std::string::npos) << name << "\n" << r.out;
    double def = -1;
    ASSERT_EQ(std::sscanf(r.out.c_str() + at + 1 + name.size(), "%lf", &def), 1) << name;
    EXPECT_DOUBLE_EQ(def, kParamInfo[k].def) << name;
  }
}

// --set reaches the search: the round-budgeted answer with the defaults set
// explicitly is the plain one; another window size changes the run.
TEST_F(Cli, SetChangesTheSearchAndDefaultsChangeNothing) {
  const std::vector<std::string> base = {"--threads", "1", "--rounds", "3", "--quiet"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back(kG);
    args.push_back("30");
    return run(args, 40);
  };
  Outcome plain = with({});
  Outcome same = with({"--set", "schedule_feeder_floor=0.1", "--set", "window_min=16"});
  ASSERT_EQ(plain.exit_code, 0) << describe(plain);
  ASSERT_EQ(same.exit_code, 0) << describe(same);
  EXPECT_EQ(plain.out, same.out);
}

// A start the search cannot beat still gives the first cost line, and a start
// the bound proves optimal ends the search before its first round (both were
// missing: the start's cost only showed when something later improved or
// raised the bound, and the search ran to its deadline).
TEST_F(Cli, StartAlreadyOptimalIsReportedAndEndsTheSearch) {
  write_file(path("optimal.txt"), "[0, 0, 2, 1, 0]\n");
  Outcome r = run({"--threads", "1", "--start", path("optimal.txt"), kExample, "5"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::vector<std::string> lines = r.out_lines();
  ASSERT_GE(lines.size(), 3u) << r.out;
  EXPECT_NE(lines[1].find(" s cost 445 bound 445 gap 0.0000%"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(": 0 rounds,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("# proven optimal: lower bound 445 equals the cost"), std::string::npos) << r.out;
  EXPECT_EQ(lines.back(), "[0, 0, 2, 1, 0]");
}

// --start takes a previous run's whole output; the answer is never worse.
TEST_F(Cli, StartFromAPreviousRun) {
  Outcome first = run({"--threads", "1", "--rounds", "1", kG, "10"});
  ASSERT_EQ(first.exit_code, 0) << describe(first);
  write_file(path("first.txt"), first.out);
  Outcome again = run({"--threads", "1", "--seed", "3", "--start", path("first.txt"), kG, "1"});
  ASSERT_EQ(again.exit_code, 0) << describe(again);
  expect_contest_output(again);
  write_file(path("again.txt"), again.out);
  auto cost_of = [&](const std::string& file) {
    Outcome ev = run({"evaluate", kG, path(file)});
    EXPECT_EQ(ev.exit_code, 0) << describe(ev);
    return std::stoll(report(ev.out)["total cost"]);
  };
  EXPECT_LE(cost_of("again.txt"), cost_of("first.txt"));
  // Its first cost line is no worse than the start.
  const std::vector<std::string> lines = again.out_lines();
  long long first_reported = -1;
  for (const std::string& line : lines) {
    const size_t at = line.find(" s cost ");
    if (line.rfind("# ", 0) == 0 && at != std::string::npos) {
      first_reported = std::stoll(line.substr(at + 8));
      break;
    }
  }
  EXPECT_GE(first_reported, 0) << again.out;
  EXPECT_LE(first_reported, cost_of("first.txt"));

  // A start that does not fit the problem is invalid input (exit 3).
  write_file(path("short.txt"), "[0, 1]\n");
  Outcome bad = run({"--start", path("short.txt"), kG, "1"});
  EXPECT_EQ(bad.exit_code, 3) << describe(bad);
  EXPECT_NE(bad.err.find("start: solution has 2 entries"), std::string::npos) << bad.err;
  write_file(path("junk.txt"), "no solution here\n");
  bad = run({"--start", path("junk.txt"), kG, "1"});
  EXPECT_EQ(bad.exit_code, 3) << describe(bad);
  EXPECT_NE(bad.err.find("junk.txt"), std::string::npos) << bad.err;
}

TEST_F(Cli, SolvesTheGInstanceWithinThreeSeconds) {
  Outcome r = run({kG, "3"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_LT(r.seconds, 3.5);
  expect_contest_output(r);
  EXPECT_EQ(r.err, "");
  std::vector<int32_t> a;
  Status st = parse_solution(r.out, "stdout", &a);
  ASSERT_TRUE(st.ok) << st.message;
  ASSERT_EQ(a.size(), 816u);

  // Feasible by an in-process evaluation ...
  Problem p;
  st = load_problem_file(kG, &p);
  ASSERT_TRUE(st.ok) << st.message;
  Evaluation ev = evaluate(p, a);
  ASSERT_TRUE(ev.status.ok) << ev.status.message;
  EXPECT_TRUE(ev.feasible());
  const std::string total = to_string(ev.total_cost);
  // ... whose cost the progress lines report ...
  const std::vector<std::string> lines = r.out_lines();
  ASSERT_GE(lines.size(), 2u);
  // The summary line "# cost C (nodes N, edges E), ..." near the end.
  std::string cost_line;
  for (const std::string& l : lines)
    if (l.rfind("# cost ", 0) == 0 && l.find("(nodes ") != std::string::npos) cost_line = l;
  EXPECT_EQ(cost_line.rfind("# cost " + total + " (nodes " + to_string(ev.node_cost) + ", edges " +
                                to_string(ev.edge_cost) + "), peak usage " + to_string(ev.peak_usage) +
                                " of 14392528",
                            0),
            0u)
      << cost_line;

  // ... and `iopddl evaluate` agrees.
  write_file(path("g.txt"), r.out);
  Outcome e = run({"evaluate", kG, path("g.txt")});
  ASSERT_EQ(e.exit_code, 0) << describe(e);
  auto m = report(e.out);
  EXPECT_EQ(m["total cost"], total);
  EXPECT_EQ(m["feasible"], "yes");
  EXPECT_EQ(m["problem"], "asplos-2025-iopddl-G (816 nodes, 1023 edges)");
}

// --- Help and version -------------------------------------------------------

TEST_F(Cli, Help) {
  for (const char* flag : {"--help", "-h"}) {
    Outcome r = run({flag});
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    EXPECT_EQ(r.out.rfind("usage: iopddl [options] PROBLEM TIMEOUT_SECONDS\n", 0), 0u) << r.out;
    EXPECT_NE(r.out.find("iopddl evaluate PROBLEM SOLUTION_FILE"), std::string::npos);
    EXPECT_NE(r.out.find("--threads N"), std::string::npos);
    EXPECT_NE(r.out.find("exit status"), std::string::npos);
    EXPECT_EQ(r.err, "");
  }
  // --help wins over the positional arguments.
  Outcome r = run({kExample, "2", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.rfind("usage:", 0), 0u);
}

TEST_F(Cli, Version) {
  Outcome r = run({"--version"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.out, std::string("iopddl ") + IOPDDL_VERSION + "\n");
  EXPECT_EQ(r.err, "");
}

// --- Bad arguments: usage message, exit 2 -----------------------------------

TEST_F(Cli, BadArgumentsGiveUsageAndExit2) {
  write_file(path("sol.txt"), "[0, 0, 2, 1, 0]\n");
  write_file(path("nolimit.json"),
             R"({"problem":{"name":"nolimit","nodes":{"intervals":[[0,1]],"costs":[[1]],"usages":[[1]]},)"
             R"("edges":{"nodes":[],"costs":[]}}})");
  const std::string missing = path("missing.json");
  const struct {
    std::vector<std::string> args;
    std::string why;
  } cases[] = {
      {{}, "expected PROBLEM and TIMEOUT_SECONDS"},
      {{kExample}, "expected PROBLEM and TIMEOUT_SECONDS"},
      {{kExample, "2", "3"}, "expected PROBLEM and TIMEOUT_SECONDS"},
      {{kExample, "abc"}, "TIMEOUT_SECONDS must be a number, got 'abc'"},
      {{kExample, "2s"}, "TIMEOUT_SECONDS must be a number, got '2s'"},
      {{kExample, ""}, "TIMEOUT_SECONDS must be a number"},
      {{kExample, "nan"}, "TIMEOUT_SECONDS must be a number"},
      {{kExample, "inf"}, "TIMEOUT_SECONDS must be a number"},
      {{kExample, "-1"}, "TIMEOUT_SECONDS must not be negative"},
      {{kExample, "-0.5"}, "TIMEOUT_SECONDS must not be negative"},
      {{"--bogus", kExample, "2"}, "unknown option --bogus"},
      {{kExample, "2", "--threads=2"}, "unknown option --threads=2"},
      {{"-x", kExample, "2"}, "unknown option -x"},
      {{"--threads", "0", kExample, "2"}, "--threads must be between 1 and 256"},
      {{"--threads", "257", kExample, "2"}, "--threads must be between 1 and 256"},
      {{"--threads", "-3", kExample, "2"}, "--threads needs a non-negative integer, got '-3'"},
      {{"--threads", "two", kExample, "2"}, "--threads needs a non-negative integer, got 'two'"},
      {{kExample, "2", "--threads"}, "--threads needs a value"},
      {{"--seed", "1.5", kExample, "2"}, "--seed needs a non-negative integer"},
      {{missing, "2"}, missing + ": cannot open file: No such file or directory"},
      {{kData, "2"}, kData + ": cannot read: is a directory"},
      {{kExample + "/x", "2"}, kExample + "/x: cannot open file: Not a directory"},
      {{"evaluate"}, "evaluate needs PROBLEM and SOLUTION_FILE"},
      {{"evaluate", kExample}, "evaluate needs PROBLEM and SOLUTION_FILE"},
      {{"evaluate", kExample, path("sol.txt"), "x"}, "evaluate needs PROBLEM and SOLUTION_FILE"},
      {{"evaluate", missing, path("sol.txt")}, missing + ": cannot open file"},
      {{"evaluate", kExample, missing}, "cannot read SOLUTION_FILE " + missing},
      {{"evaluate", kExample, kData}, "cannot read SOLUTION_FILE " + kData + ": is a directory"},
      {{"--set", "nope=1", kExample, "2"}, "--set: unknown parameter 'nope'"},
      {{"--set", "rule_decay=2", kExample, "2"}, "--set: parameter rule_decay = 2 is out of its range [0, 1]"},
      {{"--set", "belief_every=1.5", kExample, "2"}, "must be an integer"},
      {{"--set", "belief_every", kExample, "2"}, "is not NAME=VALUE"},
      {{kExample, "2", "--set"}, "--set needs a value"},
      {{"--start", missing, kExample, "2"}, "cannot read --start " + missing + ": No such file or directory"},
      {{kExample, "2", "--start"}, "--start needs a value"},
      {{"--limit", "-1", kExample, "2"}, "--limit needs a non-negative integer within int64, got '-1'"},
      {{"--limit", "1.5", kExample, "2"}, "--limit needs a non-negative integer within int64, got '1.5'"},
      {{"--limit", "9223372036854775808", kExample, "2"}, "--limit needs a non-negative integer within int64"},
      {{kExample, "2", "--limit"}, "--limit needs a value"},
      {{"--limit-scale", "0", kExample, "2"}, "--limit-scale needs a number above 0, got '0'"},
      {{"--limit-scale", "-2", kExample, "2"}, "--limit-scale needs a number above 0, got '-2'"},
      {{"--limit-scale", "x", kExample, "2"}, "--limit-scale needs a number above 0, got 'x'"},
      {{"--limit", "60", "--limit-scale", "2", kExample, "2"}, "--limit and --limit-scale exclude each other"},
      {{"--limit-scale", "1e300", kExample, "2"}, "--limit-scale: the scaled limit is beyond int64"},
      {{"--limit-scale", "2", path("nolimit.json"), "2"}, "--limit-scale needs a usage_limit in " + path("nolimit.json") + ", which has none"},
  };
  for (const auto& c : cases) {
    std::string shown;
    for (const std::string& a : c.args) shown += " '" + a + "'";
    Outcome r = run(c.args);
    EXPECT_EQ(r.exit_code, 2) << shown << "\n" << describe(r);
    EXPECT_EQ(r.out, "") << shown;
    const std::string first = r.err.substr(0, r.err.find('\n'));
    EXPECT_EQ(first.rfind("iopddl: ", 0), 0u) << shown << "\n" << r.err;
    EXPECT_NE(first.find(c.why), std::string::npos) << shown << "\n" << r.err;
    EXPECT_NE(r.err.find("\nusage: iopddl"), std::string::npos) << shown << "\n" << r.err;
    EXPECT_LT(r.seconds, 1.0) << shown;
  }
}

// --limit and --limit-scale solve the same problem at another usage limit.
// The example's limit is 50, which is also its least peak usage (nodes 0-2
// at their least usages, 10 + 25 + 15, alive together on [50, 70)).
TEST_F(Cli, LimitSolvesAtAnotherUsageLimit) {
  Outcome loose = run({"--limit", "1000", kExample, "2"});
  ASSERT_EQ(loose.exit_code, 0) << describe(loose);
  EXPECT_NE(loose.out_lines().front().find(", limit 1000,"), std::string::npos) << loose.out;
  write_file(path("loose.txt"), loose.out);
  // Its answer is at most the file's optimum (445), and its peak fits 1000.
  Outcome ev = run({"evaluate", kExample, path("loose.txt")});
  EXPECT_LE(std::stoll(report(ev.out)["total cost"]), 445) << ev.out;
  Outcome scaled = run({"--limit-scale", "1.5", kExample, "2"});
  ASSERT_EQ(scaled.exit_code, 0) << describe(scaled);
  EXPECT_NE(scaled.out_lines().front().find(", limit 75,"), std::string::npos) << scaled.out;
  // Below the least peak usage: the least-violating answer, exit 1, and the
  // least limit that any answer needs.
  Outcome tight = run({"--limit", "49", kExample, "2"});
  EXPECT_EQ(tight.exit_code, 1) << describe(tight);
  EXPECT_NE(tight.err.find("the usage limit 49 is below the least peak usage any assignment has, 50"),
            std::string::npos)
      << tight.err;
  EXPECT_EQ(tight.out_lines().back().front(), '[') << tight.out;
  Outcome exact = run({"--limit", "50", kExample, "2"});
  EXPECT_EQ(exact.exit_code, 0) << describe(exact);
  EXPECT_EQ(exact.out_lines().back(), "[0, 0, 2, 1, 0]");
}

TEST_F(Cli, UnreadableFileIsABadArgument) {
  if (geteuid() == 0) GTEST_SKIP() << "root can read any file";
  const std::string p = path("secret.json");
  write_file(p, read_file(kExample));
  ASSERT_EQ(chmod(p.c_str(), 0), 0);
  Outcome r = run({p, "1"});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_NE(r.err.find(p + ": cannot open file: Permission denied"), std::string::npos) << r.err;
}

// --- Invalid input: the loader's message, exit 3 -----------------------------

TEST_F(Cli, InvalidProblemExits3WithTheLoadersMessage) {
  std::string json = read_file(kExample);
  const std::string bad_json = json.replace(json.find("[95]"), 4, "[9.5]");
  const struct {
    std::string name, content, why;
  } cases[] = {
      {"float.json", bad_json, "problem.nodes.costs[4][0]: expected an integer"},
      {"empty.json", "", "empty"},
      {"truncated.json", bad_json.substr(0, 100), "JSON syntax error at byte 100"},
      {"corrupt.json.gz", "\x1f\x8b garbage", "gzip data is corrupt"},
  };
  for (const auto& c : cases) {
    const std::string p = path(c.name);
    write_file(p, c.content);
    Problem problem;
    Status st = load_problem_file(p, &problem);
    ASSERT_FALSE(st.ok) << c.name;
    EXPECT_NE(st.message.find(c.why), std::string::npos) << st.message;
    for (const std::vector<std::string>& args : {std::vector<std::string>{p, "2"},
                                                 std::vector<std::string>{"evaluate", p, kExample}}) {
      Outcome r = run(args);
      EXPECT_EQ(r.exit_code, 3) << c.name << "\n" << describe(r);
      EXPECT_EQ(r.out, "") << c.name;
      EXPECT_EQ(r.err, "iopddl: " + st.message + "\n") << c.name;
      EXPECT_LT(r.seconds, 1.0) << c.name;
    }
  }
}

// --- evaluate ---------------------------------------------------------------

TEST_F(Cli, EvaluateFeasible) {
  write_file(path("sol.txt"), "[0, 0, 2, 1, 0]\n");
  Outcome r = run({"evaluate", kExample, path("sol.txt")});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.err, "");
  auto m = report(r.out);
  EXPECT_EQ(m["problem"], "example (5 nodes, 5 edges)");
  EXPECT_EQ(m["node cost"], "275");
  EXPECT_EQ(m["edge cost"], "170");
  EXPECT_EQ(m["total cost"], "445");
  EXPECT_EQ(m["forbidden entries"], "0");
  EXPECT_EQ(m["peak usage"], "50 at time 50");
  EXPECT_EQ(m["usage limit"], "50 (within)");
  EXPECT_EQ(m["feasible"], "yes");
}

TEST_F(Cli, EvaluateInfeasible) {
  write_file(path("sol.txt"), "# over the limit\n[0, 1, 1, 0, 0]\n");
  Outcome r = run({"evaluate", kExample, path("sol.txt")});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  auto m = report(r.out);
  EXPECT_EQ(m["node cost"], "305");
  EXPECT_EQ(m["edge cost"], "160");
  EXPECT_EQ(m["total cost"], "465");
  EXPECT_EQ(m["peak usage"], "55 at time 50");
  EXPECT_EQ(m["usage limit"], "50 (EXCEEDED)");
  EXPECT_EQ(m["feasible"], "no");
}

TEST_F(Cli, EvaluateForbiddenEntryIsInfeasible) {
  std::string json = read_file(kExample);
  json.replace(json.find("[95]"), 4, "[1000000000000000000]");
  write_file(path("p.json"), json);
  write_file(path("sol.txt"), "[0, 0, 2, 1, 0]\n");
  Outcome r = run({"evaluate", path("p.json"), path("sol.txt")});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  auto m = report(r.out);
  EXPECT_EQ(m["total cost"], "1000000000000000350");
  EXPECT_EQ(m["forbidden entries"], "1");
  EXPECT_EQ(m["usage limit"], "50 (within)");
  EXPECT_EQ(m["feasible"], "no");
}

TEST_F(Cli, EvaluateWithoutLimit) {
  std::string json = read_file(kExample);
  const std::string limit = ",\"usage_limit\":50";
  ASSERT_NE(json.find(limit), std::string::npos);
  json.replace(json.find(limit), limit.size(), "");
  write_file(path("p.json"), json);
  write_file(path("sol.txt"), "[0, 1, 1, 0, 0]");
  Outcome r = run({"evaluate", path("p.json"), path("sol.txt")});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  auto m = report(r.out);
  EXPECT_EQ(m["usage limit"], "none");
  EXPECT_EQ(m["feasible"], "yes");
}

TEST_F(Cli, EvaluateRejectsInvalidSolutions) {
  const struct {
    std::string text, why;
  } cases[] = {
      {"[0, 0, 2, 1]\n", "solution has 4 entries, the problem has 5 nodes"},
      {"[0, 0, 3, 1, 0]\n", "solution[2] = 3 is out of range"},
      {"[0, -1, 2, 1, 0]\n", "solution[1] = -1 is out of range"},
      {"# no answer\n", "no solution line"},
      {"[0, 0, x, 1, 0]\n", "solution entry 2 is not an integer"},
      {"", "no solution line"},
  };
  for (const auto& c : cases) {
    write_file(path("sol.txt"), c.text);
    Outcome r = run({"evaluate", kExample, path("sol.txt")});
    EXPECT_EQ(r.exit_code, 3) << c.text << "\n" << describe(r);
    EXPECT_EQ(r.out, "") << c.text;
    EXPECT_EQ(r.err.rfind("iopddl: " + path("sol.txt") + ": ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(c.why), std::string::npos) << r.err;
  }
}

// Solution files may be gzipped (docs/answers keeps them so): evaluate and
// --start read them as the plain file; a damaged stream is invalid input,
// named, never a crash or a silently short solution.
TEST_F(Cli, GzippedSolutionFiles) {
  const std::string text = "# kept\n[0, 0, 2, 1, 0]\n";
  const std::string whole = test_support::gzip(text);
  write_file(path("sol.txt.gz"), whole);
  write_file(path("sol.txt"), text);
  Outcome plain = run({"evaluate", kExample, path("sol.txt")});
  Outcome gz = run({"evaluate", kExample, path("sol.txt.gz")});
  ASSERT_EQ(gz.exit_code, 0) << describe(gz);
  EXPECT_EQ(gz.out, plain.out);
  EXPECT_EQ(report(gz.out)["total cost"], "445");

  Outcome r = run({"--threads", "1", "--start", path("sol.txt.gz"), kExample, "5"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.out.find("# proven optimal: lower bound 445 equals the cost"), std::string::npos) << r.out;

  // Cut short: the stream ends before its trailer.
  write_file(path("cut.txt.gz"), whole.substr(0, whole.size() - 6));
  for (const std::vector<std::string>& args : {std::vector<std::string>{"evaluate", kExample, path("cut.txt.gz")},
                                               std::vector<std::string>{"--start", path("cut.txt.gz"), kExample, "5"}}) {
    Outcome bad = run(args);
    EXPECT_EQ(bad.exit_code, 3) << describe(bad);
    EXPECT_NE(bad.err.find(path("cut.txt.gz") + ": not a readable gzip stream: unexpected end of file"), std::string::npos)
        << bad.err;
  }
}

// A problem name with a newline must not break the contest output: every line
// but the last starts with '#'.
TEST_F(Cli, ProblemNameWithControlBytesStaysOnOneProgressLine) {
  std::ofstream(path("name.json"))
      << R"({"problem":{"name":"a\n[7]","nodes":{"intervals":[[0,1]],"costs":[[1]],"usages":[[1]]},)"
      << R"("edges":{"nodes":[],"costs":[]}}})";
  Outcome r = run({path("name.json"), "2"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  expect_contest_output(r);
  EXPECT_NE(r.out.find("a\\x0a[7]"), std::string::npos) << r.out;
  EXPECT_EQ(r.out_lines().back(), "[0]");
  Outcome e = run({"evaluate", path("name.json"), path("name.json")});
  EXPECT_EQ(e.out.find("a\n[7]"), std::string::npos) << e.out;
}


TEST_F(Cli, SweepPrintsAFallingCurveWithItsBounds) {
  Outcome r = run({"sweep", kG, "20", "--points", "4", "--threads", "1", "--rounds", "3"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::vector<std::string> lines = r.out_lines();
  std::vector<std::vector<std::string>> rows;
  for (const std::string& l : lines) {
    if (l.empty() || l[0] == '#' || l.find("limit") != std::string::npos) continue;
    std::istringstream in(l);
    std::vector<std::string> f;
    for (std::string w; in >> w;) f.push_back(w);
    rows.push_back(f);
  }
  ASSERT_EQ(rows.size(), 4u) << r.out;
  for (size_t k = 0; k < rows.size(); ++k) {
    ASSERT_GE(rows[k].size(), 6u) << r.out;
    if (k == 0) continue;
    EXPECT_LT(std::stoll(rows[k - 1][0]), std::stoll(rows[k][0])) << r.out;  // limits grow
    EXPECT_LE(std::stoll(rows[k][1]), std::stoll(rows[k - 1][1])) << r.out;  // costs fall
    if (rows[k][2] != "-") EXPECT_LE(std::stoll(rows[k][2]), std::stoll(rows[k][1])) << r.out;  // bound below cost
    EXPECT_LE(std::stoll(rows[k][4]), std::stoll(rows[k][0])) << r.out;  // the plan's peak fits
  }
  EXPECT_NE(r.out.find("# least peak "), std::string::npos) << r.out;
}

TEST_F(Cli, SweepJsonAtGivenLimits) {
  Outcome r = run({"sweep", kExample, "5", "--limits", "60,49,50", "--json", "--rounds", "5", "--threads", "1"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::string& o = r.out;
  EXPECT_NE(o.find("\"least_peak\":50"), std::string::npos) << o;
  const size_t a = o.find("\"limit\":49"), b = o.find("\"limit\":50"), c = o.find("\"limit\":60");
  ASSERT_TRUE(a != std::string::npos && b != std::string::npos && c != std::string::npos) << o;
  EXPECT_LT(a, b);
  EXPECT_LT(b, c);
  EXPECT_NE(o.find("\"limit\":49,\"feasible\":false"), std::string::npos) << o;
  EXPECT_NE(o.find("\"limit\":50,\"feasible\":true,\"cost\":445,"), std::string::npos) << o;
  EXPECT_NE(o.find("\"assignment\":[0, 0, 2, 1, 0]"), std::string::npos) << o;
}

TEST_F(Cli, SweepRefusesBadArguments) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"sweep", kExample},
           {"sweep", kExample, "-1"},
           {"sweep", kExample, "5", "--points", "0"},
           {"sweep", kExample, "5", "--points", "x"},
           {"sweep", kExample, "5", "--limits", "10,-3"},
           {"sweep", kExample, "5", "--limits", "10,,20"},
           {"sweep", kExample, "5", "--limits", "10", "--points", "3"},
           {"sweep", kExample, "5", "--bogus"},
       }) {
    Outcome r = run(args);
    EXPECT_EQ(r.exit_code, 2) << describe(r);
    EXPECT_NE(r.err.find("iopddl: "), std::string::npos) << r.err;
  }
  Outcome item = run({"sweep", kExample, "5", "--limits", "10,-3"});
  EXPECT_NE(item.err.find("--limits item 1"), std::string::npos) << item.err;
}

}  // namespace
}  // namespace iopddl
