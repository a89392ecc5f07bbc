// The web page in a real browser: Debian's Chromium driven by playwright-core,
// against the page served by the project's own server (web/server.mjs) on a
// free port. Screenshots go to tests/artifacts/web-*.png. Skipped when
// Chromium or playwright-core is missing.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { missingDistFiles, startServer } from '../server.mjs';
import { browserSkip, launchChromium } from '../../tests/browser-env.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const examplePath = join(root, 'tests', 'data', 'example.json');
const instanceGPath = join(root, 'tests', 'data', 'asplos-2025-iopddl-G.json.gz');
const artifacts = join(root, 'tests', 'artifacts');
const nativeCli = join(root, 'build', 'iopddl');
const generator = join(root, 'build', 'iopddl-generate');
const haveGenerator = existsSync(nativeCli) && existsSync(generator);

const missing = missingDistFiles();
if (missing.length) throw new Error(`the package is not built (dist/ lacks ${missing.join(', ')}): run \`npm run build\``);

const WAIT = 20_000;  // the longest any single wait may take

/** A problem with `n` nodes in a chain, 2 or 3 strategies each, built here. */
function chainProblem(n) {
  const intervals = [];
  const costs = [];
  const usages = [];
  const edgeNodes = [];
  const edgeCosts = [];
  for (let i = 0; i < n; ++i) {
    intervals.push(`[${i},${i + 20}]`);
    const k = 2 + (i % 2);
    costs.push(`[${Array.from({ length: k }, (_, s) => ((i * 7 + s * 13) % 97) + s).join(',')}]`);
    usages.push(`[${Array.from({ length: k }, (_, s) => 10 + s * 5).join(',')}]`);
    if (i + 1 < n) {
      const k2 = 2 + ((i + 1) % 2);
      edgeNodes.push(`[${i},${i + 1}]`);
      edgeCosts.push(`[${Array.from({ length: k * k2 }, (_, e) => (e % (k2 + 1) === 0 ? 0 : 3)).join(',')}]`);
    }
  }
  return `{"problem":{"name":"chain-${n}","nodes":{"intervals":[${intervals.join(',')}],` +
    `"costs":[${costs.join(',')}],"usages":[${usages.join(',')}]},` +
    `"edges":{"nodes":[${edgeNodes.join(',')}],"costs":[${edgeCosts.join(',')}]},"usage_limit":1000000}}`;
}

// A port nobody listens on now (for a server started by another program).
function freePort() {
  return new Promise((resolvePromise, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolvePromise(port));
    });
  });
}

function rawGet(port, path) {
  return new Promise((resolvePromise, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolvePromise({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.setTimeout(WAIT, () => req.destroy(new Error('timeout')));
    req.end();
  });
}

describe('web page', { skip: browserSkip }, () => {
  let isolated;
  let plain;
  let browser;
  const contexts = new Set();

  before(async () => {
    mkdirSync(artifacts, { recursive: true });
    isolated = await startServer({ port: 0 });
    plain = await startServer({ port: 0, isolation: false });
    browser = await launchChromium({ timeout: WAIT });
  });

  after(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    if (browser) await browser.close().catch(() => {});
    if (isolated) await isolated.close();
    if (plain) await plain.close();
  });

  // Opens the page; collects console errors and uncaught exceptions (page and Workers).
  async function open(server = isolated, query = '') {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    contexts.add(context);
    const page = await context.newPage();
    page.setDefaultTimeout(WAIT);
    const errors = [];
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(`console.${m.type()}: ${m.text()}`); });
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('worker', (w) => w.on('console', (m) => { if (m.type() === 'error') errors.push(`worker: ${m.text()}`); }));
    await page.goto(server.url + query);
    await page.waitForFunction(() => (window.iopddlPage && window.iopddlPage.ready) ||
      !document.getElementById('fatal').hidden);
    const fatal = await page.locator('#fatal').isVisible() ? await page.locator('#fatal').innerText() : null;
    assert.equal(fatal, null, `the page could not start the solver: ${fatal}\n${errors.join('\n')}`);
    const close = async () => { contexts.delete(context); await context.close(); };
    return { page, errors, close };
  }

  const text = (page, sel) => page.locator(sel).innerText();
  // Full-page screenshots from the top (the sticky header is drawn where the page is scrolled to).
  async function shot(page, name) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(150);  // charts draw on the next frame
    await page.screenshot({ path: join(artifacts, name), fullPage: true });
  }
  const digits = (s) => s.replace(/[^\d]/g, '');

  // Loads G through the file input under `name` and waits for its node table.
  async function loadG(page, name = 'asplos-2025-iopddl-G.json.gz', mimeType = 'application/gzip') {
    await page.setInputFiles('#file-input', { name, mimeType, buffer: readFileSync(instanceGPath) });
    await page.waitForSelector('#summary:not([hidden])');
    await page.waitForFunction(() => /Node details for the table read/.test(document.querySelector('#s-load').textContent));
  }

  async function solve(page, seconds) {
    await page.fill('#time-limit', String(seconds));
    await page.click('#solve-button');
  }

  test('the server: isolation headers, application/wasm, only its own folders, localhost only', async () => {
    assert.equal(isolated.server.address().address, '127.0.0.1');
    const index = await rawGet(isolated.port, '/');
    assert.equal(index.status, 200);
    assert.equal(index.headers['cross-origin-opener-policy'], 'same-origin');
    assert.equal(index.headers['cross-origin-embedder-policy'], 'require-corp');
    assert.match(index.headers['content-type'], /^text\/html/);
    const wasm = await rawGet(isolated.port, '/dist/iopddl.wasm');
    assert.equal(wasm.status, 200);
    assert.equal(wasm.headers['content-type'], 'application/wasm');
    assert.equal(wasm.headers['cross-origin-embedder-policy'], 'require-corp');
    for (const path of ['/server.mjs', '/test/page.test.mjs', '/../package.json', '/%2e%2e/package.json', '/dist/../../package.json']) {
      assert.equal((await rawGet(isolated.port, path)).status, 404, path);
    }
    const noIso = await rawGet(plain.port, '/');
    assert.equal(noIso.headers['cross-origin-opener-policy'], undefined);
    // The bundled example is the contest's example.
    assert.deepEqual(JSON.parse(readFileSync(join(root, 'web', 'example.json'), 'utf8')),
      JSON.parse(readFileSync(examplePath, 'utf8')));
  });

  test('the example through the file input reaches cost 445; both downloads', { timeout: 60_000 }, async () => {
    const { page, errors, close } = await open();
    assert.equal(await page.locator('#engine-text').innerText(), `WebAssembly · ${await page.evaluate(() => navigator.hardwareConcurrency)} threads`);
    await shot(page, 'web-start.png');
    await page.setInputFiles('#file-input', examplePath);
    await page.waitForSelector('#summary:not([hidden])');
    assert.equal(await text(page, '#s-name'), 'example');
    assert.equal(await text(page, '#s-nodes'), '5');
    assert.equal(await text(page, '#s-edges'), '5');
    assert.match(await text(page, '#s-strategies'), /^9\s/);
    assert.equal(await text(page, '#s-limit'), '50');
    assert.match(await text(page, '#s-span'), /^30 – 150/);
    await solve(page, 5);
    await page.waitForSelector('#result-card:not([hidden])');
    assert.equal(await text(page, '#r-total'), '445');
    assert.equal(await text(page, '#m-cost'), '445');
    assert.equal(await text(page, '#r-node'), '275 · 62%');
    assert.equal(await text(page, '#r-edge'), '170 · 38%');
    assert.equal(await text(page, '#r-peak'), '50');
    const badges = await text(page, '#result-badges');
    assert.match(badges, /Feasible/);
    assert.match(badges, /Proven optimal/);
    assert.equal(await page.locator('#node-rows tr').count(), 5);
    const strategies = await page.locator('#node-rows tr td:nth-child(2)').allInnerTexts();
    assert.deepEqual(strategies.map((s) => Number(s.split('/')[0])), [0, 0, 2, 1, 0]);
    const costs = await page.locator('#node-rows tr td:nth-child(3)').allInnerTexts();
    assert.deepEqual(costs, ['15', '55', '35', '75', '95']);

    const [txt] = await Promise.all([page.waitForEvent('download'), page.click('#download-txt')]);
    assert.equal(txt.suggestedFilename(), 'example.solution.txt');
    assert.equal(readFileSync(await txt.path(), 'utf8'), '[0, 0, 2, 1, 0]\n');
    const [json] = await Promise.all([page.waitForEvent('download'), page.click('#download-json')]);
    assert.equal(json.suggestedFilename(), 'example.solution.json');
    const j = JSON.parse(readFileSync(await json.path(), 'utf8'));
    assert.deepEqual(j.assignment, [0, 0, 2, 1, 0]);
    assert.equal(j.cost, '445');
    assert.equal(j.feasible, true);
    assert.equal(j.nodeCost, '275');
    assert.equal(j.edgeCost, '170');
    await shot(page, 'web-example.png');
    assert.deepEqual(errors, []);
    await close();
  });

  test('a generated 50 MB file: a progress bar while it loads, the CLI\'s problem; Stop keeps the best answer', { timeout: 120_000, skip: haveGenerator ? false : 'needs build/iopddl and build/iopddl-generate (scripts/setup.sh)' }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'iopddl-page-large-'));
    try {
      const plainFile = join(dir, 'generated.json');
      const gzFile = join(dir, 'generated.json.gz');
      execFileSync(generator, ['--nodes', '2200', plainFile], { stdio: 'ignore' });
      execFileSync(generator, ['--nodes', '2200', '--gzip', gzFile], { stdio: 'ignore' });
      const digest = /digest:\s+([0-9a-f]{16})/.exec(execFileSync(nativeCli, ['check', plainFile], { encoding: 'utf8' }))[1];
      const { page, errors, close } = await open();
      for (const f of [plainFile, gzFile]) {
        // Watch the bar: it must be seen moving before the summary appears.
        await page.evaluate(() => {
          window.barValues = [];
          delete document.getElementById('s-source').dataset.digest;  // both files have the same
          const bar = document.getElementById('load-progress');
          new MutationObserver(() => { if (!bar.hidden) window.barValues.push(bar.value); })
            .observe(bar, { attributes: true });
        });
        await page.setInputFiles('#file-input', f);
        await page.waitForFunction((d) => document.getElementById('s-source').dataset.digest === d, digest, { timeout: 60_000 });
        const values = await page.evaluate(() => window.barValues);
        assert.ok(values.length >= 2, `the bar moved ${values.length} times`);
        assert.ok(values.some((v) => v > 0), `the bar showed bytes read: ${JSON.stringify(values)}`);
        assert.equal(await page.locator('#load-progress').isHidden(), true, JSON.stringify(values));
      }
      await solve(page, 60);
      await page.waitForFunction(() => /^\d/.test(document.querySelector('#m-cost').textContent), null, { timeout: 60_000 });
      // The page stays responsive while the search runs: timers keep their pace.
      const gaps = await page.evaluate(() => new Promise((done) => {
        let last = performance.now();
        let worst = 0;
        const t = setInterval(() => { const n = performance.now(); worst = Math.max(worst, n - last); last = n; }, 20);
        setTimeout(() => { clearInterval(t); done(worst); }, 1000);
      }));
      assert.ok(gaps < 250, `a 20 ms timer waited ${gaps.toFixed(0)} ms during the solve`);
      assert.equal(await page.locator('#solve-state').innerText(), 'Searching');
      await shot(page, 'web-solving.png');
      // Stop keeps the best answer.
      const t0 = Date.now();
      await page.click('#stop-button');
      await page.waitForSelector('#result-card:not([hidden])', { timeout: 10_000 });
      const stopMs = Date.now() - t0;
      assert.ok(stopMs < 5000, `Stop took ${stopMs} ms`);
      assert.match(await text(page, '#result-badges'), /Stopped early/);
      assert.match(await text(page, '#result-badges'), /Feasible/);
      assert.equal(digits(await text(page, '#m-cost')), digits(await text(page, '#r-total')));
      // Another file while a solve runs: the solve ends, the new problem takes over.
      await solve(page, 60);
      await page.waitForFunction(() => document.querySelector('#solve-state').textContent === 'Searching');
      await page.setInputFiles('#file-input', examplePath);
      await page.waitForFunction(() => document.querySelector('#s-name').textContent === 'example');
      assert.equal(await page.locator('#result-card').isHidden(), true);
      assert.equal(await page.locator('#stop-button').isDisabled(), true);
      assert.equal(await page.locator('#solve-button').isEnabled(), true);
      await solve(page, 5);
      await page.waitForSelector('#result-card:not([hidden])');
      assert.equal(await text(page, '#r-total'), '445');
      assert.equal(await page.locator('#node-rows tr').count(), 5);
      assert.deepEqual(errors, []);
      await close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a gzip file loads (recognised by content, not name); G is proven optimal', { timeout: 60_000 }, async () => {
    const { page, errors, close } = await open();
    await page.setInputFiles('#file-input', {
      name: 'instance-G.data', mimeType: 'application/octet-stream', buffer: readFileSync(instanceGPath),
    });
    await page.waitForSelector('#summary:not([hidden])');
    assert.equal(await text(page, '#s-name'), 'asplos-2025-iopddl-G');
    assert.equal(await text(page, '#s-nodes'), '816');
    assert.equal(await text(page, '#s-edges'), '1,023');
    assert.match(await text(page, '#s-source'), /gzip/);
    await page.waitForFunction(() => /Node details for the table read/.test(document.querySelector('#s-load').textContent));

    // G's proof takes the search about a second (the proof search): the
    // page shows the answer as proven optimal, the search done.
    await solve(page, 60);
    await page.waitForSelector('#result-card:not([hidden])', { timeout: 30_000 });
    assert.equal(await page.locator('#solve-state').innerText(), 'Done');
    assert.match(await text(page, '#result-badges'), /Proven optimal/);
    assert.match(await text(page, '#result-badges'), /Feasible/);
    const total = Number(digits(await text(page, '#r-total')));
    assert.equal(total, 217039);  // G's optimum
    assert.equal(digits(await text(page, '#m-cost')), String(total));
    const line = await page.evaluate(() => window.iopddlPage.solutionLine());
    assert.equal(JSON.parse(line).length, 816);

    // The node table: pages, search, sort.
    assert.equal(await page.locator('#node-rows tr').count(), 25);
    assert.match(await text(page, '#page-info'), /^1–25 of 816 · page 1 of 33/);
    await page.click('#page-next');
    assert.equal(await page.locator('#node-rows tr:first-child td:first-child').innerText(), '25');
    await page.fill('#node-search', '100-119, 700');
    await page.press('#node-search', 'Enter');
    assert.equal(await page.locator('#node-rows tr').count(), 21);
    assert.equal(await text(page, '#nodes-count'), '21 of 816 nodes shown');
    await page.fill('#node-search', 'abc');
    await page.press('#node-search', 'Enter');
    assert.match(await text(page, '#node-rows'), /not a node number or range/);
    await page.fill('#node-search', '');
    await page.press('#node-search', 'Enter');
    await page.selectOption('#node-sort', 'cost');
    const sorted = (await page.locator('#node-rows tr td:nth-child(3)').allInnerTexts()).map((s) => Number(digits(s)));
    assert.deepEqual(sorted, [...sorted].sort((a, b) => b - a));
    await page.selectOption('#node-filter', 'peak');
    assert.match(await text(page, '#nodes-count'), /^[\d,]+ of 816 nodes shown$/);
    await page.selectOption('#node-filter', 'all');
    await page.selectOption('#node-sort', 'index');
    await shot(page, 'web-proven.png');

    assert.deepEqual(errors, []);
    await close();
  });

  test('search parameters reach the core; its restarts show on the chart as they happen and in the result; bad ones are named', { timeout: 60_000 }, async () => {
    const { page, errors, close } = await open();
    await loadG(page);

    // The form is checked in the page; names and ranges by the core.
    await page.fill('#params', 'restarts');
    await solve(page, 2);
    assert.match(await text(page, '#form-error'), /search parameter “restarts”: write name=value/);
    assert.equal(await page.getAttribute('#params', 'aria-invalid'), 'true');
    await page.fill('#params', 'restarts=yes');
    await solve(page, 2);
    assert.match(await text(page, '#form-error'), /search parameter restarts: “yes” is not a number/);
    await page.fill('#params', 'no_such_param=1');
    await solve(page, 2);
    await page.waitForFunction(() => /unknown parameter 'no_such_param'/.test(document.querySelector('#form-error').textContent));
    await page.fill('#params', 'rule_decay=3');
    await solve(page, 2);
    await page.waitForFunction(() => /rule_decay = 3 is out of its range/.test(document.querySelector('#form-error').textContent));

    // No proof search and a 0.2 s stall: G's search restarts within the
    // 2 s, as in the package's test of the same parameters.
    await page.fill('#threads', '1');
    await page.fill('#params', 'proof_max_strategies=0, restart_stall_factor=0 restart_min_stall=0.2');
    await solve(page, 2);
    // A restart is on the chart while the search still runs.
    await page.waitForFunction(() => /restarted/.test(document.querySelector('#cost-chart canvas').getAttribute('aria-label'))
      && document.querySelector('#result-card').hidden, null, { timeout: 30_000 });
    await page.waitForSelector('#result-card:not([hidden])', { timeout: 30_000 });
    assert.equal(await page.getAttribute('#params', 'aria-invalid'), 'false');
    const restarts = Number(digits(await text(page, '#r-restarts')));
    assert.ok(restarts >= 1, `${restarts} restarts`);
    assert.match(await page.getAttribute('#r-restarts', 'title'), /^epoch 1 began at [\d.]+ m?s/);
    const label = await page.getAttribute('#cost-chart canvas', 'aria-label');
    assert.match(label, new RegExp(`the search restarted ${restarts} times?, at `));
    await shot(page, 'web-restarts.png');

    // Without parameters, the defaults: G proven, no restart.
    await page.fill('#params', '');
    await solve(page, 60);
    await page.waitForSelector('#result-card:not([hidden])', { timeout: 30_000 });
    assert.match(await text(page, '#result-badges'), /Proven optimal/);
    assert.equal(await text(page, '#r-restarts'), '0');
    assert.equal(await page.getAttribute('#cost-chart canvas', 'aria-label'), 'Best cost over time');
    assert.deepEqual(errors, []);
    await close();
  });

  test('memory vs cost: a sweep on G draws its points; a point clicked shows its plan; all points download', { timeout: 60_000 }, async () => {
    const { page, errors, close } = await open();
    await loadG(page);
    await page.waitForSelector('#sweep-card:not([hidden])');
    assert.equal(await page.locator('#sweep-points').inputValue(), '9');
    await page.fill('#time-limit', '3');
    await page.fill('#sweep-points', '5');
    await page.click('#sweep-button');
    await page.waitForFunction(() => window.iopddlPage.sweeping);
    // The page stays responsive while the sweep runs.
    assert.equal(await page.evaluate(() => 1 + 1), 2);
    await page.waitForFunction(() => !window.iopddlPage.sweeping && window.iopddlPage.sweep, null, { timeout: 30_000 });
    assert.equal(await page.locator('#sweep-state').innerText(), 'Done');
    const sweep = await page.evaluate(() => window.iopddlPage.sweep.points.map((p) => ({
      limit: String(p.limit), cost: String(p.cost), feasible: p.feasible,
      bound: p.lowerBound === null ? null : String(p.lowerBound),
    })));
    assert.equal(sweep.length, 5);
    for (let k = 1; k < sweep.length; ++k) assert.ok(BigInt(sweep[k].cost) <= BigInt(sweep[k - 1].cost));
    for (const p of sweep) if (p.bound !== null) assert.ok(BigInt(p.cost) >= BigInt(p.bound));
    assert.ok(sweep.some((p) => p.limit === '14392528'), 'the file\'s limit is a point');
    assert.equal(await page.locator('#sweep-rows tr').count(), 5);
    await page.waitForTimeout(150);  // drawn on the next frame
    const positions = await page.evaluate(() => window.iopddlPage.sweepPositions);
    assert.equal(positions.length, 5, 'five points drawn');

    // A click on the chart's point at the file's limit shows that plan.
    const k = sweep.findIndex((p) => p.limit === '14392528');
    await page.locator('#sweep-chart canvas').click({ position: { x: positions[k].x, y: positions[k].y } });
    await page.waitForFunction(() => window.iopddlPage.result && window.iopddlPage.result.fromSweep !== undefined);
    await page.waitForSelector('#result-card:not([hidden])');
    assert.match(await text(page, '#result-badges'), /Sweep point: limit 14,392,528/);
    assert.equal(digits(await text(page, '#r-total')), sweep[k].cost);
    assert.match(await text(page, '#r-peak-sub'), /of the limit 14,392,528/);
    assert.equal(await page.locator('#node-rows tr').count(), 25);
    // Another point, through its row's button: judged at its own limit.
    await page.click('#sweep-rows tr:first-child button');
    await page.waitForFunction((l) => window.iopddlPage.result && String(window.iopddlPage.result.fromSweep) === l, sweep[0].limit);
    assert.equal(digits(await text(page, '#r-total')), sweep[0].cost);
    await shot(page, 'web-sweep.png');

    const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#sweep-download')]);
    assert.equal(dl.suggestedFilename(), 'asplos-2025-iopddl-G.sweep.json');
    const j = JSON.parse(readFileSync(await dl.path(), 'utf8'));
    assert.equal(j.points.length, 5);
    assert.deepEqual(j.points.map((p) => p.cost), sweep.map((p) => p.cost));
    assert.equal(j.points[0].assignment.length, 816);
    assert.equal(j.fileLimit, '14392528');

    // Stop: a long sweep ends at once with the points done.
    await page.fill('#time-limit', '600');
    await page.click('#sweep-button');
    await page.waitForFunction(() => window.iopddlPage.sweeping);
    await page.click('#sweep-stop');
    await page.waitForFunction(() => !window.iopddlPage.sweeping && window.iopddlPage.sweep, null, { timeout: 15_000 });
    assert.equal(await page.locator('#sweep-state').innerText(), 'Stopped');
    assert.deepEqual(errors, []);
    await close();
  });

  test('a malformed file shows the loader\'s message in the page', { timeout: 60_000 }, async () => {
    const { page, errors, close } = await open();
    await page.setInputFiles('#file-input', { name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"problem":') });
    await page.waitForSelector('#load-error:not([hidden])');
    assert.match(await text(page, '#load-error-title'), /broken\.json is not a valid problem/);
    assert.match(await text(page, '#load-error-text'), /broken\.json: JSON syntax error at byte 11/);
    assert.equal(await page.locator('#solve-card').isHidden(), true);
    assert.equal(await page.locator('#load-error').getAttribute('role'), 'alert');
    await shot(page, 'web-error.png');
    // A structural error names the field; a good file afterwards clears the message.
    await page.setInputFiles('#file-input', {
      name: 'missing.json', mimeType: 'application/json',
      buffer: Buffer.from('{"problem":{"nodes":{"intervals":[[0,1]],"costs":[[1]]},"edges":{"nodes":[],"costs":[]}}}'),
    });
    await page.waitForFunction(() => /usages/.test(document.querySelector('#load-error-text').textContent));
    await page.setInputFiles('#file-input', examplePath);
    await page.waitForSelector('#summary:not([hidden])');
    assert.equal(await page.locator('#load-error').isHidden(), true);
    assert.deepEqual(errors, []);
    await close();
  });

  test('a file too large for the tab says so and offers the CLI; the next file loads', { timeout: 90_000 }, async () => {
    // ?memory=64 caps the solver's memory at 64 MB, as a smaller device would.
    const { page, errors, close } = await open(isolated, '?memory=64');
    const n = 60_000;
    const row = `[${Array.from({ length: 40 }, (_, s) => 1000000 + s).join(',')}]`;
    const big = `{"problem":{"nodes":{"intervals":[${'[0,9],'.repeat(n - 1)}[0,9]],` +
      `"costs":[${`${row},`.repeat(n - 1)}${row}],"usages":[${`${row},`.repeat(n - 1)}${row}]},` +
      '"edges":{"nodes":[],"costs":[]}}}';
    // Handing 26 MB to the page took over 20 s (the default) once in a full
    // test run on a fresh machine; alone it takes a few seconds.
    await page.setInputFiles('#file-input', { name: 'big.json', mimeType: 'application/json', buffer: Buffer.from(big) },
      { timeout: 60_000 });
    await page.waitForSelector('#load-error:not([hidden])');
    assert.match(await text(page, '#load-error-title'), /big\.json is too large for this browser tab/);
    const message = await text(page, '#load-error-text');
    assert.match(message, /big\.json: out of memory after \d+ bytes of input/);
    assert.match(message, /iopddl big\.json 300/);
    // The spent solver was replaced: the example loads and solves.
    await page.setInputFiles('#file-input', examplePath);
    await page.waitForSelector('#summary:not([hidden])');
    assert.equal(await page.locator('#load-error').isHidden(), true);
    await solve(page, 2);
    await page.waitForFunction(() => /Solved: cost 445/.test(document.querySelector('#solve-announce').textContent));
    assert.deepEqual(errors, []);
    await close();
  });

  test('a solution file is evaluated and shown, and the search starts from it', { timeout: 60_000 }, async () => {
    const { page, errors, close } = await open();
    const file = (name, body) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(body) });
    // Before its problem: refused, saying what to do.
    await page.setInputFiles('#file-input', file('early.txt', '[0, 0, 2, 1, 0]\n'));
    await page.waitForSelector('#load-error:not([hidden])');
    assert.match(await text(page, '#load-error-text'), /early\.txt looks like a solution .* Load its problem first/);
    await page.setInputFiles('#file-input', examplePath);
    await page.waitForSelector('#summary:not([hidden])');
    assert.equal(await page.locator('#from-shown').isDisabled(), true);
    // A whole CLI output (progress lines, then the answer): an infeasible answer
    // is shown with its exact split and the node table.
    await page.setInputFiles('#file-input', file('mine.txt', '# iopddl: example\n# 0.1 s cost 999\n[0, 1, 2, 0, 0]\n'));
    await page.waitForSelector('#result-card:not([hidden])');
    const badges = await text(page, '#result-badges');
    assert.match(badges, /From mine\.txt/);
    assert.equal(await page.locator('#node-rows tr').count(), 5);
    const strategies = await page.locator('#node-rows tr td:nth-child(2)').allInnerTexts();
    assert.deepEqual(strategies.map((s) => Number(s.split('/')[0])), [0, 1, 2, 0, 0]);
    const shown = await text(page, '#r-total');
    assert.match(shown, /^[\d,]+$/);
    assert.equal(await text(page, '#r-time'), '—');
    await shot(page, 'web-solution-file.png');
    // The solve form starts from it by default and still reaches the optimum.
    assert.equal(await page.locator('#from-shown').isChecked(), true);
    assert.equal(await page.locator('#from-shown').isEnabled(), true);
    await solve(page, 5);
    await page.waitForFunction(() => /Warm start/.test(document.querySelector('#result-badges').textContent));
    assert.equal(await text(page, '#r-total'), '445');
    // A solution of the wrong length says why, and the result shown stays.
    await page.setInputFiles('#file-input', file('short.txt', '[0, 0]\n'));
    await page.waitForSelector('#solution-error:not([hidden])');
    assert.match(await text(page, '#solution-error'), /solution has 2 entries, the problem has 5/);
    assert.equal(await text(page, '#r-total'), '445');
    await page.setInputFiles('#file-input', file('junk.txt', '# nothing\n'));
    await page.waitForFunction(() => /junk\.txt: no solution line/.test(document.querySelector('#solution-error').textContent));
    assert.deepEqual(errors, []);
    await close();
  });

  test('a file dropped anywhere on the page loads', { timeout: 60_000 }, async () => {
    const { page, errors, close } = await open();
    const example = readFileSync(examplePath, 'utf8');
    const dt = await page.evaluateHandle((textContent) => {
      const d = new DataTransfer();
      d.items.add(new File([textContent], 'dropped.json', { type: 'application/json' }));
      return d;
    }, example);
    // Dragging over the page shows the drop overlay; dropping on the heading loads the file.
    await page.dispatchEvent('h1', 'dragenter', { dataTransfer: dt });
    assert.equal(await page.locator('#drop-overlay').isVisible(), true);
    await page.dispatchEvent('h1', 'dragover', { dataTransfer: dt });
    await page.dispatchEvent('h1', 'drop', { dataTransfer: dt });
    assert.equal(await page.locator('#drop-overlay').isHidden(), true);
    await page.waitForSelector('#summary:not([hidden])');
    assert.equal(await text(page, '#s-name'), 'example');
    assert.match(await text(page, '#s-source'), /^dropped\.json/);
    assert.deepEqual(errors, []);
    await close();
  });

  test('without cross-origin isolation: a visible note and one thread; Try the example', { timeout: 60_000 }, async () => {
    // ?isolation=off: no service worker (it would isolate the page; tested below).
    const { page, errors, close } = await open(plain, '?isolation=off');
    await page.waitForSelector('#isolation-note:not([hidden])');
    assert.match(await text(page, '#isolation-note'), /one thread/i);
    assert.match(await text(page, '#isolation-note'), /not cross-origin isolated/);
    assert.equal(await page.locator('#threads').inputValue(), '1');
    assert.equal(await page.locator('#threads').isDisabled(), true);
    assert.equal(await text(page, '#engine-text'), 'WebAssembly · 1 thread');
    await page.click('#example-button');
    await page.waitForSelector('#summary:not([hidden])');
    assert.equal(await text(page, '#s-name'), 'example');
    await solve(page, 5);
    await page.waitForSelector('#result-card:not([hidden])');
    assert.equal(await text(page, '#r-total'), '445');
    assert.match(await text(page, '#r-threads'), /^1 /);
    await shot(page, 'web-no-isolation.png');
    assert.deepEqual(errors, []);
    await close();
  });

  // A static host that sends no special headers (here python3 -m http.server
  // over a copy of the page): the service worker adds COOP/COEP to the page's
  // own responses, and after one reload the page runs on threads.
  test('a plain static server: the service worker isolates the page, threads run', { timeout: 90_000 }, async () => {
    const site = mkdtempSync(join(tmpdir(), 'iopddl-static-'));
    for (const f of readdirSync(join(root, 'web'))) {
      if (f === 'test' || f === 'server.mjs' || f === 'README.md') continue;
      symlinkSync(join(root, 'web', f), join(site, f));
    }
    symlinkSync(join(root, 'dist'), join(site, 'dist'));
    const port = await freePort();
    const py = spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', site],
      { stdio: 'ignore' });
    try {
      const t0 = Date.now();
      for (;;) {
        try {
          const r = await rawGet(port, '/index.html');
          assert.equal(r.headers['cross-origin-embedder-policy'], undefined, 'a plain server sends no COEP');
          break;
        } catch (e) {
          if (e.code === 'ERR_ASSERTION' || Date.now() - t0 > WAIT) throw e;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      const { page, errors, close } = await open({ url: `http://127.0.0.1:${port}/` });
      assert.equal(await page.evaluate(() => window.crossOriginIsolated), true, 'isolated after the one reload');
      const cores = await page.evaluate(() => navigator.hardwareConcurrency);
      await page.waitForFunction((n) => document.querySelector('#engine-text').textContent === `WebAssembly · ${n} threads`, cores);
      assert.equal(await page.locator('#isolation-note').isHidden(), true);
      await page.click('#example-button');
      await page.waitForSelector('#summary:not([hidden])');
      await solve(page, 5);
      await page.waitForSelector('#result-card:not([hidden])');
      assert.equal(await text(page, '#r-total'), '445');
      assert.doesNotMatch(await text(page, '#r-threads'), /no isolation/);
      assert.deepEqual(errors, []);
      await close();
    } finally {
      py.kill();
      rmSync(site, { recursive: true, force: true });
    }
  });

  test('keyboard and screen reader basics: labels, focus order, the drop zone is a button', { timeout: 60_000 }, async () => {
    const { page, errors, close } = await open();
    // Every control has an accessible name.
    const unnamed = await page.evaluate(() => Array.from(document.querySelectorAll('input, select, button, a[href]'))
      .filter((el) => {
        const named = el.getAttribute('aria-label') || (el.labels && el.labels.length) ||
          el.textContent.trim() || el.getAttribute('aria-labelledby');
        return !named;
      }).map((el) => el.outerHTML.slice(0, 80)));
    assert.deepEqual(unnamed, []);
    // Tab order from the top: skip link, home, the contest link, the example, the drop zone.
    const order = [];
    for (let i = 0; i < 5; ++i) {
      await page.keyboard.press('Tab');
      order.push(await page.evaluate(() => document.activeElement.id || document.activeElement.className || document.activeElement.tagName));
    }
    assert.deepEqual(order, ['skip-link', 'brand', 'A', 'example-button', 'dropzone']);
    assert.equal(await page.evaluate(() => document.activeElement.tagName), 'BUTTON');
    // Enter on the drop zone opens the file chooser.
    // (One protocol round trip first, so that Playwright intercepts the chooser before the key arrives.)
    const chooserEvent = page.waitForEvent('filechooser');
    await page.evaluate(() => 0);
    await page.keyboard.press('Enter');
    const chooser = await chooserEvent;
    await chooser.setFiles(examplePath);
    await page.waitForSelector('#summary:not([hidden])');
    // Into the settings and Solve with the keyboard alone.
    await page.focus('#time-limit');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'threads');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'seed');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'params');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'solve-button');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#result-card:not([hidden])');
    assert.equal(await text(page, '#r-total'), '445');
    // The live region is filled 30 ms after it is cleared (so that screen
    // readers announce a repeat): wait for the text rather than read it once.
    await page.waitForFunction(() => /Solved: cost 445/.test(document.querySelector('#solve-announce').textContent));
    assert.deepEqual(errors, []);
    await close();
  });

  test('a 60,000-node problem: the table stays fast', { timeout: 60_000 }, async () => {
    const { page, errors, close } = await open();
    await page.setInputFiles('#file-input', { name: 'chain.json', mimeType: 'application/json', buffer: Buffer.from(chainProblem(60_000)) });
    await page.waitForSelector('#summary:not([hidden])');
    assert.equal(await text(page, '#s-nodes'), '60,000');
    await solve(page, 3);
    await page.waitForSelector('#result-card:not([hidden])');
    await page.waitForSelector('#nodes-card:not([hidden])');
    assert.match(await text(page, '#page-info'), /of 60,000 · page 1 of 2,400/);
    // Each table action, from input to rows in the DOM, measured in the page.
    const ms = await page.evaluate(async () => {
      const $ = (id) => document.getElementById(id);
      const time = (f) => { const t = performance.now(); f(); return performance.now() - t; };
      const enter = () => $('node-search').dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
      const out = {};
      out.search = time(() => { $('node-search').value = '30000-30010'; enter(); });
      out.rows = document.querySelectorAll('#node-rows tr').length;
      out.clear = time(() => { $('node-search').value = ''; enter(); });
      out.sort = time(() => { $('node-sort').value = 'cost'; $('node-sort').dispatchEvent(new Event('change')); });
      out.last = time(() => $('page-last').click());
      out.lastInfo = $('page-info').textContent;
      out.peak = time(() => { $('node-filter').value = 'peak'; $('node-filter').dispatchEvent(new Event('change')); });
      return out;
    });
    assert.equal(ms.rows, 11);
    assert.match(ms.lastInfo, /page 2,400 of 2,400/);
    for (const k of ['search', 'clear', 'sort', 'last', 'peak']) assert.ok(ms[k] < 250, `${k} took ${ms[k].toFixed(0)} ms`);
    console.log(`# 60,000 nodes: search ${ms.search.toFixed(1)} ms, sort by cost ${ms.sort.toFixed(1)} ms, last page ${ms.last.toFixed(1)} ms`);
    assert.deepEqual(errors, []);
    await close();
  });

  // Total resident memory of every Chromium process (the page's threads and
  // workers live in its renderer), in MB.
  function chromiumRssMb() {
    let kb = 0;
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        if (!cmd.includes('chromium') && !cmd.includes('chrome')) continue;
        const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
        if (m) kb += Number(m[1]);
      } catch { /* the process ended meanwhile */ }
    }
    return kb / 1024;
  }

  test('100 load/solve/dispose cycles in one page session: no growth', { timeout: 180_000 }, async () => {
    const { page, errors, close } = await open();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('HeapProfiler.enable');
    const samples = [];
    for (let block = 0; block < 10; ++block) {
      const cost = await page.evaluate(async () => {
        const { createSolver } = await import('/dist/browser.mjs');
        const bytes = new Uint8Array(await (await fetch('/example.json')).arrayBuffer());
        let last = null;
        for (let k = 0; k < 10; ++k) {
          const solver = await createSolver({ threads: 2 });
          const problem = await solver.load(bytes);
          const r = await problem.solve({ timeLimitMs: 20 });
          last = String(r.cost);
          await solver.dispose();
        }
        return last;
      });
      assert.equal(cost, '445');
      await cdp.send('HeapProfiler.collectGarbage');
      await page.waitForTimeout(200);  // terminated workers release their memory
      const { usedSize } = await cdp.send('Runtime.getHeapUsage');
      samples.push({ cycles: (block + 1) * 10, rssMb: chromiumRssMb(), heapMb: usedSize / 2 ** 20 });
    }
    console.log('# page session, 100 cycles: ' +
      samples.map((x) => `${x.cycles}: ${x.rssMb.toFixed(0)} MB rss, ${x.heapMb.toFixed(1)} MB heap`).join('; '));
    const avg = (xs, f) => xs.reduce((a, x) => a + f(x), 0) / xs.length;
    const first = samples.slice(1, 4), last = samples.slice(-3);
    const rssGrowth = avg(last, (x) => x.rssMb) - avg(first, (x) => x.rssMb);
    const heapGrowth = avg(last, (x) => x.heapMb) - avg(first, (x) => x.heapMb);
    // A leaked module would hold its whole WebAssembly memory (64 MB or more) per cycle.
    assert.ok(rssGrowth < Math.max(40, 0.15 * avg(first, (x) => x.rssMb)), `renderer memory grew by ${rssGrowth.toFixed(0)} MB`);
    assert.ok(heapGrowth < 5, `JS heap grew by ${heapGrowth.toFixed(1)} MB`);
    assert.deepEqual(errors, []);
    await close();
  });
});
