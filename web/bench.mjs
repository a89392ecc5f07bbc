#!/usr/bin/env node
// The page in Debian's Chromium on one instance: load the file through the
// file input, solve for a time limit, read the answer's cost from the page.
// With --no-isolation the page is served without COOP/COEP (and without its
// service worker), so it runs the single-threaded fallback; otherwise on threads.
//
//   node web/bench.mjs FILE SECONDS [--no-isolation] [--threads N] [--perf-prof]
//
// --perf-prof: V8 writes a jit-PID.dump per browser process into the working
// folder, so that `perf record -k mono -a -- node web/bench.mjs ...` then `perf
// inject --jit` names the page's JavaScript and WebAssembly functions (a module
// from `node wasm/build.mjs --profiling` copied into dist/ keeps their C++ names).
//
// Prints the cost, the engine line, the load, first-feasible and solve times, and (Linux) the
// browser's peak memory: the largest sum of its processes' proportional set
// sizes (PSS: shared pages counted once, split between their processes).
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startServer } from './server.mjs';
import { browserSkip, launchChromium } from '../tests/browser-env.mjs';

const args = process.argv.slice(2);
const isolation = !args.includes('--no-isolation');
const perfProf = args.includes('--perf-prof');
const threadsAt = args.indexOf('--threads');
const threads = threadsAt >= 0 ? args[threadsAt + 1] : null;
const pos = args.filter((a, i) => !a.startsWith('--') && !(threadsAt >= 0 && i === threadsAt + 1));
if (pos.length !== 2) {
  console.error('usage: node web/bench.mjs FILE SECONDS [--no-isolation] [--threads N] [--perf-prof]');
  process.exit(2);
}
if (browserSkip) {
  console.error(`web/bench.mjs: ${browserSkip}`);
  process.exit(2);
}
const [file, seconds] = [resolve(pos[0]), Number(pos[1])];

const server = await startServer({ port: 0, isolation });
const browser = await launchChromium({
  extraArgs: perfProf ? ['--js-flags=--perf-prof', '--no-zygote'] : [],
});
// The browser's processes (Chromium's, under this one) and their resident memory.
function treeRssBytes(rootPid) {
  const parent = new Map();
  const rss = new Map();
  const name = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(d), Number(fields[1]));
      name.set(Number(d), stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')));
      const rollup = readFileSync(`/proc/${d}/smaps_rollup`, 'utf8');
      const pss = /^Pss:\s+(\d+) kB/m.exec(rollup);
      rss.set(Number(d), pss ? Number(pss[1]) * 1024 : Number(fields[21]) * 4096);
    } catch { /* gone */ }
  }
  let total = 0;
  for (const [pid, bytes] of rss) {
    if (!/^chrom/.test(name.get(pid) || '')) continue;
    for (let p = pid; p; p = parent.get(p)) {
      if (p === rootPid) { total += bytes; break; }
    }
  }
  return total;
}
let peakBytes = 0;
// Once a second: reading smaps_rollup walks every page of a browser holding
// gigabytes, and more often it takes CPU from the page it measures.
const sampler = setInterval(() => { peakBytes = Math.max(peakBytes, treeRssBytes(process.pid)); }, 1000);
try {
  const page = await browser.newPage();
  page.setDefaultTimeout((seconds + 120) * 1000);
  await page.goto(server.url + (isolation ? '' : '?isolation=off'));
  await page.waitForFunction(() => window.iopddlPage && window.iopddlPage.ready);
  const t0 = Date.now();
  await page.setInputFiles('#file-input', file);
  await page.waitForSelector('#summary:not([hidden])');
  const loadS = (Date.now() - t0) / 1000;
  await page.fill('#time-limit', String(seconds));
  if (threads) await page.fill('#threads', threads);
  const t1 = Date.now();
  await page.click('#solve-button');
  // The first feasible answer, counted from the drop (as the CLI counts from its start).
  let firstFeasibleS = null;
  const feasible = page.waitForFunction(() => document.getElementById('m-cost-sub').textContent === 'feasible',
    null, { polling: 100 }).then(() => { firstFeasibleS = (Date.now() - t0) / 1000; }, () => {});
  await page.waitForSelector('#result-card:not([hidden])');
  const solveS = (Date.now() - t1) / 1000;
  const cost = (await page.locator('#r-total').innerText()).replace(/[^\d]/g, '');
  const engine = await page.locator('#engine-text').innerText();
  const bound = (await page.locator('#r-bound').innerText()).replace(/[^\d]/g, '');
  await Promise.race([feasible, new Promise((r) => setTimeout(r, 1000))]);
  console.log(`${engine}: cost ${cost}, bound ${bound || '-'}, loaded in ${loadS.toFixed(1)} s, ` +
    `first feasible ${firstFeasibleS === null ? '-' : `${firstFeasibleS.toFixed(1)} s`}, solved in ${solveS.toFixed(1)} s` +
    (sampler ? `, peak browser memory ${Math.round(peakBytes / 2 ** 20)} MB` : ''));
} finally {
  if (sampler) clearInterval(sampler);
  await browser.close();
  await server.close();
}
