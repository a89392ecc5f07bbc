// The package through the two most used bundlers, as a user's app gets it:
// `npm pack`, the tarball installed into an app, the app built with Vite and
// with webpack (the project's dev dependencies), served by a plain static
// server with and without COOP/COEP, run in Debian's Chromium. Each app
// solves the contest example and instance G with no console error, on
// threads when the page is isolated and on the single-threaded fallback when
// it is not. Skipped without Chromium or playwright-core.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { browserSkip, launchChromium } from '../../tests/browser-env.mjs';
import { examplePath, instanceGPath, root } from './helpers.mjs';

const quiet = ['--no-audit', '--no-fund', '--loglevel=error'];

const MAIN = `
import { createSolver } from 'iopddl-wasm';
const out = document.getElementById('out');
async function solveFile(solver, name, ms) {
  const bytes = new Uint8Array(await (await fetch(name)).arrayBuffer());
  const p = await solver.load(bytes, { source: name });
  const r = await p.solve({ timeLimitMs: ms });
  p.dispose();
  return { cost: String(r.cost), feasible: r.feasible, threads: r.threads };
}
try {
  const solver = await createSolver({ threads: 2 });
  const example = await solveFile(solver, 'example.json', 500);
  const g = await solveFile(solver, 'g.json.gz', 1500);
  window.result = { backend: solver.backend, example, g };
  await solver.dispose();
} catch (e) {
  window.result = { error: String(e && e.message) };
}
out.textContent = JSON.stringify(window.result);
`;
const HTML = (script) => `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head>` +
  `<body><pre id="out">running</pre>${script}</body></html>\n`;

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm',
  '.json': 'application/json', '.gz': 'application/gzip' };

// A plain static server over `dir`, with or without the isolation headers.
function serve(dir, isolated) {
  const server = createServer((req, res) => {
    let p = join(dir, decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (existsSync(p) && statSync(p).isDirectory()) p = join(p, 'index.html');
    if (!p.startsWith(dir) || !existsSync(p)) {
      res.writeHead(404);
      res.end();
      return;
    }
    const headers = { 'Content-Type': TYPES[extname(p)] || 'application/octet-stream' };
    if (isolated) {
      headers['Cross-Origin-Opener-Policy'] = 'same-origin';
      headers['Cross-Origin-Embedder-Policy'] = 'require-corp';
    }
    res.writeHead(200, headers);
    res.end(readFileSync(p));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('bundlers', { skip: browserSkip }, () => {
  let dir;
  let browser;
  const built = {};
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'iopddl-bundlers-'));
    const packOut = execFileSync('npm', ['pack', '--pack-destination', dir, ...quiet], { cwd: root, encoding: 'utf8' });
    const tarball = join(dir, packOut.trim().split('\n').at(-1));
    const app = (name, pkgType) => {
      const a = join(dir, name);
      mkdirSync(a);
      writeFileSync(join(a, 'package.json'), JSON.stringify({ name, version: '1.0.0', private: true, ...pkgType }));
      execFileSync('npm', ['install', tarball, '--offline', ...quiet], { cwd: a });
      return a;
    };
    const assets = (to) => {
      mkdirSync(to, { recursive: true });
      copyFileSync(examplePath, join(to, 'example.json'));
      copyFileSync(instanceGPath, join(to, 'g.json.gz'));
    };
    // Vite: index.html with a module script; assets from public/.
    const vite = app('vite-app', { type: 'module' });
    writeFileSync(join(vite, 'main.js'), MAIN);
    writeFileSync(join(vite, 'index.html'), HTML('<script type="module" src="/main.js"></script>'));
    assets(join(vite, 'public'));
    const v = spawnSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
      { cwd: vite, encoding: 'utf8' });
    assert.equal(v.status, 0, `vite build failed:\n${v.stdout}\n${v.stderr}`);
    built.vite = { dir: join(vite, 'dist'), log: v.stdout + v.stderr };
    // webpack: the default production build of src/main.js.
    const wp = app('webpack-app', {});
    mkdirSync(join(wp, 'src'));
    writeFileSync(join(wp, 'src', 'main.js'), MAIN);
    writeFileSync(join(wp, 'webpack.config.js'), `module.exports = { mode: 'production', entry: './src/main.js',
      output: { path: __dirname + '/dist', filename: 'main.js' }, performance: { hints: false } };\n`);
    const w = spawnSync(process.execPath, [join(root, 'node_modules', 'webpack-cli', 'bin', 'cli.js')],
      { cwd: wp, encoding: 'utf8' });
    assert.equal(w.status, 0, `webpack failed:\n${w.stdout}\n${w.stderr}`);
    writeFileSync(join(wp, 'dist', 'index.html'), HTML('<script src="main.js"></script>'));
    assets(join(wp, 'dist'));
    built.webpack = { dir: join(wp, 'dist'), log: w.stdout + w.stderr };
    browser = await launchChromium();
  });
  after(async () => {
    if (browser) await browser.close().catch(() => {});
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  for (const bundler of ['vite', 'webpack']) {
    test(`${bundler}: the build warns about nothing of ours`, () => {
      assert.doesNotMatch(built[bundler].log, /WARNING|ERROR|warning|externalized|worker_threads|Critical dependency/, built[bundler].log);
    });
    for (const isolated of [true, false]) {
      test(`${bundler}, ${isolated ? 'isolated: threads' : 'not isolated: one thread'}`, { timeout: 60_000 }, async () => {
        const server = await serve(built[bundler].dir, isolated);
        const page = await browser.newPage();
        const errors = [];
        page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
        page.on('pageerror', (e) => errors.push(e.message));
        page.on('worker', (wk) => wk.on('console', (m) => { if (m.type() === 'error') errors.push(`worker: ${m.text()}`); }));
        try {
          await page.goto(`http://127.0.0.1:${server.address().port}/`);
          await page.waitForFunction(() => window.result, null, { timeout: 40_000 });
          const r = await page.evaluate(() => window.result);
          assert.equal(r.error, undefined, r.error);
          assert.equal(r.backend, isolated ? 'threads' : 'single');
          assert.deepEqual(r.example, { cost: '445', feasible: true, threads: isolated ? 2 : 1 });
          assert.equal(r.g.feasible, true);
          assert.ok(Number(r.g.cost) <= 217039 * 1.01, `G: ${r.g.cost}`);
          assert.deepEqual(errors, []);
        } finally {
          await page.close();
          server.close();
        }
      });
    }
  }
});
