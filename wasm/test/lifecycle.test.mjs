// Lifecycle under stress: how fast an AbortSignal is obeyed in every phase
// (loading a large input, the solver's early phase, the search), and 100
// create/load/solve/dispose cycles in one process without memory growth.
//
// The large input is instance G repeated 20 times (disjoint copies, shifted in
// time so that each fits the limit on its own): about 49 MB of JSON, 16320
// nodes, built here from tests/data.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { instanceGPath, pkg, sleep } from './helpers.mjs';

const { createSolver } = pkg;
const G = readFileSync(instanceGPath);

// The contract is 100 ms from abort() to the promise settling; the assertions
// allow for scheduling on a loaded 2-core CI machine.
const TARGET_MS = 100;
const SLACK_MS = 250;
const MB = 2 ** 20;

/** Instance G's JSON with `copies` disjoint copies, each in its own stretch of time. */
function enlargedG(copies) {
  const p = JSON.parse(gunzipSync(G).toString()).problem;
  const n = p.nodes.intervals.length;
  let lo = Infinity;
  let hi = -Infinity;
  for (const [a, b] of p.nodes.intervals) {
    lo = Math.min(lo, a);
    hi = Math.max(hi, b);
  }
  const span = hi - lo;
  const intervals = [];
  const edgeNodes = [];
  for (let c = 0; c < copies; ++c) {
    intervals.push(p.nodes.intervals.map(([a, b]) => `[${a + c * span},${b + c * span}]`).join(','));
    edgeNodes.push(p.edges.nodes.map(([u, v]) => `[${u + c * n},${v + c * n}]`).join(','));
  }
  const repeat = (list) => Array(copies).fill(JSON.stringify(list).slice(1, -1)).join(',');
  const text = `{"problem":{"name":"G-x${copies}","nodes":{"intervals":[${intervals.join(',')}],` +
    `"costs":[${repeat(p.nodes.costs)}],"usages":[${repeat(p.nodes.usages)}]},` +
    `"edges":{"nodes":[${edgeNodes.join(',')}],"costs":[${repeat(p.edges.costs)}]},` +
    `"usage_limit":${p.usage_limit}}}`;
  return new TextEncoder().encode(text);
}

// Which phase of a solve the abort fell in, by the solver's own clock
// (it starts within a millisecond or two of the solve() call).
function phaseOf(abortMs, r) {
  if (abortMs < r.stats.reduceMs) return 'model and reductions';
  const first = r.stats.history.length ? r.stats.history[0].ms : Infinity;
  if (abortMs < first) return 'first answer';
  return 'search';
}

// Asserts the contract (with slack for a loaded CI machine). `knownSlow` marks
// a phase whose latency the core cannot meet, reported as a TODO instead; every
// phase meets it since the core's set-up steps look at the stop flag.
function checkLatency(t, what, latency, knownSlow) {
  t.diagnostic(`${what}: settled ${latency.toFixed(1)} ms after the abort (target ${TARGET_MS} ms)`);
  if (knownSlow && latency >= SLACK_MS) {
    t.todo(`${what}: ${latency.toFixed(0)} ms; the core's set-up before and after the first answer ` +
      '(model build, bound, per-thread initialisation) does not look at the stop flag');
  }
  assert.ok(latency < SLACK_MS, `${what}: settled ${latency.toFixed(0)} ms after the abort`);
}

describe('cancellation latency (threads back end, a 49 MB input)', () => {
  let solver;
  let big;
  let problem;
  let fullLoadMs;
  before(async () => {
    big = enlargedG(20);
    solver = await createSolver({ threads: 2 });
    const t0 = performance.now();
    problem = await solver.load(big, { source: 'G-x20.json' });
    fullLoadMs = performance.now() - t0;
  });
  after(async () => {
    await solver.dispose();
    solver = big = problem = null;  // the memory test below runs in this process
  });

  test('the input', (t) => {
    t.diagnostic(`${(big.length / MB).toFixed(1)} MB, ${problem.summary.nodes} nodes, ` +
      `${problem.summary.edges} edges, loaded in ${fullLoadMs.toFixed(0)} ms`);
    assert.ok(big.length > 45 * MB);
    assert.equal(problem.summary.nodes, 816 * 20);
  });

  test('a signal aborted before load() rejects at once', async () => {
    const reason = new Error('not wanted');
    await assert.rejects(solver.load(big, { signal: AbortSignal.abort(reason) }), (e) => {
      assert.equal(e.code, 'ERR_ABORTED');
      assert.equal(e.cause, reason);
      return true;
    });
    await assert.rejects(solver.load(big, { signal: 'no' }), TypeError);
  });

  test('a Blob is read through its stream, which an aborted load cancels', async () => {
    // A Blob whose stream says when it is read and when it is cancelled.
    let pulls = 0;
    let cancelled = false;
    class WatchedBlob extends Blob {
      stream() {
        const reader = super.stream().getReader();
        return new ReadableStream({
          async pull(c) {
            ++pulls;
            const { done, value } = await reader.read();
            if (done) c.close();
            else c.enqueue(value);
          },
          cancel(reason) {
            cancelled = true;
            return reader.cancel(reason);
          },
        });
      }
    }
    // In 1 MB parts, so that its stream comes in many chunks (one part, one chunk).
    const parts = [];
    for (let at = 0; at < big.length; at += MB) parts.push(big.subarray(at, at + MB));
    const controller = new AbortController();
    await assert.rejects(solver.load(new WatchedBlob(parts), {
      signal: controller.signal,
      onProgress: (p) => { if (p.bytesRead > 4 * MB) controller.abort(); },
    }), (e) => e.code === 'ERR_ABORTED');
    assert.ok(pulls > 4 && pulls < parts.length, `${pulls} chunks of ${parts.length} read`);
    assert.equal(cancelled, true, 'the aborted load left the stream open');
    // Read to its end, it loads the same problem as the bytes.
    const whole = await solver.load(new WatchedBlob(parts));
    assert.equal(whole.summary.digest, problem.summary.digest);
    whole.dispose();
  });

  test('loading: the promise rejects within 100 ms of the abort; the discarded problem is freed', async (t) => {
    // The module's size with one more whole load of the input on top of the
    // problem already loaded: what an aborted load may take while it parses.
    const tWarm = performance.now();
    (await solver.load(big)).dispose();
    const warmLoadMs = performance.now() - tWarm;
    const memoryBefore = solver.memoryBytes();
    // Abort a quarter into the parse; three times, each time waiting for the
    // background parse to end, so that a problem left behind would show as growth.
    // The quarter is of the load just timed, not of the first one: later loads
    // are faster (110-135 ms against 150-186 ms here), and at a quarter of the
    // first load's time one aborted load of three once resolved instead.
    // A load that still outruns its abort (on one machine the aborted loads
    // settled within 51 ms, a quarter of the 204 ms load timed before them)
    // is tried again with the abort twice as soon, up to five times.
    let at = Math.min(100, warmLoadMs / 4);
    t.diagnostic(`loads of the input: first ${fullLoadMs.toFixed(0)} ms, just now ${warmLoadMs.toFixed(0)} ms`);
    const latencies = [];
    for (let k = 0; k < 3; ++k) {
      let latency = null;
      for (let attempt = 0; latency === null; ++attempt) {
        assert.ok(attempt < 5, `every load settled before its abort (the last ${at.toFixed(0)} ms in)`);
        const ac = new AbortController();
        let abortedAt = 0;
        const timer = setTimeout(() => { abortedAt = performance.now(); ac.abort(); }, at);
        const t0 = performance.now();
        let loaded = null;
        try {
          loaded = await solver.load(big, { signal: ac.signal });
        } catch (e) {
          assert.equal(e.code, 'ERR_ABORTED', e.message);
          assert.equal(e.name, 'IopddlError');
          assert.equal(e.cause && e.cause.name, 'AbortError');
        }
        if (loaded) {
          clearTimeout(timer);
          loaded.dispose();
          t.diagnostic(`a load settled ${(performance.now() - t0).toFixed(0)} ms in, before its abort at ${at.toFixed(0)} ms`);
          at /= 2;
          continue;
        }
        latency = performance.now() - abortedAt;
        assert.ok(abortedAt > t0, 'the load settled before the abort');
      }
      latencies.push(latency);
      checkLatency(t, `loading (abort ${at.toFixed(0)} ms in, run ${k + 1})`, latency, false);
      await sleep(fullLoadMs * 1.5 + 200);  // the parse goes on in the background
      t.diagnostic(`module memory ${(solver.memoryBytes() / MB).toFixed(0)} MB`);
    }
    const grown = solver.memoryBytes() - memoryBefore;
    t.diagnostic(`module memory ${(memoryBefore / MB).toFixed(0)} MB before, ` +
      `${(solver.memoryBytes() / MB).toFixed(0)} MB after three aborted loads`);
    // A load of this input holds ~100 MB while it parses: one kept would show.
    assert.ok(grown <= 32 * MB, `the module grew by ${(grown / MB).toFixed(0)} MB`);
    // Still usable.
    const g = await solver.load(G);
    assert.equal(g.summary.nodes, 816);
    g.dispose();
  });

  test('solving, early phase: model and reductions', async (t) => {
    // Twice: the first solve on this module (it grows its memory) and another.
    let worst = 0;
    let phase;
    for (const run of ['first solve', 'second solve']) {
      const ac = new AbortController();
      let abortedAt = 0;
      const t0 = performance.now();
      setTimeout(() => { abortedAt = performance.now(); ac.abort(); }, 10);
      const r = await problem.solve({ timeLimitMs: 60_000, signal: ac.signal });
      const latency = performance.now() - abortedAt;
      phase = phaseOf(abortedAt - t0, r);
      t.diagnostic(`${run}: abort ${(abortedAt - t0).toFixed(0)} ms in (${phase}; reductions done at ` +
        `${r.stats.reduceMs.toFixed(0)} ms); solver stopped at ${r.stats.solverMs.toFixed(0)} ms, ` +
        `settled ${latency.toFixed(1)} ms after the abort`);
      assert.equal(r.aborted, true);
      assert.ok(latency < 5000, `settled ${latency.toFixed(0)} ms after the abort`);
      worst = Math.max(worst, latency);
    }
    checkLatency(t, `early phase (${phase}), worst of two`, worst, false);
  });

  test('solving, early phase: the first answer', async (t) => {
    const ac = new AbortController();
    let abortedAt = 0;
    const t0 = performance.now();
    const r = await problem.solve({
      timeLimitMs: 60_000,
      signal: ac.signal,
      onProgress: (p) => {
        // 'start' comes once the reductions are done and the search threads start.
        if (p.event === 'start' && !abortedAt) {
          abortedAt = performance.now();
          ac.abort();
        }
      },
    });
    const latency = performance.now() - abortedAt;
    assert.ok(abortedAt > 0, 'no start event');
    const phase = phaseOf(abortedAt - t0, r);
    const first = r.stats.history.length ? r.stats.history[0].ms.toFixed(0) : '-';
    t.diagnostic(`abort ${(abortedAt - t0).toFixed(0)} ms in (${phase}; reductions done at ` +
      `${r.stats.reduceMs.toFixed(0)} ms, first answer at ${first} ms); solver stopped at ` +
      `${r.stats.solverMs.toFixed(0)} ms`);
    assert.equal(r.aborted, true);
    assert.ok(latency < 5000, `settled ${latency.toFixed(0)} ms after the abort`);
    checkLatency(t, `early phase (${phase})`, latency, false);
  });

  test('solving, search: the best answer so far within 100 ms', async (t) => {
    const ac = new AbortController();
    let abortedAt = 0;
    let timer = null;
    const t0 = performance.now();
    const r = await problem.solve({
      timeLimitMs: 60_000,
      signal: ac.signal,
      onProgress: (p) => {
        if (p.feasible && !timer) timer = setTimeout(() => { abortedAt = performance.now(); ac.abort(); }, 300);
      },
    });
    const latency = performance.now() - abortedAt;
    assert.ok(abortedAt > 0, 'no feasible answer before the abort');
    const phase = phaseOf(abortedAt - t0, r);
    t.diagnostic(`abort ${(abortedAt - t0).toFixed(0)} ms in (${phase}; first feasible at ` +
      `${r.stats.firstFeasibleMs.toFixed(0)} ms, ${r.stats.rounds} rounds)`);
    assert.equal(phase, 'search');
    assert.equal(r.aborted, true);
    assert.equal(r.feasible, true);
    checkLatency(t, 'search', latency, false);
  });
});

test('loading with the single-threaded back end: an abort rejects at once, the Worker stays usable', async (t) => {
  const solver = await createSolver({ backend: 'single' });
  try {
    const big = enlargedG(20);
    const ac = new AbortController();
    let abortedAt = 0;
    setTimeout(() => { abortedAt = performance.now(); ac.abort(); }, 100);
    await assert.rejects(solver.load(big, { signal: ac.signal }), (e) => e.code === 'ERR_ABORTED');
    const latency = performance.now() - abortedAt;
    checkLatency(t, 'loading, single-threaded back end', latency, false);
    // The Worker finishes the parse first (it cannot be interrupted), then frees it.
    const p = await solver.load(G);
    const r = await p.solve({ timeLimitMs: 500 });
    assert.equal(r.feasible, true);
  } finally {
    await solver.dispose();
  }
});

// A forced collection before each sample, so that the figures show what is
// still referenced rather than what the collector has not got to yet.
function collector() {
  try {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc');
  } catch (e) {
    return null;
  }
}

async function sample(gc) {
  if (gc) {
    gc();
    await sleep(50);  // terminated Workers go away asynchronously
    gc();
  }
  return process.memoryUsage();
}

// Average of the first and last thirds of the samples (the first sample, after
// one cycle, is the warm-up and not counted).
function thirds(values) {
  const v = values.slice(1);
  const k = Math.max(1, Math.floor(v.length / 3));
  const avg = (a) => a.reduce((x, y) => x + y, 0) / a.length;
  return {
    first: avg(v.slice(0, k)), last: avg(v.slice(-k)),
    firstMax: Math.max(...v.slice(0, k)), lastMin: Math.min(...v.slice(-k)),
  };
}

describe('memory over 100 cycles', () => {
  const gc = collector();

  test('100 createSolver / load G / 20 ms solve / dispose cycles: no growth', async (t) => {
    const rss = [];
    const rows = [];
    const t0 = performance.now();
    for (let cycle = 1; cycle <= 100; ++cycle) {
      const solver = await createSolver({ threads: 2 });
      const p = await solver.load(G);
      const r = await p.solve({ timeLimitMs: 20 });
      assert.equal(r.hasSolution, true);
      const moduleBytes = solver.memoryBytes();
      p.dispose();
      await solver.dispose();
      if (cycle === 1 || cycle % 10 === 0) {
        const m = await sample(gc);
        rss.push(m.rss);
        rows.push(`${cycle}: rss ${(m.rss / MB).toFixed(1)} MB, heap ${(m.heapUsed / MB).toFixed(1)} MB, ` +
          `external ${(m.external / MB).toFixed(1)} MB, module ${(moduleBytes / MB).toFixed(0)} MB`);
      }
    }
    t.diagnostic(`${((performance.now() - t0) / 100).toFixed(0)} ms per cycle${gc ? '' : ' (no forced GC)'}`);
    for (const row of rows) t.diagnostic(row);
    const { first, last, firstMax, lastMin } = thirds(rss);
    t.diagnostic(`rss: first third ${(first / MB).toFixed(1)} MB, last third ${(last / MB).toFixed(1)} MB`);
    // The process's RSS swings by 20-30 MB between samples (freed WebAssembly
    // memories and worker stacks go back to the system late: one run read
    // 155.5 MB at cycle 80 and 128.2 MB at 100), so a leak is judged on the
    // least of the last third against the most of the first: a leak lifts
    // every later sample, a swing only some.
    assert.ok(lastMin - firstMax < Math.max(0.15 * firstMax, 10 * MB),
      `rss grew from ${(firstMax / MB).toFixed(1)} to ${(lastMin / MB).toFixed(1)} MB (most of the first third, least of the last)`);
  });

  test('100 load G / 20 ms solve / dispose cycles on one solver: the module does not grow', async (t) => {
    const solver = await createSolver({ threads: 2 });
    try {
      const rss = [];
      const moduleBytes = [];
      const rows = [];
      for (let cycle = 1; cycle <= 100; ++cycle) {
        const p = await solver.load(G);
        const r = await p.solve({ timeLimitMs: 20 });
        assert.equal(r.hasSolution, true);
        p.dispose();
        if (cycle === 1 || cycle % 10 === 0) {
          const m = await sample(gc);
          rss.push(m.rss);
          moduleBytes.push(solver.memoryBytes());
          rows.push(`${cycle}: rss ${(m.rss / MB).toFixed(1)} MB, module ${(solver.memoryBytes() / MB).toFixed(0)} MB`);
        }
      }
      for (const row of rows) t.diagnostic(row);
      // WebAssembly memory never shrinks: any growth after the first cycle is kept memory.
      assert.equal(moduleBytes.at(-1), moduleBytes[0], `the module grew from ${moduleBytes[0]} to ${moduleBytes.at(-1)} bytes`);
      const { first, last } = thirds(rss);
      assert.ok(last - first < Math.max(0.15 * first, 10 * MB),
        `rss grew from ${(first / MB).toFixed(1)} to ${(last / MB).toFixed(1)} MB`);
    } finally {
      await solver.dispose();
    }
  });
});
