#!/usr/bin/env python3
"""Renumbers the nodes of an instance at random, and maps answers back.

An equivalent instance with the nodes in another order (and the edges in
another order, each with its ends possibly swapped) tests how much a solver
depends on the numbering.

  scripts/renumber.py permute IN.json[.gz] OUT.json --seed N
      writes OUT.json, where new node p[i] holds old node i, and OUT.json.perm,
      the JSON list p (the new index of each old node)
  scripts/renumber.py unpermute OUT.json.perm SOLUTION.txt
      prints the answer of SOLUTION.txt (its last line starting with '[', in
      the new numbering) in the original numbering

Strategy indices are unchanged: only nodes and edges move.
"""
import argparse
import gzip
import json
import os
import random
import sys


def open_text(path):
    """Opens a plain or gzip file for reading text, by its content."""
    with open(path, "rb") as f:
        magic = f.read(2)
    return (gzip.open if magic == b"\x1f\x8b" else open)(path, "rt")


def load_instance(path):
    with open_text(path) as f:
        return json.load(f)


def permute(data, seed):
    """Renumbers data in place; returns p, the new index of each old node."""
    prob = data["problem"] if "problem" in data else data
    nodes, edges = prob["nodes"], prob["edges"]
    n = len(nodes["costs"])
    rng = random.Random(seed)
    p = list(range(n))
    rng.shuffle(p)
    for key in ("intervals", "costs", "usages"):
        old = nodes[key]
        new = [None] * n
        for i in range(n):
            new[p[i]] = old[i]
        nodes[key] = new
    old_costs = nodes["costs"]  # already in the new numbering
    pairs, mats = edges["nodes"], edges["costs"]
    order = list(range(len(pairs)))
    rng.shuffle(order)
    new_pairs, new_mats = [], []
    for e in order:
        u, v = p[pairs[e][0]], p[pairs[e][1]]
        m = mats[e]
        if rng.random() < 0.5:
            ku, kv = len(old_costs[u]), len(old_costs[v])
            # K_u x K_v row-major -> K_v x K_u row-major
            m = [m[a * kv + b] for b in range(kv) for a in range(ku)]
            u, v = v, u
        new_pairs.append([u, v])
        new_mats.append(m)
    edges["nodes"], edges["costs"] = new_pairs, new_mats
    return p


def write_permuted(src, dst, seed):
    """Writes dst and dst.perm; dst appears last, so it implies dst.perm."""
    data = load_instance(src)
    p = permute(data, seed)
    with open(dst + ".perm.tmp", "w") as f:
        json.dump(p, f, separators=(",", ":"))
    os.replace(dst + ".perm.tmp", dst + ".perm")
    with open(dst + ".tmp", "w") as f:
        json.dump(data, f, separators=(",", ":"))
    os.replace(dst + ".tmp", dst)


def last_answer(text):
    """The last line starting with '[' (the solver's answer), or None."""
    sol = None
    for line in text.splitlines():
        if line.startswith("["):
            sol = line.strip()
    return sol


def unpermute(p, sol):
    """Answer sol (a list, new numbering) in the original numbering."""
    if len(sol) != len(p):
        raise ValueError(f"answer has {len(sol)} entries, permutation {len(p)}")
    return [sol[p[i]] for i in range(len(p))]


def format_answer(sol):
    return "[" + ", ".join(str(s) for s in sol) + "]"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("permute", help="write a renumbered instance and its permutation")
    a.add_argument("input")
    a.add_argument("output")
    a.add_argument("--seed", type=int, required=True)
    b = sub.add_parser("unpermute", help="map an answer back to the original numbering")
    b.add_argument("perm")
    b.add_argument("solution")
    args = ap.parse_args()

    if args.cmd == "permute":
        write_permuted(args.input, args.output, args.seed)
        return
    with open(args.perm) as f:
        p = json.load(f)
    with open(args.solution) as f:
        sol = last_answer(f.read())
    if sol is None:
        sys.exit(f"{args.solution}: no line starting with '['")
    print(format_answer(unpermute(p, json.loads(sol))))


if __name__ == "__main__":
    main()
