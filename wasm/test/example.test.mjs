// The contest example (optimum [0, 0, 2, 1, 0], cost 445) through every input
// form, the problem summary, evaluate(), and thread counts 1 and several.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import {
  EXAMPLE_COST, EXAMPLE_OPTIMUM, examplePath, exampleObject, exampleText, instanceGPath, pkg,
} from './helpers.mjs';

const { createSolver } = pkg;

describe('contest example', () => {
  let solver;
  before(async () => { solver = await createSolver({ threads: 3 }); });
  after(async () => { await solver.dispose(); });

  test('solver facts', () => {
    assert.equal(solver.backend, 'threads');
    assert.equal(solver.threads, 3);
    assert.equal(solver.threadFallback, null);
    assert.equal(solver.version, pkg.VERSION);
    assert.ok(solver.memoryBytes() >= 64 * 2 ** 20);
  });

  test('summary right after loading', async () => {
    const p = await solver.load(exampleObject());
    const s = p.summary;
    assert.equal(s.name, 'example');
    assert.equal(s.nodes, 5);
    assert.equal(s.edges, 5);
    assert.equal(s.strategies, 9);
    assert.equal(s.maxStrategies, 3);
    assert.equal(s.edgeCostEntries, 14);
    assert.equal(s.usageLimit, 50n);
    assert.deepEqual(s.timeSpan, { start: 30n, end: 150n });
    assert.equal(s.segments, 7);
    assert.equal(s.gzip, false);
    assert.ok(s.loadMs >= 0 && s.parseMs >= 0);
    p.dispose();
    assert.equal(p.disposed, true);
  });

  for (const [kind, input] of [
    ['object', () => exampleObject()],
    ['JSON string', () => exampleText()],
    ['bytes (Buffer)', () => readFileSync(examplePath)],
    ['ArrayBuffer', () => { const b = readFileSync(examplePath); return b.buffer.slice(b.byteOffset, b.byteOffset + b.length); }],
    ['gzip bytes', () => gzipSync(readFileSync(examplePath))],
  ]) {
    test(`solves to 445 from ${kind}`, async () => {
      const p = await solver.load(input());
      const r = await p.solve({ timeLimitMs: 300, seed: 7 });
      assert.deepEqual(r.assignment, EXAMPLE_OPTIMUM);
      assert.equal(r.cost, EXAMPLE_COST);
      assert.equal(typeof r.cost, 'bigint');
      assert.equal(r.feasible, true);
      assert.equal(r.hasSolution, true);
      assert.equal(r.evaluation.nodeCost + r.evaluation.edgeCost, 445n);
      assert.equal(r.lowerBound, 445n, 'the bound proves optimality here');
      assert.equal(r.gap, 0);
      assert.equal(r.provenOptimal, true);
      assert.equal(r.aborted, false);
      assert.equal(r.backend, 'threads');
      assert.equal(p.summary.gzip, kind === 'gzip bytes');
      p.dispose();
    });
  }

  test('the caller keeps its bytes', async () => {
    const b = readFileSync(examplePath);
    const copy = Buffer.from(b);
    (await solver.load(b)).dispose();
    assert.equal(b.length, copy.length);
    assert.ok(b.equals(copy));
  });

  test('evaluate: cost split, peak and usage profile', async () => {
    const p = await solver.load(exampleObject());
    const e = await p.evaluate(EXAMPLE_OPTIMUM);
    assert.equal(e.nodeCost, 275n);
    assert.equal(e.edgeCost, 170n);
    assert.equal(e.totalCost, 445n);
    assert.equal(e.forbiddenEntries, 0);
    assert.equal(e.peakUsage, 50n);
    assert.equal(e.peakTime, 50n);
    assert.equal(e.usageLimit, 50n);
    assert.equal(e.withinLimit, true);
    assert.equal(e.feasible, true);
    assert.deepEqual(e.profile.time, [30n, 40n, 50n, 70n, 110n, 120n, 140n, 150n]);
    assert.deepEqual(e.profile.usage, [10n, 35n, 50n, 15n, 40n, 25n, 15n]);
    assert.equal(e.profile.usage[e.peakSegment], e.peakUsage);
    // Over the limit: [0, 1, 1, 0, 0] uses 10 + 25 + 20 = 55 > 50 at time 50.
    const over = await p.evaluate([0, 1, 1, 0, 0]);
    assert.equal(over.withinLimit, false);
    assert.equal(over.feasible, false);
    assert.equal(over.peakUsage, 55n);
    // Typed arrays and BigInt entries are accepted too.
    assert.equal((await p.evaluate(Int32Array.from(EXAMPLE_OPTIMUM))).totalCost, 445n);
    assert.equal((await p.evaluate([0n, 0n, 2n, 1n, 0n])).totalCost, 445n);
    p.dispose();
  });

  test('deterministic with one thread, a seed and a round budget', async () => {
    const p = await solver.load(readFileSync(instanceGPath));
    const a = await p.solve({ threads: 1, seed: 3, maxRounds: 20, timeLimitMs: 60_000 });
    const b = await p.solve({ threads: 1, seed: 3n, maxRounds: 20, timeLimitMs: 60_000 });
    assert.equal(a.cost, b.cost);
    assert.deepEqual(a.assignment, b.assignment);
    assert.equal(a.threads, 1);
    p.dispose();
  });

  // Every restart is listed: with a stall of 0.2 s enough (and no proof
  // search to end the solve), G restarts several times in 1.5 s.
  test('restarts in the statistics', async () => {
    const p = await solver.load(readFileSync(instanceGPath));
    const seen = [];
    const r = await p.solve({
      threads: 1, seed: 1, timeLimitMs: 1500,
      params: { proof_max_strategies: 0, restart_stall_factor: 0, restart_min_stall: 0.2 },
      onProgress: (x) => seen.push(x),
    });
    const e = r.stats.epochs;
    // Progress carries the epoch and when it began; a report may be skipped
    // between two reads of the module, but never goes back, and the last one
    // has the final epoch.
    assert.ok(seen.length > 0);
    let last = 0;
    for (const x of seen) {
      assert.equal(typeof x.epoch, 'number');
      assert.ok(x.epoch >= last, `epoch ${x.epoch} after ${last}`);
      last = x.epoch;
      if (x.epoch === 0) assert.equal(x.epochStartMs, 0);
      else assert.ok(Math.abs(x.epochStartMs - e[x.epoch - 1].ms) < 0.01, `${x.epochStartMs} vs ${e[x.epoch - 1].ms}`);
      if (x.event === 'restart') assert.ok(x.epoch >= 1);
    }
    assert.equal(last, e.length);
    assert.ok(e.length >= 1, `${e.length} restarts`);
    e.forEach((x, k) => {
      assert.equal(x.epoch, k + 1);
      assert.equal(x.opening, false);
      assert.equal(typeof x.endedBestCost, 'bigint');
      assert.ok(x.endedBestCost >= r.cost, 'no epoch beats the answer');
      assert.ok(x.endedFromMs <= x.endedLastFallMs && x.endedLastFallMs + 199 <= x.ms, JSON.stringify(x, (_, v) => String(v)));
      if (k > 0) assert.equal(x.endedFromMs, e[k - 1].ms);
    });
    p.dispose();
  });

  test('statistics and history', async () => {
    const p = await solver.load(exampleObject());
    const r = await p.solve({ timeLimitMs: 200 });
    const s = r.stats;
    assert.equal(r.threads, 3);
    assert.equal(r.threadsRequested, 3);
    for (const k of ['rounds', 'messagePasses', 'windows', 'localMoves', 'repairs', 'improvements',
      'strategiesTotal', 'strategiesRemoved', 'nodesFixed', 'reduceMs', 'solverMs']) {
      assert.equal(typeof s[k], 'number', k);
    }
    assert.equal(s.strategiesTotal, 9);
    for (const k of ['tiedGroups', 'tiedNodes', 'contractedNodes']) assert.equal(typeof s[k], 'number', k);
    // The statistics are exactly the fields index.d.ts declares for SolveStats
    // (the core lists them once, in src/stats.h).
    const dts = readFileSync(new URL('../js/index.d.ts', import.meta.url), 'utf8');
    const body = dts.match(/export interface SolveStats \{([^}]*)\}/)[1].replace(/\/\*\*[\s\S]*?\*\//g, '');
    const fields = [...body.matchAll(/^\s*([a-zA-Z]+)\??:/gm)].map((m) => m[1]).sort();
    assert.deepEqual(Object.keys(s).sort(), fields);
    // The mechanisms the core counts are exactly the names index.d.ts declares.
    const union = dts.match(/export type MechanismName =([^;]*);/)[1];
    const declared = [...union.matchAll(/'([a-zA-Z]+)'/g)].map((m) => m[1]).sort();
    assert.deepEqual(Object.keys(s.mechanisms).sort(), declared);
    for (const c of Object.values(s.mechanisms)) {
      assert.equal(typeof c.tried, 'number');
      assert.ok(c.improved <= c.tried);
      assert.ok(typeof c.seconds === 'number' && c.seconds >= 0 && c.seconds < 10);
      // Where the search's time went and what it earned (src/mechanisms.h).
      assert.ok(c.share >= 0 && c.share <= 1, `share ${c.share}`);
      assert.ok(c.fall >= 0 && c.fallPerSecond >= 0);
    }
    const shares = Object.values(s.mechanisms).reduce((a, c) => a + c.share, 0);
    assert.ok(shares === 0 || Math.abs(shares - 1) < 1e-9, `shares add up to ${shares}`);
    assert.ok(s.history.length >= 1);
    assert.equal(s.history.at(-1).cost, 445n);
    assert.deepEqual(s.epochs, []);  // proven optimal at once: no restart
    assert.ok(r.elapsedMs > 0 && r.elapsedMs < 5000, `elapsed ${r.elapsedMs}`);
    p.dispose();
  });
});
