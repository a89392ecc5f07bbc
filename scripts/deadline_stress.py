#!/usr/bin/env python3
"""Checks that the CLI keeps its deadline while every core is busy elsewhere.

Runs build/iopddl on every contest instance (decompressed once to plain JSON in
build/bench-data/, as scripts/bench.py does: the contest hands plain JSON) at
short timeouts, with one busy-loop process per core started before each run and
killed after it. Per instance and timeout it reports the wall time (which must
not exceed the timeout), the exit code, feasibility and cost (checked with
`iopddl evaluate`), and where the time went, from the CLI's own lines:

  load    '# ... loaded in X s'         (reading and parsing the file)
  start   '# X s bound B'               (the model, exact reductions, cheap bound: ready to search)
  first   the first '# X s cost C' line (the first answer)
  done    '# done in X s'               (search finished, threads joined)
  exit    wall - done                   (printing the answer, freeing memory, process exit)

  scripts/deadline_stress.py                          # all instances, timeouts 1 2 5
  scripts/deadline_stress.py --timeouts 1 --only A    # one instance, one timeout
  scripts/deadline_stress.py --busy 0                 # no competing load

Exit status: 0 when every run ended within its timeout with exit code 0, else 1.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import plain_json, read_table  # noqa: E402  (the same instance table and cache)
BUSY_LOOP = "while True:\n    pass\n"


def start_busy(n):
    procs = [subprocess.Popen([sys.executable, "-c", BUSY_LOOP], stdin=subprocess.DEVNULL)
             for _ in range(n)]
    time.sleep(0.2)  # let them reach the loop before the measured run starts
    return procs


def stop_busy(procs):
    for p in procs:
        p.kill()
    for p in procs:
        p.wait()


def phases(out):
    """The CLI's own timestamps (seconds since the process started)."""
    ph = {"load": None, "start": None, "first": None, "done": None}
    for line in out.splitlines():
        m = re.match(r"# iopddl .* loaded in ([0-9.]+) s", line)
        if m:
            ph["load"] = float(m.group(1))
        m = re.match(r"# ([0-9.]+) s bound ", line)
        if m and ph["start"] is None:
            ph["start"] = float(m.group(1))
        m = re.match(r"# ([0-9.]+) s cost ", line)
        if m and ph["first"] is None:
            ph["first"] = float(m.group(1))
        m = re.match(r"# done in ([0-9.]+) s", line)
        if m:
            ph["done"] = float(m.group(1))
    return ph


def evaluate(binary, problem, out_file):
    res = subprocess.run([binary, "evaluate", problem, out_file], capture_output=True, text=True)
    cost, feasible = None, False
    for line in res.stdout.splitlines():
        if line.startswith("total cost:"):
            cost = int(line.split(":")[1])
        if line.startswith("feasible:"):
            feasible = line.split(":")[1].strip() == "yes"
    return cost, feasible, res.returncode


def fmt(v, spec=".3f"):
    return "-" if v is None else format(v, spec)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default=os.path.join(ROOT, "build", "iopddl"))
    ap.add_argument("--benchmarks", default=os.path.join(ROOT, "..", "shared", "benchmarks"))
    ap.add_argument("--timeouts", nargs="+", type=float, default=[1, 2, 5])
    ap.add_argument("--busy", type=int, default=os.cpu_count(), help="busy-loop processes (default: one per core)")
    ap.add_argument("--threads", type=int, help="--threads for the CLI (default: the CLI's own, all cores)")
    ap.add_argument("--only", nargs="*", help="instance letters, e.g. A G")
    ap.add_argument("--keep", help="folder to keep each run's output in (INSTANCE-TIMEOUT.out)")
    args = ap.parse_args()

    cache = os.path.join(ROOT, "build", "bench-data")
    os.makedirs(cache, exist_ok=True)
    rows = [r for r in read_table(args.benchmarks) if not args.only or r["instance"] in args.only]
    paths = {r["instance"]: plain_json(args.benchmarks, cache, r["file"]) for r in rows}

    print(f"# {os.cpu_count()} cores, {args.busy} busy-loop process(es) during each run, "
          f"threads {args.threads or 'CLI default'}, binary {os.path.relpath(args.binary, ROOT)}")
    print("# phase columns: the CLI's own timestamps in s since start; exit = wall - done")
    print(f"{'inst':<5}{'timeout':>8}{'wall_s':>8}{'ok':>4}{'rc':>4}{'feasible':>9}  {'cost':<14}"
          f"{'load':>7}{'start':>7}{'first':>7}{'done':>7}{'exit':>7}")
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            tmp = args.keep
        for timeout in args.timeouts:
            for row in rows:
                inst = row["instance"]
                path = paths[inst]
                cmd = [args.binary]
                if args.threads:
                    cmd += ["--threads", str(args.threads)]
                cmd += [path, f"{timeout:g}"]
                out_file = os.path.join(tmp, f"{inst}-{timeout:g}.out")
                busy = start_busy(args.busy)
                try:
                    with open(out_file, "wb") as fo:
                        t0 = time.monotonic()
                        proc = subprocess.Popen(cmd, stdout=fo, stderr=subprocess.PIPE)
                        try:
                            _, err = proc.communicate(timeout=timeout + 60)
                        except subprocess.TimeoutExpired:
                            proc.kill()
                            _, err = proc.communicate()
                        wall = time.monotonic() - t0
                finally:
                    stop_busy(busy)
                with open(out_file) as f:
                    out = f.read()
                ph = phases(out)
                cost, feasible, _ = evaluate(args.binary, path, out_file)
                ok = wall <= timeout and proc.returncode == 0 and feasible
                if not ok:
                    failures.append((inst, timeout, wall, proc.returncode, err.decode(errors="replace").strip()))
                exit_s = wall - ph["done"] if ph["done"] is not None else None
                print(f"{inst:<5}{timeout:>8g}{wall:>8.3f}{'yes' if ok else 'NO':>4}{proc.returncode:>4}"
                      f"{'yes' if feasible else 'no':>9}  {str(cost) if cost is not None else '-':<14}"
                      f"{fmt(ph['load']):>7}{fmt(ph['start']):>7}{fmt(ph['first']):>7}{fmt(ph['done']):>7}"
                      f"{fmt(exit_s):>7}")
                sys.stdout.flush()
    for inst, timeout, wall, rc, err in failures:
        print(f"# FAILED {inst} at {timeout:g} s: wall {wall:.3f} s, exit code {rc}" + (f", stderr: {err}" if err else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
