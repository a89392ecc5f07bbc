#!/usr/bin/env python3
"""Draws `iopddl sweep --json` output as an SVG: cost against usage limit.

    iopddl sweep PROBLEM 10 --json | scripts/plot_sweep.py > sweep.svg
    scripts/plot_sweep.py sweep.json -o sweep.svg [--title TEXT]

The limit axis is logarithmic; so is the cost axis when the costs span more
than a factor of 20 (as on the page). Between two points a and b the cost of
a's plan holds on [a, b) (it fits every larger limit) and b's lower bound on
(a, b] (it holds at every smaller limit), so both curves are drawn as steps
and the shaded band between them is what is known: the optimum lies in it.
Infeasible points (nothing fits) are crosses on the limit axis; the file's
own limit is a dashed vertical line. Pure Python, no dependencies.
"""
import argparse
import json
import math
import sys
from xml.sax.saxutils import escape

W, H = 760, 440
LEFT, RIGHT, TOP, BOTTOM = 78, 24, 50, 58
COST, BOUND, LIMIT, GRID, TEXT = "#4f46e5", "#0d9488", "#e11d48", "#e3e6ee", "#4a5468"


def si(v):
    """1234567 -> 1.23M (3 significant digits)."""
    a = abs(v)
    units = ["", "k", "M", "G", "T", "P", "E"]
    u = 0
    while a >= 999.5 and u < len(units) - 1:
        a /= 1000.0
        u += 1
    s = f"{a:.0f}" if a >= 100 or u == 0 else f"{a:.1f}" if a >= 10 else f"{a:.2f}"
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return ("-" if v < 0 else "") + s + units[u]


def log_ticks(l0, l1, crowded):
    ticks = []
    for e in range(math.floor(l0), math.ceil(l1) + 1):
        for m in (1, 2, 5):
            v = m * 10.0 ** e
            if l0 <= math.log10(v) <= l1:
                ticks.append(v)
    if len(ticks) > crowded:
        ticks = [v for v in ticks if str(int(v)).startswith("1")] or ticks
    return ticks


def nice_ticks(lo, hi, count):
    raw = (hi - lo) / max(1, count)
    mag = 10.0 ** math.floor(math.log10(raw))
    norm = raw / mag
    step = (1 if norm < 1.5 else 2 if norm < 3 else 5 if norm < 7 else 10) * mag
    t = math.ceil(lo / step) * step
    out = []
    while t <= hi + step * 1e-9:
        out.append(t)
        t += step
    return out


def plot(sweep, title):
    pts = sweep["points"]
    if not pts:
        raise SystemExit("plot_sweep: no points in the input")
    file_limit = sweep.get("file_limit")
    feas = [p for p in pts if p["feasible"]]
    pw, ph = W - LEFT - RIGHT, H - TOP - BOTTOM

    xs = [max(1, int(p["limit"])) for p in pts] + ([int(file_limit)] if file_limit else [])
    lx0, lx1 = math.log10(min(xs)), math.log10(max(xs))
    pad = (lx1 - lx0) * 0.04 or 0.05
    lx0, lx1 = lx0 - pad, lx1 + pad

    def X(x):
        return LEFT + (math.log10(max(1, x)) - lx0) / (lx1 - lx0) * pw

    costs = [int(p["cost"]) for p in feas]
    y_max = max(costs) if costs else 1
    y_min = min(costs) if costs else 1
    log_y = y_min > 0 and y_max / y_min > 20
    if log_y:
        bounds = [int(p["lower_bound"]) for p in feas if p["lower_bound"] is not None and int(p["lower_bound"]) > 0]
        ly0 = math.log10(max(min(bounds + [y_min]), y_min / 100)) - 0.05
        ly1 = math.log10(y_max) + 0.08
        y_ticks = log_ticks(ly0, ly1, ph / 26)

        def Y(y):
            return TOP + (1 - (math.log10(max(y, 10 ** ly0)) - ly0) / (ly1 - ly0)) * ph
    else:
        y_ticks = nice_ticks(0, max(1, y_max) * 1.08, 6)
        y_hi = max(max(1, y_max) * 1.08, y_ticks[-1])

        def Y(y):
            return TOP + (1 - y / y_hi) * ph

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
           f'font-family="system-ui, -apple-system, Segoe UI, sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="#ffffff"/>',
           f'<text x="{LEFT}" y="22" font-size="15" font-weight="600" fill="#161b2a">{escape(title)}</text>']
    # Grid, ticks and axis titles.
    for t in y_ticks:
        y = Y(t)
        out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + pw}" y2="{y:.1f}" stroke="{GRID}"/>')
        out.append(f'<text x="{LEFT - 8}" y="{y + 4:.1f}" text-anchor="end" fill="{TEXT}">{si(t)}</text>')
    for t in log_ticks(lx0, lx1, pw / 70):
        x = X(t)
        out.append(f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{TOP + ph + 5}" stroke="{GRID}"/>')
        out.append(f'<text x="{x:.1f}" y="{TOP + ph + 19}" text-anchor="middle" fill="{TEXT}">{si(t)}</text>')
    out.append(f'<line x1="{LEFT}" y1="{TOP + ph}" x2="{LEFT + pw}" y2="{TOP + ph}" stroke="#c9cedb"/>')
    out.append(f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + ph}" stroke="#c9cedb"/>')
    out.append(f'<text x="{LEFT + pw / 2}" y="{H - 14}" text-anchor="middle" font-weight="600" fill="{TEXT}">'
               'usage limit (log scale)</text>')
    out.append(f'<text transform="translate(18 {TOP + ph / 2}) rotate(-90)" text-anchor="middle" font-weight="600" '
               f'fill="{TEXT}">cost{" (log scale)" if log_y else ""}</text>')

    # The band: cost steps right from each feasible point; bound steps left to each.
    x_end = 10 ** lx1
    upper, lower = [], []
    prev = None
    for k, p in enumerate(pts):
        nxt = int(pts[k + 1]["limit"]) if k + 1 < len(pts) else x_end
        lim = int(p["limit"])
        if p["feasible"]:
            upper += [(lim, int(p["cost"])), (nxt, int(p["cost"]))]
            if p["lower_bound"] is not None:
                lower += [(prev if prev is not None else lim, int(p["lower_bound"])), (lim, int(p["lower_bound"]))]
        prev = lim

    def path(line):
        return " ".join(f"{'M' if i == 0 else 'L'}{X(x):.1f},{Y(y):.1f}" for i, (x, y) in enumerate(line))

    # Left of the first feasible point no cost is known: the bound's step
    # there is drawn, but the band starts at that point.
    band_lower = [(x, y) for x, y in lower if x >= upper[0][0]] if upper else []
    if upper and band_lower:
        band = path(upper) + " " + " ".join(f"L{X(x):.1f},{Y(y):.1f}" for x, y in reversed(band_lower)) + " Z"
        out.append(f'<path d="{band}" fill="{COST}" fill-opacity="0.12" stroke="none"/>')
    if lower:
        out.append(f'<path d="{path(lower)}" fill="none" stroke="{BOUND}" stroke-width="1.75" stroke-dasharray="5 4"/>')
    if upper:
        out.append(f'<path d="{path(upper)}" fill="none" stroke="{COST}" stroke-width="2"/>')

    if file_limit:
        x = X(int(file_limit))
        right = x > LEFT + pw / 2
        out.append(f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{TOP + ph}" stroke="{LIMIT}" stroke-width="1.5" '
                   'stroke-dasharray="6 4"/>')
        out.append(f'<text x="{x + (-4 if right else 4):.1f}" y="{TOP + 12}" text-anchor="{"end" if right else "start"}" '
                   f'font-weight="600" fill="{LIMIT}">the file\'s limit {si(int(file_limit))}</text>')

    for p in pts:
        x = X(int(p["limit"]))
        if p["feasible"]:
            y = Y(int(p["cost"]))
            tip = (f'limit {int(p["limit"]):,}: cost {int(p["cost"]):,}, bound '
                   f'{"—" if p["lower_bound"] is None else format(int(p["lower_bound"]), ",")}')
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="{COST}"><title>{escape(tip)}</title></circle>')
        else:
            y = TOP + ph
            out.append(f'<path d="M{x - 4.5:.1f},{y - 4.5:.1f} L{x + 4.5:.1f},{y + 4.5:.1f} M{x + 4.5:.1f},{y - 4.5:.1f} '
                       f'L{x - 4.5:.1f},{y + 4.5:.1f}" stroke="{LIMIT}" stroke-width="2"><title>limit '
                       f'{int(p["limit"]):,}: nothing fits</title></path>')

    # Legend.
    lx, ly = LEFT + pw - 300, 36
    out.append(f'<line x1="{lx}" y1="{ly - 4}" x2="{lx + 18}" y2="{ly - 4}" stroke="{COST}" stroke-width="2"/>'
               f'<text x="{lx + 23}" y="{ly}" fill="{TEXT}">best cost</text>')
    out.append(f'<line x1="{lx + 90}" y1="{ly - 4}" x2="{lx + 108}" y2="{ly - 4}" stroke="{BOUND}" stroke-width="1.75" '
               f'stroke-dasharray="5 4"/><text x="{lx + 113}" y="{ly}" fill="{TEXT}">lower bound</text>')
    out.append(f'<rect x="{lx + 195}" y="{ly - 10}" width="14" height="12" fill="{COST}" fill-opacity="0.12"/>'
               f'<text x="{lx + 214}" y="{ly}" fill="{TEXT}">optimum within</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input", nargs="?", help="the sweep's JSON (default: stdin)")
    ap.add_argument("-o", "--output", help="the SVG file (default: stdout)")
    ap.add_argument("--title", help="the chart's title (default: the problem's name)")
    a = ap.parse_args()
    text = open(a.input, encoding="utf-8").read() if a.input else sys.stdin.read()
    try:
        sweep = json.loads(text)
    except json.JSONDecodeError as e:
        raise SystemExit(f"plot_sweep: the input is not JSON (iopddl sweep ... --json): {e}")
    title = a.title or f'{sweep.get("problem") or "sweep"}: memory against cost'
    svg = plot(sweep, title)
    if a.output:
        with open(a.output, "w", encoding="utf-8") as f:
            f.write(svg)
    else:
        sys.stdout.write(svg)


if __name__ == "__main__":
    main()
