// The package's coordinator: the public API (Solver, Problem) over one of two
// back ends with the same calls (load, solve, evaluate, node data, dispose;
// progress and abort through solve's options), which differ only in where the
// WebAssembly module runs:
//
//   threads  the pthread build, on the calling thread (threaded.mjs).
//   single   the build without shared memory, inside a dedicated Worker
//            (worker-backend.mjs, single-worker.mjs); one search thread.
//
// What both sides need (constants, errors, the module's calls) is shared.mjs;
// inputs are input.mjs, options and results convert.mjs. Platform specifics
// (finding the files, creating Workers) come from node.mjs or browser.mjs.
import {
  assignmentArray, checkInteger, checkSignal, convertEvaluation, convertProgress, convertResult, convertSummary,
  convertSweep, convertSweepPoint, judgeOptions, solveOptions, sweepOptions,
} from './convert.mjs';
import { PIECE, inputPieces, peeked } from './input.mjs';
import { GZIP_MAGIC, IopddlError, MAX_THREADS, VERSION, disposedError, now, sleep } from './shared.mjs';
import { ThreadedBackend } from './threaded.mjs';
import { WorkerBackend } from './worker-backend.mjs';

export { DEFAULT_TIME_LIMIT_MS, FORBIDDEN_COST, IopddlError, VERSION } from './shared.mjs';


function abortedError(what, signal) {
  return new IopddlError(`${what}: the load was aborted`, 'ERR_ABORTED', { cause: signal.reason });
}

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

  /**
   * Exact cost split and usage profile of an assignment, judged against the
   * file's usage limit or `options.usageLimit` (as solve()'s).
   */
  async evaluate(assignment, options) {
    this._check();
    const a = assignmentArray(assignment);
    const judge = judgeOptions(options, this.summary.usageLimit, 'evaluate');
    const json = await this._solver._backend.evaluate(this._handle, a, judge.text);
    const e = JSON.parse(json);
    if (!e.ok) throw new IopddlError(e.message, 'ERR_INVALID_ASSIGNMENT');
    return convertEvaluation(e, judge.limit);
  }

  /**
   * A result for an assignment given, not searched (a solution read from a
   * file, say): as solve()'s, with the exact evaluation, no lower bound and
   * zero counts. Rejects with ERR_INVALID_ASSIGNMENT as evaluate() does.
   */
  async resultOf(assignment, options) {
    this._check();
    const a = assignmentArray(assignment);
    const judge = judgeOptions(options, this.summary.usageLimit, 'resultOf');
    const r = JSON.parse(await this._solver._backend.resultOf(this._handle, a, judge.text));
    if (r.ok === false) throw new IopddlError(r.message, 'ERR_INVALID_ASSIGNMENT');
    const solver = this._solver;
    return convertResult(r, this.summary, {
      aborted: false, elapsedMs: 0, backend: solver.backend, threadsRequested: 0,
      threadFallback: solver.threadFallback, slices: 0,
    });
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

  /**
   * Memory against cost: the core's sweep (src/sweep.h) at the given limits or
   * at `points` limits it chooses, each point's cost, bound and plan. Time is
   * the whole sweep's. onPoint gets each point as it is solved (a point's cost
   * may still fall and its bound rise in the final result).
   */
  async sweep(options) {
    this._check();
    const solver = this._solver;
    const o = sweepOptions(options, solver);
    const t0 = now();
    const onPointJson = o.onPoint ? (json) => o.onPoint(convertSweepPoint(JSON.parse(json))) : () => {};
    const r = JSON.parse(await solver._backend.sweep(this._handle, o, onPointJson));
    if (r.error) throw new IopddlError(r.error, 'ERR_SOLVER');
    return convertSweep(r, {
      aborted: !!(o.signal && o.signal.aborted), elapsedMs: now() - t0, backend: solver.backend,
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
    const gzip = GZIP_MAGIC.every((b, i) => input.head[i] === b);
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
  const threads = opts.threads === undefined ? cores : checkInteger('threads', opts.threads, 1, MAX_THREADS);
  const want = opts.backend || 'auto';
  if (!['auto', 'threads', 'single'].includes(want)) {
    throw new TypeError(`backend must be 'auto', 'threads' or 'single', got ${String(want)}`);
  }
  let backend;
  let threadFallback = null;
  if (want === 'single') {
    if (threads > 1) threadFallback = 'the single-threaded back end was requested';
    backend = await WorkerBackend.create(platform, opts);
  } else {
    const support = platform.threadSupport();
    if (support.ok) {
      backend = await ThreadedBackend.create(platform, opts, threads);
    } else if (want === 'threads') {
      throw new IopddlError(`threads are not available here: ${support.reason}`, 'ERR_NO_THREADS');
    } else {
      threadFallback = `running on one thread: ${support.reason}`;
      backend = await WorkerBackend.create(platform, opts);
    }
  }
  return new Solver(backend, { threadFallback, platform });
}
