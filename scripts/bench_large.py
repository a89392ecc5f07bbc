#!/usr/bin/env python3
"""The large-file benchmark: a generated instance of the contest's largest size
(Y: 1.3 GB of JSON, about 60 MB gzip), through the CLI (and, when built, the npm
package in Node). Prints one table row per entry point and input form: load time,
peak memory (whole process) during the load and during the search, the
package's module memory after the search (WebAssembly's, capped at 4 GB), time
to the first feasible answer, final cost.

  scripts/bench_large.py [--nodes 56000] [--timeout 300] [--only cli|package] [--gzip]

The instance is written once to build/bench-data/generated-NODES.json(.gz) by
build/iopddl-generate (never committed). Load-only figures come from
`iopddl check` (it loads and validates), searched figures from
`iopddl --threads 2 FILE TIMEOUT`. Peak memory is the maximum resident set size
(GNU time).
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, 'build', 'bench-data')


def run_timed(cmd, env=None):
    """Runs cmd under GNU time; returns (stdout, stderr, peak_kb, wall_s)."""
    r = subprocess.run(['/usr/bin/time', '-f', 'PEAK_KB %M WALL_S %e'] + cmd, capture_output=True, text=True, env=env)
    m = re.search(r'PEAK_KB (\d+) WALL_S ([\d.]+)', r.stderr)
    return r.stdout, r.stderr, int(m.group(1)) if m else -1, float(m.group(2)) if m else None


def ensure_instance(nodes, gz):
    os.makedirs(DATA, exist_ok=True)
    path = os.path.join(DATA, f'generated-{nodes}.json' + ('.gz' if gz else ''))
    if not os.path.exists(path):
        gen = os.path.join(ROOT, 'build', 'iopddl-generate')
        args = [gen, '--nodes', str(nodes)] + (['--gzip'] if gz else []) + [path]
        subprocess.run(args, check=True)
    return path


def cli_rows(path, timeout):
    cli = os.path.join(ROOT, 'build', 'iopddl')
    out, err, load_peak, _ = run_timed([cli, 'check', path])
    loaded = re.search(r'loaded in:\s+([\d.]+) s', out)
    out, err, peak, wall = run_timed([cli, '--threads', '2', path, str(timeout)])
    first = None
    for line in out.splitlines():
        m = re.match(r'# ([\d.]+) s cost (\d+)(?! \(infeasible\))', line)
        if m and '(infeasible)' not in line:
            first = float(m.group(1))
            break
    final = re.search(r'^# cost (\d+)', out, re.M)
    return {
        'entry': 'CLI', 'file': os.path.basename(path), 'size_mb': os.path.getsize(path) / 1e6,
        'load_s': float(loaded.group(1)) if loaded else None, 'load_peak_mb': load_peak / 1024,
        'peak_mb': peak / 1024, 'first_feasible_s': first,
        'cost': int(final.group(1)) if final else None,
        'wall_s': wall,  # the whole process, loading and printing included
    }


def package_rows(path, timeout):
    script = os.path.join(ROOT, 'wasm', 'bench-large.mjs')
    if not os.path.exists(os.path.join(ROOT, 'dist', 'node.mjs')) or not os.path.exists(script):
        print('package: dist/ not built (npm run build): skipped', file=sys.stderr)
        return None
    out, err, load_peak, _ = run_timed(['node', script, path, '0'])
    load = re.search(r'LOAD_MS ([\d.]+)', out)
    out2, err2, peak, wall = run_timed(['node', script, path, str(timeout)])
    first = re.search(r'FIRST_FEASIBLE_S ([\d.]+)', out2)
    cost = re.search(r'COST (\d+)', out2)
    module = re.findall(r'MODULE_MB (\d+)', out2)
    if not load:
        print(out + err, file=sys.stderr)
    return {
        'entry': 'package (Node)', 'file': os.path.basename(path), 'size_mb': os.path.getsize(path) / 1e6,
        'load_s': float(load.group(1)) / 1000 if load else None, 'load_peak_mb': load_peak / 1024,
        'peak_mb': peak / 1024, 'first_feasible_s': float(first.group(1)) if first else None,
        'cost': int(cost.group(1)) if cost else None,
        # The module's memory (WebAssembly's, 4 GB at most) after the search.
        'module_mb': int(module[-1]) if module else None,
        'wall_s': wall,
    }


def fmt(v, spec):
    return '-' if v is None else format(v, spec)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--nodes', type=int, default=56000)
    ap.add_argument('--timeout', type=float, default=300)
    ap.add_argument('--only', choices=['cli', 'package'])
    ap.add_argument('--gzip', action='store_true', help='also the .json.gz form')
    a = ap.parse_args()
    paths = [ensure_instance(a.nodes, False)] + ([ensure_instance(a.nodes, True)] if a.gzip else [])
    rows = []
    for path in paths:
        if a.only in (None, 'cli'):
            rows.append(cli_rows(path, a.timeout))
        if a.only in (None, 'package'):
            r = package_rows(path, a.timeout)
            if r:
                rows.append(r)
    print(f'cores: {os.cpu_count()}, timeout {a.timeout:g} s, 2 threads')
    print('| entry | file | MB | load s | peak MB (load) | peak MB (search) | module MB (search) | first feasible s | final cost | wall s |')
    print('|---|---|---|---|---|---|---|---|---|---|')
    for r in rows:
        print(f"| {r['entry']} | {r['file']} | {r['size_mb']:.0f} | {fmt(r['load_s'], '.2f')} | "
              f"{r['load_peak_mb']:.0f} | {r['peak_mb']:.0f} | {fmt(r.get('module_mb'), 'd')} | "
              f"{fmt(r['first_feasible_s'], '.1f')} | "
              f"{fmt(r['cost'], 'd')} | {fmt(r['wall_s'], '.1f')} |")


if __name__ == '__main__':
    main()
