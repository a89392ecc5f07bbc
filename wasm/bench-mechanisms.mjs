#!/usr/bin/env node
// Work per second, package against CLI, per search mechanism: the same
// instance, threads, seed and time on both sides. For each mechanism the rate
// is what it tried (windows, rounding passes, proof tree nodes, ...) per second
// spent in it, from the CLI's --stats table and the package's
// result.stats.mechanisms; the totals (message passes, windows, local moves,
// rounds) are per second of the solve. The ratio is package / CLI: 1 is native
// speed. Rates within a mechanism do not depend on how the scheduler shared the
// time out, so two runs whose shares differ still compare.
//
//   node wasm/bench-mechanisms.mjs [--benchmarks DIR] [--only A C M S] [--threads 1,2]
//                                  [--seconds 20] [--seed 1] [--native build/iopddl] [--dist dist]
//                                  [--rounds R] [--set NAME=VALUE ...] [--backend threads|single]
//                                  [--browser]
//
// --rounds R: one thread and a budget of R rounds on both sides, which then do
// exactly the same work (the package gives the CLI's answer): the ratio per
// mechanism is the CLI's seconds in it over the package's, and the line
// 'all' the solves' times. The counts are checked to be equal.
//
// --set NAME=VALUE (repeatable): a search parameter on both sides (the CLI's
// --set, the package's params), e.g. proof_max_strategies=0 to leave the proof
// search out of a same-work run where it would take nearly all the time.
//
// --backend: the package's back end (default: the package's choice, threads
// where it can): 'single' measures the build without shared memory.
//
// --browser: the package runs in a page of Debian's Chromium (headless,
// cross-origin isolated, served by web/server.mjs from dist/), whose V8 is
// newer than Node's; --dist is then dist/.
//
// DIR holds best_known.tsv and the instances (default ../shared/benchmarks).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { instances, nativeCli, only, opt, root, searchParams } from './bench-args.mjs';

const threadCounts = opt('--threads', '1,2').split(',').map(Number);
const seconds = Number(opt('--seconds', '20'));
const seed = opt('--seed', '1');
const native = nativeCli();
const dist = resolve(root, opt('--dist', 'dist'));
const rounds = Number(opt('--rounds', '0'));
const backend = opt('--backend', null);
const { sets, params } = searchParams();

const inBrowser = process.argv.includes('--browser');
const { createSolver } = inBrowser ? {} : await import(join(dist, 'node.mjs'));
const browserPage = inBrowser ? await openPage() : null;
const page = browserPage?.page;

const rows = instances(only(['A', 'C', 'M', 'S']));

// The CLI's --stats: "# done in X s: R rounds, P message passes, W windows, L local moves, ..."
// and one "# name tried improved seconds share fall/s what" line per mechanism.
function runNative(file, threads) {
  const budget = rounds > 0 ? ['--rounds', String(rounds)] : [];
  const p = spawnSync(native, ['--threads', String(threads), '--seed', seed, '--stats', ...budget,
    ...sets.flatMap((kv) => ['--set', kv]), file,
    String(rounds > 0 ? 100000 : seconds)],
    { encoding: 'utf8', maxBuffer: 1 << 28 });
  const text = p.stdout + p.stderr;
  const done = /# done in ([\d.]+) s: (\d+) rounds, (\d+) message passes, (\d+) windows, (\d+) local moves/.exec(text);
  if (!done) throw new Error(`no statistics from the CLI on ${file}:\n${text.slice(-2000)}`);
  const loaded = /loaded in ([\d.]+) s/.exec(text);
  const mechanisms = {};
  for (const m of text.matchAll(/^# (\w+)\s+(\d+)\s+(\d+)\s+([\d.]+)\s+[\d.]+%/gm))
    mechanisms[m[1]] = { tried: Number(m[2]), seconds: Number(m[4]) };
  return {
    // "done in" counts from the process's start: less the loading, the core's solve.
    solveS: Number(done[1]) - (loaded ? Number(loaded[1]) : 0), loadS: loaded ? Number(loaded[1]) : 0,
    totals: { rounds: +done[2], messagePasses: +done[3], windows: +done[4], localMoves: +done[5] },
    mechanisms,
  };
}

// The package's options, the same in Node and in the page (the seed as text:
// it crosses into the page as JSON, and each side makes it a BigInt).
const createOptions = (threads) => ({ threads, ...(backend ? { backend } : {}) });
const solveOptions = (threads, solveMs) => ({
  threads, seed, timeLimitMs: rounds > 0 ? 1e8 : solveMs,
  ...(rounds > 0 ? { maxRounds: rounds } : {}), ...(sets.length ? { params } : {}),
});

// The figures of a package solve's stats that the tables compare.
function packageStats(s) {
  return {
    solveS: s.solverMs / 1000,
    totals: { rounds: s.rounds, messagePasses: s.messagePasses, windows: s.windows, localMoves: s.localMoves },
    mechanisms: Object.fromEntries(Object.entries(s.mechanisms).map(([k, v]) => [k, { tried: v.tried, seconds: v.seconds }])),
  };
}

// A page of the package's server in Chromium, which serves the instance's
// bytes at /bench-problem.
async function openPage() {
  const { startServer } = await import('../web/server.mjs');
  const { browserSkip, launchChromium } = await import('../tests/browser-env.mjs');
  if (browserSkip) throw new Error(`--browser: ${browserSkip}`);
  const server = await startServer({ port: 0, isolation: true });
  const browser = await launchChromium();
  const pg = await browser.newPage();
  pg.setDefaultTimeout(0);
  await pg.goto(server.url);
  console.log(`package in Chromium ${browser.version()}`);
  return { page: pg, close: async () => { await browser.close(); await server.close(); } };
}

// The package's solve in the page: the same options and the same fields as runPackage.
async function runInBrowser(file, threads, solveMs) {
  await page.unroute('**/bench-problem');
  await page.route('**/bench-problem', (route) => route.fulfill({ body: readFileSync(file) }));
  return packageStats(JSON.parse(await page.evaluate(async ({ created, solved }) => {
    const { createSolver } = await import('/dist/browser.mjs');
    const solver = await createSolver(created);
    try {
      const p = await solver.load(await (await fetch('/bench-problem')).blob());
      const r = await p.solve({ ...solved, seed: BigInt(solved.seed) });
      p.dispose();
      return JSON.stringify(r.stats, (k, v) => (typeof v === 'bigint' ? Number(v) : v));
    } finally {
      await solver.dispose();
    }
  }, { created: createOptions(threads), solved: solveOptions(threads, solveMs) })));
}

async function runPackage(file, threads, solveMs) {
  if (page) return runInBrowser(file, threads, solveMs);
  const solver = await createSolver(createOptions(threads));
  try {
    const p = await solver.loadFile(file);
    const o = solveOptions(threads, solveMs);
    const r = await p.solve({ ...o, seed: BigInt(o.seed) });
    p.dispose();
    return packageStats(r.stats);
  } finally {
    await solver.dispose();
  }
}

const rate = (tried, s) => (s > 0.05 ? tried / s : NaN);
const fmt = (x) => (Number.isFinite(x) ? (x >= 100 ? x.toFixed(0) : x.toPrecision(3)) : '-');

const summary = [];
if (rounds > 0) {
  for (const r of rows) {
    const cli = runNative(r.file, 1);
    const pkg = await runPackage(r.file, 1, 0);
    console.log(`\n${r.instance}, 1 thread, ${rounds} rounds: CLI ${cli.solveS.toFixed(2)} s, package ${pkg.solveS.toFixed(2)} s`);
    console.log('mechanism'.padEnd(22) + 'tried'.padStart(10) + 'CLI s'.padStart(10) + 'package s'.padStart(11) + 'ratio'.padStart(8));
    for (const [name, c] of Object.entries(cli.mechanisms)) {
      const w = pkg.mechanisms[name];
      if (!w || name === 'groupMove' || name === 'restart' || c.seconds < 0.05) continue;
      const same = w.tried === c.tried ? '' : `  (package tried ${w.tried})`;
      const ratio = c.seconds / w.seconds;
      console.log(name.padEnd(22) + String(c.tried).padStart(10) + c.seconds.toFixed(2).padStart(10) +
        w.seconds.toFixed(2).padStart(11) + ratio.toFixed(2).padStart(8) + same);
      summary.push({ instance: r.instance, threads: 1, name, ratio });
    }
    console.log('all'.padEnd(32) + cli.solveS.toFixed(2).padStart(10) + pkg.solveS.toFixed(2).padStart(11) +
      (cli.solveS / pkg.solveS).toFixed(2).padStart(8));
  }
}
for (const r of rounds > 0 ? [] : rows) {
  for (const threads of threadCounts) {
    const cli = runNative(r.file, threads);
    const pkg = await runPackage(r.file, threads, Math.round(cli.solveS * 1000));
    console.log(`\n${r.instance}, ${threads} thread(s): CLI solve ${cli.solveS.toFixed(1)} s, package ${pkg.solveS.toFixed(1)} s`);
    console.log('what'.padEnd(22) + 'CLI /s'.padStart(12) + 'package /s'.padStart(12) + 'ratio'.padStart(8));
    const line = (name, a, b) => {
      const ratio = b / a;
      console.log(name.padEnd(22) + fmt(a).padStart(12) + fmt(b).padStart(12) + (Number.isFinite(ratio) ? ratio.toFixed(2) : '-').padStart(8));
      if (Number.isFinite(ratio)) summary.push({ instance: r.instance, threads, name, ratio });
    };
    for (const k of Object.keys(cli.totals)) line(k, cli.totals[k] / cli.solveS, pkg.totals[k] / pkg.solveS);
    for (const [name, c] of Object.entries(cli.mechanisms)) {
      const w = pkg.mechanisms[name];
      if (!w || name === 'groupMove' || name === 'restart') continue;  // not timed, or not work
      line(name, rate(c.tried, c.seconds), rate(w.tried, w.seconds));
    }
  }
}
const mechanismRatios = summary.filter((s) => !['rounds', 'messagePasses', 'windows', 'localMoves'].includes(s.name));
if (mechanismRatios.length) {
  const worst = mechanismRatios.reduce((a, b) => (b.ratio < a.ratio ? b : a));
  console.log(`\nlowest mechanism ratio: ${worst.ratio.toFixed(2)} (${worst.name} on ${worst.instance}, ${worst.threads} thread(s))`);
}
if (browserPage) await browserPage.close();
