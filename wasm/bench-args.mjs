// What the package's benchmark scripts (bench.mjs, bench-mechanisms.mjs,
// profile.mjs) share: the repository's root, their command-line options, the CLI's
// path and the shared instances' list (best_known.tsv).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const args = process.argv.slice(2);

/** The value after `--name`, or `def`. */
export function opt(name, def) {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : def;
}

/** The instance letters after `--only` (up to the next option), or `def`. */
export function only(def) {
  const at = args.indexOf('--only');
  return at >= 0 ? args.slice(at + 1).filter((a) => !a.startsWith('--')) : def;
}

/**
 * The search parameters given as `--set NAME=VALUE` (repeatable): `sets`, the
 * texts as given (for the CLI's --set), and `params`, { NAME: number } (the
 * package's params). Throws on a value that is not a number.
 */
export function searchParams() {
  const sets = args.flatMap((a, i) => (a === '--set' && i + 1 < args.length ? [args[i + 1]] : []));
  const params = Object.fromEntries(sets.map((kv) => {
    const at = kv.indexOf('=');
    if (at <= 0 || !Number.isFinite(Number(kv.slice(at + 1)))) throw new Error(`--set ${kv}: expected NAME=NUMBER`);
    return [kv.slice(0, at), Number(kv.slice(at + 1))];
  }));
  return { sets, params };
}

/** The CLI's path (`--native`, default build/iopddl); throws when it is not built. */
export function nativeCli() {
  const native = resolve(root, opt('--native', 'build/iopddl'));
  if (!existsSync(native)) throw new Error(`${native} not found: build the CLI first (scripts/setup.sh)`);
  return native;
}

/**
 * The instances of `--benchmarks DIR` (default ../shared/benchmarks): { instance, file,
 * timeout (the contest's, times `fraction`), best }, those named by `names` only (null: all).
 */
export function instances(names, fraction = 1) {
  const dir = resolve(root, opt('--benchmarks', '../shared/benchmarks'));
  return readFileSync(join(dir, 'best_known.tsv'), 'utf8').trim().split('\n').slice(1)
    .map((l) => l.split('\t'))
    .map(([instance, file, timeout, best]) => ({ instance, file: join(dir, file), timeout: Number(timeout) * fraction, best: BigInt(best) }))
    .filter((r) => !names || names.includes(r.instance));
}
