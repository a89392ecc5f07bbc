// A sweep is a sequence of solves, one per point (and one without a limit
// when the sweep chooses the points), each a SolveSession: the session below
// keeps the one running and what comes next, so a caller can run the sweep
// in slices; sweep() runs it to the end.
#include "sweep.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

namespace iopddl {

namespace {

using Clock = std::chrono::steady_clock;

// A point from a solve's result, judged at the point's limit (the solve's
// own evaluation when it ran at that limit).
void fill(const Problem& p, const SolveResult& r, SweepPoint* pt) {
  pt->assignment = r.assignment;
  const bool same = r.usage_limit.has && r.usage_limit.value == pt->limit;
  const Evaluation other = same ? Evaluation() : evaluate(p, r.assignment, UsageLimit{true, pt->limit});
  const Evaluation& ev = same ? r.evaluation : other;
  pt->feasible = ev.feasible();
  pt->cost = ev.total_cost;
  pt->peak_usage = ev.peak_usage;
  pt->has_lower_bound = r.has_lower_bound;
  pt->lower_bound = r.lower_bound;
  pt->proven_infeasible = r.proven_infeasible();
  pt->seconds = r.elapsed_seconds;
  pt->first_feasible_seconds = r.stats.first_feasible_seconds;
}

// A plan found at a smaller limit replaces the point's own when it is cheaper
// (it fits: its peak is within the smaller limit).
void take_if_cheaper(const SweepPoint& smaller, SweepPoint* pt) {
  if (!smaller.feasible || (pt->feasible && pt->cost <= smaller.cost)) return;
  pt->assignment = smaller.assignment;
  pt->feasible = true;
  pt->cost = smaller.cost;
  pt->peak_usage = smaller.peak_usage;
  pt->from_neighbour = true;
}

// The finished sweep's costs and bounds made monotone in the limit.
void make_monotone(SweepResult* out) {
  std::vector<SweepPoint>& pts = out->points;
  // A plan found at a smaller limit fits every larger one.
  for (size_t k = 1; k < pts.size(); ++k) take_if_cheaper(pts[k - 1], &pts[k]);

  // A bound at a larger limit holds at every smaller one, as does the free
  // solve's; a point proven infeasible has no finite bound to raise.
  bool have = out->has_free_plan && out->free_has_lower_bound;
  Int128 carry = have ? out->free_lower_bound : 0;
  for (size_t k = pts.size(); k-- > 0;) {
    SweepPoint& pt = pts[k];
    if (pt.proven_infeasible) continue;
    if (pt.has_lower_bound && (!have || pt.lower_bound > carry)) {
      carry = pt.lower_bound;
      have = true;
    }
    if (have) {
      pt.has_lower_bound = true;
      pt.lower_bound = carry;
    }
    pt.proven_optimal = pt.feasible && pt.has_lower_bound && pt.cost <= pt.lower_bound;
  }
}

}  // namespace

std::optional<int64_t> split_limit(const std::vector<SweepPoint>& pts) {
  // A stretch whose smaller end has no plan has no known fall: it is given
  // the largest one known, so that finding where plans start to fit competes
  // with the rest of the curve by width instead of taking every point.
  auto fall_after = [&](size_t k) { return std::max(0.0, double(pts[k].cost - pts[k + 1].cost)); };
  double largest_fall = 0;
  for (size_t k = 0; k + 1 < pts.size(); ++k)
    if (pts[k].feasible) largest_fall = std::max(largest_fall, fall_after(k));
  int best = -1;
  double best_score = -1;
  for (size_t k = 0; k + 1 < pts.size(); ++k) {
    const int64_t a = pts[k].limit, b = pts[k + 1].limit;
    if (b - a < 2) continue;
    const double width = std::log(double(b) / double(std::max<int64_t>(a, 1)));
    const double fall = pts[k].feasible ? fall_after(k) : largest_fall;
    // No fall anywhere: the widest stretch.
    const double score = fall * width + width * 1e-300;
    if (score > best_score) {
      best = int(k);
      best_score = score;
    }
  }
  if (best < 0) return std::nullopt;
  const int64_t a = pts[best].limit, b = pts[best + 1].limit;
  const int64_t mid = int64_t(std::sqrt(double(std::max<int64_t>(a, 1)) * double(b)));
  return std::min(std::max(mid, a + 1), b - 1);
}

struct SweepSession::State {
  // What the sweep solves next, in this order.
  enum class Next {
    kGiven,      // the given limits, increasing
    kFree,       // the solve without a limit (the sweep chooses the points)
    kLeastOnly,  // the least peak alone: no free plan, or none peaking above it (in 64 bits)
    kLeast,      // the least peak (with more than one point)
    kFileLimit,  // the file's limit, when it lies between the ends
    kSplits,     // the rest where the curve is least known
    kDone,
  };

  State(const Problem& p, const SweepOptions& o) : problem(p), options(o), t0(Clock::now()) {}
  const Problem& problem;
  const SweepOptions options;
  const Clock::time_point t0;
  SweepResult out;  // its points kept in order of limit
  std::vector<int64_t> limits;  // the given ones, increasing, distinct
  size_t given = 0;             // the next of them
  // Every node at its least usage: no plan peaks lower (and below that peak,
  // it is the plan that comes closest).
  std::vector<int32_t> least_plan;
  Evaluation least_ev;
  int64_t least_limit = 0;  // the least peak as a limit
  Next next = Next::kGiven;
  int solves_left = 0;  // each solve gets an equal part of the time left
  std::unique_ptr<SolveSession> solving;  // the solve running, if any
  bool solving_free = false;              // it is the one without a limit
  int64_t solving_limit = 0;              // else its point's limit
  bool finished = false;

  double left() const {
    const double total = std::max(0.0, options.solve.time_limit_seconds);
    return std::max(0.0, total - std::chrono::duration<double>(Clock::now() - t0).count());
  }

  void fail(const Status& status) {
    out.status = status;
    finished = true;
  }

  // The plan of the largest point below `limit` that has one: it fits `limit`.
  const std::vector<int32_t>* smaller_plan(int64_t limit) const {
    const std::vector<int32_t>* plan = nullptr;
    for (const SweepPoint& q : out.points)
      if (q.limit < limit && q.feasible) plan = &q.assignment;
    return plan;
  }

  void add(SweepPoint pt) {
    std::vector<SweepPoint>& pts = out.points;
    auto at = std::lower_bound(pts.begin(), pts.end(), pt.limit,
                               [](const SweepPoint& q, int64_t l) { return q.limit < l; });
    at = pts.insert(at, std::move(pt));
    if (options.on_point) options.on_point(*at);
  }

  void start_solve(const UsageLimit& limit, const std::vector<int32_t>* start) {
    SolveOptions so = options.solve;
    so.usage_limit = limit;
    so.start = start ? *start : std::vector<int32_t>{};
    // A point where nothing fits shows the least-usage plan; no time goes on
    // searching for a least-violating one.
    so.end_when_proven_infeasible = true;
    so.time_limit_seconds = left() / std::max(1, solves_left);
    --solves_left;
    solving.reset(new SolveSession(problem, so));
  }

  // A point where nothing fits: the least-usage plan (no plan peaks lower).
  SweepPoint infeasible_point(int64_t limit) const {
    SweepPoint pt;
    pt.limit = limit;
    pt.assignment = least_plan;
    pt.cost = least_ev.total_cost;
    pt.peak_usage = least_ev.peak_usage;
    pt.proven_infeasible = true;
    return pt;
  }

  // A point at `limit`: solved from the next smaller point's plan, or, below
  // the least peak, where nothing fits, the least-usage plan at once.
  void start_point(int64_t limit) {
    if (Int128(limit) < out.least_peak) {
      add(infeasible_point(limit));
      return;
    }
    solving_free = false;
    solving_limit = limit;
    start_solve(UsageLimit{true, limit}, smaller_plan(limit));
  }

  // The cheapest plan without a limit sets the right end; the least peak
  // the left; the file's limit, when between, comes next; then the splits.
  // None once the sweep has its points.
  std::optional<int64_t> next_limit() {
    const int points = options.points;
    switch (next) {
      case Next::kGiven:
        if (given < limits.size()) return limits[given++];
        return std::nullopt;
      case Next::kLeastOnly:
        next = Next::kDone;
        return least_limit;
      case Next::kLeast:
        next = Next::kFileLimit;
        if (points > 1) return least_limit;
        [[fallthrough]];
      case Next::kFileLimit:
        next = Next::kSplits;
        if (points > 2 && problem.has_usage_limit && problem.usage_limit > least_limit &&
            Int128(problem.usage_limit) < out.free_peak)
          return problem.usage_limit;
        [[fallthrough]];
      case Next::kSplits:
        if (int(out.points.size()) < points) return split_limit(out.points);
        return std::nullopt;
      case Next::kFree:
      case Next::kDone:
        break;
    }
    return std::nullopt;
  }

  // Starts the next solve or point; finishes the sweep when there is none.
  void start_next() {
    if (next == Next::kFree) {
      solving_free = true;
      start_solve(UsageLimit{false, 0}, nullptr);
      return;
    }
    const std::optional<int64_t> limit = next_limit();
    if (!limit) {
      make_monotone(&out);
      finished = true;
      return;
    }
    start_point(*limit);
  }

  // The running solve has finished: its point, or, for the solve without a
  // limit, the free plan and the right end.
  void solved() {
    const SolveResult r = solving->result();
    solving.reset();
    if (!r.status.ok) return fail(r.status);
    if (!solving_free) {
      SweepPoint pt;
      if (r.proven_infeasible() && r.assignment.empty()) {  // ended before any answer
        pt = infeasible_point(solving_limit);
        pt.seconds = r.elapsed_seconds;
      } else {
        pt.limit = solving_limit;
        fill(problem, r, &pt);
      }
      add(std::move(pt));
      return;
    }
    out.has_free_plan = r.feasible;  // free of forbidden entries
    if (out.has_free_plan) {
      out.free_cost = r.evaluation.total_cost;
      out.free_peak = r.evaluation.peak_usage;
      out.free_has_lower_bound = r.has_lower_bound;
      out.free_lower_bound = r.lower_bound;
    }
    if (!out.has_free_plan || out.free_peak <= out.least_peak || out.free_peak > Int128(INT64_MAX)) {
      next = Next::kLeastOnly;
      return;
    }
    SweepPoint right;
    right.limit = int64_t(out.free_peak);
    fill(problem, r, &right);
    right.seconds = 0;
    right.first_feasible_seconds = -1;
    add(std::move(right));
    next = Next::kLeast;
  }
};

SweepSession::SweepSession(const Problem& problem, const SweepOptions& options)
    : s_(new State(problem, options)) {
  State& s = *s_;
  s.limits = options.limits;
  for (size_t k = 0; k < s.limits.size(); ++k)
    if (s.limits[k] < 0) {
      s.fail(Status::Error("limits[" + std::to_string(k) + "]: a usage limit must not be negative, got " +
                           std::to_string(s.limits[k]), StatusCode::kBadArgument));
      return;
    }
  if (s.limits.empty() && options.points < 1) {
    s.fail(Status::Error("points must be at least 1, got " + std::to_string(options.points),
                         StatusCode::kBadArgument));
    return;
  }
  std::sort(s.limits.begin(), s.limits.end());
  s.limits.erase(std::unique(s.limits.begin(), s.limits.end()), s.limits.end());
  s.least_plan = least_usage_plan(problem);
  s.least_ev = evaluate(problem, s.least_plan, UsageLimit{false, 0});
  s.out.least_peak = s.least_ev.peak_usage;
  s.least_limit = int64_t(std::min(s.out.least_peak, Int128(INT64_MAX)));
  if (!s.limits.empty()) {
    s.next = State::Next::kGiven;
    for (int64_t l : s.limits) s.solves_left += Int128(l) >= s.out.least_peak;
  } else {
    s.next = State::Next::kFree;
    s.solves_left = options.points;
  }
}

SweepSession::~SweepSession() = default;

const Status& SweepSession::status() const { return s_->out.status; }

bool SweepSession::finished() const { return s_->finished; }

const SweepResult& SweepSession::result() const { return s_->out; }

bool SweepSession::run(double seconds) {
  State& s = *s_;
  const auto slice_end = Clock::now() + std::chrono::microseconds(int64_t(std::min(std::max(0.0, seconds), 1e9) * 1e6));
  while (!s.finished) {
    if (!s.solving) {
      s.start_next();
    } else {
      s.solving->run(std::chrono::duration<double>(slice_end - Clock::now()).count());
      if (s.solving->finished()) s.solved();
    }
    if (Clock::now() >= slice_end) break;
  }
  return !s.finished;
}

SweepResult sweep(const Problem& problem, const SweepOptions& options) {
  SweepSession session(problem, options);
  while (session.run(1e9)) {
  }
  return session.result();
}

}  // namespace iopddl
