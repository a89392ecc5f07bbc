#!/usr/bin/env node
// Where the module's time goes: one solve of the package under V8's sampling
// profiler (node --cpu-prof, which records every thread, the pool's workers
// included), then each busy thread's functions by self time. With a module
// built by `node wasm/build.mjs --profiling` the WebAssembly functions keep
// their C++ names; compare with `perf record` on the CLI doing the same work
// (`--threads 1 --seed 1 --rounds R` gives both sides the same work).
//
// --perf: Linux perf instead of V8's profiler (`perf record -k mono` over `node
// --perf-prof`, then `perf inject --jit`): each function's self time with the
// tier its code was in, Liftoff (V8's baseline compiler) or TurboFan. V8
// switches a function to TurboFan only at a later call, so a loop that runs
// long in one call stays in Liftoff; this is how such loops are found (see
// src/out_of_line.h). The injected data stays in DIR with --keep, for `perf
// annotate -i DIR/perf.jit.data`.
//
//   node wasm/profile.mjs FILE [--dist build-wasm-profiling/dist] [--threads 1]
//                         [--seed 1] [--rounds 30 | --seconds S] [--top 25] [--keep DIR] [--perf]
//                         [--set NAME=VALUE ...]
//
// --set NAME=VALUE (repeatable): a search parameter (the package's params, the
// CLI's --set), e.g. proof_max_strategies=0 to profile a same-work run
// without the proof search.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { opt, root, searchParams } from './bench-args.mjs';

const file = process.argv[2];
if (!file || file.startsWith('--')) {
  console.error('usage: node wasm/profile.mjs FILE [--dist DIR] [--threads N] [--seed S] [--rounds R | --seconds S] [--top N] [--keep DIR] [--perf] [--set NAME=VALUE ...]');
  process.exit(2);
}
const dist = resolve(root, opt('--dist', 'build-wasm-profiling/dist'));
const threads = Number(opt('--threads', '1'));
const seed = opt('--seed', '1');
const seconds = Number(opt('--seconds', '0'));
const rounds = Number(opt('--rounds', seconds > 0 ? '0' : '30'));
const top = Number(opt('--top', '25'));
const { params } = searchParams();

if (process.env.IOPDDL_PROFILE_CHILD) {
  // The profiled run: load, then one solve; the load is on the main thread,
  // the search on the pool's.
  const { createSolver } = await import(join(dist, 'node.mjs'));
  const solver = await createSolver({ threads });
  const problem = await solver.loadFile(file);
  const t0 = performance.now();
  const r = await problem.solve({ threads, seed: BigInt(seed), maxRounds: rounds,
    timeLimitMs: seconds > 0 ? seconds * 1000 : 3600 * 1000, ...(Object.keys(params).length ? { params } : {}) });
  console.log(`solve: ${((performance.now() - t0) / 1000).toFixed(3)} s, cost ${r.cost}, ${r.stats.rounds} rounds`);
  await solver.dispose();
  process.exit(0);
}

const dir = opt('--keep', null) ? resolve(opt('--keep')) : mkdtempSync(join(tmpdir(), 'iopddl-profile-'));
if (process.argv.includes('--perf')) {
  perfProfile();
  process.exit(0);
}
const child = spawnSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`,
  fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
  stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, IOPDDL_PROFILE_CHILD: '1' },
});
if (child.status !== 0) process.exit(child.status ?? 1);

// Self time per function name from a .cpuprofile: each sample's node, with
// the time to the next sample.
function selfTimes(path) {
  const p = JSON.parse(readFileSync(path, 'utf8'));
  const name = new Map(p.nodes.map((n) => [n.id, n.callFrame.functionName || `(${n.callFrame.url.split('/').pop() || 'anonymous'})`]));
  const ms = new Map();
  p.samples.forEach((id, k) => {
    const f = name.get(id);
    ms.set(f, (ms.get(f) ?? 0) + p.timeDeltas[k] / 1000);
  });
  return ms;
}

// Not work: a thread waiting (idle, or blocked in a futex wait for the
// search threads) and V8's own bookkeeping.
const waiting = new Set(['(idle)', '(program)', '__timedwait_cp', '__timedwait', 'emscripten_futex_wait']);
const profiles = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).map((f) => {
  const ms = selfTimes(join(dir, f));
  const busy = [...ms].filter(([f]) => !waiting.has(f)).reduce((s, [, v]) => s + v, 0);
  return { f, ms, busy };
}).sort((a, b) => b.busy - a.busy);
const busiest = profiles.length ? profiles[0].busy : 0;
for (const { f, ms, busy } of profiles) {
  if (busy < 0.1 * busiest) continue;  // the pool's idle workers
  console.log(`\n${f}: ${(busy / 1000).toFixed(2)} s busy`);
  for (const [fn, v] of [...ms].filter(([fn]) => !waiting.has(fn)).sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`  ${(100 * v / busy).toFixed(1).padStart(5)} %  ${v.toFixed(0).padStart(8)} ms  ${fn.length > 110 ? `${fn.slice(0, 107)}...` : fn}`);
}
if (!opt('--keep', null)) rmSync(dir, { recursive: true, force: true });

// Under Linux perf: samples of every thread, the JIT's code named from the
// jit-PID.dump V8 writes into the working folder (here DIR).
function perfProfile() {
  const data = join(dir, 'perf.data');
  const rec = spawnSync('perf', ['record', '-k', 'mono', '-o', data, '--', process.execPath, '--perf-prof',
    fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    cwd: dir, stdio: ['ignore', 'inherit', 'pipe'], env: { ...process.env, IOPDDL_PROFILE_CHILD: '1' },
  });
  if (rec.error || rec.status !== 0) {
    console.error(`perf record failed (is perf installed, and perf_event_paranoid low enough?): ${rec.error ? rec.error.message : rec.stderr}`);
    process.exit(1);
  }
  const jit = join(dir, 'perf.jit.data');
  const inj = spawnSync('perf', ['inject', '--jit', '-i', data, '-o', jit], { cwd: dir, encoding: 'utf8' });
  if (inj.status !== 0) {
    console.error(`perf inject --jit failed: ${inj.stderr}`);
    process.exit(1);
  }
  const rep = spawnSync('perf', ['report', '-i', jit, '--no-children', '--sort', 'sym', '--stdio'],
    { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 });
  // "  12.34%  [.] JS:iopddl::MessagePassing::pass(bool, ...)-308-turbofan"
  const rows = [];
  let liftoff = 0;
  for (const line of rep.stdout.split('\n')) {
    const m = /^\s+([\d.]+)%\s+\[.\]\s+(.*)$/.exec(line);
    if (!m) continue;
    const pct = Number(m[1]);
    const tier = /-(liftoff|turbofan)$/.exec(m[2]);
    let name = m[2].replace(/^JS:/, '').replace(/-\d+-(liftoff|turbofan)$/, '');
    name = name.replace(/\(.*\)( const)?$/, '');
    if (tier && tier[1] === 'liftoff') liftoff += pct;
    rows.push({ pct, name, tier: tier ? tier[1] : '' });
  }
  console.log(`\nall threads, by self time (perf); Liftoff code in all: ${liftoff.toFixed(1)} %`);
  for (const r of rows.slice(0, top)) {
    console.log(`  ${r.pct.toFixed(2).padStart(6)} %  ${r.tier.padEnd(8)}  ${r.name.length > 100 ? `${r.name.slice(0, 97)}...` : r.name}`);
  }
  if (!opt('--keep', null)) rmSync(dir, { recursive: true, force: true });
}
