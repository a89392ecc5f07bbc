"""iopddl-generate --renumber: the same instance in another numbering.

Checks, independently of the generator, that the renumbered file holds the
same nodes (costs, usages, intervals) at the new indices its .perm file gives
and the same edges (ends mapped, matrices transposed where the ends were
swapped), that the numbering does move nodes and edges, that the same
arguments give the same bytes, and that an answer mapped through the
permutation costs the same in both files (`iopddl evaluate`)."""
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter


def read_json(path):
    with open(path) as f:
        return json.load(f)


def edge_key(ends, matrix, n_from, n_to):
    """An edge as (u, v, row-major matrix) with u <= v, transposing if needed."""
    u, v = ends
    if u > v:
        matrix = [matrix[a * n_to + b] for b in range(n_to) for a in range(n_from)]
        u, v = v, u
    return (u, v, tuple(matrix))


def edges_as_keys(prob, relabel):
    keys = Counter()
    k = [len(c) for c in prob["nodes"]["costs"]]
    for (a, b), m in zip(prob["edges"]["nodes"], prob["edges"]["costs"]):
        u, v = relabel(a), relabel(b)
        keys[edge_key((u, v), m, k[a], k[b])] += 1
    return keys


def main():
    generate, cli = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as d:
        a_path, b_path, c_path = (os.path.join(d, n) for n in ("a.json", "b.json", "c.json"))
        for path, extra in ((a_path, []), (b_path, ["--renumber", "5"]), (c_path, ["--renumber", "5"])):
            subprocess.run([generate, "--nodes", "80", "--seed", "3", *extra, path], check=True, capture_output=True)
        with open(b_path, "rb") as f, open(c_path, "rb") as g:
            assert f.read() == g.read(), "the same arguments gave different bytes"
        a, b = read_json(a_path)["problem"], read_json(b_path)["problem"]
        perm = read_json(b_path + ".perm")
        n = len(a["nodes"]["costs"])
        assert sorted(perm) == list(range(n)), "the .perm file is not a permutation"
        assert perm != list(range(n)), "--renumber left the numbering as it was"
        for field in ("costs", "usages", "intervals"):
            for i in range(n):
                assert b["nodes"][field][perm[i]] == a["nodes"][field][i], f"node {i}'s {field} moved wrongly"
        assert b["usage_limit"] == a["usage_limit"]
        assert edges_as_keys(a, lambda i: perm[i]) == edges_as_keys(b, lambda i: i), "the edges differ"
        assert a["edges"]["nodes"] != b["edges"]["nodes"]
        # An answer costs the same in both numberings.
        out = subprocess.run([cli, "--threads", "1", "--seed", "1", "--rounds", "2", "--quiet", a_path, "20"],
                             capture_output=True, text=True)
        assert out.returncode in (0, 1), out.stderr
        answer = json.loads(out.stdout.strip().splitlines()[-1])
        mapped = [0] * n
        for i, s in enumerate(answer):
            mapped[perm[i]] = s
        costs = []
        for path, ans in ((a_path, answer), (b_path, mapped)):
            sol = os.path.join(d, "sol.txt")
            with open(sol, "w") as f:
                f.write(json.dumps(ans) + "\n")
            ev = subprocess.run([cli, "evaluate", path, sol], capture_output=True, text=True)
            assert ev.returncode in (0, 1), ev.stderr
            assert re.search(r"total cost:\s+\d+", ev.stdout), ev.stdout
            costs.append(ev.stdout.split("\n", 1)[1])  # all but the problem's name: costs, peak, feasibility
        assert costs[0] == costs[1], f"the mapped answer evaluates to\n{costs[1]}against\n{costs[0]}"
        # --renumber needs a file beside which to write the .perm.
        bad = subprocess.run([generate, "--renumber", "2", "-"], capture_output=True, text=True)
        assert bad.returncode == 2 and "--renumber" in bad.stderr, bad.stderr
    print("generate --renumber: ok")


if __name__ == "__main__":
    main()
