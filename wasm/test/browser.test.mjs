// The package in a real browser (Debian's Chromium, driven by playwright-core):
// threads on a cross-origin isolated page; the single-threaded fallback, said so
// in the result, on a page that is not. Skipped when Chromium or playwright-core
// is missing.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, normalize } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { browserSkip, launchChromium } from '../../tests/browser-env.mjs';
import { dist, examplePath, instanceGPath } from './helpers.mjs';


const types = {
  '.js': 'text/javascript', '.mjs': 'text/javascript', '.cjs': 'text/javascript', '.wasm': 'application/wasm',
  '.html': 'text/html', '.json': 'application/json', '.gz': 'application/gzip',
};

// The page: loads the package from /dist/, solves, reports through window.result.
const page = `<!doctype html><meta charset="utf-8"><title>iopddl-wasm test</title>
<script type="module">
import { createSolver } from '/dist/browser.mjs';
window.run = async (threads) => {
  const out = { ticks: 0 };
  const timer = setInterval(() => { out.ticks++; }, 20);
  try {
    const solver = await createSolver({ threads });
    out.backend = solver.backend;
    out.threadFallback = solver.threadFallback;
    const ex = await solver.load(await (await fetch('/data/example.json')).text());
    // The example is proven optimal at once; the limit only has to outlast a
    // slow start of the workers on a loaded machine (300 ms did not, once).
    const r = await ex.solve({ timeLimitMs: 5000 });
    out.example = { assignment: r.assignment, cost: String(r.cost), threads: r.threads, fallback: r.threadFallback };
    const gz = new Uint8Array(await (await fetch('/data/G.json.gz')).arrayBuffer());
    const g = await solver.load(gz);
    out.nodes = g.summary.nodes;
    const ac = new AbortController();
    let progress = 0;
    let abortedAt = 0;
    setTimeout(() => { abortedAt = performance.now(); ac.abort(); }, 1200);
    const t0 = performance.now();
    // The proof search off: it proves G optimal within a second, before the abort.
    const rg = await g.solve({ timeLimitMs: 60000, signal: ac.signal, sliceMs: 400, params: { proof_max_strategies: 0 },
      onProgress: () => { progress++; } });
    out.g = { feasible: rg.feasible, aborted: rg.aborted, cost: String(rg.cost), latency: performance.now() - abortedAt,
      progress, elapsed: performance.now() - t0, threads: rg.threads };
    try { await solver.load('{"problem":'); } catch (e) { out.error = e.message; out.code = e.code; }
    await solver.dispose();
  } catch (e) {
    out.failure = String(e && e.stack || e);
  }
  clearInterval(timer);
  return out;
};
window.ready = true;
</script>`;

describe('browser', { skip: browserSkip }, () => {
  let server;
  let browser;
  let base;
  before(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url, 'http://x');
      const isolated = url.pathname.startsWith('/isolated/') || req.headers.referer?.includes('/isolated/');
      const headers = isolated ? {
        'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp',
      } : {};
      let body;
      let type = 'text/html';
      if (url.pathname.endsWith('/page.html')) {
        body = page;
      } else if (url.pathname === '/data/example.json') {
        body = readFileSync(examplePath); type = types['.json'];
      } else if (url.pathname === '/data/G.json.gz') {
        body = readFileSync(instanceGPath); type = 'application/octet-stream';
      } else if (url.pathname.startsWith('/dist/')) {
        const file = normalize(join(dist, url.pathname.slice(6)));
        if (!file.startsWith(dist) || !existsSync(file)) { res.writeHead(404); res.end(); return; }
        body = readFileSync(file);
        type = types[file.slice(file.lastIndexOf('.'))] || 'application/octet-stream';
      } else {
        res.writeHead(404); res.end(); return;
      }
      res.writeHead(200, { 'Content-Type': type, ...headers });
      res.end(body);
    });
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${server.address().port}`;
    browser = await launchChromium();
  });
  after(async () => {
    if (browser) await browser.close();
    if (server) server.close();
  });

  async function run(path, threads) {
    const context = await browser.newContext();
    const p = await context.newPage();
    const console_ = [];
    p.on('console', (m) => console_.push(m.text()));
    p.on('pageerror', (e) => console_.push(String(e)));
    await p.goto(`${base}${path}`);
    await p.waitForFunction(() => window.ready === true);
    const out = await p.evaluate((t) => window.run(t), threads);
    await context.close();
    return { out, console: console_ };
  }

  test('threads on a cross-origin isolated page', async () => {
    const { out, console: log } = await run('/isolated/page.html', 3);
    assert.equal(out.failure, undefined, `${out.failure}\n${log.join('\n')}`);
    assert.equal(out.backend, 'threads');
    assert.equal(out.threadFallback, null);
    assert.deepEqual(out.example.assignment, [0, 0, 2, 1, 0]);
    assert.equal(out.example.cost, '445');
    assert.equal(out.example.threads, 3);
    assert.equal(out.nodes, 816);
    assert.equal(out.g.feasible, true);
    assert.equal(out.g.aborted, true);
    assert.equal(out.g.threads, 3);
    console.log(`# browser threads: abort latency ${out.g.latency.toFixed(0)} ms, ${out.g.progress} progress calls, ${out.ticks} timer ticks`);
    assert.ok(out.g.latency < 250, `abort took ${out.g.latency} ms`);
    assert.ok(out.g.progress >= 5);
    assert.ok(out.ticks >= 40, `the page's timers ran ${out.ticks} times`);
    assert.match(out.error, /input: JSON syntax error at byte 11/);
    assert.equal(out.code, 'ERR_INVALID_INPUT');
  });

  test('one thread, said so, on a page that is not isolated', async () => {
    const { out, console: log } = await run('/plain/page.html', 3);
    assert.equal(out.failure, undefined, `${out.failure}\n${log.join('\n')}`);
    assert.equal(out.backend, 'single');
    assert.match(out.threadFallback, /not cross-origin isolated/);
    assert.deepEqual(out.example.assignment, [0, 0, 2, 1, 0]);
    assert.equal(out.example.threads, 1);
    assert.match(out.example.fallback, /not cross-origin isolated/);
    assert.equal(out.g.feasible, true);
    assert.equal(out.g.aborted, true);
    console.log(`# browser fallback: abort latency ${out.g.latency.toFixed(0)} ms, ${out.g.progress} progress calls, ${out.ticks} timer ticks`);
    assert.ok(out.g.latency < 1000);
    assert.ok(out.ticks >= 40, `the page's timers ran ${out.ticks} times`);
    assert.equal(out.code, 'ERR_INVALID_INPUT');
  });
});
