#!/usr/bin/env node
// `npm run build`: compiles the core (src/) with Emscripten through the project's
// CMake, twice (threaded and single-threaded), into dist/, and puts the package's
// JavaScript and type declarations beside the generated files.
//
//   node wasm/build.mjs [--out DIR] [--jobs N] [--only threads|single] [--debug]
//
// Needs Emscripten (emcmake, emcc) and CMake (Debian: apt-get install emscripten cmake).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : def;
};
const out = resolve(root, opt('--out', 'dist'));
const jobs = opt('--jobs', '2');
const only = opt('--only', null);
const buildType = args.includes('--debug') ? 'RelWithDebInfo' : 'Release';
const work = join(root, 'build-wasm');

function die(msg) {
  console.error(`build: ${msg}`);
  process.exit(1);
}

function which(cmd) {
  for (const dir of (process.env.PATH || '').split(delimiter)) {
    if (dir && existsSync(join(dir, cmd))) return join(dir, cmd);
  }
  return null;
}

function run(cmd, argv, env) {
  console.log(`$ ${cmd} ${argv.join(' ')}`);
  const r = spawnSync(cmd, argv, { stdio: 'inherit', env, cwd: root });
  if (r.error) die(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) die(`${cmd} failed (exit ${r.status})`);
}

if (!which('emcmake') || !which('emcc')) {
  die('Emscripten is not installed (emcmake/emcc not on PATH). On Debian: apt-get install emscripten');
}
if (!which('cmake')) die('CMake is not installed. On Debian: apt-get install cmake');

// Emscripten's JS optimizer runs under this Node and needs Debian's node modules.
const env = { ...process.env };
if (existsSync('/usr/share/nodejs')) {
  env.NODE_PATH = env.NODE_PATH ? `${env.NODE_PATH}${delimiter}/usr/share/nodejs` : '/usr/share/nodejs';
}

mkdirSync(out, { recursive: true });
const t0 = Date.now();
for (const variant of ['threads', 'single']) {
  if (only && only !== variant) continue;
  const dir = join(work, variant);
  run('emcmake', ['cmake', '-S', root, '-B', dir,
    `-DCMAKE_BUILD_TYPE=${buildType}`,
    `-DIOPDDL_WASM_PTHREADS=${variant === 'threads' ? 'ON' : 'OFF'}`,
    `-DIOPDDL_WASM_OUT=${out}`,
    '-DIOPDDL_BUILD_TESTS=OFF', '-DIOPDDL_BUILD_CLI=OFF'], env);
  run('cmake', ['--build', dir, '--target', 'iopddl_wasm', '-j', jobs], env);
}

// The hand-written layer, next to the generated files.
const js = join(root, 'wasm', 'js');
for (const f of readdirSync(js)) cpSync(join(js, f), join(out, f));
// The generated loader and worker are CommonJS: keep them so even inside a
// package (or project) that declares "type": "module".
writeFileSync(join(out, 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);

console.log(`\nbuilt in ${((Date.now() - t0) / 1000).toFixed(1)} s into ${out}:`);
for (const f of readdirSync(out).sort()) {
  console.log(`  ${f.padEnd(22)} ${String(statSync(join(out, f)).size).padStart(9)} bytes`);
}
