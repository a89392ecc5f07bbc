// The core's constants come from the module, once: bindings.cc's constants()
// (version.h, solver.h, int128.h, load_json.h), written by build.mjs into
// dist/constants.mjs and .cjs. The package and the page read them there; this
// test fails when wasm/js or web restates one of them as a literal.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { dist, pkg, root } from './helpers.mjs';

const constants = createRequire(import.meta.url)(join(dist, 'constants.cjs'));
const escape = (s) => String(s).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// 10000 also as 10_000 or 10e3; 1000000000000000000 also as 1e18 or 10 ** 18.
const number = (n) => {
  const s = String(n);
  const zeros = s.match(/0*$/)[0].length;
  const lead = s.slice(0, s.length - zeros);
  const forms = [s.replace(/\B(?=(\d{3})+$)/g, '_?')];
  if (zeros > 0) {
    forms.push(`${lead}(\\.0*)?e\\+?${zeros}`, `${lead}0(\\.0*)?e\\+?${zeros - 1}`);
    if (lead === '1') forms.push(`10\\s*\\*\\*\\s*${zeros}`);
  }
  return new RegExp(`(?<![\\w.])(${forms.join('|')})n?(?![\\w.])`, 'i');
};

// Where a restatement would be found, and what it looks like. The default time
// limit is looked for only in the package: the page's 10_000 ms are its own
// (a formatting step, a URL's lifetime).
const restatements = [
  { name: 'version', pattern: new RegExp(`['"\`]v?${escape(constants.version)}['"\`]`), where: ['wasm/js', 'web'] },
  { name: 'maxThreads', pattern: number(constants.maxThreads), where: ['wasm/js', 'web'] },
  { name: 'defaultTimeLimitMs', pattern: number(constants.defaultTimeLimitMs), where: ['wasm/js'] },
  {
    name: 'defaultTimeLimitMs (seconds)',
    pattern: new RegExp(`(time_?limit|default)\\w*\\s*[=:?][^\\n;]*(?<![\\w.])${constants.defaultTimeLimitMs / 1000}(?![\\w.])`, 'i'),
    where: ['wasm/js', 'web'],
  },
  {
    name: 'defaultTimeLimitMs (field)',
    pattern: new RegExp(`id="time-limit"[^>]*\\bvalue="${constants.defaultTimeLimitMs / 1000}"`),
    where: ['web'],
  },
  { name: 'forbiddenCost', pattern: number(constants.forbiddenCost), where: ['wasm/js', 'web'] },
  { name: 'forbiddenThreshold', pattern: number(constants.forbiddenThreshold), where: ['wasm/js', 'web'] },
  {
    name: 'gzipMagic',
    pattern: new RegExp(constants.gzipMagic.map((b) => `(0x0*${b.toString(16)}|(?<![\\w.])${b}(?![\\w.]))`).join('[\\s\\S]{0,40}'), 'i'),
    where: ['wasm/js', 'web'],
  },
];

// The package's and the page's own sources (not their tests, not generated files).
function sources(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (!['test', 'node_modules', 'dist', 'third_party'].includes(name)) out.push(...sources(p));
    } else if (/\.(mjs|cjs|js|ts|html)$/.test(name)) out.push(p);
  }
  return out;
}

// Comments may name a value (a doc comment saying 10^18): code may not.
function code(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/<!--[\s\S]*?-->/g, '')
    .split('\n').map((line) => line.replace(/(^|[^:'"`\\])\/\/.*$/, '$1')).join('\n');
}

test('the package exports the module\'s constants', () => {
  assert.equal(pkg.VERSION, constants.version);
  assert.equal(pkg.FORBIDDEN_COST, BigInt(constants.forbiddenCost));
  assert.equal(pkg.DEFAULT_TIME_LIMIT_MS, constants.defaultTimeLimitMs);
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  assert.equal(manifest.version, constants.version, 'package.json and src/version.h disagree');
});

test('the patterns find what they look for', () => {
  for (const { name, pattern } of restatements) {
    const value = name === 'gzipMagic' ? '[0x1f, 0x8b]' : name === 'version' ? `'${constants.version}'`
      : name.endsWith('(seconds)') ? `timeLimit = ${constants.defaultTimeLimitMs / 1000}`
      : name.endsWith('(field)') ? `<input id="time-limit" type="number" value="${constants.defaultTimeLimitMs / 1000}">`
      : String(constants[name]);
    assert.match(value, pattern, name);
  }
  assert.match('threads, 1, 256)', number(256));
  assert.match('const FORBIDDEN = 1e18;', number('1000000000000000000'));
  assert.match('? 10_000 :', number(10000));
  assert.doesNotMatch('2560, 0.256, x256', number(256));
});

test('wasm/js and web restate none of the module\'s constants', () => {
  const found = [];
  for (const { name, pattern, where } of restatements) {
    for (const dir of where) {
      for (const file of sources(join(root, dir))) {
        const lines = code(readFileSync(file, 'utf8')).split('\n');
        lines.forEach((line, i) => {
          if (pattern.test(line)) found.push(`${relative(root, file)}:${i + 1}: ${name}: ${line.trim()}`);
        });
      }
    }
  }
  assert.deepEqual(found, [], `constants restated (read them from the module's, through shared.mjs):\n${found.join('\n')}`);
});
