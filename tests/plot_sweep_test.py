"""scripts/plot_sweep.py on a sweep whose least peak is infeasible (K's
shape): the shaded band starts at the first feasible point, where a cost is
first known, and the bound's step still reaches left to the point before."""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "scripts", "plot_sweep.py")


def point(limit, feasible, cost, bound, proven_infeasible=False):
    return {"limit": limit, "feasible": feasible, "cost": cost, "lower_bound": bound,
            "proven_optimal": False, "proven_infeasible": proven_infeasible, "peak_usage": limit,
            "seconds": 1.0, "first_feasible_seconds": None, "from_neighbour": False, "assignment": [0]}


def xs(d):
    return [float(x) for x in re.findall(r"[ML](-?[\d.]+),", d)]


def main():
    sweep = {"problem": "k-shape", "file_limit": 472, "least_peak": 429,
             "free_plan": {"cost": 611, "peak_usage": 6379},
             "points": [point(429, False, 930, None, True), point(472, True, 2243, 1777),
                        point(6379, True, 611, 603)]}
    with tempfile.TemporaryDirectory() as d:
        src, svg = os.path.join(d, "s.json"), os.path.join(d, "s.svg")
        with open(src, "w") as f:
            json.dump(sweep, f)
        out = subprocess.run([sys.executable, SCRIPT, src, "-o", svg], capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        text = open(svg).read()
    band = re.search(r'<path d="([^"]+)" fill="[^"]+" fill-opacity="0.12"', text)
    assert band, "no band"
    bound = re.search(r'<path d="([^"]+)" fill="none" stroke="[^"]+" stroke-width="1.75"', text)
    cost = re.search(r'<path d="([^"]+)" fill="none" stroke="[^"]+" stroke-width="2"', text)
    assert bound and cost
    first_feasible = min(xs(cost.group(1)))
    assert min(xs(band.group(1))) >= first_feasible - 0.05, (band.group(1), first_feasible)
    assert min(xs(bound.group(1))) < first_feasible - 1, "the bound steps left to the infeasible point"
    print("plot_sweep: ok")


if __name__ == "__main__":
    main()
