// The sweep chart's step functions (web/chart.mjs), without a browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sweepSteps } from '../chart.mjs';

test('the sweep band starts at the first feasible point; the bound steps left of it', () => {
  // K's shape: the least peak proven infeasible, then the file's limit and the free plan.
  const pts = [
    { x: 429, cost: null, bound: null, feasible: false },
    { x: 472, cost: 2243, bound: 1777, feasible: true },
    { x: 6379, cost: 611, bound: 603, feasible: true },
  ];
  const { upper, lower, bandLower } = sweepSteps(pts, 8000);
  assert.deepEqual(upper, [[472, 2243], [6379, 2243], [6379, 611], [8000, 611]]);
  // The first feasible point's bound holds down to the infeasible point before it.
  assert.deepEqual(lower, [[429, 1777], [472, 1777], [472, 603], [6379, 603]]);
  // The band does not reach left of 472, where no cost is known.
  assert.deepEqual(bandLower, [[472, 1777], [472, 603], [6379, 603]]);
  assert.ok(bandLower.every(([x]) => x >= upper[0][0]));
});

test('with every point feasible the band follows the whole bound', () => {
  const pts = [
    { x: 10, cost: 50, bound: 40, feasible: true },
    { x: 20, cost: 30, bound: null, feasible: true },
    { x: 40, cost: 10, bound: 10, feasible: true },
  ];
  const { lower, bandLower } = sweepSteps(pts, 50);
  assert.deepEqual(lower, [[10, 40], [10, 40], [20, 10], [40, 10]]);
  assert.deepEqual(bandLower, lower);
});

test('nothing feasible: no steps, no band', () => {
  const { upper, lower, bandLower } = sweepSteps([{ x: 5, cost: null, bound: null, feasible: false }], 9);
  assert.deepEqual([upper, lower, bandLower], [[], [], []]);
});
