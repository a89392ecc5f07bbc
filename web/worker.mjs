// The page's Worker: hosts the iopddl-wasm solver, reads files, solves, and
// sends the page only what it draws. The page's own thread never touches the
// input bytes, the WebAssembly module or the result conversion.
//
// Messages in:  {op:'init', threads} | {op:'load', id, file|url, name}
//               | {op:'solution', id, file, name}   (evaluate a solution file)
//               | {op:'solve', id, timeLimitMs, threads, seed, params, fromShown} | {op:'stop', id}
//               | {op:'sweep', id, points, timeLimitMs, threads, seed, params}
//               | {op:'plan', id, assignment, limit, lowerBound}   (show a sweep's point)
// Messages out: {type:'ready'|'loading'|'loaded'|'details'|'progress'|'result'|'error'
//               |'sweep-point'|'sweep-result', id, ...}
import { DEFAULT_TIME_LIMIT_MS, FORBIDDEN_COST, createSolver, VERSION } from './dist/browser.mjs';

let solver = null;
let problem = null;
let detailsReady = null; // promise of the loaded problem's per-node arrays (for the table), or null
let solving = null;      // { id, controller, userStopped }
let sweeping = null;     // the same, for a sweep
let loading = null;      // AbortController of the load in flight
let loadSeq = 0;
let shown = null;        // the assignment last shown as a result (solved or read from a file), for warm starts
let solverOptions = null; // createSolver's, kept to start a fresh solver after one ran out of memory

// On one thread the package's solve and sweep run in slices this long, Stop
// being seen between them.
const SLICE_MS = 500;

const post = (m, transfer) => self.postMessage(m, transfer || []);
const now = () => performance.now();

function errorMessage(e) {
  return { code: (e && e.code) || 'ERR', message: (e && e.message) || String(e) };
}

async function init({ threads, memoryMB }) {
  // In a module Worker Emscripten's glue finds neither importScripts nor
  // window, so it cannot fetch the .wasm itself: hand it the bytes.
  const opts = {};
  if (threads) opts.threads = threads;
  // The page's ?memory=MB: a smaller cap on the module's memory than the
  // browser's 4 GB, to see what a smaller device would do.
  if (memoryMB !== undefined) opts.maxMemoryBytes = memoryMB * 2 ** 20;
  const isolated = self.crossOriginIsolated === true;
  if (isolated) {
    const res = await fetch(new URL('./dist/iopddl.wasm', import.meta.url));
    if (!res.ok) throw new Error(`could not fetch the solver (dist/iopddl.wasm): HTTP ${res.status}`);
    opts.wasmBinary = await res.arrayBuffer();
  }
  solver = await createSolver(opts);
  solverOptions = opts;
  return {
    backend: solver.backend,
    threads: solver.threads,
    threadFallback: solver.threadFallback,
    isolated,
    cores: navigator.hardwareConcurrency || 1,
    version: VERSION,
    forbiddenCost: Number(FORBIDDEN_COST),  // the table's costs are numbers
    defaultTimeLimitMs: DEFAULT_TIME_LIMIT_MS,
  };
}

// The input as the package reads it, piece by piece: a dropped File (a Blob),
// or a fetched body (a stream). Neither is ever held whole.
async function openInput(m) {
  if (m.file) return { input: m.file, size: m.file.size };
  const res = await fetch(m.url);
  if (!res.ok) throw Object.assign(new Error(`could not fetch ${m.url}: HTTP ${res.status}`), { code: 'ERR_FETCH' });
  const length = Number(res.headers.get('content-length'));
  return { input: res.body, size: length > 0 && !res.headers.get('content-encoding') ? length : null };
}

async function load(m) {
  const seq = ++loadSeq;
  if (loading) loading.abort();  // a newer file replaces one still being parsed
  const controller = new AbortController();
  loading = controller;
  if (solving) solving.controller.abort();
  if (sweeping) sweeping.controller.abort();
  if (problem) problem.dispose();
  problem = null;
  detailsReady = null;
  shown = null;
  const t0 = now();
  const { input, size } = await openInput(m);
  post({ type: 'loading', id: m.id, stage: 'progress', bytesRead: 0, bytesTotal: size });
  let lastPost = now();
  const onProgress = (e) => {
    // A few reports a second are enough for the bar.
    if (now() - lastPost < 100 && e.bytesRead !== e.bytesTotal) return;
    lastPost = now();
    post({ type: 'loading', id: m.id, stage: 'progress', bytesRead: e.bytesRead, bytesTotal: e.bytesTotal ?? size });
  };
  let p;
  try {
    p = await solver.load(input, { source: m.name || 'input', signal: controller.signal, onProgress });
  } catch (e) {
    if (seq !== loadSeq) return;  // superseded: the page waits for the newer file
    throw e;
  } finally {
    if (loading === controller) loading = null;
  }
  if (seq !== loadSeq) { p.dispose(); return; }
  problem = p;
  post({ type: 'loaded', id: m.id, summary: p.summary, totalMs: now() - t0 });
  // The node table's data: the problem's own per-node arrays, from the package.
  detailsReady = (async () => {
    const t1 = now();
    try {
      const d = await p.nodeData();
      post({ type: 'details', id: m.id, ms: now() - t1 });
      return d;
    } catch (e) {
      post({ type: 'details', id: m.id, ms: now() - t1, error: errorMessage(e).message });
      return null;
    }
  })();
}

// Per-node columns of an assignment, for the table (transferred, not copied).
// Costs beyond 2^53 are also kept exact, as decimal strings.
function nodeColumns(assignment, details) {
  const n = assignment.length;
  const strategy = Int32Array.from(assignment);
  const cols = { strategy, count: null, cost: null, usage: null, lo: null, hi: null, exactCost: null };
  if (!details) return cols;
  const { strategyOffsets: off, costs, usages, intervalStarts, intervalEnds } = details;
  cols.count = new Int32Array(n);
  cols.cost = new Float64Array(n);
  cols.usage = new Float64Array(n);
  cols.lo = new Float64Array(n);
  cols.hi = new Float64Array(n);
  cols.exactCost = new Map();
  const SAFE = BigInt(Number.MAX_SAFE_INTEGER);
  for (let i = 0; i < n; ++i) {
    const k = off[i] + strategy[i];
    cols.count[i] = off[i + 1] - off[i];
    const c = costs[k];
    cols.cost[i] = Number(c);
    if (c > SAFE || c < -SAFE) cols.exactCost.set(i, c.toString());
    cols.usage[i] = Number(usages[k]);
    cols.lo[i] = Number(intervalStarts[i]);
    cols.hi[i] = Number(intervalEnds[i]);
  }
  return cols;
}

async function solve(m) {
  if (!problem) throw Object.assign(new Error('no problem is loaded'), { code: 'ERR_NO_PROBLEM' });
  if (solving) solving.controller.abort();
  const controller = new AbortController();
  const run = { id: m.id, controller, userStopped: false };
  solving = run;
  const p = problem;
  const detailsOfProblem = detailsReady;
  const start = m.fromShown && shown ? shown : undefined;
  let result;
  try {
    result = await p.solve({
      timeLimitMs: m.timeLimitMs,
      threads: m.threads,
      seed: m.seed,
      params: m.params,
      start,
      signal: controller.signal,
      sliceMs: SLICE_MS,
      progressIntervalMs: 100,
      // A cost equal to the bound ends the search in the core, in either back
      // end (a sliced solve is one resumable session): nothing to stop here.
      onProgress: (progress) => post({ type: 'progress', id: m.id, progress }),
    });
  } finally {
    if (solving === run) solving = null;
  }
  if (result.hasSolution && p === problem) shown = Int32Array.from(result.assignment);
  await publish(p, detailsOfProblem, result, {
    id: m.id, stopped: run.userStopped, startedFromShown: !!start,
    options: { timeLimitMs: m.timeLimitMs, threads: m.threads, seed: m.seed, params: m.params },
  });
}

// Memory against cost: the package's sweep (the core's), each point posted as
// it is solved, then all of them with their plans. Stop resolves it with the
// points done (on one thread within a slice, as a solve).
async function sweep(m) {
  if (!problem) throw Object.assign(new Error('no problem is loaded'), { code: 'ERR_NO_PROBLEM' });
  if (sweeping) sweeping.controller.abort();
  const controller = new AbortController();
  const run = { id: m.id, controller, userStopped: false };
  sweeping = run;
  const p = problem;
  const strip = ({ assignment, ...rest }) => rest;
  let r;
  try {
    r = await p.sweep({
      points: m.points,
      timeLimitMs: m.timeLimitMs,
      threads: m.threads,
      seed: m.seed,
      params: m.params,
      signal: controller.signal,
      sliceMs: SLICE_MS,
      onPoint: (point) => post({ type: 'sweep-point', id: m.id, point: strip(point) }),
    });
  } finally {
    if (sweeping === run) sweeping = null;
  }
  if (p !== problem) return;
  post({ type: 'sweep-result', id: m.id, stopped: run.userStopped, sweep: r,
    options: { points: m.points, timeLimitMs: m.timeLimitMs, threads: m.threads, seed: m.seed, params: m.params } });
}

// A sweep point's plan in the result views: the package's exact evaluation,
// judged at the point's limit, with the point's bound and gap.
async function plan(m) {
  if (!problem) throw Object.assign(new Error('no problem is loaded'), { code: 'ERR_NO_PROBLEM' });
  const p = problem;
  const limit = m.limit;
  const result = await p.resultOf(m.assignment, { usageLimit: limit });
  if (p !== problem) return;
  result.lowerBound = m.lowerBound;
  result.provenOptimal = m.provenOptimal;
  result.gap = m.gap;
  shown = Int32Array.from(m.assignment);
  await publish(p, detailsReady, result, { id: m.id, stopped: false, fromSweep: limit, usageLimit: limit });
}

// Posts a result (a solve's, or a solution file's) with what the page draws:
// the exact evaluation, the usage profile and the table's columns.
async function publish(p, detailsOfProblem, result, extra) {
  let evaluation = null;
  let profile = null;
  const transfer = [];
  if (result.hasSolution && !p.disposed) {
    // A sweep's point is judged at its own limit.
    evaluation = await p.evaluate(result.assignment,
      extra.usageLimit !== undefined ? { usageLimit: extra.usageLimit } : undefined);
    const prof = evaluation.profile;
    delete evaluation.profile;
    profile = { time: new Float64Array(prof.time.length), usage: new Float64Array(prof.usage.length) };
    for (let i = 0; i < prof.time.length; ++i) profile.time[i] = Number(prof.time[i]);
    for (let i = 0; i < prof.usage.length; ++i) profile.usage[i] = Number(prof.usage[i]);
    transfer.push(profile.time.buffer, profile.usage.buffer);
  }
  const details = detailsOfProblem ? await detailsOfProblem : null;
  const columns = nodeColumns(result.assignment,
    details && details.strategyOffsets.length === result.assignment.length + 1 ? details : null);
  for (const c of [columns.strategy, columns.count, columns.cost, columns.usage, columns.lo, columns.hi]) {
    if (c) transfer.push(c.buffer);
  }
  const { assignment, ...rest } = result;
  post({ type: 'result', result: rest, evaluation, profile, columns, ...extra }, transfer);
}

// A solution file for the loaded problem: read by the core's parser, checked
// and evaluated exactly, then shown like a result and kept as a warm start.
async function solution(m) {
  if (!problem) {
    throw Object.assign(new Error('load the problem first, then its solution'), { code: 'ERR_NO_PROBLEM' });
  }
  const p = problem;
  const text = await m.file.text();
  const assignment = await solver.parseSolution(text, { source: m.name });
  const result = await p.resultOf(assignment);  // rejects on a wrong length or strategy
  if (p !== problem) return;
  shown = assignment;
  await publish(p, detailsReady, result, { id: m.id, stopped: false, fromFile: m.name });
}

self.onmessage = async (e) => {
  const m = e.data;
  try {
    if (m.op === 'init') post({ type: 'ready', id: m.id, ...(await init(m)) });
    else if (m.op === 'load') await load(m);
    else if (m.op === 'solve') await solve(m);
    else if (m.op === 'solution') await solution(m);
    else if (m.op === 'sweep') await sweep(m);
    else if (m.op === 'plan') await plan(m);
    else if (m.op === 'stop') {
      for (const run of [solving, sweeping]) {
        if (run && run.id === m.id) {
          run.userStopped = true;
          run.controller.abort();
        }
      }
    }
    else throw new Error(`unknown op ${m.op}`);
  } catch (err) {
    // A solver that ran out of memory cannot be used again: start a fresh one,
    // so that the next (smaller) file loads.
    // If even that fails, the error is still posted, and later requests fail
    // on the missing solver rather than wait.
    if (err && err.code === 'ERR_OUT_OF_MEMORY' && solver) await renew().catch(() => {});
    post({ type: 'error', id: m.id, op: m.op, ...errorMessage(err) });
  }
};

async function renew() {
  const spent = solver;
  solver = null;
  problem = null;
  detailsReady = null;
  shown = null;
  await spent.dispose().catch(() => {});
  solver = await createSolver(solverOptions);
}
