// The main thread's side of the API's values: solve()'s options checked, and the
// module's JSON texts (progress, results, evaluations, summaries) as the
// package's objects (index.d.ts), BigInt where a value can pass 2^53.
import { DEFAULT_TIME_LIMIT_MS, IopddlError, MAX_THREADS } from './shared.mjs';

const DEFAULT_PROGRESS_MS = 100;

export function checkSignal(signal) {
  if (signal !== undefined && signal !== null &&
      (typeof signal !== 'object' || typeof signal.addEventListener !== 'function')) {
    throw new TypeError('signal must be an AbortSignal');
  }
  return signal || null;
}

// ------------------------------------------------------------------ options

export function checkInteger(name, v, lo, hi) {
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    throw new TypeError(`${name} must be an integer, got ${typeof v === 'number' ? v : typeof v}`);
  }
  if (v < lo || v > hi) throw new RangeError(`${name} must be between ${lo} and ${hi}, got ${v}`);
  return v;
}

function seedString(seed) {
  if (seed === undefined) return '1';
  let b;
  if (typeof seed === 'bigint') b = seed;
  else if (typeof seed === 'number' && Number.isSafeInteger(seed)) b = BigInt(seed);
  else if (typeof seed === 'string' && /^\d+$/.test(seed)) b = BigInt(seed);
  else throw new TypeError(`seed must be a non-negative integer (number or bigint), got ${String(seed)}`);
  if (b < 0n || b >= 1n << 64n) throw new RangeError(`seed must be in [0, 2^64), got ${b}`);
  return b.toString();
}

// Search parameters ({ name: value }) as the core's "name=value" lines; the
// core checks names and ranges against its one table (src/params.h).
function paramsText(params) {
  if (params === undefined || params === null) return '';
  if (typeof params !== 'object' || Array.isArray(params)) throw new TypeError('params must be an object { name: value }');
  let text = '';
  for (const [name, value] of Object.entries(params)) {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new TypeError(`params.${name} must be a finite number, got ${String(value)}`);
    }
    if (/[=\n]/.test(name)) throw new RangeError(`unknown parameter '${name}'`);
    text += `${name}=${value}\n`;
  }
  return text;
}

// A warm start: one strategy index per node (the core checks length and range).
const startArray = (start) => (start === undefined || start === null ? null : assignmentArray(start, 'start'));

// solve()'s options (index.d.ts: SolveOptions). A name outside them is an
// error, not ignored: `{ rounds: 20 }` for `maxRounds` silently ran on the
// clock and gave a different answer each call.
const SOLVE_OPTIONS = ['timeLimitMs', 'threads', 'seed', 'maxRounds', 'usageLimit', 'start', 'params', 'signal',
  'onProgress', 'progressIntervalMs', 'sliceMs'];

// The usage limit to solve at, as the module takes it: '' for the file's,
// 'none' for no limit, else the integer's decimal digits.
export function usageLimitText(v) {
  if (v === undefined) return '';
  if (v === null) return 'none';
  return limitText(v, 'usageLimit', 'a BigInt, an integer or null (no limit)');
}

// One usage limit, `name` in the messages: a BigInt or a safe integer from 0
// to 2^63 - 1, as decimal digits.
function limitText(v, name, kinds) {
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) throw new RangeError(`${name} must be an integer (a BigInt above 2^53), got ${String(v)}`);
    v = BigInt(v);
  }
  if (typeof v !== 'bigint') throw new TypeError(`${name} must be ${kinds}, got ${typeof v}`);
  if (v < 0n || v >= 2n ** 63n) throw new RangeError(`${name} must be between 0 and 2^63 - 1, got ${v}`);
  return v.toString();
}

// evaluate()'s and resultOf()'s options: { usageLimit } (as solve()'s). The
// text the module takes, and the limit the answer is judged against.
export function judgeOptions(o, fileLimit, call) {
  o = o || {};
  if (typeof o !== 'object') throw new TypeError(`${call}() options must be an object`);
  for (const name of Object.keys(o)) {
    if (name !== 'usageLimit') throw new TypeError(`unknown ${call}() option '${name}'; the only option is usageLimit`);
  }
  const text = usageLimitText(o.usageLimit);
  const limit = o.usageLimit === undefined ? fileLimit : o.usageLimit === null ? null : BigInt(o.usageLimit);
  return { text, limit };
}

export function solveOptions(o, solver) {
  o = o || {};
  if (typeof o !== 'object') throw new TypeError('solve() options must be an object');
  for (const name of Object.keys(o)) {
    if (!SOLVE_OPTIONS.includes(name)) {
      const near = name === 'rounds' ? " (did you mean 'maxRounds'?)" : '';
      throw new TypeError(`unknown solve() option '${name}'${near}; the options are ${SOLVE_OPTIONS.join(', ')}`);
    }
  }
  const timeLimitMs = o.timeLimitMs === undefined ? DEFAULT_TIME_LIMIT_MS : o.timeLimitMs;
  if (typeof timeLimitMs !== 'number' || !(timeLimitMs >= 0) || !Number.isFinite(timeLimitMs)) {
    throw new RangeError(`timeLimitMs must be a finite number >= 0, got ${String(timeLimitMs)}`);
  }
  const threads = o.threads === undefined ? solver.threads : checkInteger('threads', o.threads, 1, MAX_THREADS);
  const maxRounds = o.maxRounds === undefined ? 0 : checkInteger('maxRounds', o.maxRounds, 0, Number.MAX_SAFE_INTEGER);
  const progressIntervalMs = o.progressIntervalMs === undefined ? DEFAULT_PROGRESS_MS : o.progressIntervalMs;
  if (typeof progressIntervalMs !== 'number' || !(progressIntervalMs >= 0)) {
    throw new RangeError('progressIntervalMs must be a number >= 0');
  }
  if (o.onProgress !== undefined && typeof o.onProgress !== 'function') {
    throw new TypeError('onProgress must be a function');
  }
  checkSignal(o.signal);
  return {
    timeLimitMs, threads, seed: seedString(o.seed), maxRounds, usageLimit: usageLimitText(o.usageLimit),
    progressIntervalMs,
    params: paramsText(o.params), start: startArray(o.start),
    onProgress: o.onProgress, signal: o.signal || null,
    sliceMs: o.sliceMs === undefined ? 1000 : checkInteger('sliceMs', o.sliceMs, 50, 1e9),
  };
}

// sweep()'s options (index.d.ts: SweepOptions): the limits as the module
// takes them (comma-separated decimal integers, '' for `points` chosen by the
// core), the rest as solve()'s.
const SWEEP_OPTIONS = ['limits', 'points', 'timeLimitMs', 'threads', 'seed', 'maxRounds', 'params', 'signal',
  'sliceMs', 'onPoint'];
export const DEFAULT_SWEEP_POINTS = 9;
export const MAX_SWEEP_POINTS = 1000;

export function sweepOptions(o, solver) {
  o = o || {};
  if (typeof o !== 'object') throw new TypeError('sweep() options must be an object');
  for (const name of Object.keys(o)) {
    if (!SWEEP_OPTIONS.includes(name)) {
      throw new TypeError(`unknown sweep() option '${name}'; the options are ${SWEEP_OPTIONS.join(', ')}`);
    }
  }
  if (o.limits !== undefined && o.points !== undefined) {
    throw new TypeError('sweep() takes limits or points, not both');
  }
  let limits = '';
  if (o.limits !== undefined) {
    if (!Array.isArray(o.limits) || o.limits.length === 0) {
      throw new TypeError('limits must be a non-empty array of non-negative integers (BigInt or safe integer)');
    }
    limits = o.limits.map((v, i) => limitText(v, `limits[${i}]`, 'a BigInt or an integer')).join(',');
  }
  const points = o.points === undefined ? DEFAULT_SWEEP_POINTS : checkInteger('points', o.points, 1, MAX_SWEEP_POINTS);
  if (o.onPoint !== undefined && typeof o.onPoint !== 'function') throw new TypeError('onPoint must be a function');
  const { timeLimitMs, threads, seed, maxRounds, params, signal, sliceMs } = solveOptions({
    timeLimitMs: o.timeLimitMs, threads: o.threads, seed: o.seed, maxRounds: o.maxRounds, params: o.params,
    signal: o.signal, sliceMs: o.sliceMs,
  }, solver);
  return { limits, points, timeLimitMs, threads, seed, maxRounds, params, signal, sliceMs, onPoint: o.onPoint };
}

// ------------------------------------------------------------------ results

const big = (s) => (s === null || s === undefined ? null : BigInt(s));

// The model's facts less the thread count (a result's top-level `threads`).
function withoutThreads(facts) {
  const { threads, ...rest } = facts;
  return rest;
}

export function convertEvaluation(e, usageLimit) {
  const out = {
    nodeCost: BigInt(e.nodeCost),
    edgeCost: BigInt(e.edgeCost),
    totalCost: BigInt(e.totalCost),
    forbiddenEntries: e.forbiddenEntries,
    peakUsage: BigInt(e.peakUsage),
    peakTime: e.peakSegment >= 0 ? BigInt(e.peakTime) : null,
    peakSegment: e.peakSegment,
    usageLimit,
    withinLimit: e.withinLimit,
    feasible: e.feasible,
  };
  if (e.time) {
    out.profile = { time: e.time.map(BigInt), usage: e.usage.map(BigInt) };
  }
  return out;
}

function gapOf(cost, bound) {
  if (cost === null || bound === null || cost <= 0n) return null;
  const g = Number(cost - bound) / Number(cost);
  return g < 0 ? 0 : g;
}

export function convertProgress(p, offsetMs) {
  const cost = big(p.cost);
  const lowerBound = big(p.lowerBound);
  return {
    event: p.event,
    elapsedMs: p.elapsed * 1000 + (offsetMs || 0),
    hasSolution: p.hasSolution,
    feasible: p.feasible,
    cost,
    lowerBound,
    gap: p.feasible ? gapOf(cost, lowerBound) : null,
    iterations: p.iterations,
    epoch: p.epoch,
    epochStartMs: p.epoch > 0 ? p.epochBegan * 1000 + (offsetMs || 0) : 0,
  };
}

export function convertResult(r, summary, extra) {
  const hasSolution = r.assignment.length === summary.nodes;
  // The limit the solve worked to: the file's, or solve()'s usageLimit.
  const usageLimit = r.usageLimit === undefined ? summary.usageLimit : big(r.usageLimit);
  const ev = hasSolution ? convertEvaluation(r.evaluation, usageLimit) : null;
  const lowerBound = big(r.lowerBound);
  const s = r.stats;
  const cost = ev ? ev.totalCost : null;
  const feasible = hasSolution && r.feasible;
  return {
    assignment: hasSolution ? r.assignment : [],
    hasSolution,
    cost,
    feasible,
    evaluation: ev,
    usageLimit,
    lowerBound,
    gap: feasible ? gapOf(cost, lowerBound) : null,
    provenInfeasible: r.provenInfeasible,
    provenOptimal: r.provenOptimal,
    aborted: extra.aborted,
    elapsedMs: extra.elapsedMs,
    backend: extra.backend,
    threads: s.facts.threads,
    threadsRequested: extra.threadsRequested,
    threadFallback: extra.threadFallback,
    stats: {
      // The core's lists (src/stats.h), under their own names.
      ...s.counters,
      ...withoutThreads(s.facts),
      mechanisms: s.mechanisms,
      reduceMs: s.reduceSeconds * 1000,
      firstFeasibleMs: s.firstFeasibleSeconds === null ? null : s.firstFeasibleSeconds * 1000,
      solverMs: r.elapsed * 1000,
      slices: extra.slices ?? 1,
      history: s.history.map((h) => ({ ms: h.seconds * 1000, cost: BigInt(h.cost), feasible: h.feasible })),
      epochs: s.epochs.map((e) => ({
        ms: e.seconds * 1000,
        epoch: e.epoch,
        opening: e.opening,
        endedFromMs: e.endedFromSeconds * 1000,
        endedLastFallMs: e.endedLastFallSeconds * 1000,
        endedBestCost: big(e.endedBestCost),
      })),
    },
  };
}

// A sweep's point (the module's JSON), BigInt for limit, costs and usages.
export function convertSweepPoint(p) {
  const cost = BigInt(p.cost);
  const lowerBound = big(p.lowerBound);
  return {
    limit: BigInt(p.limit),
    feasible: p.feasible,
    cost,
    lowerBound,
    gap: p.feasible ? gapOf(cost, lowerBound) : null,
    peakUsage: BigInt(p.peakUsage),
    seconds: p.seconds,
    firstFeasibleMs: p.firstFeasibleSeconds === null ? null : p.firstFeasibleSeconds * 1000,
    provenOptimal: p.provenOptimal,
    provenInfeasible: p.provenInfeasible,
    fromNeighbour: p.fromNeighbour,
    assignment: p.assignment,
  };
}

export function convertSweep(r, extra) {
  return {
    leastPeak: BigInt(r.leastPeak),
    freePlan: r.freePlan === null ? null : {
      cost: BigInt(r.freePlan.cost), peakUsage: BigInt(r.freePlan.peakUsage), lowerBound: big(r.freePlan.lowerBound),
    },
    points: r.points.map(convertSweepPoint),
    aborted: extra.aborted,
    elapsedMs: extra.elapsedMs,
    backend: extra.backend,
  };
}

export function convertSummary(s, extra) {
  return {
    name: s.name,
    nodes: s.nodes,
    edges: s.edges,
    strategies: s.strategies,
    maxStrategies: s.maxStrategies,
    edgeCostEntries: s.edgeCostEntries,
    usageLimit: big(s.usageLimit),
    leastPeakUsage: BigInt(s.leastPeakUsage),
    timeSpan: s.timeStart === null ? null : { start: BigInt(s.timeStart), end: BigInt(s.timeEnd) },
    segments: s.segments,
    inputBytes: extra.inputBytes,
    gzip: extra.gzip,
    loadMs: extra.loadMs,
    parseMs: s.loadSeconds * 1000,
    digest: s.digest,
  };
}

// `what` names the array in messages ('solution', or 'start' for a warm start).
export function assignmentArray(assignment, what = 'solution') {
  if (assignment == null || typeof assignment !== 'object' || typeof assignment.length !== 'number') {
    throw new TypeError(`${what === 'start' ? 'start' : 'evaluate()'} needs an array of strategy indices`);
  }
  const n = assignment.length;
  const a = new Int32Array(n);
  for (let i = 0; i < n; ++i) {
    let v = assignment[i];
    if (typeof v === 'bigint') v = Number(v);
    if (typeof v !== 'number' || !Number.isInteger(v)) {
      throw new IopddlError(`${what}[${i}] = ${String(assignment[i])} is not an integer strategy index`,
        'ERR_INVALID_ASSIGNMENT');
    }
    // Outside int32 it is out of range for any node: keep it out of range (-1 is).
    a[i] = v >= -2147483648 && v <= 2147483647 ? v : (v < 0 ? -1 : 2147483647);
  }
  return a;
}
