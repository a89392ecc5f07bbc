#!/usr/bin/env node
// The package's side of scripts/bench_large.py: loads FILE with loadFile() (read
// in pieces) and, when SECONDS > 0, solves it with 2 threads for that long.
// Prints LOAD_MS, MODULE_MB (the module's memory), FIRST_FEASIBLE_S (from the
// start of the load, as the CLI counts) and COST lines for the script to read.
//
//   node wasm/bench-large.mjs FILE SECONDS
import { createSolver } from '../dist/node.mjs';

const [file, secondsText] = process.argv.slice(2);
if (!file) {
  console.error('usage: node wasm/bench-large.mjs FILE SECONDS');
  process.exit(2);
}
const seconds = Number(secondsText || 0);
const t0 = performance.now();
const solver = await createSolver({ threads: 2 });
try {
  const tLoad = performance.now();
  const problem = await solver.loadFile(file);
  console.log(`LOAD_MS ${(performance.now() - tLoad).toFixed(0)}`);
  console.log(`MODULE_MB ${Math.round(solver.memoryBytes() / 2 ** 20)} after load`);
  if (seconds > 0) {
    let first = null;
    // The contest's clock: the whole timeout covers loading too.
    const left = seconds * 1000 - (performance.now() - t0) - 1500;
    const result = await problem.solve({
      timeLimitMs: Math.max(1000, left),
      onProgress: (p) => {
        if (first === null && p.feasible) first = (performance.now() - t0) / 1000;
      },
    });
    if (first !== null) console.log(`FIRST_FEASIBLE_S ${first.toFixed(1)}`);
    console.log(`MODULE_MB ${Math.round(solver.memoryBytes() / 2 ** 20)} after solve`);
    console.log(`COST ${result.cost}${result.feasible ? '' : ' (infeasible)'}`);
  }
} catch (e) {
  console.log(`ERROR ${e.code || ''} ${e.message}`);
  process.exitCode = 1;
} finally {
  await solver.dispose();
}
