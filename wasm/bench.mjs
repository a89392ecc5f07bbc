#!/usr/bin/env node
// WebAssembly against native on the shared benchmark instances: same machine,
// same timeouts, same threads. Prints per instance the cost and contest score of
// each, the score ratio (wasm / native) and the load-time ratio (wasm / native).
//
//   node wasm/bench.mjs [--benchmarks DIR] [--threads N] [--fraction F] [--only A G ...]
//                       [--native build/iopddl] [--seed N] [--backend single --slice MS]
//
// --backend single runs the package's single-threaded back end (what a page
// without cross-origin isolation gets), with a signal so that it solves in
// slices of MS milliseconds (default 500, the page's), against native with
// --threads 1.
//
// DIR holds best_known.tsv and the instances (default ../shared/benchmarks).
// Both sides get the contest timeout (times F) for the whole run, loading
// included: the solve gets what is left after the same margin the CLI keeps.
// Loading is timed from the file on disk to the problem in memory on both sides.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { instances, nativeCli, only, opt, root } from './bench-args.mjs';

const threads = Number(opt('--threads', '2'));
const fraction = Number(opt('--fraction', '1'));
const seed = opt('--seed', '1');
const native = nativeCli();
const backend = opt('--backend', 'threads');
const sliceMs = Number(opt('--slice', '500'));

const { createSolver } = await import(join(root, 'dist', 'node.mjs'));

const rows = instances(only(null), fraction);

const score = (best, cost, feasible) => (feasible && cost ? Number(best) / Number(cost) : 0);
const margin = (t) => Math.min(0.25 * t, 0.3 + 0.01 * t);  // as native/main.cc

function runNative(r) {
  const t0 = Date.now();
  const p = spawnSync(native, ['--threads', String(threads), '--seed', seed, r.file, String(r.timeout)],
    { encoding: 'utf8', maxBuffer: 1 << 28 });
  const wall = (Date.now() - t0) / 1000;
  const loaded = /loaded in ([\d.]+) s/.exec(p.stdout);
  const last = p.stdout.trim().split('\n').at(-1);
  return { wall, loadS: loaded ? Number(loaded[1]) : NaN, assignment: JSON.parse(last), status: p.status };
}

const out = [];
for (const r of rows) {
  process.stderr.write(`${r.instance}: native ${r.timeout} s ... `);
  const n = runNative(r);
  process.stderr.write(`wasm ... `);
  const solver = await createSolver(backend === 'single' ? { backend: 'single' } : { threads });
  const t0 = performance.now();
  const problem = await solver.load(readFileSync(r.file), { source: r.file });
  const loadS = (performance.now() - t0) / 1000;
  const memMiB = solver.memoryBytes() / 2 ** 20;
  const nEval = await problem.evaluate(n.assignment);
  const limitS = Math.max(0, r.timeout - margin(r.timeout) - loadS);
  const w = backend === 'single'
    ? await problem.solve({ timeLimitMs: limitS * 1000, seed: BigInt(seed), signal: new AbortController().signal, sliceMs })
    : await problem.solve({ timeLimitMs: limitS * 1000, threads, seed: BigInt(seed) });
  const wall = (performance.now() - t0) / 1000;
  await solver.dispose();
  const ns = score(r.best, nEval.totalCost, nEval.feasible);
  const ws = score(r.best, w.cost, w.feasible);
  out.push({
    instance: r.instance, timeout: r.timeout,
    nativeCost: nEval.feasible ? String(nEval.totalCost) : 'infeasible', nativeScore: ns.toFixed(4),
    wasmCost: w.feasible ? String(w.cost) : 'infeasible', wasmScore: ws.toFixed(4),
    scoreRatio: ns > 0 ? (ws / ns).toFixed(4) : '-',
    nativeLoadS: n.loadS.toFixed(3), wasmLoadS: loadS.toFixed(3), loadRatio: (loadS / n.loadS).toFixed(2),
    nativeWallS: n.wall.toFixed(1), wasmWallS: wall.toFixed(1), wasmMemMiB: memMiB.toFixed(0),
  });
  process.stderr.write('done\n');
}

const cols = Object.keys(out[0] || {});
console.log(`${backend === 'single' ? `single-threaded back end in ${sliceMs} ms slices vs native --threads ${threads}` : `threads ${threads}`}, ` +
  `timeouts x${fraction}, seed ${seed}, ${new Date().toISOString()}`);
console.log(`| ${cols.join(' | ')} |`);
console.log(`|${cols.map(() => '---').join('|')}|`);
for (const o of out) console.log(`| ${cols.map((c) => o[c]).join(' | ')} |`);
