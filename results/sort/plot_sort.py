#!/usr/bin/python3
"""Radix sort throughput against size, one panel per key distribution (sortbench --csv output).

usage: plot_sort.py SORT.csv OUT.png
"""
import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(path, out):
    rows = [r for r in csv.DictReader(open(path)) if not r["impl"].startswith("cudaMemcpy")]
    device = rows[0]["device"] if rows else "?"
    panels = sorted({(r["keys"], r["dist"]) for r in rows})
    fig, axes = plt.subplots(1, len(panels), figsize=(4.5 * len(panels), 4.2), sharey=True)
    if len(panels) == 1:
        axes = [axes]
    for ax, (keys, dist) in zip(axes, panels):
        series = defaultdict(list)
        for r in rows:
            if (r["keys"], r["dist"]) == (keys, dist) and "[" not in r["impl"]:
                series[r["impl"]].append((int(r["n"]), float(r["gkeys_s"])))
        for impl, pts in sorted(series.items()):
            pts.sort()
            ax.semilogx([p[0] for p in pts], [p[1] for p in pts], marker=".", label=impl)
        ax.set_title(f"{keys} keys, {dist}")
        ax.set_xlabel("keys")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("Gkeys/s (median)")
    axes[-1].legend(fontsize=8)
    fig.suptitle(f"Radix sort throughput vs size, {device}")
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
