// Invalid input rejects with an Error naming the field and index, with the
// native loader's messages; bad arguments, disposed objects and running out of
// memory give clear errors; nothing is printed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { exampleObject, exampleText, hasNative, nativeCli, pkg } from './helpers.mjs';

const { createSolver, IopddlError } = pkg;

const node1 = '{"intervals":[[1,2]],"costs":[[1]],"usages":[[1]]}';
const noEdges = '{"nodes":[],"costs":[]}';
// [input, what the message must contain]
const badInputs = [
  ['{"problem":', 'JSON syntax error at byte 11 (in problem): unexpected end of input (the document is incomplete)'],
  ['', 'the input is empty (no JSON document)'],
  [`{"problem":{"nodes":${node1},"edges":{"nodes":[[0,3]],"costs":[[1]]}}}`,
    'problem.edges.nodes[0][1]: node index 3 out of range'],
  [`{"problem":{"nodes":{"intervals":[[1,2],[2,3]],"costs":[[1]],"usages":[[1]]},"edges":${noEdges}}}`,
    'node count mismatch: problem.nodes.intervals has 2 entries, problem.nodes.costs 1, problem.nodes.usages 1'],
  [`{"problem":{"nodes":${node1}}}`, 'missing field problem.edges'],
  [`{"problem":{"nodes":{"intervals":[[1,2]],"costs":[[1,2]],"usages":[[1]]},"edges":${noEdges}}}`,
    'strategy count mismatch at node 0: problem.nodes.costs[0] has 2 entries, problem.nodes.usages[0] has 1'],
  ['{"problem":{"nodes":{"intervals":[[1,2]],"costs":[[1.5]],"usages":[[1]]},"edges":{"nodes":[],"costs":[]}}}',
    'problem.nodes.costs[0][0]: expected an integer, got a number with a fraction or exponent'],
  ['{"problem":{"nodes":{"intervals":[[1,2]],"costs":[[99999999999999999999]],"usages":[[1]]},"edges":{"nodes":[],"costs":[]}}}',
    'problem.nodes.costs[0][0]'],
  [`{"problem":{"nodes":${node1},"edges":{"nodes":[[0,0]],"costs":[[1,2]]}}}`,
    'problem.edges.costs[0]: has 2 entries, expected 1'],
  ['{"problem":{"nodes":{"intervals":[[5,2]],"costs":[[1]],"usages":[[1]]},"edges":{"nodes":[],"costs":[]}}}',
    'problem.nodes.intervals[0]'],
];

describe('errors', () => {
  let solver;
  let dir;
  before(async () => {
    solver = await createSolver({ threads: 2 });
    dir = mkdtempSync(join(tmpdir(), 'iopddl-wasm-'));
  });
  after(async () => {
    await solver.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  test('invalid inputs name the field and index', async () => {
    for (const [text, want] of badInputs) {
      await assert.rejects(solver.load(text, { source: 'bad.json' }), (e) => {
        assert.ok(e instanceof Error);
        assert.ok(e instanceof IopddlError);
        assert.equal(e.code, 'ERR_INVALID_INPUT');
        assert.ok(e.message.startsWith('bad.json: '), e.message);
        assert.ok(e.message.includes(want), `${JSON.stringify(text)}: got "${e.message}", want "${want}"`);
        return true;
      });
    }
  });

  test('the same messages as the native loader', { skip: !hasNative && 'build/iopddl is not built' }, async () => {
    for (const [text] of badInputs) {
      const file = join(dir, 'bad.json');
      writeFileSync(file, text);
      const r = spawnSync(nativeCli, [file, '1'], { encoding: 'utf8' });
      assert.equal(r.status, 3, r.stderr);
      const nativeMessage = r.stderr.trim().replace(/^iopddl: /, '');
      await assert.rejects(solver.load(text, { source: file }), (e) => {
        assert.equal(e.message, nativeMessage);
        return true;
      });
    }
  });

  test('corrupt and truncated gzip', async () => {
    const gz = gzipSync(Buffer.from(exampleText()));
    await assert.rejects(solver.load(gz.subarray(0, gz.length - 20)), /input: gzip data is truncated/);
    const corrupt = Buffer.from(gz);
    corrupt.fill(0xff, 12, 40);
    await assert.rejects(solver.load(corrupt), /input: gzip data is corrupt/);
  });

  // In Node, gzip is inflated by Node's zlib, not the module's: the verdicts
  // and messages stay the native loader's, whatever way the bytes come.
  test('gzip forms: the native loader\'s verdicts and messages', { skip: !hasNative && 'build/iopddl is not built' }, async () => {
    const text = Buffer.from(exampleText());
    const gz = gzipSync(text);
    const half = text.length >> 1;
    const corrupt = Buffer.from(gz);
    corrupt.fill(0xff, 12, 40);
    const forms = {
      'two members': Buffer.concat([gzipSync(text.subarray(0, half)), gzipSync(text.subarray(half))]),
      'trailing bytes': Buffer.concat([gz, Buffer.from('not gzip')]),
      truncated: gz.subarray(0, gz.length - 20),
      'cut in the header': gz.subarray(0, 5),
      corrupt,
    };
    for (const [what, bytes] of Object.entries(forms)) {
      const file = join(dir, 'form.json.gz');
      writeFileSync(file, bytes);
      const r = spawnSync(nativeCli, ['check', file], { encoding: 'utf8' });
      // Every way in: bytes, a path, and a stream that gives one byte at a time at first.
      const ways = {
        bytes: () => solver.load(bytes, { source: file }),
        path: () => solver.loadFile(file),
        'byte stream': () => solver.load((async function* () {
          for (let i = 0; i < 4; ++i) yield bytes.subarray(i, i + 1);
          yield bytes.subarray(4);
        })(), { source: file }),
      };
      for (const [way, load] of Object.entries(ways)) {
        if (r.status === 0) {
          const p = await load();
          assert.equal(p.summary.digest, r.stdout.match(/digest:\s+(\S+)/)[1], `${what}, ${way}`);
          assert.equal(p.summary.gzip, true, `${what}, ${way}`);
          assert.equal(p.summary.inputBytes, bytes.length, `${what}, ${way}`);
          p.dispose();
        } else {
          await assert.rejects(load(), (e) => {
            assert.equal(e.code, 'ERR_INVALID_INPUT', `${what}, ${way}`);
            assert.equal(e.message, r.stderr.trim().replace(/^iopddl: /, ''), `${what}, ${way}`);
            return true;
          });
        }
      }
    }
  });

  test('inputs of the wrong kind', async () => {
    await assert.rejects(solver.load(), TypeError);
    await assert.rejects(solver.load(42), TypeError);
    await assert.rejects(solver.load(exampleText(), { source: 7 }), TypeError);
  });

  test('bad assignments', async () => {
    const p = await solver.load(exampleObject());
    await assert.rejects(p.evaluate([0, 0]), (e) => e.code === 'ERR_INVALID_ASSIGNMENT' &&
      e.message === 'solution has 2 entries, the problem has 5 nodes');
    await assert.rejects(p.evaluate([0, 0, 3, 0, 0]), (e) => e.code === 'ERR_INVALID_ASSIGNMENT' &&
      e.message === 'solution[2] = 3 is out of range: node 2 has 3 strategies');
    await assert.rejects(p.evaluate([0, 0, 2 ** 40, 0, 0]), /solution\[2\] = 2147483647 is out of range/);
    await assert.rejects(p.evaluate([0, 0.5, 0, 0, 0]), /solution\[1\] = 0.5 is not an integer/);
    await assert.rejects(p.evaluate('01210'), TypeError);
    p.dispose();
  });

  test('bad solve options', async () => {
    const p = await solver.load(exampleObject());
    await assert.rejects(p.solve({ timeLimitMs: -1 }), RangeError);
    await assert.rejects(p.solve({ timeLimitMs: Infinity }), RangeError);
    await assert.rejects(p.solve({ threads: 0 }), RangeError);
    await assert.rejects(p.solve({ threads: 1.5 }), TypeError);
    await assert.rejects(p.solve({ seed: -1 }), RangeError);
    await assert.rejects(p.solve({ seed: 'x' }), TypeError);
    // An unknown option is named, not ignored (`rounds` ran on the clock).
    await assert.rejects(p.solve({ rounds: 20 }), /unknown solve\(\) option 'rounds' \(did you mean 'maxRounds'\?\)/);
    await assert.rejects(p.solve({ timelimitMs: 5 }), /unknown solve\(\) option 'timelimitMs'/);
    await assert.rejects(p.solve({ seed: 2n ** 64n }), RangeError);
    await assert.rejects(p.solve({ onProgress: 1 }), TypeError);
    await assert.rejects(p.solve({ signal: {} }), TypeError);
    p.dispose();
  });

  test('a throwing progress callback stops the solve and rejects with its error', async () => {
    const p = await solver.load(exampleObject());
    const t0 = performance.now();
    await assert.rejects(p.solve({ timeLimitMs: 20_000, onProgress: () => { throw new Error('boom'); } }), /boom/);
    assert.ok(performance.now() - t0 < 5000);
    p.dispose();
  });

  test('disposed problems and solvers', async () => {
    const p = await solver.load(exampleObject());
    p.dispose();
    p.dispose();  // twice is fine
    await assert.rejects(p.solve(), (e) => e.code === 'ERR_DISPOSED');
    await assert.rejects(p.evaluate([0, 0, 2, 1, 0]), (e) => e.code === 'ERR_DISPOSED');
    const s2 = await createSolver({ threads: 1 });
    await s2.dispose();
    await s2.dispose();
    await assert.rejects(s2.load(exampleText()), (e) => e.code === 'ERR_DISPOSED');
  });

  test('bad createSolver options', async () => {
    await assert.rejects(createSolver({ threads: 0 }), RangeError);
    await assert.rejects(createSolver({ backend: 'gpu' }), TypeError);
  });

  test('out of memory is a clear error', async () => {
    const small = await createSolver({ threads: 1, maxMemoryBytes: 64 * 2 ** 20 });
    try {
      // The parsed problem does not fit: the message says how far the load got.
      const n = 60_000;
      const k = 40;
      const row = `[${Array.from({ length: k }, (_, s) => 1000000 + s).join(',')}]`;
      const text = `{"problem":{"nodes":{"intervals":[${'[0,9],'.repeat(n - 1)}[0,9]],` +
        `"costs":[${`${row},`.repeat(n - 1)}${row}],"usages":[${`${row},`.repeat(n - 1)}${row}]},` +
        '"edges":{"nodes":[],"costs":[]}}}';
      await assert.rejects(small.load(text), (e) => {
        assert.equal(e.code, 'ERR_OUT_OF_MEMORY');
        assert.match(e.message, /^input: out of memory after \d+ bytes of input \(the module's memory is \d+ MB; it cannot grow past 4 GB\)/);
        return true;
      });
      // What the loading thread held is lost: the solver says it is spent.
      await assert.rejects(small.load(exampleObject()), (e) => {
        assert.equal(e.code, 'ERR_OUT_OF_MEMORY');
        assert.match(e.message, /ran out of memory earlier .* dispose\(\) it and create a new one/);
        return true;
      });
    } finally {
      await small.dispose();
    }
    // A new solver works.
    const fresh = await createSolver({ threads: 1, maxMemoryBytes: 64 * 2 ** 20 });
    try {
      const p = await fresh.load(exampleObject());
      assert.equal((await p.solve({ timeLimitMs: 100 })).cost, 445n);
    } finally {
      await fresh.dispose();
    }
  });

  test('an input larger than the module\'s memory loads piece by piece', async () => {
    const small = await createSolver({ threads: 1, maxMemoryBytes: 64 * 2 ** 20 });
    try {
      // 80 MB of blanks before the example: never held whole, so it loads.
      const text = new TextEncoder().encode(JSON.stringify(exampleObject()));
      const big = new Uint8Array(80 * 2 ** 20 + text.length).fill(0x20);
      big.set(text, 80 * 2 ** 20);
      const p = await small.load(big);
      assert.equal((await p.solve({ timeLimitMs: 100 })).cost, 445n);
      assert.equal(p.summary.inputBytes, big.length);
      const q = await small.load(exampleObject());
      assert.equal((await q.solve({ timeLimitMs: 100 })).cost, 445n);
    } finally {
      await small.dispose();
    }
  });
});
