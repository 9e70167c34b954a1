#!/usr/bin/python3
"""Figure 39-11 for today's GPU: compaction time against size, one panel per selectivity.

usage: plot_compact.py COMPACT.csv OUT.png   (the CSV that compactbench --csv writes)
"""
import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(path, out):
    rows = list(csv.DictReader(open(path)))
    device = rows[0]["device"] if rows else "?"
    sels = sorted({r["selectivity"] for r in rows if not r["impl"].startswith("cudaMemcpy")})
    fig, axes = plt.subplots(1, len(sels), figsize=(5 * len(sels), 4.2), sharey=True)
    if len(sels) == 1:
        axes = [axes]
    for ax, sel in zip(axes, sels):
        series = defaultdict(list)
        for r in rows:
            if r["selectivity"] == sel or r["impl"].startswith("cudaMemcpy"):
                series[r["impl"]].append((int(r["n"]), float(r["median_ms"])))
        for impl, pts in sorted(series.items()):
            pts.sort()
            style = "--" if impl.startswith("cudaMemcpy") else "-"
            ax.loglog([p[0] for p in pts], [p[1] for p in pts], style, marker=".", label=impl)
        ax.set_title(f"{float(sel) * 100:g}% kept")
        ax.set_xlabel("elements (int32)")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("median time (ms)")
    axes[-1].legend(fontsize=8)
    fig.suptitle(f"Stream compaction time vs size (Figure 39-11 analogue), {device}")
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
