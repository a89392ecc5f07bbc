#!/usr/bin/env node
// `npm run serve`: serves the page (web/) and the package build (dist/, at
// /dist/) on http://localhost:$PORT (default 8080), bound to 127.0.0.1 only,
// with the headers that make the page cross-origin isolated (so the solver can
// use threads) and `application/wasm` for .wasm files. Builds dist/ first when
// it is missing.
//
//   node web/server.mjs [--port N] [--no-isolation]
//
// --no-isolation leaves out COOP/COEP, to see the page's one-thread fallback.
// The tests import startServer() and run it on a free port.
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const webDir = dirname(fileURLToPath(import.meta.url));
const root = resolve(webDir, '..');
const distDir = join(root, 'dist');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
  '.gz': 'application/gzip',
};

// Files the page needs from the package build.
const DIST_FILES = ['browser.mjs', 'core.mjs', 'shared.mjs', 'constants.mjs', 'convert.mjs', 'input.mjs',
  'threaded.mjs', 'worker-backend.mjs', 'iopddl.js', 'iopddl.wasm', 'iopddl.worker.js',
  'iopddl-single.js', 'iopddl-single.wasm', 'single-worker.mjs'];

/** Names of the package files missing from dist/. */
export function missingDistFiles() {
  return DIST_FILES.filter((f) => !existsSync(join(distDir, f)));
}

// Maps a URL path to a file: /dist/* from dist/, the rest from web/ (never
// outside those folders; the server's own sources and tests are not served).
function fileFor(pathname) {
  let base = webDir;
  let rel = pathname;
  if (pathname === '/dist' || pathname.startsWith('/dist/')) {
    base = distDir;
    rel = pathname.slice(5);
  } else if (pathname.startsWith('/test/') || pathname === '/server.mjs') {
    return null;
  }
  if (rel === '' || rel.endsWith('/')) rel += 'index.html';
  const file = resolve(base, `.${rel}`);
  if (file !== base && !file.startsWith(base + sep)) return null;
  return file;
}

/**
 * Starts the server. Resolves to { server, url, port, close() }.
 * @param {{ port?: number, host?: string, isolation?: boolean, log?: (s: string) => void }} options
 */
export function startServer(options = {}) {
  const port = options.port ?? 8080;
  const host = options.host ?? '127.0.0.1';
  const isolation = options.isolation !== false;
  const log = options.log || (() => {});
  const server = createServer((req, res) => {
    const headers = {
      'Cache-Control': 'no-cache',
      'X-Content-Type-Options': 'nosniff',
      'Cross-Origin-Resource-Policy': 'same-origin',
    };
    if (isolation) {
      headers['Cross-Origin-Opener-Policy'] = 'same-origin';
      headers['Cross-Origin-Embedder-Policy'] = 'require-corp';
    }
    const reply = (status, text) => {
      res.writeHead(status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(text);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      reply(405, 'method not allowed\n');
      return;
    }
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    } catch (e) {
      reply(400, 'bad request\n');
      return;
    }
    const file = pathname.includes('\0') ? null : fileFor(pathname);
    let stat = null;
    try {
      stat = file && statSync(file);
    } catch (e) {
      stat = null;
    }
    if (!stat || !stat.isFile()) {
      log(`404 ${pathname}`);
      reply(404, `not found: ${pathname}\n`);
      return;
    }
    res.writeHead(200, {
      ...headers,
      'Content-Type': TYPES[extname(file).toLowerCase()] || 'application/octet-stream',
      'Content-Length': stat.size,
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    createReadStream(file).on('error', () => res.destroy()).pipe(res);
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const actual = server.address().port;
      resolvePromise({
        server,
        port: actual,
        url: `http://localhost:${actual}/`,
        close: () => new Promise((r) => {
          server.close(() => r());
          server.closeAllConnections?.();
        }),
      });
    });
  });
}

async function main() {
  const args = process.argv.slice(2);
  let port = Number(process.env.PORT || 8080);
  let isolation = true;
  for (let i = 0; i < args.length; ++i) {
    if (args[i] === '--port' && i + 1 < args.length) port = Number(args[++i]);
    else if (args[i] === '--no-isolation') isolation = false;
    else if (args[i] === '--help' || args[i] === '-h') {
      console.log('usage: node web/server.mjs [--port N] [--no-isolation]   (or PORT=N npm run serve)');
      return;
    } else {
      console.error(`serve: unknown argument ${args[i]}`);
      process.exit(2);
    }
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve: bad port ${port}`);
    process.exit(2);
  }
  const missing = missingDistFiles();
  if (missing.length) {
    console.log(`serve: dist/ lacks ${missing.join(', ')}: building the package first (npm run build)`);
    const r = spawnSync(process.execPath, [join(root, 'wasm', 'build.mjs')], { stdio: 'inherit', cwd: root });
    if (r.status !== 0 || missingDistFiles().length) {
      console.error('serve: the build failed; see above');
      process.exit(1);
    }
  }
  let s;
  try {
    s = await startServer({ port, isolation });
  } catch (e) {
    console.error(`serve: cannot listen on 127.0.0.1:${port}: ${e.message}` +
      (e.code === 'EADDRINUSE' ? ' (choose another with PORT=N npm run serve)' : ''));
    process.exit(1);
  }
  console.log(`iopddl page: ${s.url}${isolation ? '' : '  (no cross-origin isolation: one thread)'}`);
  console.log('Ctrl-C stops the server.');
  const stop = () => s.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main();
}
