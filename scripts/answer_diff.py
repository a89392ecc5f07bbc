#!/usr/bin/env python3
"""Where two answers to one problem differ, and what each part of the
difference is worth: the nodes whose strategies differ, split into connected
components (over the problem's edges), and for each component, largest
first, what moving answer A to B's strategies on that component alone does:
the change in cost and the peak usage over the limit (negative: under it).

A better answer that differs by one large component that alone overflows
the limit, plus small components that free memory at a cost, was reached
by a move no window that must fit by itself can make (docs/benchmarks.md).

  scripts/answer_diff.py PROBLEM.json[.gz] A_SOLUTION B_SOLUTION [--top 12]

A solution file's last line is [s0, s1, ...] (the CLI's output). Pure
Python: a 35,000-node instance takes a few seconds.
"""
import argparse
import ast
import collections

from renumber import load_instance, open_text  # plain or gzip, by content


def read_answer(path):
    with open_text(path) as f:  # docs/answers keeps them gzipped
        lines = [line for line in f.read().splitlines() if line.strip()]
    return ast.literal_eval(lines[-1])


class Problem:
    def __init__(self, doc):
        p = doc["problem"]
        self.costs = p["nodes"]["costs"]
        self.usages = p["nodes"]["usages"]
        self.intervals = p["nodes"]["intervals"]
        self.edge_nodes = p["edges"]["nodes"]
        self.edge_costs = p["edges"]["costs"]
        self.limit = p.get("usage_limit")
        self.n = len(self.costs)
        self.horizon = max([b for _, b in self.intervals] + [0])
        self.adj = collections.defaultdict(list)
        self.edges_of = collections.defaultdict(list)
        for k, (u, v) in enumerate(self.edge_nodes):
            self.adj[u].append(v)
            self.adj[v].append(u)
            self.edges_of[u].append(k)
            self.edges_of[v].append(k)

    def edge_cost(self, k, su, sv):
        u, v = self.edge_nodes[k]
        return self.edge_costs[k][su * len(self.costs[v]) + sv]

    def cost(self, s):
        nodes = sum(self.costs[i][s[i]] for i in range(self.n))
        edges = sum(self.edge_cost(k, s[u], s[v]) for k, (u, v) in enumerate(self.edge_nodes))
        return nodes, edges

    def peak(self, s):
        delta = [0] * (self.horizon + 2)
        for i, (a, b) in enumerate(self.intervals):
            if b > a:
                delta[a] += self.usages[i][s[i]]
                delta[b] -= self.usages[i][s[i]]
        best = acc = 0
        for d in delta:
            acc += d
            best = max(best, acc)
        return best

    def move_delta(self, s, t, part):
        """Cost change of setting the nodes of `part` to t's strategies in s."""
        inside = set(part)
        change = sum(self.costs[i][t[i]] - self.costs[i][s[i]] for i in part)
        for k in {k for i in part for k in self.edges_of[i]}:
            u, v = self.edge_nodes[k]
            tu = t[u] if u in inside else s[u]
            tv = t[v] if v in inside else s[v]
            change += self.edge_cost(k, tu, tv) - self.edge_cost(k, s[u], s[v])
        return change


def components(problem, nodes):
    inside = set(nodes)
    seen = set()
    parts = []
    for i in nodes:
        if i in seen:
            continue
        seen.add(i)
        part, stack = [], [i]
        while stack:
            x = stack.pop()
            part.append(x)
            for y in problem.adj[x]:
                if y in inside and y not in seen:
                    seen.add(y)
                    stack.append(y)
        parts.append(part)
    parts.sort(key=len, reverse=True)
    return parts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("problem")
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--top", type=int, default=12, help="components to print, largest first")
    args = ap.parse_args()
    problem = Problem(load_instance(args.problem))
    a, b = read_answer(args.a), read_answer(args.b)
    if len(a) != problem.n or len(b) != problem.n:
        raise SystemExit(f"answer_diff: answers of {len(a)} and {len(b)} entries for {problem.n} nodes")
    for name, s in (("A", a), ("B", b)):
        for i, x in enumerate(s):
            if not isinstance(x, int) or not 0 <= x < len(problem.costs[i]):
                raise SystemExit(f"answer_diff: answer {name}, node {i}: strategy {x!r} out of range"
                                 f" (the node has {len(problem.costs[i])})")
    limit = problem.limit if problem.limit is not None else 0
    for name, s in (("A", a), ("B", b)):
        nodes, edges = problem.cost(s)
        print(f"{name}: cost {nodes + edges} (nodes {nodes}, edges {edges}), peak {problem.peak(s)}"
              f" (limit {problem.limit})")
    differ = [i for i in range(problem.n) if a[i] != b[i]]
    parts = components(problem, differ)
    print(f"{len(differ)} nodes differ, in {len(parts)} connected components")
    print("nodes  cost_change  over_limit_alone  time_span  max_degree")
    for part in parts[: args.top]:
        moved = list(a)
        for i in part:
            moved[i] = b[i]
        span = (min(problem.intervals[i][0] for i in part), max(problem.intervals[i][1] for i in part))
        degree = max(len(problem.adj[i]) for i in part)
        print(f"{len(part):<6} {problem.move_delta(a, b, part):<12} {problem.peak(moved) - limit:<17} "
              f"{f'{span[0]}-{span[1]}':<10} {degree}")


if __name__ == "__main__":
    main()
