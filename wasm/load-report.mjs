#!/usr/bin/env node
// Loads one instance through the package (as a user would: file bytes in, no
// other work) and reports the load time, the module's memory and the process's
// peak resident memory.
//   node wasm/load-report.mjs FILE [--threads N] [--repeat K]
import { readFileSync } from 'node:fs';
import { createSolver } from '../dist/node.mjs';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : def;
};
const file = args.find((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1].startsWith('--')));
if (!file) throw new Error('usage: node wasm/load-report.mjs FILE [--threads N] [--repeat K]');
const MiB = 2 ** 20;
const solver = await createSolver({ threads: Number(opt('--threads', '2')) });
for (let k = 0; k < Number(opt('--repeat', '1')); ++k) {
  const t0 = performance.now();
  const bytes = readFileSync(file);
  const problem = await solver.load(bytes, { source: file });
  const ms = performance.now() - t0;
  const s = problem.summary;
  console.log(`${s.name}: ${s.nodes} nodes, ${s.edges} edges, ${(bytes.length / MiB).toFixed(1)} MiB${s.gzip ? ' gzip' : ''}; ` +
    `load ${ms.toFixed(0)} ms (file read + copy + inflate/parse/validate; core ${s.parseMs.toFixed(0)} ms); ` +
    `module memory ${(solver.memoryBytes() / MiB).toFixed(0)} MiB; ` +
    `process peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
  problem.dispose();
}
await solver.dispose();
