// The single back end: the build without shared memory, inside a dedicated
// Worker (single-worker.mjs), for browsers that are not cross-origin isolated;
// one search thread. The same calls as the threads back end's, each a request
// to the Worker, answered there by ModuleCore (shared.mjs).
import { IopddlError, disposedError, errorFrom } from './shared.mjs';

export class WorkerBackend {
  constructor(worker) {
    this.kind = 'single';
    this.threads = 1;
    this.worker = worker;
    this.fatal = null;
    this.nextId = 1;
    this.nextLoader = 1;
    this.pending = new Map();
    this.discarded = new Set();  // ids of aborted loads: their problems are freed on arrival
    this.memory = 0;
    worker.onMessage((m) => this.receive(m));
    worker.onError((e) => this.failAll(new IopddlError(
      `the solver worker crashed: ${e && e.message ? e.message : e}`, 'ERR_MODULE_CRASHED')));
  }

  static async create(platform, opts) {
    const backend = new WorkerBackend(platform.createSingleWorker(opts));
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
      try {
        if (p.onProgress) p.onProgress(m.json, m.offsetMs);
      } catch (e) {
        if (!p.callbackError) p.callbackError = e;
        this.worker.post({ op: 'abort', id: m.id });
      }
      return;
    }
    this.pending.delete(m.id);
    this.idle();
    if (p.callbackError) p.reject(p.callbackError);
    else if (m.ok) p.resolve(m.value);
    else p.reject(errorFrom(m));
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
    const loader = this.nextLoader++;
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

  nodeData(handle) { return this.request('nodeData', { handle }); }
  parseSolution(text, source) { return this.request('parseSolution', { text, source }); }
  evaluate(handle, a, usageLimit) { return this.request('evaluate', { handle, assignment: a, usageLimit }); }
  resultOf(handle, a, usageLimit) { return this.request('resultOf', { handle, assignment: a, usageLimit }); }

  async solve(handle, o, onProgressJson) {
    const id = this.nextId;  // the id request() will use
    const p = this.request('solve', {
      handle,
      timeLimitMs: o.timeLimitMs,
      seed: o.seed,
      maxRounds: o.maxRounds,
      usageLimit: o.usageLimit,
      params: o.params,
      start: o.start,
      // Without a signal nothing can interrupt the solve: run it in one piece.
      sliceMs: o.signal ? o.sliceMs : 0,
      aborted: !!(o.signal && o.signal.aborted),
    }, undefined, onProgressJson);
    return this.abortable(p, id, o.signal);
  }

  // A sweep runs in slices as a solve does (the core's SweepSession), so an
  // abort ends it within about a slice: the solve running stops and the
  // points still to come get no time, as on the threads back end.
  async sweep(handle, o, onPointJson) {
    const id = this.nextId;  // the id request() will use
    const p = this.request('sweep', {
      handle,
      timeLimitMs: o.timeLimitMs,
      seed: o.seed,
      maxRounds: o.maxRounds,
      limits: o.limits,
      points: o.points,
      params: o.params,
      // Without a signal nothing can interrupt the sweep: run it in one piece.
      sliceMs: o.signal ? o.sliceMs : 0,
      aborted: !!(o.signal && o.signal.aborted),
    }, undefined, onPointJson);
    return this.abortable(p, id, o.signal);
  }

  // Request `id`'s answer, with the signal's abort sent on to the Worker
  // while it runs.
  async abortable(p, id, signal) {
    const onAbort = () => this.worker.post({ op: 'abort', id });
    if (signal && !signal.aborted) signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await p;
    } finally {
      if (signal) signal.removeEventListener('abort', onAbort);
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
