#!/usr/bin/env python3
"""Runs the iopddl binary over the contest instances and scores it.

For each instance: cost, feasibility, score (best_known / cost, the contest's
rule), gap to the shared proven lower bound and to the solver's own bound,
wall time (median, and each run's, with "p" where the run ended proven
optimal) and peak memory. Instances are decompressed once into a cache
folder, since the contest hands the binary plain JSON.

  scripts/bench.py                          # all instances, contest timeouts
  scripts/bench.py --fraction 0.25 --runs 3 # a quarter of each timeout, median of 3
  scripts/bench.py --only A G --threads 2
  scripts/bench.py --renumber 7             # nodes renumbered at random (seed 7)
  scripts/bench.py --only K --save answers  # keep every run's answer, named by its cost,
                                            # and its output with --stats (INSTANCE.seedS.runR.log)
  scripts/bench.py --only V --set restarts=0  # a search parameter (repeatable)
  scripts/bench.py --runs 3 --same-seed      # one seed three times: the spread a seed leaves
  scripts/bench.py --emulate-cores 8 --only K M S
      # 8 threads, each with the CPU it would have on 8 cores: the timeout
      # multiplied by 8 / this machine's cores (4 on 2 cores)

With --renumber the solver runs on a copy of each instance with its nodes
and edges renumbered (scripts/renumber.py, cached next to the decompressed
files); its answer is mapped back and evaluated on the original instance.
"""
import argparse
import gzip
import json
import os
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read_table(bench_dir):
    rows = []
    with open(os.path.join(bench_dir, "best_known.tsv")) as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            if line.strip():
                rows.append(dict(zip(header, line.rstrip("\n").split("\t"))))
    return rows


def plain_json(bench_dir, cache, name):
    src = os.path.join(bench_dir, name)
    if not name.endswith(".gz"):
        return src
    dst = os.path.join(cache, name[:-3])
    if not os.path.exists(dst) or os.path.getmtime(dst) < os.path.getmtime(src):
        with gzip.open(src, "rb") as fi, open(dst + ".tmp", "wb") as fo:
            fo.write(fi.read())
        os.replace(dst + ".tmp", dst)
    return dst


def permuted_json(path, cache, seed):
    """A renumbered copy of path in cache and its permutation (new index of each old node)."""
    base = os.path.basename(path)
    if base.endswith(".json"):
        base = base[:-5]
    dst = os.path.join(cache, f"{base}.perm{seed}.json")
    if not os.path.exists(dst) or os.path.getmtime(dst) < os.path.getmtime(path):
        # In a child process, so that the parsed instance's memory goes back to the system.
        script = os.path.join(ROOT, "scripts", "renumber.py")
        subprocess.run([sys.executable, script, "permute", path, dst, "--seed", str(seed)], check=True)
    with open(dst + ".perm") as f:
        perm = json.load(f)
    return dst, perm


def unpermute_answer(perm, sol):
    """The answer sol (text, renumbered) in the original numbering; sol itself if it is no answer."""
    if not sol.startswith("["):
        return sol
    try:
        new = json.loads(sol)
        if len(new) != len(perm):
            return sol
        return "[" + ", ".join(str(new[perm[i]]) for i in range(len(perm))) + "]"
    except (ValueError, TypeError, IndexError):
        return sol


def evaluate(binary, path, sol, tmpdir):
    sol_file = os.path.join(tmpdir, "solution.txt")
    with open(sol_file, "w") as f:
        f.write(sol + "\n")
    res = subprocess.run([binary, "evaluate", path, sol_file], capture_output=True, text=True)
    cost = None
    feasible = False
    for line in res.stdout.splitlines():
        if line.startswith("total cost:"):
            cost = int(line.split(":")[1])
        if line.startswith("feasible:"):
            feasible = line.split(":")[1].strip() == "yes"
    return cost, feasible


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default=os.path.join(ROOT, "build", "iopddl"))
    ap.add_argument("--benchmarks", default=os.path.join(ROOT, "..", "shared", "benchmarks"))
    ap.add_argument("--fraction", type=float, default=1.0, help="fraction of each contest timeout")
    ap.add_argument("--runs", type=int, default=1, help="runs per instance (median reported)")
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--seed", type=int, default=1, help="run r's seed is SEED + r (SEED with --same-seed)")
    ap.add_argument("--same-seed", action="store_true",
                    help="every run with the same seed: with more than one thread, runs still differ, by timing")
    ap.add_argument("--only", nargs="*", help="instance letters, e.g. A G")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="a search parameter for every run (repeatable; iopddl --list-params lists them)")
    ap.add_argument("--renumber", type=int, metavar="SEED",
                    help="run on each instance with its nodes renumbered at random (seed SEED), score on the original")
    ap.add_argument("--emulate-cores", type=int, metavar="N",
                    help="N threads with N / cores times each timeout: the CPU per thread of an N-core machine")
    ap.add_argument("--save", metavar="DIR",
                    help="keep each run's answer (on the original numbering) as DIR/INSTANCE.seedS.runR.COST.txt "
                         "and its output with --stats (progress and where the time went) as "
                         "DIR/INSTANCE.seedS.runR.log; an answer below the best known is kept without it, in "
                         "build/bench-answers")
    args = ap.parse_args()
    if args.emulate_cores:
        args.threads = args.emulate_cores
        args.fraction *= args.emulate_cores / os.cpu_count()

    cache = os.path.join(ROOT, "build", "bench-data")
    os.makedirs(cache, exist_ok=True)
    rows = read_table(args.benchmarks)
    print(f"# {os.cpu_count()} cores, threads {args.threads}, fraction {args.fraction:g} of the contest timeouts, "
          f"{args.runs} run(s) per instance (median)"
          + (f", emulating {args.emulate_cores} cores" if args.emulate_cores else "")
          + (f", every run with seed {args.seed}" if args.same_seed else "")
          + (f", nodes renumbered (seed {args.renumber})" if args.renumber is not None else "")
          + "".join(f", --set {s}" for s in args.set))
    print("instance  timeout_s  cost            feasible  score    worst    gap_to_shared_lb  gap_to_own_bound  spread   wall_s   peak_MB  run_scores  run_walls")
    scores, worsts = [], []
    for row in rows:
        if args.only and row["instance"] not in args.only:
            continue
        path = plain_json(args.benchmarks, cache, row["file"])
        run_path, perm = path, None
        if args.renumber is not None:
            run_path, perm = permuted_json(path, cache, args.renumber)
        timeout = float(row["contest_timeout_s"]) * args.fraction
        best = int(row["best_known_cost"])
        lb = int(row["lower_bound"])
        results = []
        for r in range(args.runs):
            t0 = time.monotonic()
            seed = args.seed if args.same_seed else args.seed + r
            cmd = [args.binary, "--threads", str(args.threads), "--seed", str(seed)]
            for s in args.set:
                cmd += ["--set", s]
            if args.save:
                cmd.append("--stats")
            cmd += [run_path, f"{timeout:g}"]
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            out = proc.stdout.read()
            _, status, usage = os.wait4(proc.pid, 0)
            wall = time.monotonic() - t0
            lines = out.decode().strip().splitlines()
            sol = lines[-1] if lines else ""
            if perm is not None:
                sol = unpermute_answer(perm, sol)
            own, proven = None, False
            for line in lines:
                proven = proven or line.startswith("# proven optimal")
                m = re.search(r"bound (\d+)", line)
                if m:
                    own = int(m.group(1))
            cost, feasible = evaluate(args.binary, path, sol, cache)
            # An answer below the best known is kept even without --save: a
            # run cannot be repeated to get it back.
            new_best = bool(feasible and cost and cost < best)
            if sol and (args.save or new_best):
                folder = args.save or os.path.join(ROOT, "build", "bench-answers")
                os.makedirs(folder, exist_ok=True)
                name = f"{row['instance']}.seed{seed}.run{r + 1}.{cost if feasible else 'infeasible'}.txt"
                with open(os.path.join(folder, name), "w") as f:
                    f.write(sol + "\n")
                if new_best:
                    print(f"# {row['instance']}: {cost} is below the best known {best}: kept as "
                          f"{os.path.join(folder, name)}", file=sys.stderr)
            if args.save:
                os.makedirs(args.save, exist_ok=True)
                with open(os.path.join(args.save, f"{row['instance']}.seed{seed}.run{r + 1}.log"), "wb") as f:
                    f.write(out)
            results.append((cost if feasible and cost else None, feasible, own, wall, usage.ru_maxrss / 1024, proven))
        feas = [x for x in results if x[0] is not None]
        if feas:
            cost = int(statistics.median_low([x[0] for x in feas]))
        else:
            cost = None
        score = best / cost if cost else 0.0
        scores.append(score)
        # A user gets one run: the worst of them counts (an infeasible run scores 0).
        run_scores = [best / x[0] if x[0] else 0.0 for x in results]
        worst = min(run_scores)
        worsts.append(worst)
        own_vals = [x[2] for x in results if x[2] is not None]
        own = max(own_vals) if own_vals else None
        wall = statistics.median([x[3] for x in results])
        mem = max(x[4] for x in results)
        gap_lb = f"{100 * (cost - lb) / cost:.3f}%" if cost else "-"
        gap_own = f"{100 * (cost - own) / cost:.3f}%" if cost and own else "-"
        nfeas = sum(1 for x in results if x[1])
        # The runs' costs apart: the highest over the lowest, less one.
        spread = f"{100 * (max(x[0] for x in feas) / min(x[0] for x in feas) - 1):.3f}%" if feas else "-"
        print(f"{row['instance']:<9} {timeout:<10g} {str(cost):<15} {nfeas}/{len(results):<7} {score:<8.4f} "
              f"{worst:<8.4f} {gap_lb:<17} {gap_own:<17} {spread:<8} {wall:<8.2f} {mem:<8.0f} "
              + " ".join(f"{s:.4f}" for s in run_scores) + "  "
              + " ".join(f"{x[3]:.1f}" + ("p" if x[5] else "") for x in results))
        sys.stdout.flush()
    if scores:
        print(f"mean score {sum(scores) / len(scores):.4f} (medians), {sum(worsts) / len(worsts):.4f} (worst runs)")


if __name__ == "__main__":
    main()
