// solve({ usageLimit }): a solve at another memory limit than the file's, on
// both back ends. The problem stays as loaded, so solves at different limits
// can run at once; a limit below the least peak has no feasible answer; bad
// values are refused by name. With one thread, a seed and a round budget the
// answer is the CLI's at `--limit`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { EXAMPLE_COST, exampleObject, hasNative, instanceGPath, nativeCli, pkg } from './helpers.mjs';

const { createSolver } = pkg;

for (const backend of ['threads', 'single']) {
  describe(`usageLimit (${backend} back end)`, () => {
    let solver;
    before(async () => { solver = await createSolver({ backend, threads: 2 }); });
    after(async () => { await solver?.dispose(); });

    test('the example at, below and without its limit', async () => {
      const p = await solver.load(exampleObject());
      try {
        // Every node at its least usage peaks at 50 (nodes 0, 1, 2 from 50 to 70): the file's limit.
        assert.equal(p.summary.leastPeakUsage, 50n);
        const at = await p.solve({ usageLimit: 50n, maxRounds: 5, threads: 1 });
        assert.equal(at.feasible, true);
        assert.equal(at.cost, EXAMPLE_COST);
        assert.equal(at.usageLimit, 50n);

        const below = await p.solve({ usageLimit: 49, maxRounds: 5, threads: 1 });
        assert.equal(below.feasible, false);
        assert.equal(below.usageLimit, 49n);
        assert.equal(below.evaluation.usageLimit, 49n);
        assert.equal(below.evaluation.withinLimit, false);
        assert.equal(below.evaluation.peakUsage, 50n, 'the least-usage answer');

        const none = await p.solve({ usageLimit: null, maxRounds: 5, threads: 1 });
        assert.equal(none.feasible, true);
        assert.equal(none.usageLimit, null);
        assert.ok(none.cost <= EXAMPLE_COST, `${none.cost}`);
        assert.ok(none.evaluation.peakUsage > 50n, 'without a limit the cheapest answer uses more');
        assert.ok(none.lowerBound === null || none.lowerBound <= none.cost);

        // The loaded problem is unchanged: the file's limit is back without the option.
        assert.equal(p.summary.usageLimit, 50n);
        const again = await p.solve({ maxRounds: 5, threads: 1 });
        assert.equal(again.usageLimit, 50n);
        assert.equal(again.cost, EXAMPLE_COST);
      } finally {
        p.dispose();
      }
    });

    test('evaluate() and resultOf() judge at a limit given', async () => {
      const p = await solver.load(exampleObject());
      try {
        const optimum = [0, 0, 2, 1, 0];
        const tight = await p.evaluate(optimum, { usageLimit: 49n });
        assert.equal(tight.usageLimit, 49n);
        assert.equal(tight.withinLimit, false);
        assert.equal(tight.feasible, false);
        assert.equal(tight.totalCost, EXAMPLE_COST);
        const none = await p.evaluate(optimum, { usageLimit: null });
        assert.equal(none.usageLimit, null);
        assert.equal(none.feasible, true);
        assert.equal((await p.evaluate(optimum)).usageLimit, 50n, 'the file\'s without the option');
        const r = await p.resultOf(optimum, { usageLimit: 49 });
        assert.equal(r.usageLimit, 49n);
        assert.equal(r.feasible, false);
        assert.equal(r.evaluation.withinLimit, false);
        assert.equal((await p.resultOf(optimum)).feasible, true);
        await assert.rejects(p.evaluate(optimum, { usageLimit: -2n }), /usageLimit/);
        await assert.rejects(p.resultOf(optimum, { limit: 3 }), /unknown resultOf\(\) option 'limit'/);
      } finally {
        p.dispose();
      }
    });

    test('bad values are refused by name', async () => {
      const p = await solver.load(exampleObject());
      try {
        for (const [v, kind] of [[-1n, RangeError], [-1, RangeError], [1.5, RangeError], [2n ** 63n, RangeError],
          [Number.MAX_SAFE_INTEGER + 2, RangeError], ['100', TypeError], [{}, TypeError], [true, TypeError]]) {
          await assert.rejects(p.solve({ usageLimit: v }), (e) => e instanceof kind && /usageLimit/.test(e.message),
            `usageLimit ${String(v)}`);
        }
      } finally {
        p.dispose();
      }
    });

    test('G at three limits at once, each judged by its own', async () => {
      const p = await solver.load(readFileSync(instanceGPath));
      try {
        const least = p.summary.leastPeakUsage;
        const file = p.summary.usageLimit;
        assert.ok(least < file);
        const limits = [least, (least + file) / 2n, file * 2n];
        const results = await Promise.all(limits.map((usageLimit) =>
          p.solve({ usageLimit, timeLimitMs: 3000, threads: 1, seed: 2 })));
        results.forEach((r, k) => {
          assert.equal(r.usageLimit, limits[k]);
          assert.equal(r.feasible, true, `at ${limits[k]}`);
          assert.ok(r.evaluation.peakUsage <= limits[k]);
          if (r.lowerBound !== null) assert.ok(r.lowerBound <= r.cost);
        });
      } finally {
        p.dispose();
      }
    });
  });
}

describe('usageLimit gives the CLI\'s answer at --limit', { skip: !hasNative && 'build/iopddl is not built' }, () => {
  test('G at the middle of its range, one thread, seed 1, 20 rounds', async () => {
    const solver = await createSolver({ threads: 1 });
    try {
      const p = await solver.load(readFileSync(instanceGPath));
      const limit = (p.summary.leastPeakUsage + p.summary.usageLimit) / 2n;
      const r = await p.solve({ usageLimit: limit, threads: 1, seed: 1, maxRounds: 20, timeLimitMs: 600_000 });
      p.dispose();
      const cli = spawnSync(nativeCli, [instanceGPath, '600', '--threads', '1', '--seed', '1', '--rounds', '20',
        '--limit', String(limit)], { encoding: 'utf8', maxBuffer: 1 << 26 });
      assert.equal(cli.status, 0, cli.stderr);
      const lines = cli.stdout.trim().split('\n');
      assert.deepEqual(r.assignment, JSON.parse(lines[lines.length - 1]));
    } finally {
      await solver.dispose();
    }
  });
});
