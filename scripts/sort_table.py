#!/usr/bin/python3
"""The lsd-against-CUB table of sortbench --csv runs, as Markdown. Each sortbench row is already
the median over its memory layouts; a cell shows lsd ms / CUB ms (the faster of CUB's two calls,
num_items as int or as size_t), the ratio CUB / lsd of those
medians and the range of the per-layout ratios (several runs: the means of the medians, the widest
range). The last columns give the row's smallest ratio and its target.

usage: scripts/sort_table.py RUN.csv [RUN.csv ...] > TABLE.md
"""
import sys
from collections import defaultdict

from benchcsv import read_csv

KEYS = ["uint32", "int32", "float", "pairs", "uint64", "pairs64"]
DISTS = ["uniform", "equal", "few", "sorted"]


def target(keys, dist):
    """The target floor for a cell at 2^24..2^28: 1.03x for 4-byte keys and pairs of uniform keys,
    1.0x for 8-byte keys, 0.9x for every skewed distribution."""
    if dist != "uniform":
        return "0.9x"
    return "1.0x" if keys in ("uint64", "pairs64") else "1.03x"


def main(paths):
    ms = defaultdict(list)  # (keys, dist, impl, n) -> medians over layouts, one per run
    rng = defaultdict(list)  # (keys, dist, n) -> per-layout ratio ranges of lsd
    device = "?"
    for path in paths:
        for r in read_csv(path):
            device = r["device"]
            key = (r["keys"], r["dist"], r["impl"], int(r["n"]))
            ms[key].append(float(r["median_ms"]))
            if r["impl"] == "lsd" and r.get("vs_cub_range", "-") not in ("", "-"):
                lo, hi = r["vs_cub_range"].rstrip("x").split("-")
                rng[(r["keys"], r["dist"], int(r["n"]))] += [float(lo), float(hi)]
    sizes = sorted({k[3] for k in ms})
    print(f"{device}; cells: lsd ms / CUB ms (CUB / lsd, per-layout range), medians over layouts"
          " (a cell in several files: the mean of their medians).\n")
    print("| keys | dist | " + " | ".join(f"2^{n.bit_length() - 1}" for n in sizes) +
          " | min ratio, 2^24 .. 2^28 | target |")
    print("|---|---|" + "---|" * len(sizes) + "---|---|")
    for keys in KEYS:
        cub = "cub::SortPairs" if keys.startswith("pairs") else "cub::SortKeys"
        for dist in DISTS:
            for n in sizes:  # CUB's faster call (num_items as int or as size_t) in each run
                calls = [ms.get((keys, dist, f"{cub} ({w} n)", n)) for w in ("int", "size_t")]
                calls = [c for c in calls if c]
                if calls:
                    ms[(keys, dist, cub, n)] = [min(v) for v in zip(*calls)]
            cells, ratios = [], []
            for n in sizes:
                ours, theirs = ms.get((keys, dist, "lsd", n)), ms.get((keys, dist, cub, n))
                if not ours or not theirs:
                    cells.append("-")
                    continue
                a, b = sum(ours) / len(ours), sum(theirs) / len(theirs)
                if n >= 1 << 24:  # the targets' range
                    ratios.append(b / a)
                spread = rng.get((keys, dist, n))
                span = f", {min(spread):.2f}-{max(spread):.2f}" if spread else ""
                cells.append(f"{a:.3f} / {b:.3f} ({b / a:.2f}x{span})")
            if ratios:
                print(f"| {keys} | {dist} | " + " | ".join(cells) +
                      f" | {min(ratios):.2f}x | {target(keys, dist)} |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
