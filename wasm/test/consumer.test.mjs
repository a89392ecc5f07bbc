// The package as a user gets it: `npm pack`, install the tarball into an empty
// folder, use it by name from ES modules and CommonJS, in processes that must
// exit on their own. Needs no network (a local tarball without dependencies).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { examplePath, root } from './helpers.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const quiet = ['--no-audit', '--no-fund', '--loglevel=error'];

function runNode(dir, file, timeoutMs = 60_000) {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [file], { cwd: dir, encoding: 'utf8', timeout: timeoutMs });
  return { ...r, ms: Date.now() - t0 };
}

describe('consumer install', () => {
  let dir;
  let tarball;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'iopddl-consumer-'));
    const packOut = execFileSync(npm, ['pack', '--pack-destination', dir, ...quiet], {
      cwd: root, encoding: 'utf8',
    });
    tarball = join(dir, packOut.trim().split('\n').at(-1));
    const app = join(dir, 'app');
    execFileSync('mkdir', ['-p', app]);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true, type: 'module' }));
    execFileSync(npm, ['install', tarball, '--offline', ...quiet], { cwd: app, encoding: 'utf8' });
    writeFileSync(join(app, 'example.json'), readFileSync(examplePath));
  });
  after(() => { rmSync(dir, { recursive: true, force: true }); });

  test('the tarball holds the built files and no sources', () => {
    const listing = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).split('\n');
    for (const f of ['package.json', 'dist/node.mjs', 'dist/browser.mjs', 'dist/core.mjs', 'dist/index.cjs',
      'dist/index.d.ts', 'dist/index.d.cts', 'dist/iopddl.js', 'dist/iopddl.wasm', 'dist/iopddl.worker.js',
      'dist/iopddl-single.js', 'dist/iopddl-single.wasm', 'dist/single-worker.mjs', 'dist/single-worker-node.cjs',
      'dist/shared.mjs', 'dist/constants.mjs', 'dist/constants.cjs', 'dist/package.json']) {
      assert.ok(listing.includes(`package/${f}`), `missing ${f}`);
    }
    assert.ok(!listing.some((f) => /\.(cc|h|cmake)$|CMakeLists|\/src\/|\/test\//.test(f)), listing.join('\n'));
    const installed = readdirSync(join(dir, 'app', 'node_modules', 'iopddl-wasm', 'dist'));
    assert.ok(installed.includes('iopddl.wasm'));
  });

  test('ES module by name; the process exits after dispose()', () => {
    const app = join(dir, 'app');
    writeFileSync(join(app, 'esm.mjs'), `
      import { createSolver, IopddlError } from 'iopddl-wasm';
      import { readFileSync } from 'node:fs';
      const solver = await createSolver({ threads: 2 });
      const problem = await solver.load(readFileSync('example.json'));
      const r = await problem.solve({ timeLimitMs: 200 });
      try { await solver.load('{'); } catch (e) { console.log('error', e instanceof IopddlError, e.code); }
      console.log('result', JSON.stringify(r.assignment), typeof r.cost, String(r.cost), r.feasible);
      await solver.dispose();
    `);
    const r = runNode(app, 'esm.mjs');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /error true ERR_INVALID_INPUT/);
    assert.match(r.stdout, /result \[0,0,2,1,0\] bigint 445 true/);
    assert.equal(r.stderr, '');
  });

  test('CommonJS by name', () => {
    const app = join(dir, 'app');
    writeFileSync(join(app, 'cjs.cjs'), `
      const { createSolver, VERSION } = require('iopddl-wasm');
      (async () => {
        const solver = await createSolver({ threads: 1 });
        const problem = await solver.load(require('fs').readFileSync('example.json', 'utf8'));
        const r = await problem.solve({ timeLimitMs: 200 });
        const e = await problem.evaluate(r.assignment);
        console.log('cjs', VERSION, JSON.stringify(r.assignment), String(e.totalCost), String(e.peakUsage));
        await solver.dispose();
      })();
    `);
    const r = runNode(app, 'cjs.cjs');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /cjs \d+\.\d+\.\d+ \[0,0,2,1,0\] 445 50/);
    assert.equal(r.stderr, '');
  });

  test('a process that forgets dispose() still exits', () => {
    const app = join(dir, 'app');
    writeFileSync(join(app, 'forget.mjs'), `
      import { createSolver } from 'iopddl-wasm';
      const solver = await createSolver({ threads: 2 });
      const p = await solver.load({ problem: { nodes: { intervals: [[0, 1]], costs: [[3]], usages: [[1]] },
        edges: { nodes: [], costs: [] } } });
      console.log('cost', String((await p.solve({ timeLimitMs: 100 })).cost));
    `);
    const r = runNode(app, 'forget.mjs', 20_000);
    assert.equal(r.error, undefined, 'the process did not exit');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /cost 3/);
  });

  test('an uncaught error prints the error, not the generated glue code', () => {
    const app = join(dir, 'app');
    writeFileSync(join(app, 'crash.mjs'), `
      import { createSolver } from 'iopddl-wasm';
      const solver = await createSolver({ threads: 1 });
      await solver.load('{"problem": 1}', { source: 'broken.json' });
    `);
    const r = runNode(app, 'crash.mjs', 20_000);
    assert.equal(r.error, undefined, 'the process did not exit');
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /broken\.json: /);
    assert.ok(r.stderr.length < 4000, `stderr is ${r.stderr.length} bytes`);
    assert.doesNotMatch(r.stderr, /GROWABLE_HEAP|wasmMemory|function\(\)\{/);
  });

  test('the type declarations compile', { skip: !existsSync(join(root, 'node_modules', 'typescript')) && 'typescript is not installed (npm install)' }, () => {
    const app = join(dir, 'app');
    writeFileSync(join(app, 'use.mts'), `
      import { createSolver, IopddlError, type SolveResult, type Progress } from 'iopddl-wasm';
      const solver = await createSolver({ threads: 2, backend: 'auto' });
      const problem = await solver.load({ problem: { nodes: { intervals: [[0, 1]], costs: [[1]], usages: [[1]] },
        edges: { nodes: [], costs: [] }, usage_limit: 10n } });
      const limit: bigint | null = problem.summary.usageLimit;
      const ac = new AbortController();
      const r: SolveResult = await problem.solve({
        timeLimitMs: 100, seed: 1n, signal: ac.signal, onProgress: (p: Progress) => { const c: bigint | null = p.cost; },
      });
      const cost: bigint | null = r.cost;
      const a: number[] = r.assignment;
      const e = await problem.evaluate(a);
      const u: bigint[] | undefined = e.profile?.usage;
      const sw = await problem.sweep({ limits: [10n, 20], maxRounds: 3, onPoint: (pt) => { const l: bigint = pt.limit; } });
      const pts: { limit: bigint; cost: bigint; lowerBound: bigint | null; assignment: number[] }[] = sw.points;
      const least: bigint = sw.leastPeak;
      const err = new Error() as IopddlError;
      const code: string = err.code;
      await solver.dispose();
    `);
    writeFileSync(join(app, 'use.cts'), `
      import iopddl = require('iopddl-wasm');
      async function main(): Promise<void> {
        const solver: iopddl.Solver = await iopddl.createSolver({ threads: 1 });
        const r: iopddl.SolveResult = await (await solver.load('{}')).solve();
        const c: bigint | null = r.cost;
        const s: iopddl.SweepResult = await (await solver.load('{}')).sweep({ points: 3 });
      }
    `);
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const r = spawnSync(process.execPath, [tsc, '--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext',
      '--moduleResolution', 'nodenext', '--lib', 'es2022,dom', '--types', '', 'use.mts', 'use.cts'],
    { cwd: app, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });
});
