// With a seed and a round budget the package gives the CLI's answer, so that
// a user can reproduce a page's or a script's result with the CLI: with one
// thread on both back ends, and with two on the threads back end (the threads
// keep step under a round budget: src/lockstep.h). On the bundled instances;
// the CLI is the native build (build/iopddl), which scripts/test.sh builds
// before the package's tests.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { data, hasNative, nativeCli, pkg } from './helpers.mjs';

const { createSolver } = pkg;

// V stops at its round budget; G proves its answer optimal first and stops
// there, at the same round on both sides.
// The single back end runs a shorter V (its budget is the test suite's time).
const cases = {
  threads: [
    { file: 'asplos-2025-iopddl-V.json.gz', seed: 1, rounds: 20 },
    { file: 'asplos-2025-iopddl-G.json.gz', seed: 1, rounds: 20 },
    { file: 'asplos-2025-iopddl-V.json.gz', seed: 1, rounds: 20, threads: 2 },
  ],
  single: [
    { file: 'asplos-2025-iopddl-V.json.gz', seed: 7, rounds: 6 },
    { file: 'asplos-2025-iopddl-G.json.gz', seed: 3, rounds: 20 },
  ],
};

function cliAnswer({ file, seed, rounds, threads = 1 }) {
  const r = spawnSync(nativeCli, [join(data, file), '600', '--threads', String(threads), '--seed', String(seed),
    '--rounds', String(rounds), '--stats'], { encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  const assignment = JSON.parse(lines[lines.length - 1]);
  const done = (r.stdout + r.stderr).match(/# done in [\d.]+ s: (\d+) rounds/);
  assert.ok(done, `no round count in the CLI's statistics:\n${r.stdout}${r.stderr}`);
  return { assignment, rounds: Number(done[1]) };
}

for (const backend of ['threads', 'single']) {
  describe(`the CLI's answer (${backend} back end)`, { skip: !hasNative && 'build/iopddl is not built' }, () => {
    let solver;
    before(async () => { solver = await createSolver({ backend, threads: Math.max(...cases[backend].map((c) => c.threads ?? 1)) }); });
    after(async () => { await solver?.dispose(); });

    for (const c of cases[backend]) {
      test(`${c.file}, seed ${c.seed}, ${c.rounds} rounds, ${c.threads ?? 1} thread(s)`, async () => {
        const want = cliAnswer(c);
        const p = await solver.load(readFileSync(join(data, c.file)));
        try {
          const options = { threads: c.threads ?? 1, seed: c.seed, maxRounds: c.rounds, timeLimitMs: 600_000 };
          const a = await p.solve(options);
          const b = await p.solve(options);
          assert.equal(a.stats.rounds, want.rounds, 'rounds run');
          assert.deepEqual(a.assignment, want.assignment, 'the CLI\'s assignment');
          assert.deepEqual(b.assignment, a.assignment, 'the same assignment on a second call');
          assert.equal(b.cost, a.cost);
        } finally {
          p.dispose();
        }
      });
    }
  });
}
