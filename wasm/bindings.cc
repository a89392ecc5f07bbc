// Embind layer of the npm package: the core's public API (load, evaluate, solve)
// as background tasks that JavaScript polls. Nothing here blocks the calling
// thread in the threaded build: loading and solving run on a detached pthread,
// JavaScript reads the task's state and progress between event-loop turns and
// sets the stop flag. In the single-threaded build (the browser fallback that
// runs inside a Worker) solves and sweeps run inline as the core's sessions,
// in slices.
//
// Everything that crosses the boundary is a number, a string or a JSON text:
// no C++ exception ever reaches JavaScript (Emscripten 3.1.6 would deliver it as
// a bare number), 128-bit and 64-bit values travel as decimal strings.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#ifdef __EMSCRIPTEN_PTHREADS__
#include <emscripten/threading.h>
#include <pthread.h>
#endif

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <optional>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "evaluate.h"
#include "int128.h"
#include "load_json.h"
#include "problem.h"
#include "solution_io.h"
#include "solver.h"
#include "status.h"
#include "sweep.h"
#include "version.h"

namespace {

using namespace iopddl;

// ---------------------------------------------------------------- JSON text

void append_escaped(std::string* out, const std::string& s) {
  out->push_back('"');
  for (unsigned char c : s) {
    switch (c) {
      case '"': *out += "\\\""; break;
      case '\\': *out += "\\\\"; break;
      case '\n': *out += "\\n"; break;
      case '\r': *out += "\\r"; break;
      case '\t': *out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          *out += buf;
        } else {
          out->push_back(char(c));
        }
    }
  }
  out->push_back('"');
}

// A small writer for flat JSON objects; exact integers go out as strings.
class Json {
 public:
  Json& key(const char* k) {
    out_ += first_ ? "" : ",";
    first_ = false;
    out_ += '"';
    out_ += k;
    out_ += "\":";
    return *this;
  }
  Json& str(const char* k, const std::string& v) { key(k); append_escaped(&out_, v); return *this; }
  Json& big(const char* k, Int128 v) { key(k); out_ += '"' + to_string(v) + '"'; return *this; }
  Json& num(const char* k, double v) {
    key(k);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    out_ += buf;
    return *this;
  }
  Json& i64(const char* k, int64_t v) { key(k); out_ += std::to_string(v); return *this; }
  Json& boolean(const char* k, bool v) { key(k); out_ += v ? "true" : "false"; return *this; }
  Json& null(const char* k) { key(k); out_ += "null"; return *this; }
  Json& raw(const char* k, const std::string& v) { key(k); out_ += v; return *this; }
  std::string done() { return "{" + out_ + "}"; }

 private:
  std::string out_;
  bool first_ = true;
};

// "[item(0),item(1),...]": item(k) returns element k's JSON text.
template <class Item>
std::string json_array(size_t n, const Item& item) {
  std::string s = "[";
  for (size_t k = 0; k < n; ++k) {
    if (k) s += ',';
    s += item(k);
  }
  return s + "]";
}

std::string assignment_json(const std::vector<int32_t>& a) {
  std::string s = "[";
  s.reserve(a.size() * 3 + 2);
  for (size_t i = 0; i < a.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(a[i]);
  }
  return s + "]";
}

std::string evaluation_json(const Problem& p, const Evaluation& ev, bool with_profile) {
  Json j;
  j.boolean("ok", ev.status.ok).str("message", ev.status.message);
  j.big("nodeCost", ev.node_cost).big("edgeCost", ev.edge_cost).big("totalCost", ev.total_cost);
  j.i64("forbiddenEntries", ev.forbidden_entries);
  j.big("peakUsage", ev.peak_usage).big("peakTime", ev.peak_time).i64("peakSegment", ev.peak_segment);
  j.boolean("withinLimit", ev.within_limit).boolean("feasible", ev.feasible());
  if (with_profile && ev.status.ok) {
    // Usage holds on [time[k], time[k+1]); the last time point closes the last segment.
    j.raw("time", json_array(p.time_point.size(), [&](size_t k) { return '"' + std::to_string(p.time_point[k]) + '"'; }));
    j.raw("usage", json_array(ev.usage.size(), [&](size_t k) { return '"' + to_string(ev.usage[k]) + '"'; }));
  }
  return j.done();
}

// {"ok":false,"message":...}, as an evaluation of a wrong assignment reads.
std::string error_json(const std::string& message) {
  Json j;
  j.boolean("ok", false).str("message", message);
  return j.done();
}

// A limit's decimal digits: a non-negative integer below 2^63, nothing else.
bool parse_limit_digits(const std::string& text, int64_t* v) {
  if (text.empty() || text[0] == '-' || text[0] == '+' || text[0] == ' ') return false;
  errno = 0;
  char* end = nullptr;
  const long long n = std::strtoll(text.c_str(), &end, 10);
  if (errno || *end) return false;
  *v = int64_t(n);
  return true;
}

// A usage limit as JavaScript passes it: "" for the file's (left unset),
// "none" for no limit, else a non-negative decimal integer below 2^63.
Status parse_usage_limit(const std::string& text, std::optional<UsageLimit>* limit) {
  limit->reset();
  if (text.empty()) return Status::Ok();
  if (text == "none") {
    *limit = UsageLimit{false, 0};
    return Status::Ok();
  }
  int64_t v;
  if (!parse_limit_digits(text, &v)) return Status::Error("usageLimit must be a non-negative integer below 2^63, got " + text);
  *limit = UsageLimit{true, v};
  return Status::Ok();
}

std::string summary_json(const Problem& p, double load_seconds) {
  Json j;
  j.str("name", p.name).i64("nodes", p.num_nodes()).i64("edges", p.num_edges());
  j.i64("strategies", int64_t(p.total_strategies()));
  int max_k = 0;
  for (int i = 0; i < p.num_nodes(); ++i) max_k = std::max(max_k, p.num_strategies(i));
  j.i64("maxStrategies", max_k);
  uint64_t edge_entries = p.edge_entries();
  j.i64("edgeCostEntries", int64_t(edge_entries));
  if (p.has_usage_limit) j.big("usageLimit", p.usage_limit); else j.null("usageLimit");
  j.big("leastPeakUsage", least_peak_usage(p));
  if (p.num_nodes() > 0) {
    int64_t lo = *std::min_element(p.interval_lo.begin(), p.interval_lo.end());
    int64_t hi = *std::max_element(p.interval_hi.begin(), p.interval_hi.end());
    j.big("timeStart", lo).big("timeEnd", hi);
  } else {
    j.null("timeStart").null("timeEnd");
  }
  j.i64("segments", p.num_segments());
  j.num("loadSeconds", load_seconds);
  j.str("digest", problem_digest(p));
  return j.done();
}

std::string progress_json(const Progress& pr, uint64_t seq) {
  Json j;
  j.i64("seq", int64_t(seq)).str("event", event_name(pr.event)).num("elapsed", pr.elapsed_seconds);
  j.boolean("hasSolution", pr.has_solution).boolean("feasible", pr.feasible);
  if (pr.has_solution) j.big("cost", pr.best_cost); else j.null("cost");
  if (pr.has_lower_bound) j.big("lowerBound", pr.lower_bound); else j.null("lowerBound");
  j.i64("iterations", pr.iterations);
  j.i64("epoch", pr.epoch).num("epochBegan", pr.epoch_began_seconds);
  return j.done();
}

std::string result_json(const Problem& p, const SolveResult& r, bool stopped) {
  Json j;
  j.raw("assignment", assignment_json(r.assignment));
  j.raw("evaluation", evaluation_json(p, r.evaluation, false));
  j.boolean("feasible", r.feasible).boolean("provenInfeasible", r.proven_infeasible());
  j.boolean("provenOptimal", r.proven_optimal());
  if (r.has_lower_bound) j.big("lowerBound", r.lower_bound); else j.null("lowerBound");
  if (r.usage_limit.has) j.big("usageLimit", r.usage_limit.value); else j.null("usageLimit");
  j.num("elapsed", r.elapsed_seconds).boolean("stopped", stopped);
  const SolveStats& s = r.stats;
  // The lists of src/stats.h: the counters (summed over the slices of a
  // sliced solve) and the model's facts, each under its JSON name.
  Json counters, facts;
#define IOPDDL_COUNTER_JSON(field, json, ...) counters.i64(json, s.field);
  IOPDDL_COUNTERS(IOPDDL_COUNTER_JSON)
#undef IOPDDL_COUNTER_JSON
#define IOPDDL_FACT_JSON(field, json, ...) facts.i64(json, s.field);
  IOPDDL_MODEL_FACTS(IOPDDL_FACT_JSON)
#undef IOPDDL_FACT_JSON
  Json st;
  st.raw("counters", counters.done()).raw("facts", facts.done());
  st.num("reduceSeconds", s.reduce_seconds);
  if (s.first_feasible_seconds >= 0) st.num("firstFeasibleSeconds", s.first_feasible_seconds);
  else st.null("firstFeasibleSeconds");
  st.raw("history", json_array(s.history.size(), [&](size_t k) {
    const ImprovementPoint& h = s.history[k];
    return Json().num("seconds", h.seconds).big("cost", h.cost).boolean("feasible", h.feasible).done();
  }));
  st.raw("epochs", json_array(s.epochs.size(), [&](size_t k) {
    const EpochStart& e = s.epochs[k];
    Json o;
    o.num("seconds", e.seconds).i64("epoch", e.epoch).boolean("opening", e.opening);
    o.num("endedFromSeconds", e.ended_from).num("endedLastFallSeconds", e.ended_last_fall);
    if (e.ended_has_best) o.big("endedBestCost", e.ended_best_cost); else o.null("endedBestCost");
    return o.done();
  }));
  Json mech;  // one entry per mechanism of src/mechanisms.h, under its name
  for (int k = 0; k < kMechanismCount; ++k) {
    Json c;
    c.i64("tried", s.mechanisms[k].tried).i64("improved", s.mechanisms[k].improved);
    c.num("seconds", double(s.mechanisms[k].micros) / 1e6);
    c.num("share", time_share(s.mechanisms, k)).num("fall", double(s.mechanisms[k].fall));
    c.num("fallPerSecond", fall_per_second(s.mechanisms[k]));
    mech.raw(kMechanismInfo[k].name, c.done());
  }
  st.raw("mechanisms", mech.done());
  j.raw("stats", st.done());
  return j.done();
}

// A sweep's point (src/sweep.h: SweepPoint).
std::string sweep_point_json(const SweepPoint& pt) {
  Json j;
  j.big("limit", pt.limit).boolean("feasible", pt.feasible).big("cost", pt.cost);
  if (pt.has_lower_bound) j.big("lowerBound", pt.lower_bound); else j.null("lowerBound");
  j.big("peakUsage", pt.peak_usage).num("seconds", pt.seconds);
  if (pt.first_feasible_seconds >= 0) j.num("firstFeasibleSeconds", pt.first_feasible_seconds);
  else j.null("firstFeasibleSeconds");
  j.boolean("provenOptimal", pt.proven_optimal).boolean("provenInfeasible", pt.proven_infeasible);
  j.boolean("fromNeighbour", pt.from_neighbour).raw("assignment", assignment_json(pt.assignment));
  return j.done();
}

// A sweep's result (src/sweep.h: SweepResult), or {"error":...} when it failed.
std::string sweep_json(const SweepResult& r, bool stopped) {
  Json j;
  if (!r.status.ok) return j.str("error", r.status.message).done();
  j.big("leastPeak", r.least_peak);
  if (r.has_free_plan) {
    Json f;
    f.big("cost", r.free_cost).big("peakUsage", r.free_peak);
    if (r.free_has_lower_bound) f.big("lowerBound", r.free_lower_bound); else f.null("lowerBound");
    j.raw("freePlan", f.done());
  } else {
    j.null("freePlan");
  }
  j.raw("points", json_array(r.points.size(), [&](size_t k) { return sweep_point_json(r.points[k]); }));
  j.boolean("stopped", stopped);
  return j.done();
}

// ---------------------------------------------------------------- tasks

enum TaskStateCode { kRunning = 0, kDone = 1, kFailed = 2 };

// Shared between the JS-side handle and the thread that does the work, so either
// may go away first.
struct TaskState {
  std::atomic<int> state{kRunning};
  std::atomic<bool> stop{false};
  std::atomic<bool> out_of_memory{false};
  std::mutex mu;  // guards everything below
  std::string error;
  std::string progress;
  uint64_t progress_seq = 0;
  std::string result;  // JSON
  std::vector<std::string> items;  // a sweep's points as they finish (JSON)

  void finish(std::string json) {
    {
      std::lock_guard<std::mutex> lock(mu);
      result = std::move(json);
    }
    state.store(kDone);
  }
  void fail(std::string message) {
    {
      std::lock_guard<std::mutex> lock(mu);
      error = std::move(message);
    }
    state.store(kFailed);
  }
};

// The task the current thread works for (null on other threads): the
// out-of-memory handler fails it without allocating.
thread_local TaskState* tl_task = nullptr;
std::atomic<bool> g_oom_elsewhere{false};

const char* kOutOfMemory =
    "out of memory: the WebAssembly module could not grow its memory (the limit is 4 GB; "
    "a browser or the system may allow less)";

#ifdef __EMSCRIPTEN_PTHREADS__
// Called by operator new when malloc fails. On a task's thread: fail the task
// and end the thread (its stack's allocations leak; the module stays usable).
// On a solver thread: flag it so the task reports it, and end that thread.
void on_out_of_memory() {
  if (!emscripten_is_main_runtime_thread()) {
    if (TaskState* t = tl_task) {
      t->out_of_memory.store(true);
      t->stop.store(true);
      t->state.store(kFailed);
    } else {
      g_oom_elsewhere.store(true);
    }
    pthread_exit(nullptr);
  }
  EM_ASM({ throw new Error(UTF8ToString($0)); }, kOutOfMemory);
}

struct Job {
  std::shared_ptr<TaskState> task;
  std::function<void()> work;
};

void* job_main(void* arg) {
  std::unique_ptr<Job> job(static_cast<Job*>(arg));
  tl_task = job->task.get();
  job->work();
  tl_task = nullptr;
  return nullptr;
}

// Runs `work` on a detached pthread: the caller returns at once.
void run_task(const std::shared_ptr<TaskState>& task, std::function<void()> work) {
  auto* job = new Job{task, std::move(work)};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&attr, 8u << 20);
  pthread_t tid;
  int rc = pthread_create(&tid, &attr, job_main, job);
  pthread_attr_destroy(&attr);
  if (rc != 0) {
    delete job;
    task->fail("could not start a thread (pthread_create returned " + std::to_string(rc) + ")");
  }
}
#else
void on_out_of_memory() { EM_ASM({ throw new Error(UTF8ToString($0)); }, kOutOfMemory); }

// Single-threaded build: the work runs inline (inside the package's Worker).
void run_task(const std::shared_ptr<TaskState>& task, std::function<void()> work) {
  tl_task = task.get();
  work();
  tl_task = nullptr;
}

// Progress from inside a blocking solve goes straight to JavaScript.
EM_JS(void, iopddl_post_progress, (const char* json), {
  if (Module['onSolveProgress']) Module['onSolveProgress'](UTF8ToString(json));
});
#endif

// ---------------------------------------------------------------- handles

class ProblemHandle {
 public:
  ProblemHandle() = default;
  explicit ProblemHandle(std::shared_ptr<const Problem> p, double load_seconds)
      : p_(std::move(p)), load_seconds_(load_seconds) {}
  bool valid() const { return bool(p_); }
  std::string summary() const { return p_ ? summary_json(*p_, load_seconds_) : "null"; }
  // `ptr` holds `n` int32 strategy indices (written by JavaScript).
  // `usage_limit` as parse_usage_limit() reads it (the answer is judged against it).
  std::string evaluate(double ptr, double n, const std::string& usage_limit) const {
    if (!p_) return "null";
    std::optional<UsageLimit> limit;
    Status ls = parse_usage_limit(usage_limit, &limit);
    if (!ls) return error_json(ls.message);
    const int32_t* a = reinterpret_cast<const int32_t*>(uintptr_t(ptr));
    std::vector<int32_t> v(a, a + size_t(n));
    return evaluation_json(*p_, iopddl::evaluate(*p_, v, limit.value_or(p_->limit())), true);
  }
  // A solve's result for the `n` strategies at `ptr` as given, not searched
  // (a solution read from a file): exact evaluation, no bound, zero counts.
  // The evaluation's {"ok":false,...} when the assignment is wrong.
  std::string result_of(double ptr, double n, const std::string& usage_limit) const {
    if (!p_) return "null";
    SolveResult r;
    std::optional<UsageLimit> limit;
    Status ls = parse_usage_limit(usage_limit, &limit);
    if (!ls) return error_json(ls.message);
    r.usage_limit = limit.value_or(p_->limit());
    const int32_t* a = reinterpret_cast<const int32_t*>(uintptr_t(ptr));
    r.assignment.assign(a, a + size_t(n));
    r.evaluation = iopddl::evaluate(*p_, r.assignment, r.usage_limit);
    if (!r.evaluation.status) return evaluation_json(*p_, r.evaluation, false);
    r.feasible = r.evaluation.feasible();
    return result_json(*p_, r, false);
  }
  // The problem's per-node arrays, read in place by JavaScript (which copies
  // them out): 0 strategy offsets (n + 1, uint64), 1 strategy costs, 2
  // strategy usages (int64, at offset[i] + s), 3 interval starts, 4 interval
  // ends (int64, n). Address and length in elements.
  double node_array(int k) const { return p_ ? double(uintptr_t(array(k).first)) : 0; }
  double node_array_length(int k) const { return p_ ? double(array(k).second) : 0; }
  std::shared_ptr<const Problem> problem() const { return p_; }

 private:
  std::pair<const void*, size_t> array(int k) const {
    switch (k) {
      case 0: return {p_->strategy_offset.data(), p_->strategy_offset.size()};
      case 1: return {p_->node_cost.data(), p_->node_cost.size()};
      case 2: return {p_->node_usage.data(), p_->node_usage.size()};
      case 3: return {p_->interval_lo.data(), p_->interval_lo.size()};
      case 4: return {p_->interval_hi.data(), p_->interval_hi.size()};
      default: return {nullptr, 0};
    }
  }
  std::shared_ptr<const Problem> p_;
  double load_seconds_ = 0;
};

class Task {
 public:
  Task() = default;
  explicit Task(std::shared_ptr<TaskState> s) : s_(std::move(s)) {}
  int state() const { return s_->state.load(); }
  std::string error() const {
    if (s_->out_of_memory.load()) return kOutOfMemory;
    std::lock_guard<std::mutex> lock(s_->mu);
    return s_->error;
  }
  bool outOfMemory() const { return s_->out_of_memory.load(); }
  double progressSeq() const {
    std::lock_guard<std::mutex> lock(s_->mu);
    return double(s_->progress_seq);
  }
  std::string progress() const {
    std::lock_guard<std::mutex> lock(s_->mu);
    return s_->progress;
  }
  std::string result() const {
    std::lock_guard<std::mutex> lock(s_->mu);
    return s_->result;
  }
  void stop() { s_->stop.store(true); }
  // A sweep's points finished so far, in the order solved.
  int itemCount() const {
    std::lock_guard<std::mutex> lock(s_->mu);
    return int(s_->items.size());
  }
  std::string item(int k) const {
    std::lock_guard<std::mutex> lock(s_->mu);
    return k >= 0 && size_t(k) < s_->items.size() ? s_->items[size_t(k)] : "null";
  }

 private:
  std::shared_ptr<TaskState> s_;
};

using Clock = std::chrono::steady_clock;

// A load fed in pieces from JavaScript (a file's chunks, a stream's, slices of
// bytes), parsed as they come on the calling thread: the input is never held
// whole in the module, and JavaScript reads the next piece in between.
class LoaderHandle {
 public:
  explicit LoaderHandle(const std::string& source) : loader_(source), t0_(Clock::now()) {}
  // Room for the next piece of `n` bytes inside the module (reused), for
  // JavaScript to copy into.
  double buffer(double n) {
    piece_.resize(size_t(n));
    return double(reinterpret_cast<uintptr_t>(piece_.data()));
  }
  // Parses the first `n` bytes of the buffer. False on an error (error()).
  bool push(double n) { return check(loader_.push(piece_.data(), size_t(n))); }
  // The input has ended. False on an error.
  bool finish() {
    std::vector<char>().swap(piece_);
    auto p = std::make_shared<Problem>();
    if (!check(loader_.finish(p.get()))) return false;
    problem_ = ProblemHandle(std::move(p), std::chrono::duration<double>(Clock::now() - t0_).count());
    return true;
  }
  std::string error() const { return error_; }
  bool out_of_memory() const { return out_of_memory_; }
  double bytes_in() const { return double(loader_.bytes_in()); }
  // The pieces to come are gzip inflated by JavaScript's platform.
  void input_inflated_by_caller() { loader_.input_inflated_by_caller(); }
  ProblemHandle take_problem() { return std::move(problem_); }

 private:
  ProblemLoader loader_;
  Clock::time_point t0_;
  std::vector<char> piece_;
  ProblemHandle problem_;
  std::string error_;
  bool out_of_memory_ = false;

  bool check(const Status& st) {
    if (st.ok) return true;
    error_ = st.message;
    out_of_memory_ = st.code == StatusCode::kOutOfMemory;
    return false;
  }
};

// Search parameters as "name=value" lines, checked against the core's table
// (params.h); the first bad one's message on failure.
Status parse_params(const std::string& text, Params* params) {
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    if (end > at) {
      Status s = set_param(params, text.substr(at, end - at));
      if (!s) return s;
    }
    at = end + 1;
  }
  return Status::Ok();
}

// A solution text (its last line [s0, s1, ...], as the CLI prints it) as
// {"ok":true,"assignment":[...]} or {"ok":false,"message":...}.
std::string parse_solution_json(const std::string& text, const std::string& source) {
  std::vector<int32_t> a;
  Status s = parse_solution(text, source, &a);
  Json j;
  j.boolean("ok", s.ok);
  if (!s) return j.str("message", s.message).done();
  return j.raw("assignment", assignment_json(a)).done();
}

// "" when the parameter lines are valid, else what is wrong with the first bad one.
std::string check_params(const std::string& params) {
  Params prm;
  Status s = parse_params(params, &prm);
  return s ? "" : s.message;
}

// A solve's options from what JavaScript passes: the time limit in seconds,
// `seed` a decimal string (64 bits), `params` as for check_params, the warm
// start `start_n` int32 at `start_ptr` (0: none; checked by evaluate() first),
// copied; `usage_limit` "" for the file's, "none" for no limit, else a
// non-negative decimal integer. Not ok when a parameter or the limit is bad.
Status solve_options(double time_limit_seconds, int threads, const std::string& seed, double max_rounds,
                     const std::string& usage_limit, const std::string& params, double start_ptr, double start_n,
                     SolveOptions* o) {
  Status ps = parse_params(params, &o->params);
  if (!ps) return ps;
  Status ls = parse_usage_limit(usage_limit, &o->usage_limit);
  if (!ls) return ls;
  const int32_t* sp = reinterpret_cast<const int32_t*>(uintptr_t(start_ptr));
  o->start.assign(sp, sp + size_t(start_n));
  o->time_limit_seconds = time_limit_seconds;
  o->threads = threads;
  o->seed = std::strtoull(seed.c_str(), nullptr, 10);
  o->max_rounds = int64_t(max_rounds);
  return Status::Ok();
}

// A sweep's options: `limits` comma-separated non-negative decimal integers
// ("" : `points` limits chosen by the core's sweep); the rest as for
// solve_options (the time limit is the whole sweep's).
Status sweep_options(double time_limit_seconds, int threads, const std::string& seed, double max_rounds,
                     const std::string& limits, int points, const std::string& params, SweepOptions* o) {
  Status s = solve_options(time_limit_seconds, threads, seed, max_rounds, "", params, 0, 0, &o->solve);
  if (!s) return s;
  o->points = points;
  size_t at = 0;
  while (at < limits.size()) {
    size_t end = limits.find(',', at);
    if (end == std::string::npos) end = limits.size();
    const std::string t = limits.substr(at, end - at);
    int64_t v;
    if (!parse_limit_digits(t, &v))
      return Status::Error("limits[" + std::to_string(o->limits.size()) +
                           "] must be a non-negative integer below 2^63, got " + t);
    o->limits.push_back(v);
    at = end + 1;
  }
  return Status::Ok();
}

#ifdef __EMSCRIPTEN_PTHREADS__
// How a task's run ends: failed for memory that ran out on another thread
// meanwhile, failed with the core's message, or finished with `json()`.
template <class MakeJson>
void end_task(TaskState& task, const Status& status, MakeJson json) {
  if (g_oom_elsewhere.exchange(false)) {
    task.out_of_memory.store(true);
    task.state.store(kFailed);
  } else if (!status.ok) {
    task.fail(status.message);
  } else {
    task.finish(json());
  }
}

// Starts a solve on its own pthread (the threaded build); `heartbeat` in
// seconds (0: progress only on events); the rest as for solve_options.
Task start_solve(const ProblemHandle& handle, double time_limit_seconds, int threads,
                 const std::string& seed, double max_rounds, const std::string& usage_limit, double heartbeat,
                 const std::string& params, double start_ptr, double start_n) {
  auto task = std::make_shared<TaskState>();
  std::shared_ptr<const Problem> problem = handle.problem();
  if (!problem) {
    task->fail("the problem was disposed");
    return Task(task);
  }
  SolveOptions o;
  Status os = solve_options(time_limit_seconds, threads, seed, max_rounds, usage_limit, params, start_ptr, start_n, &o);
  if (!os) {
    task->fail(os.message);
    return Task(task);
  }
  run_task(task, [task, problem, heartbeat, o]() mutable {
    o.stop = &task->stop;
    o.heartbeat_seconds = heartbeat;
    TaskState* t = task.get();
    o.on_progress = [t](const Progress& pr) {
      std::lock_guard<std::mutex> lock(t->mu);
      t->progress = progress_json(pr, t->progress_seq + 1);
      ++t->progress_seq;
    };
    const SolveResult r = solve(*problem, o);
    end_task(*task, r.status, [&] { return result_json(*problem, r, task->stop.load()); });
  });
  return Task(task);
}
// Starts a sweep (src/sweep.h) on its own pthread: each point's JSON is added
// to the task's items as it is solved; stop() ends the solve running, and the
// rest get what time is left (little or none), so the sweep ends soon after.
Task start_sweep(const ProblemHandle& handle, double time_limit_seconds, int threads, const std::string& seed,
                 double max_rounds, const std::string& limits, int points, const std::string& params) {
  auto task = std::make_shared<TaskState>();
  std::shared_ptr<const Problem> problem = handle.problem();
  if (!problem) {
    task->fail("the problem was disposed");
    return Task(task);
  }
  SweepOptions o;
  Status os = sweep_options(time_limit_seconds, threads, seed, max_rounds, limits, points, params, &o);
  if (!os) {
    task->fail(os.message);
    return Task(task);
  }
  run_task(task, [task, problem, o]() mutable {
    TaskState* t = task.get();
    o.solve.stop = &t->stop;
    o.on_point = [t](const SweepPoint& pt) {
      std::string json = sweep_point_json(pt);
      std::lock_guard<std::mutex> lock(t->mu);
      t->items.push_back(std::move(json));
    };
    const SweepResult r = sweep(*problem, o);
    end_task(*task, r.status, [&] { return sweep_json(r, task->stop.load()); });
  });
  return Task(task);
}
#else
// A solve in slices, for the single-threaded build (inside the package's
// Worker): each run() searches inline for a slice of time and returns, so the
// Worker can read abort requests in between; the core's session keeps the
// model, the incumbent, prices and messages between slices, so slicing costs
// nothing. Progress goes straight to JavaScript, on the whole solve's clock.
class SessionHandle {
 public:
  SessionHandle(const ProblemHandle& handle, double time_limit_seconds, const std::string& seed, double max_rounds,
                const std::string& usage_limit, const std::string& params, double start_ptr, double start_n)
      : problem_(handle.problem()) {
    if (!problem_) {
      error_ = "the problem was disposed";
      return;
    }
    SolveOptions o;
    Status os = solve_options(time_limit_seconds, 1, seed, max_rounds, usage_limit, params, start_ptr, start_n, &o);
    if (!os) {
      error_ = os.message;
      return;
    }
    o.stop = &stop_;
    o.heartbeat_seconds = 0;
    o.on_progress = [this](const Progress& pr) {
      iopddl_post_progress(progress_json(pr, ++progress_seq_).c_str());
    };
    session_.reset(new SolveSession(*problem_, o));
    if (!session_->status()) error_ = session_->status().message;
  }
  std::string error() const { return error_; }
  // Searches for up to `seconds`; true while more is left.
  bool run(double seconds) { return error_.empty() && session_->run(seconds); }
  void stop() { stop_.store(true); }
  std::string result() {
    if (!error_.empty()) return "null";
    return result_json(*problem_, session_->result(), stop_.load());
  }

 private:
  std::shared_ptr<const Problem> problem_;
  std::atomic<bool> stop_{false};
  uint64_t progress_seq_ = 0;
  std::unique_ptr<SolveSession> session_;
  std::string error_;
};

EM_JS(void, iopddl_post_sweep_point, (const char* json), {
  if (Module['onSweepPoint']) Module['onSweepPoint'](UTF8ToString(json));
});

// A sweep in slices, for the single-threaded build, as SessionHandle is a
// solve: each run() advances the core's SweepSession inline for a slice of
// time, so the Worker can read abort requests in between; stop() leaves the
// points still to come no time, as start_sweep's stop does. Each point goes to
// JavaScript as it is solved.
class SweepSessionHandle {
 public:
  SweepSessionHandle(const ProblemHandle& handle, double time_limit_seconds, const std::string& seed,
                     double max_rounds, const std::string& limits, int points, const std::string& params)
      : problem_(handle.problem()) {
    if (!problem_) {
      error_ = "the problem was disposed";
      return;
    }
    SweepOptions o;
    Status os = sweep_options(time_limit_seconds, 1, seed, max_rounds, limits, points, params, &o);
    if (!os) {
      error_ = os.message;
      return;
    }
    o.solve.stop = &stop_;
    o.on_point = [](const SweepPoint& pt) { iopddl_post_sweep_point(sweep_point_json(pt).c_str()); };
    session_.reset(new SweepSession(*problem_, o));
  }
  // Sweeps for up to about `seconds`; true while more is left.
  bool run(double seconds) { return session_ && session_->run(seconds); }
  void stop() { stop_.store(true); }
  // The result's JSON, or {"error":...} when the sweep could not run.
  std::string result() const {
    if (!session_) return Json().str("error", error_).done();
    return sweep_json(session_->result(), stop_.load());
  }

 private:
  std::shared_ptr<const Problem> problem_;
  std::atomic<bool> stop_{false};
  std::unique_ptr<SweepSession> session_;
  std::string error_;
};
#endif

bool threaded() {
#ifdef __EMSCRIPTEN_PTHREADS__
  return true;
#else
  return false;
#endif
}

std::string version() { return IOPDDL_VERSION; }

// What the package's JavaScript needs from the core, stated here once: the
// version, the thread cap, the default time limit, the forbidden costs (decimal
// strings: beyond 2^53) and gzip's magic number. build.mjs writes them into
// dist/constants.mjs and .cjs; nothing in wasm/js or web restates them.
std::string constants() {
  return Json()
      .str("version", IOPDDL_VERSION)
      .i64("maxThreads", kMaxThreads)
      .num("defaultTimeLimitMs", SolveOptions().time_limit_seconds * 1000)
      .str("forbiddenCost", std::to_string(kForbidden))
      .str("forbiddenThreshold", std::to_string(kForbiddenThreshold))
      .raw("gzipMagic", "[" + std::to_string(kGzipMagic[0]) + "," + std::to_string(kGzipMagic[1]) + "]")
      .done();
}

// Installed once at start-up: operator new failures become task errors.
struct InstallHandler {
  InstallHandler() { std::set_new_handler(on_out_of_memory); }
} g_install_handler;

}  // namespace

EMSCRIPTEN_BINDINGS(iopddl) {
  using namespace emscripten;
  function("version", &version);
  function("constants", &constants);
  function("threaded", &threaded);
  class_<LoaderHandle>("Loader")
      .constructor<const std::string&>()
      .function("buffer", &LoaderHandle::buffer)
      .function("push", &LoaderHandle::push)
      .function("finish", &LoaderHandle::finish)
      .function("error", &LoaderHandle::error)
      .function("outOfMemory", &LoaderHandle::out_of_memory)
      .function("bytesIn", &LoaderHandle::bytes_in)
      .function("inputInflatedByCaller", &LoaderHandle::input_inflated_by_caller)
      .function("takeProblem", &LoaderHandle::take_problem);
  class_<ProblemHandle>("ProblemHandle")
      .function("valid", &ProblemHandle::valid)
      .function("summary", &ProblemHandle::summary)
      .function("evaluate", &ProblemHandle::evaluate)
      .function("resultOf", &ProblemHandle::result_of)
      .function("nodeArray", &ProblemHandle::node_array)
      .function("nodeArrayLength", &ProblemHandle::node_array_length);
  class_<Task>("Task")
      .function("state", &Task::state)
      .function("error", &Task::error)
      .function("outOfMemory", &Task::outOfMemory)
      .function("progressSeq", &Task::progressSeq)
      .function("progress", &Task::progress)
      .function("result", &Task::result)
      .function("stop", &Task::stop)
      .function("itemCount", &Task::itemCount)
      .function("item", &Task::item);
  function("checkParams", &check_params);
#ifdef __EMSCRIPTEN_PTHREADS__
  function("startSolve", &start_solve);
  function("startSweep", &start_sweep);
#else
  class_<SessionHandle>("SolveSession")
      .constructor<const ProblemHandle&, double, const std::string&, double, const std::string&, const std::string&, double,
                   double>()
      .function("error", &SessionHandle::error)
      .function("run", &SessionHandle::run)
      .function("stop", &SessionHandle::stop)
      .function("result", &SessionHandle::result);
  class_<SweepSessionHandle>("SweepSession")
      .constructor<const ProblemHandle&, double, const std::string&, double, const std::string&, int,
                   const std::string&>()
      .function("run", &SweepSessionHandle::run)
      .function("stop", &SweepSessionHandle::stop)
      .function("result", &SweepSessionHandle::result);
#endif
  function("parseSolution", &parse_solution_json);
}
