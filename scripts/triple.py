#!/usr/bin/env python3
"""Makes a large benchmark file from a contest instance: every strategy of
every node repeated `--copies` times (3 by default), each copy's node cost
raised by a small random amount (at most --spread of it, 0.5 % by default;
forbidden costs stay forbidden), usages kept, and each edge matrix widened
to the copies (entry (a', b') is the original (a, b)). The optimum is at
least the original's and at most 0.5 % (--spread) of the node costs above
it (G: 217039 -> 217153); the search sees copies^2 times the matrix entries.

  scripts/triple.py IN.json[.gz] OUT.json [--copies 3] [--spread 0.005] [--seed 1]

Never committed: the files are hundreds of MB. The instances kept from the
project's tests are in ../shared/benchmarks (benchmarks only).
"""
import argparse
import json
import random

from renumber import load_instance  # plain or gzip, by content

FORBIDDEN = 10**17


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--copies", type=int, default=3)
    ap.add_argument("--spread", type=float, default=0.005)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    data = load_instance(a.input)
    prob = data["problem"] if "problem" in data else data
    nodes, edges = prob["nodes"], prob["edges"]
    c = a.copies
    costs, usages = [], []
    for cs, us in zip(nodes["costs"], nodes["usages"]):
        row, urow = [], []
        for x, u in zip(cs, us):
            for _ in range(c):
                row.append(x if x >= FORBIDDEN else x + int(x * a.spread * rng.random()))
                urow.append(u)
        costs.append(row)
        usages.append(urow)
    k = [len(cs) for cs in nodes["costs"]]
    mats = []
    for (u, v), m in zip(edges["nodes"], edges["costs"]):
        ku, kv = k[u], k[v]
        out = []
        for s in range(ku):
            line = []
            for t in range(kv):
                line.extend([m[s * kv + t]] * c)
            for _ in range(c):
                out.extend(line)
        mats.append(out)
    nodes["costs"], nodes["usages"] = costs, usages
    edges["costs"] = mats
    if "name" in prob:
        prob["name"] = f"{prob['name']}-x{c}"
    with open(a.output, "w") as f:
        json.dump(data, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
