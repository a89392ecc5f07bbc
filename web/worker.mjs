// The page's Worker: hosts the iopddl-wasm solver, reads files, solves, and
// sends the page only what it draws. The page's own thread never touches the
// input bytes, the WebAssembly module or the result conversion.
//
// Messages in:  {op:'init', threads} | {op:'load', id, file|url, name}
//               | {op:'solve', id, timeLimitMs, threads, seed} | {op:'stop', id}
// Messages out: {type:'ready'|'loading'|'loaded'|'details'|'progress'|'result'|'error', id, ...}
import { createSolver, VERSION } from './dist/browser.mjs';
import { gunzip, isGzip, scanNodes } from './scan.mjs';

let solver = null;
let problem = null;
let detailsReady = null; // promise of the loaded problem's per-node arrays (for the table), or null
let solving = null;      // { id, controller, userStopped }
let loading = null;      // AbortController of the load in flight
let loadSeq = 0;

const post = (m, transfer) => self.postMessage(m, transfer || []);
const now = () => performance.now();

function errorMessage(e) {
  return { code: (e && e.code) || 'ERR', message: (e && e.message) || String(e) };
}

async function init({ threads }) {
  // In a module Worker Emscripten's glue finds neither importScripts nor
  // window, so it cannot fetch the .wasm itself: hand it the bytes.
  const opts = {};
  if (threads) opts.threads = threads;
  const isolated = self.crossOriginIsolated === true;
  if (isolated) {
    const res = await fetch(new URL('./dist/iopddl.wasm', import.meta.url));
    if (!res.ok) throw new Error(`could not fetch the solver (dist/iopddl.wasm): HTTP ${res.status}`);
    opts.wasmBinary = await res.arrayBuffer();
  }
  solver = await createSolver(opts);
  return {
    backend: solver.backend,
    threads: solver.threads,
    threadFallback: solver.threadFallback,
    isolated,
    cores: navigator.hardwareConcurrency || 1,
    version: VERSION,
  };
}

async function readInput(m) {
  if (m.file) return new Uint8Array(await m.file.arrayBuffer());
  const res = await fetch(m.url);
  if (!res.ok) throw Object.assign(new Error(`could not fetch ${m.url}: HTTP ${res.status}`), { code: 'ERR_FETCH' });
  return new Uint8Array(await res.arrayBuffer());
}

async function load(m) {
  const seq = ++loadSeq;
  if (loading) loading.abort();  // a newer file replaces one still being parsed
  const controller = new AbortController();
  loading = controller;
  if (solving) solving.controller.abort();
  if (problem) problem.dispose();
  problem = null;
  detailsReady = null;
  const t0 = now();
  post({ type: 'loading', id: m.id, stage: 'reading' });
  let bytes = await readInput(m);
  const readMs = now() - t0;
  const gzip = isGzip(bytes);
  post({ type: 'loading', id: m.id, stage: 'parsing', bytes: bytes.length, gzip });
  let p;
  try {
    p = await solver.load(bytes, { source: m.name || 'input', signal: controller.signal });
  } catch (e) {
    if (seq !== loadSeq) return;  // superseded: the page waits for the newer file
    throw e;
  } finally {
    if (loading === controller) loading = null;
  }
  if (seq !== loadSeq) { p.dispose(); return; }
  problem = p;
  post({ type: 'loaded', id: m.id, summary: p.summary, readMs, totalMs: now() - t0 });
  // The node table's data, read from the JSON once the package accepted it (not
  // alongside its parse: on few cores that would slow the parse down).
  detailsReady = (async () => {
    const t1 = now();
    let inflateMs = 0;
    try {
      if (gzip) {
        bytes = await gunzip(bytes);
        inflateMs = now() - t1;
      }
      const d = scanNodes(bytes);
      bytes = null;
      const n = p.summary.nodes;
      if (!d.costs || d.costs.length !== n || !d.usages || d.usages.length !== n) {
        throw new Error('node arrays do not match the summary');
      }
      post({ type: 'details', id: m.id, ms: now() - t1, inflateMs });
      return d;
    } catch (e) {
      bytes = null;
      post({ type: 'details', id: m.id, ms: now() - t1, inflateMs, error: errorMessage(e).message });
      return null;
    }
  })();
}

// Per-node columns of an assignment, for the table (transferred, not copied).
function nodeColumns(assignment, details) {
  const n = assignment.length;
  const strategy = Int32Array.from(assignment);
  const cols = { strategy, count: null, cost: null, usage: null, lo: null, hi: null, exactCost: null };
  if (!details) return cols;
  const { costs, usages, intervals } = details;
  cols.count = new Int32Array(n);
  cols.cost = new Float64Array(n);
  cols.usage = new Float64Array(n);
  cols.exactCost = new Map();
  for (let i = 0; i < n; ++i) {
    const k = costs.offsets[i] + strategy[i];
    cols.count[i] = costs.offsets[i + 1] - costs.offsets[i];
    cols.cost[i] = costs.values[k];
    if (costs.exact.size && costs.exact.has(k)) cols.exactCost.set(i, costs.exact.get(k));
    cols.usage[i] = usages.values[usages.offsets[i] + strategy[i]];
  }
  if (intervals && intervals.length === n) {
    cols.lo = new Float64Array(n);
    cols.hi = new Float64Array(n);
    for (let i = 0; i < n; ++i) {
      cols.lo[i] = intervals.values[intervals.offsets[i]];
      cols.hi[i] = intervals.values[intervals.offsets[i] + 1];
    }
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
  let result;
  try {
    result = await p.solve({
      timeLimitMs: m.timeLimitMs,
      threads: m.threads,
      seed: m.seed,
      signal: controller.signal,
      sliceMs: 500,
      progressIntervalMs: 100,
      onProgress: (progress) => {
        post({ type: 'progress', id: m.id, progress });
        // Cost equal to the bound is optimal: end the search. (The threaded back
        // end does so itself; the single-threaded one, cut into slices when it
        // has a signal, goes on to the time limit.)
        if (progress.feasible && progress.cost !== null && progress.lowerBound !== null &&
            progress.cost <= progress.lowerBound && !controller.signal.aborted) controller.abort();
      },
    });
  } finally {
    if (solving === run) solving = null;
  }
  let evaluation = null;
  let profile = null;
  const transfer = [];
  if (result.hasSolution && !p.disposed) {
    evaluation = await p.evaluate(result.assignment);
    const prof = evaluation.profile;
    delete evaluation.profile;
    profile = { time: new Float64Array(prof.time.length), usage: new Float64Array(prof.usage.length) };
    for (let i = 0; i < prof.time.length; ++i) profile.time[i] = Number(prof.time[i]);
    for (let i = 0; i < prof.usage.length; ++i) profile.usage[i] = Number(prof.usage[i]);
    transfer.push(profile.time.buffer, profile.usage.buffer);
  }
  const details = detailsOfProblem ? await detailsOfProblem : null;
  const columns = nodeColumns(result.assignment, details && details.costs.length === result.assignment.length ? details : null);
  for (const c of [columns.strategy, columns.count, columns.cost, columns.usage, columns.lo, columns.hi]) {
    if (c) transfer.push(c.buffer);
  }
  const { assignment, ...rest } = result;
  post({
    type: 'result', id: m.id, result: rest, evaluation, profile, columns, stopped: run.userStopped,
    options: { timeLimitMs: m.timeLimitMs, threads: m.threads, seed: m.seed },
  }, transfer);
}

self.onmessage = async (e) => {
  const m = e.data;
  try {
    if (m.op === 'init') post({ type: 'ready', id: m.id, ...(await init(m)) });
    else if (m.op === 'load') await load(m);
    else if (m.op === 'solve') await solve(m);
    else if (m.op === 'stop') {
      if (solving && solving.id === m.id) {
        solving.userStopped = true;
        solving.controller.abort();
      }
    }
    else throw new Error(`unknown op ${m.op}`);
  } catch (err) {
    post({ type: 'error', id: m.id, op: m.op, ...errorMessage(err) });
  }
};
