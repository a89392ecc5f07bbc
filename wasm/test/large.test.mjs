// Large inputs are read in pieces: a generated 50 MB instance (the same
// generator as the 1.3 GB benchmark, build/iopddl-generate) loads to the same
// problem from a path, bytes, a Node stream, a web stream and a Blob, plain and
// gzip, on both back ends, and the digest matches the native CLI's.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pkg, root, nativeCli, hasNative } from './helpers.mjs';

const { createSolver } = pkg;
const generator = join(root, 'build', 'iopddl-generate');
const haveTools = hasNative && existsSync(generator);

describe('large inputs, read in pieces', { skip: haveTools ? false : 'needs the native build (scripts/setup.sh): build/iopddl and build/iopddl-generate' }, () => {
  let dir, plain, gz, digest, size;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'iopddl-large-'));
    plain = join(dir, 'generated.json');
    gz = join(dir, 'generated.json.gz');
    execFileSync(generator, ['--nodes', '2200', plain], { stdio: 'ignore' });
    execFileSync(generator, ['--nodes', '2200', '--gzip', gz], { stdio: 'ignore' });
    size = statSync(plain).size;
    assert.ok(size > 45e6, `the generated file has ${size} bytes`);
    const out = execFileSync(nativeCli, ['check', plain], { encoding: 'utf8' });
    digest = /digest:\s+([0-9a-f]{16})/.exec(out)[1];
    assert.match(execFileSync(nativeCli, ['check', gz], { encoding: 'utf8' }), new RegExp(`digest:\\s+${digest}`));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const backend of ['threads', 'single']) {
    test(`every input form gives the CLI's problem (${backend})`, async () => {
      const solver = await createSolver({ backend, threads: 2 });
      try {
        const progress = [];
        let p = await solver.loadFile(plain, { onProgress: (e) => progress.push(e) });
        assert.equal(p.summary.digest, digest);
        assert.equal(p.summary.inputBytes, size);
        assert.ok(progress.length > 5, `${progress.length} progress reports`);
        for (let k = 1; k < progress.length; ++k) assert.ok(progress[k].bytesRead > progress[k - 1].bytesRead);
        assert.deepEqual(progress.at(-1), { bytesRead: size, bytesTotal: size });
        p.dispose();
        const forms = {
          'gzip path': () => solver.loadFile(gz),
          bytes: () => solver.load(readFileSync(plain)),
          'gzip bytes': () => solver.load(readFileSync(gz)),
          'Node stream': () => solver.load(createReadStream(plain, { highWaterMark: 1 << 20 })),
          'web stream': () => solver.load(Readable.toWeb(createReadStream(gz))),
          Blob: () => solver.load(new Blob([readFileSync(plain)])),
        };
        for (const [name, load] of Object.entries(forms)) {
          p = await load();
          assert.equal(p.summary.digest, digest, name);
          p.dispose();
        }
        // And it solves: a feasible answer within a second.
        p = await solver.loadFile(gz);
        const r = await p.solve({ timeLimitMs: 3000 });
        assert.equal(r.feasible, true);
        p.dispose();
      } finally {
        await solver.dispose();
      }
    });
  }

  test('a path that cannot be read, and a cut file, are clear errors', async () => {
    const solver = await createSolver({ threads: 1 });
    try {
      await assert.rejects(solver.loadFile(join(dir, 'missing.json')), (e) => {
        assert.equal(e.code, 'ERR_IO');
        assert.match(e.message, /missing\.json: cannot open file/);
        return true;
      });
      await assert.rejects(solver.loadFile(dir), (e) => e.code === 'ERR_IO' && /is a directory/.test(e.message));
      const cut = readFileSync(plain).subarray(0, 30e6);
      await assert.rejects(solver.load(cut, { source: 'cut.json' }), (e) => {
        assert.equal(e.code, 'ERR_INVALID_INPUT');
        assert.match(e.message, /^cut\.json: JSON syntax error at byte 30000000 \(in problem\.edges\.costs\[\d+\]\[\d+\]\): unexpected end of input/);
        return true;
      });
      // The solver still works after both.
      const p = await solver.loadFile(gz);
      assert.equal(p.summary.digest, digest);
    } finally {
      await solver.dispose();
    }
  });
});
