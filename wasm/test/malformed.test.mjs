// The shared corpus of malformed problems (tests/data/malformed/expected.tsv):
// every file must be refused with the message the native CLI gives.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { data, pkg } from './helpers.mjs';

const dir = join(data, 'malformed');
const listed = existsSync(join(dir, 'expected.tsv'));
const cases = !listed ? [] : readFileSync(join(dir, 'expected.tsv'), 'utf8').split('\n')
  .filter((l) => l && !l.startsWith('#'))
  .map((l) => l.split('\t'));

describe('malformed corpus', { skip: !listed && 'tests/data/malformed/expected.tsv is missing' }, () => {
  let solver;
  before(async () => { solver = await pkg.createSolver({ threads: 2 }); });
  after(async () => { await solver.dispose(); });

  test(`${cases.length} files are refused with the expected messages`, async () => {
    const failures = [];
    for (const [file, , want] of cases) {
      const t0 = performance.now();
      try {
        const p = await solver.load(readFileSync(join(dir, file)), { source: file });
        p.dispose();
        failures.push(`${file}: loaded without an error`);
      } catch (e) {
        if (e.code !== 'ERR_INVALID_INPUT') failures.push(`${file}: ${e.code}: ${e.message}`);
        else if (!e.message.startsWith(`${file}: `) || !e.message.includes(want)) {
          failures.push(`${file}: got "${e.message}", want "${want}"`);
        }
      }
      const ms = performance.now() - t0;
      if (ms > 5000) failures.push(`${file}: took ${ms.toFixed(0)} ms`);
    }
    assert.deepEqual(failures, []);
  });
});
