// The single-threaded back end's Worker (a classic script): hosts the build
// without shared memory, for browsers whose page is not cross-origin isolated.
// Runs in a browser Worker and in a Node worker thread (used by the tests).
//
// A blocking solve cannot see messages, so when the caller can abort, the time
// limit is cut into slices (new seed each, each starting from the best answer
// so far) and abort requests are read between slices; the best answer over all
// slices is kept.
'use strict';

(function () {
  const isNode = typeof process === 'object' && process.versions && process.versions.node &&
    typeof importScripts !== 'function';
  let post;
  if (isNode) {
    const { parentPort } = require('worker_threads');
    post = (m) => parentPort.postMessage(m);
    parentPort.on('message', (m) => receive(m));
  } else {
    post = (m) => self.postMessage(m);
    self.onmessage = (e) => receive(e.data);
  }

  let mod = null;
  const problems = new Map();
  let nextHandle = 1;
  const aborted = new Set();
  const queue = [];
  let busy = false;

  const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());
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
    let factory;
    if (isNode) {
      factory = require(m.scriptPath);
    } else {
      importScripts(m.scriptUrl);
      factory = self.createIopddlSingleModule;
    }
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

  function load(m) {
    let buf;
    let task;
    try {
      buf = new mod.InputBuffer(m.bytes.length);
    } catch (e) {
      const err = outOfMemory(e);
      if (err.code === 'ERR_OUT_OF_MEMORY') {
        err.message = `${m.source}: cannot hold ${m.bytes.length} bytes of input: ${err.message}`;
      }
      throw err;
    }
    try {
      mod.iopddlHeapU8().set(m.bytes, buf.data());
      task = mod.startLoad(buf, m.source);
    } catch (e) {
      throw spend(e, m.source);
    } finally {
      buf.delete();
    }
    try {
      if (task.state() !== 1) {
        throw task.outOfMemory() ? spend(fail(task.error()), m.source) : fail(task.error(), 'ERR_INVALID_INPUT');
      }
      const h = nextHandle++;
      problems.set(h, task.takeProblem());
      return { handle: h, summary: task.result() };
    } finally {
      task.delete();
    }
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

  // Ranking of answers: a solution beats none; feasible beats infeasible; then cost.
  function better(a, b) {
    if (!b) return true;
    const an = a.assignment.length > 0;
    const bn = b.assignment.length > 0;
    if (an !== bn) return an;
    if (a.feasible !== b.feasible) return a.feasible;
    if (!an) return false;
    const ca = BigInt(a.evaluation.totalCost);
    const cb = BigInt(b.evaluation.totalCost);
    if (!a.feasible) {
      if (a.evaluation.forbiddenEntries !== b.evaluation.forbiddenEntries) {
        return a.evaluation.forbiddenEntries < b.evaluation.forbiddenEntries;
      }
      const pa = BigInt(a.evaluation.peakUsage);
      const pb = BigInt(b.evaluation.peakUsage);
      if (pa !== pb) return pa < pb;
    }
    return ca < cb;
  }

  async function solve(m) {
    const p = problem(m.handle);
    const start = now();
    const deadline = start + m.timeLimitMs;
    const sliced = m.sliceMs > 0 && m.maxRounds === 0;
    let best = null;
    let bestCost = null;
    let slices = 0;
    const total = { rounds: 0, messagePasses: 0, windows: 0, localMoves: 0, repairs: 0, improvements: 0 };
    const history = [];
    const mechanisms = {};
    let firstFeasible = null;
    let seed = BigInt(m.seed);
    if (m.aborted) aborted.add(m.id);
    const bad = mod.checkParams(m.params);
    if (bad) throw fail(bad, 'ERR_INVALID_PARAMS');
    if (m.start) {
      const e = JSON.parse(evaluate({ handle: m.handle, assignment: m.start }));
      if (!e.ok) throw fail(`start: ${e.message}`, 'ERR_INVALID_ASSIGNMENT');
    }
    for (;;) {
      const offset = now() - start;
      const remaining = Math.max(0, deadline - now());
      const len = sliced ? Math.min(remaining, m.sliceMs) : remaining;
      mod.onSolveProgress = (json) => {
        const pr = JSON.parse(json);
        // Report the best over all slices, on the whole solve's clock.
        if (bestCost !== null && pr.cost !== null && best.feasible >= pr.feasible &&
            BigInt(pr.cost) > bestCost) {
          pr.cost = bestCost.toString();
          pr.feasible = best.feasible;
        }
        post({ id: m.id, type: 'progress', json: JSON.stringify(pr), offsetMs: offset });
      };
      const stopNow = aborted.has(m.id);
      let task;
      try {
        // Each slice starts from the best answer so far (the caller's start first).
        const from = best && best.assignment.length ? Int32Array.from(best.assignment) : m.start;
        task = withInts(from, (ptr, n) =>
          mod.startSolve(p, stopNow ? 0 : len / 1000, 1, seed.toString(), m.maxRounds, 0, m.params, ptr, n));
      } catch (e) {
        throw spend(e, 'solve');
      } finally {
        mod.onSolveProgress = null;
      }
      let r;
      try {
        if (task.state() !== 1) {
          throw task.outOfMemory() ? spend(fail(task.error()), 'solve') : fail(task.error(), 'ERR_SOLVER');
        }
        r = JSON.parse(task.result());
      } finally {
        task.delete();
      }
      slices++;
      for (const k of Object.keys(total)) total[k] += r.stats[k];
      for (const [name, c] of Object.entries(r.stats.mechanisms)) {
        const t = (mechanisms[name] ??= { tried: 0, improved: 0 });
        t.tried += c.tried;
        t.improved += c.improved;
      }
      if (firstFeasible === null && r.stats.firstFeasibleSeconds !== null) {
        firstFeasible = offset / 1000 + r.stats.firstFeasibleSeconds;
      }
      for (const h of r.stats.history) {
        const c = BigInt(h.cost);
        if (bestCost === null || (h.feasible && !best.feasible) || c < bestCost) {
          history.push({ seconds: offset / 1000 + h.seconds, cost: h.cost, feasible: h.feasible });
        }
      }
      if (better(r, best)) {
        best = r;
        bestCost = r.assignment.length ? BigInt(r.evaluation.totalCost) : null;
      }
      seed = (seed + 0x9e3779b97f4a7c15n) & ((1n << 64n) - 1n);
      await yieldToEvents();  // lets abort requests in
      // A proven answer ends the solve: another slice cannot do better.
      if (r.provenOptimal || r.provenInfeasible) break;
      if (!sliced || aborted.has(m.id) || now() >= deadline || stopNow) break;
    }
    best.stopped = aborted.has(m.id);
    Object.assign(best.stats, total, {
      mechanisms,
      firstFeasibleSeconds: firstFeasible,
      history: history,
    });
    best.elapsed = (now() - start) / 1000;
    return { json: JSON.stringify(best), slices };
  }

  async function handle(m) {
    if (spent && m.op !== 'init') throw spent;
    switch (m.op) {
      case 'init': return init(m);
      case 'load': return load(m);
      case 'evaluate': return evaluate(m);
      case 'parseSolution': return mod.parseSolution(m.text, m.source);
      case 'solve': return solve(m);
      default: throw fail(`unknown request ${m.op}`, 'ERR_SOLVER');
    }
  }
})();
