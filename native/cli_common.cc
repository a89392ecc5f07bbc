// What the CLI's commands share: the usage text, argument parsing, exit
// statuses for errors, and small printing helpers.
#include "cli_common.h"

#include <sys/stat.h>
#include <zlib.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "params.h"
#include "solver.h"

namespace iopddl::cli {

extern const char* const kUsage =
    "usage: iopddl [options] PROBLEM TIMEOUT_SECONDS\n"
    "       iopddl evaluate PROBLEM SOLUTION_FILE\n"
    "       iopddl check PROBLEM\n"
    "       iopddl sweep [options] PROBLEM SECONDS [--points K | --limits A,B,...] [--json]\n"
    "\n"
    "Solves an intra-operator parallelism problem (contest JSON, plain or .gz)\n"
    "within TIMEOUT_SECONDS of wall time, load and output included. Progress lines\n"
    "start with '#'; the last line is the solution [s0, s1, ...].\n"
    "\n"
    "options:\n"
    "  --threads N   search threads (default: all cores)\n"
    "  --seed N      random seed (default: 1)\n"
    "  --rounds N    stop after N search rounds per thread; with a fixed seed the\n"
    "                answer is then the same on every run, with any number of\n"
    "                threads (they keep step, meeting at the end of every round)\n"
    "  --quiet       print only the solution line\n"
    "  --stats       at the end, print per mechanism how often it was tried and improved,\n"
    "                its share of the search's time and its fall in cost per second\n"
    "  --start FILE  start from the solution in FILE (its last line [s0, s1, ...], such\n"
    "                as a previous run's output; plain or .gz, as for evaluate)\n"
    "  --limit N     solve at usage limit N instead of the file's (a non-negative integer)\n"
    "  --limit-scale X\n"
    "                solve at the file's usage limit times X (X > 0, rounded down)\n"
    "  --set NAME=VALUE\n"
    "                set a search parameter (repeatable; --list-params lists them)\n"
    "  --list-params the search parameters: name, default, range and what each does\n"
    "  --help        this text\n"
    "  --version     the version\n"
    "\n"
    "exit status: 0 feasible answer; 1 no feasible answer found (the least-violating\n"
    "one is still printed); 2 bad arguments (including a file that cannot be\n"
    "opened); 3 invalid input. evaluate exits 0 when the solution is feasible, 1 when\n"
    "it is infeasible, 2 on bad arguments, 3 when the problem or solution is invalid.\n"
    "check loads and validates PROBLEM and prints its counts and digest (exit 0, or 2\n"
    "or 3 as above).\n"
    "\n"
    "sweep draws memory against cost: it solves at K usage limits (--points, default\n"
    "9) from the least peak any plan has to the peak of the cheapest plan found\n"
    "without a limit, or at the limits given (--limits), in SECONDS in all, each\n"
    "point starting from the plan of the next smaller limit. It prints one line per\n"
    "point (limit, cost, lower bound, gap, peak, seconds), or with --json the points\n"
    "and their plans as JSON. --threads, --seed, --rounds and --set apply to every\n"
    "solve. Costs never rise as the limit grows, nor do the bounds. Exit 0 when some\n"
    "point is feasible, 1 when none is, 2 and 3 as above.\n";

// The problem's name as one safe line: control bytes (a newline would start a
// line that is not a '#' progress line) shown as \xHH.
std::string printable(const std::string& name) {
  std::string out;
  for (unsigned char c : name) {
    if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out.push_back(char(c));
    }
  }
  return out;
}

int usage_error(const std::string& msg) {
  std::fprintf(stderr, "iopddl: %s\n\n%s", msg.c_str(), kUsage);
  return 2;
}

// A file that cannot be opened for reading is a bad argument (exit 2), not bad input.
bool readable(const char* path, std::string* why) {
  FILE* f = std::fopen(path, "rb");
  if (!f) {
    *why = std::strerror(errno);
    return false;
  }
  struct stat sb;
  const bool dir = fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode);
  std::fclose(f);
  if (dir) {
    *why = "is a directory";
    return false;
  }
  return true;
}

bool parse_number(const char* s, double* out) {
  if (!*s) return false;
  char* end = nullptr;
  double v = std::strtod(s, &end);
  if (*end != '\0' || !std::isfinite(v)) return false;
  *out = v;
  return true;
}

bool parse_uint(const char* s, uint64_t* out) {
  if (!*s) return false;
  for (const char* c = s; *c; ++c)
    if (*c < '0' || *c > '9') return false;
  errno = 0;
  unsigned long long v = std::strtoull(s, nullptr, 10);
  if (errno) return false;
  *out = v;
  return true;
}

std::string percent(Int128 num, Int128 den) {
  if (den <= 0) return "?";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", 100.0 * double(num) / double(den));
  return buf;
}

// A whole (small) text file, such as a solution, plain or gzip-compressed:
// zlib's gzread passes a plain file through as it is, and answers are often
// kept gzipped (docs/answers). A damaged gzip stream is invalid input, named
// with zlib's reason.
Status read_text_file(const char* path, std::string* text) {
  errno = 0;
  gzFile f = gzopen(path, "rb");
  if (!f)
    return Status::Error(std::string(path) + ": cannot open file: " + std::strerror(errno ? errno : ENOMEM),
                         StatusCode::kIo);
  text->clear();
  char buf[1 << 16];
  int got;
  while ((got = gzread(f, buf, sizeof buf)) > 0) text->append(buf, size_t(got));
  // A truncated stream ends with 0 and Z_BUF_ERROR, a damaged one with -1.
  int err = Z_OK;
  std::string why = gzerror(f, &err);
  gzclose(f);
  // zlib puts the path in front of its reason; ours is there already.
  const std::string own = std::string(path) + ": ";
  if (why.compare(0, own.size(), own) == 0) why.erase(0, own.size());
  if (err == Z_ERRNO) return Status::Error(std::string(path) + ": read error", StatusCode::kIo);
  if (got < 0 || (err != Z_OK && err != Z_STREAM_END))
    return Status::Error(std::string(path) + ": not a readable gzip stream: " + why, StatusCode::kInvalidInput);
  return Status::Ok();
}

void list_params() {
  std::printf("%-24s %12s  %-24s %s\n", "parameter", "default", "range", "what it does");
  for (int k = 0; k < kParamCount; ++k) {
    const ParamInfo& info = kParamInfo[k];
    char range[64];
    std::snprintf(range, sizeof range, "[%.10g, %.10g]%s", info.lo, info.hi, info.integer ? " integer" : "");
    std::printf("%-24s %12.10g  %-24s %s\n", info.name, info.def, range, info.why);
  }
}

// The exit status for a failed step, from the kind of error: a file that
// cannot be read or a bad option is a bad argument (2, with the usage), the
// rest invalid input (3).
int take_search_arg(int argc, char** argv, int* k, SearchArgs* a, int* status) {
  const char* o = argv[*k];
  if (!std::strcmp(o, "--set")) {
    if (*k + 1 >= argc) return *status = usage_error("--set needs a value"), -1;
    Status ps = set_param(&a->params, argv[++*k]);
    if (!ps) return *status = usage_error("--set: " + ps.message), -1;
    return 1;
  }
  if (std::strcmp(o, "--threads") && std::strcmp(o, "--seed") && std::strcmp(o, "--rounds")) return 0;
  if (*k + 1 >= argc) return *status = usage_error(std::string(o) + " needs a value"), -1;
  const char* v = argv[++*k];
  uint64_t n;
  if (!parse_uint(v, &n)) return *status = usage_error(std::string(o) + " needs a non-negative integer, got '" + v + "'"), -1;
  if (!std::strcmp(o, "--threads")) {
    if (n < 1 || n > uint64_t(kMaxThreads))
      return *status = usage_error("--threads must be between 1 and " + std::to_string(kMaxThreads)), -1;
    a->threads = int(n);
  } else if (!std::strcmp(o, "--rounds")) {
    a->rounds = int64_t(n);
  } else {
    a->seed = n;
  }
  return 1;
}

bool is_option(const char* a) {
  // "-1" is a (negative) number; any other word starting with '-' is an option.
  return a[0] == '-' && a[1] != '\0' && !(a[1] >= '0' && a[1] <= '9') && a[1] != '.';
}

int fail(const Status& st, const std::string& prefix) {
  if (st.code == StatusCode::kIo || st.code == StatusCode::kBadArgument) return usage_error(prefix + st.message);
  std::fprintf(stderr, "iopddl: %s%s\n", prefix.c_str(), st.message.c_str());
  return 3;
}


}  // namespace iopddl::cli
