// The single-threaded back end's Worker (a module Worker): hosts the build
// without shared memory, for browsers whose page is not cross-origin isolated.
// Runs in a browser Worker and in a Node worker thread (through
// single-worker-node.cjs; used by the tests). The calls into the module are
// ModuleCore's (shared.mjs), the same as the threads back end's; this file only
// carries requests and answers (worker-backend.mjs is the other end).
//
// A blocking solve or sweep cannot see messages, so when the caller can
// abort, it runs as the core's resumable session in slices, and abort
// requests are read between slices.
import { IopddlError, ModuleCore, errorMessage, loadClassicScript } from './shared.mjs';

// In Node, single-worker-node.cjs sets the host up (message port, require);
// in a browser Worker it is the Worker's own globals.
const host = globalThis.iopddlWorkerHost || {
  post: (m, transfer) => self.postMessage(m, transfer || []),
  listen: (receive) => { self.onmessage = (e) => receive(e.data); },
  loadFactory: (m) => loadClassicScript(m.scriptUrl, 'createIopddlSingleModule'),
};

let core = null;
const problems = new Map();
let nextHandle = 1;
const loaders = new Map();
const aborted = new Set();
const queue = [];
let busy = false;

const memory = () => (core ? core.memoryBytes() : 0);

host.listen((m) => {
  if (m.op === 'abort') aborted.add(m.id);
  else if (m.op === 'free') {
    const p = problems.get(m.handle);
    if (p) p.delete();
    problems.delete(m.handle);
  } else {
    queue.push(m);
    if (!busy) drain();
  }
});

async function drain() {
  busy = true;
  while (queue.length) {
    const m = queue.shift();
    try {
      if (!ops[m.op]) throw new IopddlError(`unknown request ${m.op}`, 'ERR_SOLVER');
      const value = await ops[m.op](m);
      host.post({ id: m.id, ok: true, value, memory: memory() });
    } catch (e) {
      host.post({ id: m.id, ok: false, ...errorMessage(e), memory: memory() });
    }
    aborted.delete(m.id);
  }
  busy = false;
}

function problem(h) {
  const p = problems.get(h);
  if (!p) throw new IopddlError('the problem was disposed', 'ERR_DISPOSED');
  return p;
}

function loader(m) {
  const l = loaders.get(m.loader);
  if (!l) throw new IopddlError('no such load (it was cancelled)', 'ERR_SOLVER');
  return l;
}

const yieldToEvents = () => new Promise((resolve) => setTimeout(resolve, 0));

// Runs a session of the core (SolveSession, SweepSession) for request `m` in
// slices of `m.sliceMs` (0: one piece), reading abort requests between them;
// an abort stops it, and what is left of it ends at once (a stopped search
// takes no more time). The slices run. (A request aborted before it started
// made its session with no time: it ends in its first slice.)
async function runInSlices(session, m, what) {
  const seconds = m.sliceMs > 0 ? m.sliceMs / 1000 : 1e9;
  let slices = 0;
  for (;;) {
    const more = core.spending(what, () => session.run(seconds));
    slices++;
    if (!more) break;
    await yieldToEvents();  // lets abort requests in
    if (aborted.has(m.id)) {
      session.stop();
      core.spending(what, () => session.run(1e9));
      break;
    }
  }
  return slices;
}

const ops = {
  async init(m) {
    const factory = await host.loadFactory(m);
    // An abort inside the module fails the request in flight and every later one.
    const args = ModuleCore.moduleArgs(null, (e) => {
      if (core) core.fail(e);
      throw e;
    });
    if (m.wasmBinary) args.wasmBinary = m.wasmBinary;
    if (m.wasmUrl) args.locateFile = (p) => (p.endsWith('.wasm') ? m.wasmUrl : p);
    core = new ModuleCore(await factory(args));
    return {};
  },
  loadStart(m) {
    loaders.set(m.loader, core.startLoad(m.source, m.inflated));
    return {};
  },
  loadPiece(m) {
    loader(m).push(m.bytes);
    return {};
  },
  loadEnd(m) {
    const l = loader(m);
    try {
      const { problem: p, summary } = l.finish();
      const h = nextHandle++;
      problems.set(h, p);
      return { handle: h, summary };
    } finally {
      loaders.delete(m.loader);
      l.close();
    }
  },
  loadCancel(m) {
    const l = loaders.get(m.loader);
    loaders.delete(m.loader);
    if (l) l.close();
    return {};
  },
  evaluate: (m) => core.evaluate(problem(m.handle), m.assignment, m.usageLimit),
  resultOf: (m) => core.resultOf(problem(m.handle), m.assignment, m.usageLimit),
  parseSolution: (m) => core.parseSolution(m.text, m.source),
  nodeData: (m) => core.nodeData(problem(m.handle)),

  // A sweep runs as the core's session (SweepSession) in slices, as a solve
  // does: an abort stops the solve running and leaves the points still to
  // come no time, so the sweep resolves with every point, as on the threads
  // back end. Its points are posted as they finish.
  async sweep(m) {
    const p = problem(m.handle);
    if (m.aborted) aborted.add(m.id);
    const mod = core.mod;
    mod.onSweepPoint = (json) => host.post({ id: m.id, type: 'progress', json, offsetMs: 0 });
    let session;
    try {
      session = core.startSweep(m, () => new mod.SweepSession(p, aborted.has(m.id) ? 0 : m.timeLimitMs / 1000,
        m.seed, m.maxRounds, m.limits, m.points, m.params));
      await runInSlices(session, m, 'sweep');
      return session.result();
    } finally {
      mod.onSweepPoint = null;
      if (session) session.delete();
    }
  },

  // A solve runs as the core's session (SolveSession): with a signal, in
  // slices of `sliceMs`, reading abort requests between them; the session
  // keeps the model, the incumbent, prices and messages, so slicing costs
  // nothing. Without a signal nothing can interrupt it: one slice.
  async solve(m) {
    const p = problem(m.handle);
    if (m.aborted) aborted.add(m.id);
    const mod = core.mod;
    mod.onSolveProgress = (json) => host.post({ id: m.id, type: 'progress', json, offsetMs: 0 });
    let session;
    try {
      session = core.startSolve(p, m, (ptr, n) => new mod.SolveSession(p,
        aborted.has(m.id) ? 0 : m.timeLimitMs / 1000, m.seed, m.maxRounds, m.usageLimit, m.params, ptr, n));
      const problemText = session.error();
      if (problemText) throw core.failure('solve', problemText, false);
      const slices = await runInSlices(session, m, 'solve');
      return { json: session.result(), slices };
    } finally {
      mod.onSolveProgress = null;
      if (session) session.delete();
    }
  },
};
