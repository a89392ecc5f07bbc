// problem.sweep(): memory against cost through the core's sweep (src/sweep.h),
// on both back ends. Costs and bounds never rise as the limit grows, every
// cost is at least its bound, every plan fits its limit; with one thread, a
// seed and a round budget the points are the CLI's `iopddl sweep --json`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { EXAMPLE_COST, exampleObject, hasNative, instanceGPath, nativeCli, pkg } from './helpers.mjs';

const { createSolver } = pkg;

function checkCurve(r) {
  assert.ok(r.points.length > 0);
  for (let k = 0; k < r.points.length; ++k) {
    const pt = r.points[k];
    assert.equal(typeof pt.limit, 'bigint');
    assert.equal(pt.assignment.length > 0, true);
    if (pt.feasible) {
      assert.ok(pt.peakUsage <= pt.limit, `point ${k}: peak ${pt.peakUsage} over ${pt.limit}`);
      if (pt.lowerBound !== null) assert.ok(pt.cost >= pt.lowerBound, `point ${k}: cost ${pt.cost} below ${pt.lowerBound}`);
    }
    if (k === 0) continue;
    const prev = r.points[k - 1];
    assert.ok(prev.limit < pt.limit, 'by limit, increasing');
    if (prev.feasible) {
      assert.ok(pt.feasible, `point ${k} feasible after a feasible one`);
      assert.ok(pt.cost <= prev.cost, `point ${k}: cost ${pt.cost} rose from ${prev.cost}`);
    }
    if (prev.lowerBound !== null && pt.lowerBound !== null && !prev.provenInfeasible) {
      assert.ok(pt.lowerBound <= prev.lowerBound, `point ${k}: bound ${pt.lowerBound} rose from ${prev.lowerBound}`);
    }
  }
}

for (const backend of ['threads', 'single']) {
  describe(`sweep (${backend} back end)`, () => {
    let solver;
    let g;
    before(async () => {
      solver = await createSolver({ backend, threads: 2 });
      g = await solver.loadFile(instanceGPath);
    });
    after(async () => {
      g?.dispose();
      await solver?.dispose();
    });

    test('the example at 49, 50 and 80', async () => {
      const p = await solver.load(exampleObject());
      try {
        const seen = [];
        const r = await p.sweep({ limits: [80n, 49n, 50], maxRounds: 5, threads: 1, onPoint: (pt) => seen.push(pt) });
        assert.equal(r.leastPeak, 50n);
        assert.deepEqual(r.points.map((pt) => pt.limit), [49n, 50n, 80n]);
        const [below, at, above] = r.points;
        assert.equal(below.feasible, false);
        assert.equal(below.provenInfeasible, true);
        assert.equal(at.feasible, true);
        assert.equal(at.cost, EXAMPLE_COST);
        assert.ok(above.cost <= EXAMPLE_COST);
        assert.equal(seen.length, 3, 'onPoint for each point');
        assert.equal(typeof seen[0].limit, 'bigint');
        checkCurve(r);
        // A point's plan as a result, for the views.
        const res = await p.resultOf(at.assignment);
        assert.equal(res.cost, EXAMPLE_COST);
      } finally {
        p.dispose();
      }
    });

    test('G at 5 points: a falling curve with its bounds', async () => {
      let calls = 0;
      const r = await g.sweep({ points: 5, timeLimitMs: 3000, onPoint: () => { calls++; } });
      assert.equal(r.points.length, 5);
      assert.equal(calls, 5, 'onPoint for each point');
      assert.equal(r.points[0].limit, r.leastPeak);
      assert.ok(r.freePlan && r.freePlan.peakUsage === r.points[4].limit);
      assert.ok(r.points.some((pt) => pt.limit === g.summary.usageLimit), 'the file\'s limit is a point');
      checkCurve(r);
      assert.ok(r.points[0].cost > r.points[4].cost);
    });

    test('bad options are refused by name', async () => {
      for (const [o, kind, re] of [
        [{ rounds: 3 }, TypeError, /unknown sweep\(\) option 'rounds'/],
        [{ limits: [1n], points: 3 }, TypeError, /limits or points/],
        [{ limits: [] }, TypeError, /limits/],
        [{ limits: 5 }, TypeError, /limits/],
        [{ limits: [1n, -2n] }, RangeError, /limits\[1\]/],
        [{ limits: [1n, 2n, 1.5] }, RangeError, /limits\[2\]/],
        [{ limits: ['3'] }, TypeError, /limits\[0\]/],
        [{ points: 0 }, RangeError, /points/],
        [{ points: 1001 }, RangeError, /points/],
        [{ points: 2.5 }, TypeError, /points/],
        [{ timeLimitMs: -1 }, RangeError, /timeLimitMs/],
        [{ sliceMs: 10 }, RangeError, /sliceMs/],
        [{ onPoint: 1 }, TypeError, /onPoint/],
      ]) {
        await assert.rejects(g.sweep(o), (e) => e instanceof kind && re.test(e.message), JSON.stringify(o, (k, v) => (typeof v === 'bigint' ? `${v}n` : v)));
      }
      await assert.rejects(g.sweep({ points: 2, params: { noSuchParam: 1 } }), /noSuchParam/);
    });

    test('aborted, it resolves with the points done', async () => {
      const ac = new AbortController();
      const t0 = Date.now();
      // Stopped after its first point: the solve running stops, the rest get no time.
      const r = await g.sweep({ points: 5, timeLimitMs: 60000, signal: ac.signal, onPoint: () => ac.abort() });
      assert.ok(Date.now() - t0 < 20000, `took ${Date.now() - t0} ms`);
      assert.equal(r.aborted, true);
      assert.ok(r.points.length >= 1);
      checkCurve(r);
    });

    // Aborted while its first solve runs (the proof search is off, so nothing
    // ends it early), a sweep settles within about a slice, far inside its
    // time limit, and resolves as on either back end: aborted, with every
    // point, the free solve's plan at the right end, the points after the
    // abort barely searched (their plans need not fit).
    test('aborted mid-solve, it settles within about a slice', async () => {
      const ac = new AbortController();
      const seen = [];
      let abortedAt = 0;
      const timer = setTimeout(() => { abortedAt = performance.now(); ac.abort(); }, 400);
      let r;
      try {
        r = await g.sweep({
          points: 5, timeLimitMs: 20_000, threads: 1, signal: ac.signal, sliceMs: 100,
          params: { proof_max_strategies: 0 }, onPoint: (pt) => seen.push(pt),
        });
      } finally {
        clearTimeout(timer);
      }
      assert.ok(abortedAt > 0, 'settled before the abort');
      const latency = performance.now() - abortedAt;
      console.log(`# sweep (${backend}): settled ${latency.toFixed(0)} ms after the abort`);
      assert.ok(latency < 2500, `settled ${latency.toFixed(0)} ms after the abort; its first solve had 4 s`);
      assert.deepEqual(Object.keys(r), ['leastPeak', 'freePlan', 'points', 'aborted', 'elapsedMs', 'backend']);
      assert.equal(r.aborted, true);
      assert.equal(r.backend, backend);
      assert.ok(r.freePlan !== null);
      assert.equal(r.points.length, 5);
      assert.equal(seen.length, 5, 'onPoint for each point');
      assert.equal(r.points[4].limit, r.freePlan.peakUsage);
      assert.equal(r.points[4].feasible, true);
      checkCurve(r);
    });
  });
}

describe('sweep gives the CLI\'s points', { skip: !hasNative && 'build/iopddl is not built' }, () => {
  for (const backend of ['threads', 'single']) {
    test(`G, 5 points, 1 thread, seed 1, 3 rounds (${backend})`, async () => {
      const cli = spawnSync(nativeCli, ['sweep', instanceGPath, '600', '--points', '5', '--json', '--threads', '1',
        '--seed', '1', '--rounds', '3'], { encoding: 'utf8' });
      assert.equal(cli.status, 0, cli.stderr);
      const want = JSON.parse(cli.stdout);
      const solver = await createSolver({ backend, threads: 1 });
      try {
        const p = await solver.loadFile(instanceGPath);
        const r = await p.sweep({ points: 5, timeLimitMs: 600000, threads: 1, seed: 1, maxRounds: 3 });
        assert.equal(r.leastPeak, BigInt(want.least_peak));
        assert.deepEqual(r.freePlan && { cost: r.freePlan.cost, peakUsage: r.freePlan.peakUsage },
          { cost: BigInt(want.free_plan.cost), peakUsage: BigInt(want.free_plan.peak_usage) });
        const mine = r.points.map((pt) => ({
          limit: pt.limit, feasible: pt.feasible, cost: pt.cost, lowerBound: pt.lowerBound, peakUsage: pt.peakUsage,
          provenOptimal: pt.provenOptimal, provenInfeasible: pt.provenInfeasible, fromNeighbour: pt.fromNeighbour,
          assignment: pt.assignment,
        }));
        const theirs = want.points.map((pt) => ({
          limit: BigInt(pt.limit), feasible: pt.feasible, cost: BigInt(pt.cost),
          lowerBound: pt.lower_bound === null ? null : BigInt(pt.lower_bound), peakUsage: BigInt(pt.peak_usage),
          provenOptimal: pt.proven_optimal, provenInfeasible: pt.proven_infeasible, fromNeighbour: pt.from_neighbour,
          assignment: pt.assignment,
        }));
        assert.deepEqual(mine, theirs);
        p.dispose();
      } finally {
        await solver.dispose();
      }
    });
  }
});
