// Warm starts (solve({ start })), search parameters (solve({ params })) and
// parseSolution(), on both back ends: the checks are the core's, so the
// messages are the CLI's.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { EXAMPLE_COST, EXAMPLE_OPTIMUM, exampleObject, instanceGPath, pkg } from './helpers.mjs';

const { createSolver } = pkg;

for (const backend of ['threads', 'single']) {
  describe(`warm start and parameters (${backend})`, () => {
    let solver;
    let g;
    before(async () => {
      solver = await createSolver({ backend, threads: 2 });
      g = await solver.load(readFileSync(instanceGPath), { source: 'G.json.gz' });
    });
    after(async () => {
      g.dispose();
      await solver.dispose();
    });

    test('nodeData: the core\'s per-node arrays, exact, outliving dispose()', async () => {
      const obj = exampleObject();
      obj.problem.nodes.costs[4] = ['9007199254740993'];  // beyond 2^53: exact only as BigInt
      const p = await solver.load(JSON.stringify(obj).replace('"9007199254740993"', '9007199254740993'));
      const d = await p.nodeData();
      p.dispose();
      assert.deepEqual(Array.from(d.strategyOffsets), [0, 1, 3, 6, 8, 9]);
      assert.ok(d.costs instanceof BigInt64Array);
      assert.deepEqual(Array.from(d.costs), [15n, 55n, 65n, 25n, 45n, 35n, 85n, 75n, 9007199254740993n]);
      assert.deepEqual(Array.from(d.usages), [10n, 25n, 25n, 15n, 20n, 15n, 10n, 10n, 15n]);
      assert.deepEqual(Array.from(d.intervalStarts), [30n, 40n, 50n, 110n, 110n]);
      assert.deepEqual(Array.from(d.intervalEnds), [70n, 70n, 120n, 140n, 150n]);
      assert.equal(d.costs.buffer instanceof ArrayBuffer, true, 'a copy, not shared memory');
      const gd = await g.nodeData();
      assert.equal(gd.strategyOffsets.length, g.summary.nodes + 1);
      assert.equal(gd.costs.length, g.summary.strategies);
    });

    test('parseSolution reads the last [...] line, as the CLI does', async () => {
      const a = await solver.parseSolution('# iopddl: progress\n# 0.1 s cost 9\n[0, 0, 2, 1, 0]\n');
      assert.ok(a instanceof Int32Array);
      assert.deepEqual(Array.from(a), EXAMPLE_OPTIMUM);
      await assert.rejects(solver.parseSolution('nothing here', { source: 'mine.txt' }), (e) => {
        assert.equal(e.code, 'ERR_INVALID_ASSIGNMENT');
        assert.match(e.message, /^mine\.txt: no solution line/);
        return true;
      });
      await assert.rejects(solver.parseSolution('[0, x]'), (e) => e.code === 'ERR_INVALID_ASSIGNMENT');
      await assert.rejects(solver.parseSolution(42), TypeError);
    });

    test('a start is never worsened: first report and result', async () => {
      const first = await g.solve({ timeLimitMs: 5000, threads: 1, maxRounds: 1 });
      assert.equal(first.feasible, true);
      const reports = [];
      const r = await g.solve({
        timeLimitMs: 600, threads: 1, seed: 5, start: first.assignment,
        progressIntervalMs: 0, onProgress: (p) => { if (p.cost !== null) reports.push(p); },
      });
      assert.ok(reports.length > 0);
      assert.equal(reports[0].feasible, true);
      assert.ok(reports[0].cost <= first.cost, `first report ${reports[0].cost} > start ${first.cost}`);
      assert.ok(r.cost <= first.cost);
      // A typed array works as well as a plain one.
      const r2 = await g.solve({ timeLimitMs: 300, threads: 1, start: Int32Array.from(first.assignment) });
      assert.ok(r2.cost <= first.cost);
    });

    test('an infeasible start is repaired', async () => {
      const p = await solver.load(exampleObject());
      const r = await p.solve({ timeLimitMs: 300, start: [0, 0, 0, 0, 0] });
      assert.equal(r.cost, EXAMPLE_COST);
      p.dispose();
    });

    test('a start of the wrong length or range rejects', async () => {
      const p = await solver.load(exampleObject());
      await assert.rejects(p.solve({ timeLimitMs: 100, start: [0, 0] }), (e) => {
        assert.equal(e.code, 'ERR_INVALID_ASSIGNMENT');
        assert.match(e.message, /^start: solution has 2 entries, the problem has 5/);
        return true;
      });
      await assert.rejects(p.solve({ timeLimitMs: 100, start: [0, 0, 2, 9, 0] }), (e) => {
        assert.equal(e.code, 'ERR_INVALID_ASSIGNMENT');
        assert.match(e.message, /solution\[3\] = 9/);
        return true;
      });
      await assert.rejects(p.solve({ start: [0, -1, 0, 0, 0] }), (e) => {
        assert.equal(e.code, 'ERR_INVALID_ASSIGNMENT');
        assert.match(e.message, /solution\[1\] = -1/);
        return true;
      });
      await assert.rejects(p.solve({ start: [0, 0.5, 0, 0, 0] }), (e) => {
        assert.equal(e.code, 'ERR_INVALID_ASSIGNMENT');
        assert.match(e.message, /^start\[1\] = 0.5 is not an integer/);
        return true;
      });
      await assert.rejects(p.solve({ start: 'abc' }), TypeError);
      p.dispose();
    });

    test('params go through the core table', async () => {
      const p = await solver.load(exampleObject());
      await assert.rejects(p.solve({ params: { nope: 1 } }), (e) => {
        assert.equal(e.code, 'ERR_INVALID_PARAMS');
        assert.match(e.message, /unknown parameter 'nope'/);
        return true;
      });
      await assert.rejects(p.solve({ params: { rule_decay: 3 } }), (e) => {
        assert.equal(e.code, 'ERR_INVALID_PARAMS');
        assert.match(e.message, /rule_decay = 3 is out of its range \[0, 1\]/);
        return true;
      });
      await assert.rejects(p.solve({ params: { belief_every: '8' } }), TypeError);
      await assert.rejects(p.solve({ params: [1] }), TypeError);
      const r = await p.solve({ timeLimitMs: 300, params: { restarts: 0, schedule_feeder_floor: 0.5 } });
      assert.equal(r.cost, EXAMPLE_COST);
      p.dispose();
    });

    test('defaults set explicitly change nothing; another value changes the run', async () => {
      const base = { timeLimitMs: 30000, threads: 1, maxRounds: 3, seed: 3 };
      const plain = await g.solve(base);
      const same = await g.solve({ ...base, params: { schedule_feeder_floor: 0.1, window_min: 16, restarts: 1 } });
      assert.deepEqual(same.assignment, plain.assignment);
      const fewer = await g.solve({ ...base, params: { lns_round_moves: 1 } });
      assert.ok(fewer.stats.windows < plain.stats.windows);
    });
  });
}
