// The package's platform-neutral layer: input handling, BigInt conversion,
// progress, cancellation and the two back ends that drive the WebAssembly module.
//
//   threads  the pthread build, on the calling thread. Loading and solving run on
//            a detached coordinating pthread inside the module; this side polls
//            its state from timers, so the caller's event loop never blocks.
//   single   the build without shared memory, inside a dedicated Worker (browsers
//            that are not cross-origin isolated); one search thread.
//
// Platform specifics (finding the files, creating Workers) come from node.mjs or
// browser.mjs.

export const VERSION = '0.1.0';

/** An error from the package; `code` tells the kind. */
export class IopddlError extends Error {
  constructor(message, code, options) {
    super(message, options);
    this.name = 'IopddlError';
    this.code = code;
  }
}

const POLL_MS = 20;            // how often a running solve is looked at
const DEFAULT_PROGRESS_MS = 100;
const HEARTBEAT_S = 0.1;       // the solver's own progress pace

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

function abortedError(what, signal) {
  return new IopddlError(`${what}: the load was aborted`, 'ERR_ABORTED', { cause: signal.reason });
}

function checkSignal(signal) {
  if (signal !== undefined && signal !== null &&
      (typeof signal !== 'object' || typeof signal.addEventListener !== 'function')) {
    throw new TypeError('signal must be an AbortSignal');
  }
  return signal || null;
}

// Resolves after `ms`, or as soon as `signal` (optional) aborts.
function sleepUnlessAborted(ms, signal) {
  if (!signal) return sleep(ms);
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

function disposedError() {
  return new IopddlError('the solver was disposed', 'ERR_DISPOSED');
}

function outOfMemoryError(what, detail) {
  return new IopddlError(
    `${what}: ${detail || 'out of memory: the WebAssembly module could not grow its memory'}`,
    'ERR_OUT_OF_MEMORY');
}

function spentError(what) {
  return new IopddlError(`this solver ran out of memory earlier (${what}) and cannot be used any more: ` +
    'dispose() it and create a new one', 'ERR_OUT_OF_MEMORY');
}

function isOutOfMemoryMessage(msg) {
  return /out of memory|Cannot enlarge memory|could not allocate|Array buffer allocation failed/i.test(String(msg));
}

// ------------------------------------------------------------------ input

function encodeJson(value) {
  let sawBigInt = false;
  const marker = '\u0000iopddl-bigint:';
  let text = JSON.stringify(value, (key, v) => {
    if (typeof v === 'bigint') {
      sawBigInt = true;
      return marker + v.toString();
    }
    return v;
  });
  if (text === undefined) throw new TypeError('the input is not JSON-serialisable');
  // Costs given as BigInt go out as plain JSON integers, exactly.
  if (sawBigInt) text = text.replace(/"\\u0000iopddl-bigint:(-?\d+)"/g, '$1');
  return new TextEncoder().encode(text);
}

const PIECE = 4 << 20;  // bytes handed to the module at a time

const isBuffer = (x) => x instanceof ArrayBuffer ||
  (typeof SharedArrayBuffer !== 'undefined' && x instanceof SharedArrayBuffer);

function asBytes(chunk) {
  if (chunk instanceof Uint8Array) return chunk;
  if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  if (isBuffer(chunk)) return new Uint8Array(chunk);
  if (typeof chunk === 'string') return new TextEncoder().encode(chunk);
  throw new TypeError(`a stream gave a ${typeof chunk}: expected bytes or strings`);
}

function* slices(bytes) {
  for (let at = 0; at < bytes.length; at += PIECE) yield bytes.subarray(at, Math.min(bytes.length, at + PIECE));
}

// The first bytes of a stream of pieces (up to two, enough for gzip's magic
// number), read ahead, and the same pieces from the start.
async function peeked(pieces) {
  const it = typeof pieces[Symbol.asyncIterator] === 'function' ? pieces[Symbol.asyncIterator]() : pieces[Symbol.iterator]();
  const ahead = [];
  let head = [];
  let done = false;
  while (head.length < 2) {
    const r = await it.next();
    if (r.done) {
      done = true;
      break;
    }
    ahead.push(r.value);
    head = head.concat(Array.from(r.value.subarray(0, 2 - head.length)));
  }
  const close = async () => {
    if (!done && typeof it.return === 'function') await it.return();
  };
  return {
    head,
    close,  // for pieces never read
    pieces: (async function* () {
      try {
        yield* ahead;
        if (done) return;
        for (;;) {
          const r = await it.next();
          if (r.done) {
            done = true;
            return;
          }
          yield r.value;
        }
      } finally {
        await close();
      }
    })(),
  };
}

// `owned`: the bytes are ours (encoded here), so pieces may be moved to a Worker.
const inMemory = (bytes, owned) => ({ pieces: slices(bytes), total: bytes.length, owned });

// Any accepted input as pieces of bytes, read as they are needed: bytes the
// caller gave are sliced, not copied; a Blob or a stream is read a piece at a
// time, so it is never held whole. `total`: the input's size when known;
// `owned`: false only for the caller's own bytes.
function inputPieces(input) {
  if (input == null) throw new TypeError('load() needs an input: an object, a JSON string, bytes, a Blob or a stream');
  if (ArrayBuffer.isView(input) || isBuffer(input)) return inMemory(asBytes(input), false);
  if (typeof input === 'string') return inMemory(new TextEncoder().encode(input), true);
  if (typeof Blob !== 'undefined' && input instanceof Blob) {
    return {
      pieces: (async function* () {
        for (let at = 0; at < input.size; at += PIECE) {
          yield new Uint8Array(await input.slice(at, Math.min(input.size, at + PIECE)).arrayBuffer());
        }
      })(),
      total: input.size,
      owned: true,
    };
  }
  if (typeof input.getReader === 'function') {  // a web ReadableStream
    return {
      pieces: (async function* () {
        const reader = input.getReader();
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return;
            yield* slices(asBytes(value));
          }
        } finally {
          reader.releaseLock();
        }
      })(),
      owned: true,
    };
  }
  if (typeof input[Symbol.asyncIterator] === 'function') {  // a Node stream, an async generator
    return {
      pieces: (async function* () {
        for await (const chunk of input) yield* slices(asBytes(chunk));
      })(),
      owned: true,
    };
  }
  if (typeof input === 'object') {
    const bytes = encodeJson(input);
    return inMemory(bytes, true);
  }
  throw new TypeError(`load() cannot read a ${typeof input}: give an object, a JSON string, bytes, a Blob or a stream`);
}

// ------------------------------------------------------------------ options

function checkInteger(name, v, lo, hi) {
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
const SOLVE_OPTIONS = ['timeLimitMs', 'threads', 'seed', 'maxRounds', 'start', 'params', 'signal', 'onProgress',
  'progressIntervalMs', 'sliceMs'];

function solveOptions(o, solver) {
  o = o || {};
  if (typeof o !== 'object') throw new TypeError('solve() options must be an object');
  for (const name of Object.keys(o)) {
    if (!SOLVE_OPTIONS.includes(name)) {
      const near = name === 'rounds' ? " (did you mean 'maxRounds'?)" : '';
      throw new TypeError(`unknown solve() option '${name}'${near}; the options are ${SOLVE_OPTIONS.join(', ')}`);
    }
  }
  const timeLimitMs = o.timeLimitMs === undefined ? 10_000 : o.timeLimitMs;
  if (typeof timeLimitMs !== 'number' || !(timeLimitMs >= 0) || !Number.isFinite(timeLimitMs)) {
    throw new RangeError(`timeLimitMs must be a finite number >= 0, got ${String(timeLimitMs)}`);
  }
  const threads = o.threads === undefined ? solver.threads : checkInteger('threads', o.threads, 1, 256);
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
    timeLimitMs, threads, seed: seedString(o.seed), maxRounds, progressIntervalMs,
    params: paramsText(o.params), start: startArray(o.start),
    onProgress: o.onProgress, signal: o.signal || null,
    sliceMs: o.sliceMs === undefined ? 1000 : checkInteger('sliceMs', o.sliceMs, 50, 1e9),
  };
}

// ------------------------------------------------------------------ results

const big = (s) => (s === null || s === undefined ? null : BigInt(s));

// The model's facts less the thread count (a result's top-level `threads`).
function withoutThreads(facts) {
  const { threads, ...rest } = facts;
  return rest;
}

function convertEvaluation(e, usageLimit) {
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

function convertProgress(p, offsetMs) {
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
  };
}

function convertResult(r, summary, extra) {
  const hasSolution = r.assignment.length === summary.nodes;
  const ev = hasSolution ? convertEvaluation(r.evaluation, summary.usageLimit) : null;
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
      slices: extra.slices || 1,
      history: s.history.map((h) => ({ ms: h.seconds * 1000, cost: BigInt(h.cost), feasible: h.feasible })),
    },
  };
}

function convertSummary(s, extra) {
  return {
    name: s.name,
    nodes: s.nodes,
    edges: s.edges,
    strategies: s.strategies,
    maxStrategies: s.maxStrategies,
    edgeCostEntries: s.edgeCostEntries,
    usageLimit: big(s.usageLimit),
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
function assignmentArray(assignment, what = 'solution') {
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

// ------------------------------------------------------------------ threads back end

class ThreadedBackend {
  constructor(mod, threads) {
    this.kind = 'threads';
    this.mod = mod;
    this.threads = threads;
    this.fatal = null;
    this.running = new Set();  // Embind tasks in flight
  }

  static async create(platform, opts, threads) {
    let backend = null;
    const log = opts.log;
    const { factory, args } = await platform.threadedModule(opts);
    const moduleArgs = Object.assign({}, args, {
      iopddlPoolSize: threads + 2,  // search threads + the coordinating thread + a spare
      print: (s) => log && log(s),
      printErr: (s) => log && log(s),
      onAbort: (what) => backend && backend.fail(new IopddlError(
        isOutOfMemoryMessage(what) ? `out of memory: ${what}` : `the WebAssembly module aborted: ${what}`,
        isOutOfMemoryMessage(what) ? 'ERR_OUT_OF_MEMORY' : 'ERR_MODULE_CRASHED')),
    });
    if (opts.maxMemoryBytes !== undefined) {
      const pages = Math.ceil(checkInteger('maxMemoryBytes', opts.maxMemoryBytes, 64 << 20, 4 * 1024 ** 3) / 65536);
      moduleArgs.wasmMemory = new WebAssembly.Memory({ initial: 1024, maximum: pages, shared: true });
    }
    let mod;
    try {
      mod = await factory(moduleArgs);
    } catch (e) {
      throw new IopddlError(`could not start the WebAssembly module: ${e && e.message ? e.message : e}`,
        'ERR_MODULE_LOAD', { cause: e });
    }
    backend = new ThreadedBackend(mod, threads);
    backend.patchWorkers();
    return backend;
  }

  // A thread that crashes must not take the process down with an uncaught error
  // from the generated glue: fail the solver instead. Idle pool workers must not
  // keep Node alive either.
  patchWorkers() {
    const PThread = this.mod.PThread;
    if (!PThread) return;
    const self = this;
    const guard = (w) => {
      if (w.__iopddl) return;
      w.__iopddl = true;
      if (typeof w.unref === 'function') w.unref();
      w.onerror = (e) => self.fail(new IopddlError(
        `a solver thread crashed: ${e && e.message ? e.message : e}`, 'ERR_MODULE_CRASHED'));
    };
    const load = PThread.loadWasmModuleToWorker;
    PThread.loadWasmModuleToWorker = function (worker, onFinished) {
      const r = load.call(PThread, worker, onFinished);
      guard(worker);
      return r;
    };
    PThread.unusedWorkers.forEach(guard);
    PThread.runningWorkers.forEach(guard);
  }

  fail(err) {
    if (!this.fatal) this.fatal = err;
  }

  check() {
    if (this.fatal) throw this.fatal;
  }

  memoryBytes() {
    return this.mod.wasmMemory.buffer.byteLength;
  }

  // The task's final state (1 done, 2 failed), or -1 as soon as `signal`
  // (optional) is aborted: the task is then left to finish on its own.
  async wait(task, tick, signal) {
    let delay = 1;
    for (;;) {
      if (this.fatal) throw this.fatal;
      if (signal && signal.aborted) return -1;
      const state = task.state();
      if (state !== 0) return state;
      if (tick) tick();
      await sleepUnlessAborted(delay, signal);
      delay = Math.min(delay * 2, POLL_MS);
    }
  }

  // Running out of memory on a task's thread ends that thread where it stands:
  // what it held stays allocated, so this module is done for.
  taskError(task, what) {
    // The core flags running out of memory (a status code, or the allocator's
    // handler); the message is not read for that.
    const msg = task.error();
    if (task.outOfMemory()) {
      this.fail(spentError(what));
      return outOfMemoryError(what, msg);
    }
    return null;
  }

  // A load fed piece by piece (Solver.load drives it): each piece is copied
  // into the module and parsed at once, on this thread.
  // `inflated`: the pieces are gzip inflated by the platform.
  async startLoad(source, inflated) {
    this.check();
    const mod = this.mod;
    const loader = new mod.Loader(source);
    if (inflated) loader.inputInflatedByCaller();
    const failed = (e) => {
      // Memory ran out inside the module: what the parse held stays allocated.
      if (isOutOfMemoryMessage(e && e.message)) {
        this.fail(spentError(source));
        return outOfMemoryError(`${source}: ${mod.iopddlLoadMemoryNote(loader)}`);
      }
      return e;
    };
    const check = (ok) => {
      if (ok) return;
      throw loader.outOfMemory() ? outOfMemoryError(source, loader.error())
        : new IopddlError(loader.error(), 'ERR_INVALID_INPUT');
    };
    return {
      push: async (piece) => {
        this.check();
        let ok;
        try {
          ok = mod.iopddlLoadPiece(loader, piece);
        } catch (e) {
          throw failed(e);
        }
        check(ok);
      },
      finish: async () => {
        this.check();
        let ok;
        try {
          ok = loader.finish();
        } catch (e) {
          throw failed(e);
        }
        check(ok);
        const handle = loader.takeProblem();
        return { handle, summary: JSON.parse(handle.summary()) };
      },
      close: () => loader.delete(),
    };
  }

  async nodeData(handle) {
    this.check();
    return this.mod.iopddlNodeData(handle);
  }

  async parseSolution(text, source) {
    this.check();
    return this.mod.parseSolution(text, source);
  }

  async evaluate(handle, a) {
    this.check();
    const mod = this.mod;
    return withInts(mod, a, (ptr, n) => handle.evaluate(ptr, n));
  }

  async solve(handle, o, onProgressJson) {
    this.check();
    const task = withInts(this.mod, o.start, (ptr, n) => {
      checkSolveInput(this.mod, handle, o, ptr, n);
      return this.mod.startSolve(handle, o.timeLimitMs / 1000, o.threads, o.seed, o.maxRounds, HEARTBEAT_S,
        o.params, ptr, n);
    });
    this.running.add(task);
    const onAbort = () => task.stop();
    if (o.signal) {
      if (o.signal.aborted) task.stop();
      else o.signal.addEventListener('abort', onAbort, { once: true });
    }
    let seq = 0;
    let callbackError = null;
    const tick = () => {
      const s = task.progressSeq();
      if (s === seq) return;
      seq = s;
      try {
        onProgressJson(task.progress());
      } catch (e) {
        if (!callbackError) callbackError = e;
        task.stop();
      }
    };
    try {
      const state = await this.wait(task, tick);
      tick();
      if (callbackError) throw callbackError;
      if (state !== 1) {
        throw this.taskError(task, 'solve') || new IopddlError(task.error(), 'ERR_SOLVER');
      }
      return { json: task.result(), slices: 1 };
    } finally {
      if (o.signal) o.signal.removeEventListener('abort', onAbort);
      this.running.delete(task);
      task.delete();
    }
  }

  free(handle) {
    try {
      handle.delete();
    } catch (e) {
      // already deleted
    }
  }

  async dispose() {
    // Ask every running task to stop, give them a moment, then end the threads.
    for (const t of this.running) {
      try { t.stop(); } catch (e) { /* gone */ }
    }
    const deadline = now() + 1000;
    while (this.running.size && now() < deadline) {
      let busy = false;
      for (const t of this.running) {
        try { if (t.state() === 0) busy = true; } catch (e) { /* gone */ }
      }
      if (!busy) break;
      await sleep(5);
    }
    this.fail(disposedError());
    try {
      this.mod.iopddlTerminateThreads();
    } catch (e) {
      // nothing left to end
    }
  }
}

// Calls use(ptr, n) with the Int32Array `a` copied into the module's heap (0, 0
// when there is none), and frees it after.
function withInts(mod, a, use) {
  if (!a || a.length === 0) return use(0, 0);
  const ptr = mod._malloc(a.length * 4);
  if (!ptr) throw outOfMemoryError('solve');
  try {
    mod.iopddlHeapU8().set(new Uint8Array(a.buffer, a.byteOffset, a.length * 4), ptr);
    return use(ptr, a.length);
  } finally {
    mod._free(ptr);
  }
}

// The core's checks of a solve's parameters and warm start (in the heap at
// ptr, n entries), as IopddlErrors.
function checkSolveInput(mod, handle, o, ptr, n) {
  const bad = mod.checkParams(o.params);
  if (bad) throw new IopddlError(bad, 'ERR_INVALID_PARAMS');
  if (n > 0) {
    const e = JSON.parse(handle.evaluate(ptr, n));
    if (!e.ok) throw new IopddlError(`start: ${e.message}`, 'ERR_INVALID_ASSIGNMENT');
  }
}
// ------------------------------------------------------------------ worker back end

class WorkerBackend {
  constructor(worker, threadFallback) {
    this.kind = 'single';
    this.threads = 1;
    this.worker = worker;
    this.threadFallback = threadFallback;
    this.fatal = null;
    this.nextId = 1;
    this.pending = new Map();
    this.discarded = new Set();  // ids of aborted loads: their problems are freed on arrival
    this.memory = 0;
    worker.onMessage((m) => this.receive(m));
    worker.onError((e) => this.failAll(new IopddlError(
      `the solver worker crashed: ${e && e.message ? e.message : e}`, 'ERR_MODULE_CRASHED')));
  }

  static async create(platform, opts, threadFallback) {
    const worker = platform.createSingleWorker(opts);
    const backend = new WorkerBackend(worker, threadFallback);
    await backend.request('init', await platform.singleInit(opts));
    return backend;
  }

  receive(m) {
    if (m.memory) this.memory = m.memory;
    if (this.discarded.has(m.id)) {
      if (m.type === 'progress') return;
      this.discarded.delete(m.id);
      if (m.ok && m.value && m.value.handle !== undefined) this.free(m.value.handle);
      return;
    }
    const p = this.pending.get(m.id);
    if (!p) return;
    if (m.type === 'progress') {
      if (p.onProgress) {
        try {
          p.onProgress(m.json, m.offsetMs);
        } catch (e) {
          if (!p.callbackError) p.callbackError = e;
          this.worker.post({ op: 'abort', id: m.id });
        }
      }
      return;
    }
    this.pending.delete(m.id);
    this.idle();
    if (p.callbackError) p.reject(p.callbackError);
    else if (m.ok) p.resolve(m.value);
    else p.reject(new IopddlError(m.message, m.code || 'ERR_SOLVER'));
  }

  failAll(err) {
    if (!this.fatal) this.fatal = err;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    this.discarded.clear();
    this.idle();
  }

  // In Node a Worker with work outstanding keeps the process alive; an idle one must not.
  idle() {
    if (this.pending.size === 0 && this.worker.unref) this.worker.unref();
  }

  request(op, args, transfer, onProgress) {
    if (this.fatal) return Promise.reject(this.fatal);
    const id = this.nextId++;
    if (this.pending.size === 0 && this.worker.ref) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress });
      try {
        this.worker.post(Object.assign({ op, id }, args), transfer);
      } catch (e) {
        this.pending.delete(id);
        this.idle();
        reject(e);
      }
    });
  }

  memoryBytes() {
    return this.memory;
  }

  // A load fed piece by piece to the Worker, each piece awaited (so at most
  // one is in flight) and moved, not copied, when it is not the caller's.
  async startLoad(source, inflated) {
    const loader = this.nextLoader = (this.nextLoader || 0) + 1;
    await this.request('loadStart', { loader, source, inflated: Boolean(inflated) });
    let open = true;
    return {
      push: async (piece, owned) => {
        const whole = owned && piece.byteOffset === 0 && piece.byteLength === piece.buffer.byteLength &&
          !(typeof SharedArrayBuffer !== 'undefined' && piece.buffer instanceof SharedArrayBuffer);
        // A view into the caller's buffer would be cloned whole: send a copy of the piece.
        // (Uint8Array's slice: a Node Buffer's slice() is a view, not a copy.)
        const bytes = whole ? piece : Uint8Array.prototype.slice.call(piece);
        await this.request('loadPiece', { loader, bytes }, [bytes.buffer]);
      },
      finish: async () => {
        const r = await this.request('loadEnd', { loader });
        open = false;
        return { handle: r.handle, summary: JSON.parse(r.summary) };
      },
      close: () => {
        if (!open) return;
        open = false;
        this.request('loadCancel', { loader }).catch(() => {});
      },
    };
  }

  async nodeData(handle) {
    return this.request('nodeData', { handle });
  }

  async parseSolution(text, source) {
    return this.request('parseSolution', { text, source });
  }

  async evaluate(handle, a) {
    return this.request('evaluate', { handle, assignment: a });
  }

  async solve(handle, o, onProgressJson) {
    const id = this.nextId;  // the id request() will use
    const onAbort = () => this.worker.post({ op: 'abort', id });
    const p = this.request('solve', {
      handle,
      timeLimitMs: o.timeLimitMs,
      seed: o.seed,
      maxRounds: o.maxRounds,
      params: o.params,
      start: o.start,
      // Without a signal nothing can interrupt the solve: run it in one piece.
      sliceMs: o.signal ? o.sliceMs : 0,
      aborted: !!(o.signal && o.signal.aborted),
    }, undefined, onProgressJson);
    if (o.signal && !o.signal.aborted) o.signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await p;
    } finally {
      if (o.signal) o.signal.removeEventListener('abort', onAbort);
    }
  }

  free(handle) {
    if (!this.fatal) this.worker.post({ op: 'free', id: 0, handle });
  }

  async dispose() {
    this.failAll(disposedError());
    this.worker.terminate();
  }
}

// ------------------------------------------------------------------ public API

class Problem {
  constructor(solver, handle, summary) {
    this._solver = solver;
    this._handle = handle;
    /** What was loaded: counts, usage limit, time span, load time. */
    this.summary = summary;
  }

  get disposed() {
    return this._handle === null;
  }

  _check() {
    if (this._handle === null) throw new IopddlError('the problem was disposed', 'ERR_DISPOSED');
    this._solver._check();
  }

  /**
   * The problem's per-node arrays, exact: strategy s of node i is entry
   * strategyOffsets[i] + s of costs and usages; node i lives on
   * [intervalStarts[i], intervalEnds[i]). Copies: they outlive dispose().
   */
  async nodeData() {
    this._check();
    return this._solver._backend.nodeData(this._handle);
  }

  /** Exact cost split and usage profile of an assignment. */
  async evaluate(assignment) {
    this._check();
    const a = assignmentArray(assignment);
    const json = await this._solver._backend.evaluate(this._handle, a);
    const e = JSON.parse(json);
    if (!e.ok) throw new IopddlError(e.message, 'ERR_INVALID_ASSIGNMENT');
    return convertEvaluation(e, this.summary.usageLimit);
  }

  /** Searches for the cheapest assignment within the usage limit. */
  async solve(options) {
    this._check();
    const solver = this._solver;
    const o = solveOptions(options, solver);
    const t0 = now();
    let lastEmit = -Infinity;
    let pending = null;
    let lastEvent = '';
    const emit = (p) => {
      lastEmit = now();
      pending = null;
      o.onProgress(p);
    };
    const onProgressJson = o.onProgress ? (json, offsetMs) => {
      const p = convertProgress(JSON.parse(json), offsetMs);
      const important = p.event !== 'heartbeat' && p.event !== lastEvent;
      lastEvent = p.event;
      if (important || now() - lastEmit >= o.progressIntervalMs) emit(p);
      else pending = p;
    } : () => {};
    const run = await solver._backend.solve(this._handle, o, onProgressJson);
    if (pending) emit(pending);
    return convertResult(JSON.parse(run.json), this.summary, {
      aborted: !!(o.signal && o.signal.aborted),
      elapsedMs: now() - t0,
      backend: solver.backend,
      threadsRequested: o.threads,
      threadFallback: solver.threadFallback,
      slices: run.slices,
    });
  }

  /** Frees the problem's memory in the module. Running solves keep their copy. */
  dispose() {
    if (this._handle !== null && !this._solver.disposed) this._solver._backend.free(this._handle);
    this._handle = null;
  }
}

if (typeof Symbol.dispose === 'symbol') {
  Problem.prototype[Symbol.dispose] = function () { this.dispose(); };
}

class Solver {
  constructor(backend, opts) {
    this._backend = backend;
    this._platform = opts.platform || null;
    this._disposed = false;
    this.backend = backend.kind;
    this.threads = backend.threads;
    this.threadFallback = opts.threadFallback || null;
    this.version = VERSION;
  }

  get disposed() {
    return this._disposed;
  }

  _check() {
    if (this._disposed) throw disposedError();
  }

  /**
   * Reads a solution text: its last line of the form [s0, s1, ...] (earlier
   * lines are ignored, so a whole CLI output works), as an Int32Array. Rejects
   * with ERR_INVALID_ASSIGNMENT naming the entry that is wrong.
   */
  async parseSolution(text, options) {
    this._check();
    if (typeof text !== 'string') throw new TypeError('parseSolution() needs the solution as a string');
    const source = (options && options.source) || 'solution';
    const r = JSON.parse(await this._backend.parseSolution(text, source));
    if (!r.ok) throw new IopddlError(r.message, 'ERR_INVALID_ASSIGNMENT');
    return Int32Array.from(r.assignment);
  }

  /** Bytes of WebAssembly memory in use (grows with the inputs). */
  memoryBytes() {
    return this._backend.memoryBytes();
  }

  /**
   * Loads a problem: a parsed object, a JSON string, bytes, a Blob or a stream
   * (JSON or gzip, told apart by the gzip magic bytes), parsed piece by piece as
   * it is read: neither a Blob nor a stream is ever held whole.
   */
  async load(input, options) {
    this._check();
    const { pieces, total, owned } = inputPieces(input);
    return this._loadPieces(pieces, total, owned, (options && options.source) || 'input', options);
  }

  /**
   * Loads a problem from a file (Node.js), read in pieces: the file is never
   * held whole, in JavaScript or in the module.
   */
  async loadFile(path, options) {
    this._check();
    if (!this._platform || typeof this._platform.openFile !== 'function') {
      throw new TypeError('loadFile() needs Node.js; in a browser, give load() a File, a Blob or a stream');
    }
    if (typeof path !== 'string' && !(path instanceof URL)) throw new TypeError('loadFile() needs a path');
    const file = await this._platform.openFile(path, PIECE);
    return this._loadPieces(file.pieces, file.size, true, (options && options.source) || String(path), options);
  }

  async _loadPieces(pieces, total, owned, source, options) {
    if (typeof source !== 'string') throw new TypeError('source must be a string');
    const signal = checkSignal(options ? options.signal : undefined);
    const onProgress = options ? options.onProgress : undefined;
    if (onProgress !== undefined && typeof onProgress !== 'function') throw new TypeError('onProgress must be a function');
    if (signal && signal.aborted) throw abortedError(source, signal);
    const t0 = now();
    // Where the platform has its own zlib (Node's inflates on a thread of its
    // pool, beside the parse), gzip is inflated there; elsewhere the module
    // inflates it.
    const input = await peeked(pieces);
    const gzip = input.head.length >= 2 && input.head[0] === 0x1f && input.head[1] === 0x8b;
    const platformInflates = gzip && this._platform && typeof this._platform.gunzip === 'function';
    let loader;
    try {
      loader = await this._backend.startLoad(source, platformInflates);
    } catch (e) {
      await input.close();
      throw e;
    }
    let bytesRead = 0;  // of the input as given (compressed, for gzip)
    try {
      const counted = (async function* () {
        for await (const piece of input.pieces) {
          bytesRead += piece.length;
          yield piece;
        }
      })();
      const feed = platformInflates ? this._platform.gunzip(counted, source) : counted;
      let lastYield = now();
      for await (const piece of feed) {
        if (signal && signal.aborted) throw abortedError(source, signal);
        await loader.push(piece, owned || platformInflates);  // inflated pieces are ours to move
        if (onProgress) onProgress({ bytesRead, bytesTotal: total === undefined ? null : total });
        // Bytes already in memory come without a pause: let the page breathe.
        if (now() - lastYield > 40) {
          await sleep(0);
          lastYield = now();
        }
      }
      if (signal && signal.aborted) throw abortedError(source, signal);
      const { handle, summary } = await loader.finish();
      return new Problem(this, handle, convertSummary(summary, {
        inputBytes: bytesRead, gzip, loadMs: now() - t0,
      }));
    } finally {
      loader.close();
    }
  }

  /** Stops running solves, ends the module's threads and Worker. */
  async dispose() {
    if (this._disposed) return;
    this._disposed = true;
    await this._backend.dispose();
  }
}

if (typeof Symbol.asyncDispose === 'symbol') {
  Solver.prototype[Symbol.asyncDispose] = function () { return this.dispose(); };
}

/**
 * Starts a solver on the given platform (node.mjs / browser.mjs call this).
 */
export async function createSolverOn(platform, options) {
  const opts = Object.assign({}, options || {});
  if (opts.debug === true) opts.log = (s) => console.warn(`[iopddl-wasm] ${s}`);
  else if (typeof opts.debug === 'function') opts.log = opts.debug;
  const cores = Math.max(1, platform.cores());
  const threads = opts.threads === undefined ? cores : checkInteger('threads', opts.threads, 1, 256);
  const want = opts.backend || 'auto';
  if (!['auto', 'threads', 'single'].includes(want)) {
    throw new TypeError(`backend must be 'auto', 'threads' or 'single', got ${String(want)}`);
  }
  let backend;
  let threadFallback = null;
  if (want === 'single') {
    if (threads > 1) threadFallback = 'the single-threaded back end was requested';
    backend = await WorkerBackend.create(platform, opts, threadFallback);
  } else {
    const support = platform.threadSupport();
    if (support.ok) {
      backend = await ThreadedBackend.create(platform, opts, threads);
    } else if (want === 'threads') {
      throw new IopddlError(`threads are not available here: ${support.reason}`, 'ERR_NO_THREADS');
    } else {
      threadFallback = `running on one thread: ${support.reason}`;
      backend = await WorkerBackend.create(platform, opts, threadFallback);
    }
  }
  return new Solver(backend, { threadFallback, platform });
}
