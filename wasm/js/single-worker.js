// The single-threaded back end's Worker (a classic script): hosts the build
// without shared memory, for browsers whose page is not cross-origin isolated.
// Runs in a browser Worker and in a Node worker thread (through
// single-worker-node.cjs; used by the tests).
//
// A blocking solve cannot see messages, so when the caller can abort, the
// solve runs as the core's resumable session in slices, and abort requests
// are read between slices.
'use strict';

(function () {
  // In Node, single-worker-node.cjs sets the host up (message port, require);
  // in a browser Worker it is the Worker's own globals.
  const host = typeof globalThis.iopddlWorkerHost === 'object' ? globalThis.iopddlWorkerHost : {
    post: (m) => self.postMessage(m),
    listen: (receive) => { self.onmessage = (e) => receive(e.data); },
    loadFactory: (m) => {
      importScripts(m.scriptUrl);
      return self.createIopddlSingleModule;
    },
  };
  const post = host.post;
  host.listen((m) => receive(m));

  let mod = null;
  const problems = new Map();
  let nextHandle = 1;
  const aborted = new Set();
  const queue = [];
  let busy = false;

  const memory = () => (mod ? mod.iopddlHeapU8().buffer.byteLength : 0);

  function receive(m) {
    if (m.op === 'abort') {
      aborted.add(m.id);
      return;
    }
    if (m.op === 'free') {
      const p = problems.get(m.handle);
      if (p) p.delete();
      problems.delete(m.handle);
      return;
    }
    queue.push(m);
    if (!busy) drain();
  }

  async function drain() {
    busy = true;
    while (queue.length) {
      const m = queue.shift();
      try {
        const value = await handle(m);
        post({ id: m.id, ok: true, value, memory: memory() });
      } catch (e) {
        const message = e && e.message ? e.message : String(e);
        post({ id: m.id, ok: false, message, code: e && e.code, memory: memory() });
      }
      aborted.delete(m.id);
    }
    busy = false;
  }

  function fail(message, code) {
    const e = new Error(message);
    e.code = code;
    return e;
  }

  function outOfMemory(e) {
    const msg = e && e.message ? e.message : String(e);
    return /out of memory|Cannot enlarge memory|Array buffer allocation failed/i.test(msg)
      ? fail(msg, 'ERR_OUT_OF_MEMORY') : e;
  }

  async function init(m) {
    const factory = host.loadFactory(m);
    const args = {
      print: () => {},
      printErr: () => {},
      onAbort: (what) => { throw fail(`the WebAssembly module aborted: ${what}`, 'ERR_MODULE_CRASHED'); },
    };
    if (m.wasmBinary) args.wasmBinary = m.wasmBinary;
    if (m.wasmUrl) args.locateFile = (p) => (p.endsWith('.wasm') ? m.wasmUrl : p);
    mod = await factory(args);
    return { version: mod.version() };
  }

  // Running out of memory inside a load or solve unwinds through C++ frames
  // that never free what they held: the module is spent after that.
  let spent = null;
  function spend(e, what) {
    const err = outOfMemory(e);
    if (err.code === 'ERR_OUT_OF_MEMORY') {
      spent = fail(`this solver ran out of memory earlier (${what}) and cannot be used any more: ` +
        'dispose() it and create a new one', 'ERR_OUT_OF_MEMORY');
    }
    return err;
  }

  // Loads fed piece by piece from the main thread (core.mjs drives them).
  const loaders = new Map();
  function loadStart(m) {
    const l = new mod.Loader(m.source);
    if (m.inflated) l.inputInflatedByCaller();
    loaders.set(m.loader, { l, source: m.source });
    return {};
  }
  function load(m) {
    const entry = loaders.get(m.loader);
    if (!entry) throw fail('no such load (it was cancelled)');
    return entry;
  }
  // Running out of memory inside the module: the same message as the threaded back end's.
  function loadFailed(e, { l, source }) {
    const err = spend(e, source);
    if (err.code === 'ERR_OUT_OF_MEMORY') err.message = `${source}: ${mod.iopddlLoadMemoryNote(l)}: ${err.message}`;
    return err;
  }
  function loadError({ l, source }) {
    return l.outOfMemory() ? spend(fail(l.error(), 'ERR_OUT_OF_MEMORY'), source) : fail(l.error(), 'ERR_INVALID_INPUT');
  }
  function loadPiece(m) {
    const entry = load(m);
    let ok;
    try {
      ok = mod.iopddlLoadPiece(entry.l, m.bytes);
    } catch (e) {
      throw loadFailed(e, entry);
    }
    if (!ok) throw loadError(entry);
    return {};
  }
  function loadEnd(m) {
    const entry = load(m);
    const { l } = entry;
    try {
      let ok;
      try {
        ok = l.finish();
      } catch (e) {
        throw loadFailed(e, entry);
      }
      if (!ok) throw loadError(entry);
      const p = l.takeProblem();
      const h = nextHandle++;
      problems.set(h, p);
      return { handle: h, summary: p.summary() };
    } finally {
      loaders.delete(m.loader);
      l.delete();
    }
  }
  function loadCancel(m) {
    const entry = loaders.get(m.loader);
    if (entry) {
      loaders.delete(m.loader);
      entry.l.delete();
    }
    return {};
  }

  function problem(h) {
    const p = problems.get(h);
    if (!p) throw fail('the problem was disposed', 'ERR_DISPOSED');
    return p;
  }

  // Calls use(ptr, n) with the Int32Array `a` copied into the module's heap
  // (0, 0 when there is none), and frees it after.
  function withInts(a, use) {
    if (!a || a.length === 0) return use(0, 0);
    const ptr = mod._malloc(a.length * 4);
    if (!ptr) throw fail('out of memory', 'ERR_OUT_OF_MEMORY');
    try {
      mod.iopddlHeapU8().set(new Uint8Array(a.buffer, a.byteOffset, a.length * 4), ptr);
      return use(ptr, a.length);
    } finally {
      mod._free(ptr);
    }
  }

  function evaluate(m) {
    return withInts(m.assignment, (ptr, n) => problem(m.handle).evaluate(ptr, n));
  }

  const yieldToEvents = () => new Promise((resolve) => setTimeout(resolve, 0));

  // A solve runs as the core's session (SolveSession): with a signal, in
  // slices of `sliceMs`, reading abort requests between them; the session
  // keeps the model, the incumbent, prices and messages, so slicing costs
  // nothing. Without a signal nothing can interrupt it: one slice.
  async function solve(m) {
    const p = problem(m.handle);
    if (m.aborted) aborted.add(m.id);
    const bad = mod.checkParams(m.params);
    if (bad) throw fail(bad, 'ERR_INVALID_PARAMS');
    if (m.start) {
      const e = JSON.parse(evaluate({ handle: m.handle, assignment: m.start }));
      if (!e.ok) throw fail(`start: ${e.message}`, 'ERR_INVALID_ASSIGNMENT');
    }
    const sliced = m.sliceMs > 0;
    let session;
    mod.onSolveProgress = (json) => post({ id: m.id, type: 'progress', json, offsetMs: 0 });
    try {
      try {
        session = withInts(m.start, (ptr, n) => new mod.SolveSession(p, aborted.has(m.id) ? 0 : m.timeLimitMs / 1000,
          m.seed, m.maxRounds, m.params, ptr, n));
      } catch (e) {
        throw spend(e, 'solve');
      }
      const problemText = session.error();
      if (problemText) throw fail(problemText, 'ERR_SOLVER');
      let slices = 0;
      for (;;) {
        let more;
        try {
          more = session.run(sliced ? m.sliceMs / 1000 : 1e9);
        } catch (e) {
          throw spend(e, 'solve');
        }
        slices++;
        if (!more) break;
        await yieldToEvents();  // lets abort requests in
        if (aborted.has(m.id)) {
          session.stop();
          session.run(0);
          break;
        }
      }
      const r = JSON.parse(session.result());
      return { json: JSON.stringify(r), slices };
    } finally {
      mod.onSolveProgress = null;
      if (session) session.delete();
    }
  }

  async function handle(m) {
    if (spent && m.op !== 'init') throw spent;
    switch (m.op) {
      case 'init': return init(m);
      case 'loadStart': return loadStart(m);
      case 'loadPiece': return loadPiece(m);
      case 'loadEnd': return loadEnd(m);
      case 'loadCancel': return loadCancel(m);
      case 'evaluate': return evaluate(m);
      case 'parseSolution': return mod.parseSolution(m.text, m.source);
      case 'nodeData': return mod.iopddlNodeData(problem(m.handle));
      case 'solve': return solve(m);
      default: throw fail(`unknown request ${m.op}`, 'ERR_SOLVER');
    }
  }
})();
