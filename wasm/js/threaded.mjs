// The threads back end: the pthread build on the calling thread. A solve runs
// on a detached coordinating pthread inside the module; this side polls its
// state from timers, so the caller's event loop never blocks. Everything else
// is ModuleCore's (shared.mjs), called here directly.
import { checkInteger } from './convert.mjs';
import { IopddlError, ModuleCore, disposedError, now, sleep } from './shared.mjs';

const POLL_MS = 20;       // how often a running solve is looked at
const HEARTBEAT_S = 0.1;  // the solver's own progress pace


export class ThreadedBackend {
  constructor(core, threads) {
    this.kind = 'threads';
    this.core = core;
    this.threads = threads;
    this.running = new Set();  // Embind tasks in flight
  }

  static async create(platform, opts, threads) {
    let core = null;
    const { factory, args } = await platform.threadedModule(opts);
    const moduleArgs = Object.assign({}, args, ModuleCore.moduleArgs(opts.log, (e) => core && core.fail(e)), {
      iopddlPoolSize: threads + 2,  // search threads + the coordinating thread + a spare
    });
    if (opts.maxMemoryBytes !== undefined) {
      const bytes = checkInteger('maxMemoryBytes', opts.maxMemoryBytes, 64 << 20, 4 * 1024 ** 3);
      moduleArgs.wasmMemory = new WebAssembly.Memory({ initial: 1024, maximum: Math.ceil(bytes / 65536), shared: true });
    }
    let mod;
    try {
      mod = await factory(moduleArgs);
    } catch (e) {
      throw new IopddlError(`could not start the WebAssembly module: ${e && e.message ? e.message : e}`,
        'ERR_MODULE_LOAD', { cause: e });
    }
    core = new ModuleCore(mod);
    const backend = new ThreadedBackend(core, threads);
    backend.guardWorkers();
    return backend;
  }

  // A thread that crashes must not take the process down with an uncaught error
  // from the generated glue: fail the solver instead. Idle pool workers must not
  // keep Node alive either.
  guardWorkers() {
    const PThread = this.core.mod.PThread;
    if (!PThread) return;
    const guard = (w) => {
      if (w.__iopddl) return;
      w.__iopddl = true;
      if (typeof w.unref === 'function') w.unref();
      w.onerror = (e) => this.core.fail(new IopddlError(
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

  memoryBytes() {
    return this.core.memoryBytes();
  }

  async startLoad(source, inflated) {
    const loader = this.core.startLoad(source, inflated);
    return {
      push: async (piece) => loader.push(piece),
      finish: async () => {
        const { problem, summary } = loader.finish();
        return { handle: problem, summary: JSON.parse(summary) };
      },
      close: () => loader.close(),
    };
  }

  async nodeData(handle) { return this.core.nodeData(handle); }
  async parseSolution(text, source) { return this.core.parseSolution(text, source); }
  async evaluate(handle, a, usageLimit) { return this.core.evaluate(handle, a, usageLimit); }
  async resultOf(handle, a, usageLimit) { return this.core.resultOf(handle, a, usageLimit); }

  async solve(handle, o, onProgressJson) {
    const core = this.core;
    const task = core.startSolve(handle, o, (ptr, n) => core.mod.startSolve(handle, o.timeLimitMs / 1000,
      o.threads, o.seed, o.maxRounds, o.usageLimit, HEARTBEAT_S, o.params, ptr, n));
    let seq = 0;
    const json = await this.runTask(task, 'solve', o.signal, () => {
      const s = task.progressSeq();
      if (s === seq) return;
      seq = s;
      onProgressJson(task.progress());
    });
    return { json, slices: 1 };
  }

  // A sweep on its own pthread; its points, as they finish, go to onPointJson.
  async sweep(handle, o, onPointJson) {
    const core = this.core;
    const task = core.startSweep(o, () => core.mod.startSweep(handle, o.timeLimitMs / 1000, o.threads, o.seed,
      o.maxRounds, o.limits, o.points, o.params));
    let seen = 0;
    return this.runTask(task, 'sweep', o.signal, () => {
      for (const n = task.itemCount(); seen < n;) onPointJson(task.item(seen++));
    });
  }

  // Polls a task until it ends, calling tick() for its progress; abort and a
  // callback that throws stop it. The result's JSON text.
  async runTask(task, what, signal, tick) {
    const core = this.core;
    this.running.add(task);
    const onAbort = () => task.stop();
    if (signal) {
      if (signal.aborted) task.stop();
      else signal.addEventListener('abort', onAbort, { once: true });
    }
    let callbackError = null;
    const safeTick = () => {
      if (callbackError) return;
      try {
        tick();
      } catch (e) {
        callbackError = e;
        task.stop();
      }
    };
    try {
      // Polled until done (1) or failed (2), more slowly as it runs.
      let state;
      for (let delay = 1; ; delay = Math.min(delay * 2, POLL_MS)) {
        core.check();
        state = task.state();
        if (state !== 0) break;
        safeTick();
        await sleep(delay);
      }
      safeTick();
      if (callbackError) throw callbackError;
      if (state !== 1) throw core.failure(what, task.error(), task.outOfMemory());
      return task.result();
    } finally {
      if (signal) signal.removeEventListener('abort', onAbort);
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
    this.core.fail(disposedError());
    try {
      this.core.mod.iopddlTerminateThreads();
    } catch (e) {
      // nothing left to end
    }
  }
}
