#!/usr/bin/python3
"""The lsd-against-CUB table of one or more sortbench --csv runs (one call: each cell is the mean of
the runs' medians), with each row's smallest ratio and its target (results/sort/README.md), as
Markdown.

usage: scripts/sort_table.py RUN.csv [RUN.csv ...] > TABLE.md
"""
import sys
from collections import defaultdict

from plotlib import read_csv

KEYS = ["uint32", "int32", "float", "pairs", "uint64", "pairs64"]
DISTS = ["uniform", "equal", "few", "sorted"]


def target(keys, dist):
    """The target floor for a cell: 1.0x uint32 uniform, 0.9x pairs and int32/float uniform,
    0.8x every skewed distribution; none for 8-byte keys' uniform rows."""
    if dist != "uniform":
        return "0.8x"
    return {"uint32": "1.0x", "int32": "0.9x", "float": "0.9x", "pairs": "0.9x"}.get(keys, "none")


def main(paths):
    ms = defaultdict(list)  # (keys, dist, impl, n) -> medians
    device = "?"
    for path in paths:
        for r in read_csv(path):
            device = r["device"]
            ms[(r["keys"], r["dist"], r["impl"], int(r["n"]))].append(float(r["median_ms"]))
    sizes = sorted({k[3] for k in ms})
    print(f"{device}; cells: lsd ms / CUB ms (CUB / lsd), means of {len(paths)} run(s).\n")
    print("| keys | dist | " + " | ".join(f"2^{n.bit_length() - 1}" for n in sizes) +
          " | min ratio | target |")
    print("|---|---|" + "---|" * len(sizes) + "---|---|")
    for keys in KEYS:
        cub = "cub::SortPairs" if keys.startswith("pairs") else "cub::SortKeys"
        for dist in DISTS:
            cells, ratios = [], []
            for n in sizes:
                ours, theirs = ms.get((keys, dist, "lsd", n)), ms.get((keys, dist, cub, n))
                if not ours or not theirs:
                    cells.append("-")
                    continue
                a, b = sum(ours) / len(ours), sum(theirs) / len(theirs)
                ratios.append(b / a)
                cells.append(f"{a:.3f} / {b:.3f} ({b / a:.2f}x)")
            if ratios:
                print(f"| {keys} | {dist} | " + " | ".join(cells) +
                      f" | {min(ratios):.2f}x | {target(keys, dist)} |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
