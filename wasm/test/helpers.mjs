// Shared by the package's tests: where things are, and small problems.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const dist = join(root, 'dist');
export const data = join(root, 'tests', 'data');
export const examplePath = join(data, 'example.json');
export const instanceGPath = join(data, 'asplos-2025-iopddl-G.json.gz');
export const nativeCli = join(root, 'build', 'iopddl');
export const hasNative = existsSync(nativeCli);

if (!existsSync(join(dist, 'node.mjs')) || !existsSync(join(dist, 'iopddl.wasm'))) {
  throw new Error(`the package is not built: run \`npm run build\` first (looked in ${dist})`);
}

/** The package by its name (self-reference through package.json's exports). */
export const pkg = await import('iopddl-wasm');

export const exampleText = () => readFileSync(examplePath, 'utf8');
export const exampleObject = () => JSON.parse(exampleText());
export const EXAMPLE_OPTIMUM = [0, 0, 2, 1, 0];
export const EXAMPLE_COST = 445n;

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
