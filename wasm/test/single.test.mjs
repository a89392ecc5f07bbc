// The single-threaded back end: what a browser page without cross-origin
// isolation gets (the build without shared memory, in a Worker). In Node it
// runs in a worker thread, so the same code paths are tested here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { EXAMPLE_COST, EXAMPLE_OPTIMUM, exampleObject, exampleText, instanceGPath, pkg } from './helpers.mjs';

const { createSolver } = pkg;

describe('single-threaded back end', () => {
  let solver;
  before(async () => { solver = await createSolver({ backend: 'single', threads: 4 }); });
  after(async () => { await solver.dispose(); });

  test('falls back to one thread and says so', async () => {
    assert.equal(solver.backend, 'single');
    assert.equal(solver.threads, 1);
    assert.match(solver.threadFallback, /single-threaded/);
    const p = await solver.load(exampleObject());
    const r = await p.solve({ timeLimitMs: 300 });
    assert.deepEqual(r.assignment, EXAMPLE_OPTIMUM);
    assert.equal(r.cost, EXAMPLE_COST);
    assert.equal(r.backend, 'single');
    assert.equal(r.threads, 1);
    assert.equal(r.threadsRequested, 1);
    assert.equal(r.threadFallback, solver.threadFallback);
    const e = await p.evaluate(r.assignment);
    assert.equal(e.totalCost, 445n);
    assert.equal(e.profile.usage.length, 7);
    p.dispose();
  });

  // Regression: with a signal the time limit is cut into slices, and a proven
  // optimum must end the solve instead of running every slice to the limit.
  test('a proven optimum ends a sliced solve early', async () => {
    const p = await solver.load(exampleObject());
    const t0 = performance.now();
    const r = await p.solve({ timeLimitMs: 5000, sliceMs: 200, signal: new AbortController().signal });
    const ms = performance.now() - t0;
    assert.equal(r.cost, EXAMPLE_COST);
    assert.equal(r.provenOptimal, true);
    assert.ok(ms < 2000, `took ${ms.toFixed(0)} ms for a proven optimum`);
    p.dispose();
  });

  test('same error messages', async () => {
    await assert.rejects(solver.load('{"problem":', { source: 'bad.json' }), (e) => {
      assert.equal(e.code, 'ERR_INVALID_INPUT');
      assert.equal(e.message, 'bad.json: JSON syntax error at byte 11 (in problem): unexpected end of input (the document is incomplete)');
      return true;
    });
    const p = await solver.load(exampleText());
    await assert.rejects(p.evaluate([0]), /solution has 1 entries, the problem has 5 nodes/);
    p.dispose();
  });

  test('gzip input, progress, abort between slices', async () => {
    const g = await solver.load(readFileSync(instanceGPath));
    assert.equal(g.summary.nodes, 816);
    const ac = new AbortController();
    const seen = [];
    let abortedAt = 0;
    setTimeout(() => { abortedAt = performance.now(); ac.abort(); }, 300);  // G is proven in under a second
    const r = await g.solve({
      timeLimitMs: 60_000, signal: ac.signal, sliceMs: 100, onProgress: (p) => seen.push(p),
    });
    const latency = performance.now() - abortedAt;
    console.log(`# single back end: abort latency ${latency.toFixed(0)} ms, ${r.stats.slices} slices`);
    assert.ok(latency < 1000, `resolved ${latency.toFixed(0)} ms after the abort`);
    assert.equal(r.aborted, true);
    assert.equal(r.feasible, true);
    assert.ok(r.stats.slices >= 2);
    assert.ok(seen.length >= 3);
    assert.ok(seen.every((p, i) => i === 0 || p.elapsedMs >= seen[i - 1].elapsedMs - 1));
    // The best over all slices is what was reported last.
    const costs = seen.filter((p) => p.feasible).map((p) => p.cost);
    assert.ok(costs.every((c) => c >= r.cost));
    g.dispose();
  });

  // The slices are one resumable solve: in 100 ms slices it does as well as
  // the solve in one piece (G's best known cost is 217039; both reach it or
  // come within 0.5 %), its rounds add up and its bound keeps rising. The
  // proof search is off: with it G ends proven within about 1.3 s on one
  // thread, before the 20 slices this checks.
  test('slices cost nothing: a sliced solve of G is as good as one in one piece', async () => {
    const g = await solver.load(readFileSync(instanceGPath));
    const bounds = [];
    const params = { proof_max_strategies: 0 };
    const sliced = await g.solve({
      timeLimitMs: 4000, seed: 2, signal: new AbortController().signal, sliceMs: 100, params,
      onProgress: (p) => { if (p.lowerBound !== null) bounds.push(p.lowerBound); },
    });
    const whole = await g.solve({ timeLimitMs: 4000, seed: 2, params });
    console.log(`# G on one thread: ${sliced.cost} in ${sliced.stats.slices} slices, ${whole.cost} in one piece`);
    assert.ok(sliced.stats.slices >= 20);
    assert.ok(Number(sliced.cost) <= 217039 * 1.005, `sliced: ${sliced.cost}`);
    assert.ok(Number(sliced.cost) <= Number(whole.cost) * 1.005, `sliced ${sliced.cost} vs whole ${whole.cost}`);
    assert.ok(sliced.stats.rounds > sliced.stats.slices / 2);
    assert.ok(bounds.length >= 2 && bounds.at(-1) > bounds[0], 'the bound improves across slices');
    g.dispose();
  });

  test('without a signal the solve runs in one piece', async () => {
    const p = await solver.load(exampleObject());
    const r = await p.solve({ timeLimitMs: 200, seed: 5 });
    assert.equal(r.stats.slices, 1);
    assert.equal(r.aborted, false);
    p.dispose();
  });
});
