#!/usr/bin/python3
"""Figure 39-11 for today's GPU: compaction time against size, one panel per selectivity.

usage: scripts/plot_compact.py COMPACT.csv OUT.png   (the CSV that compactbench --csv writes)
"""
import sys
from collections import defaultdict

from plotlib import label_axes, panels, read_csv, save


def main(path, out):
    rows = read_csv(path)
    device = rows[0]["device"] if rows else "?"
    sels = sorted({r["selectivity"] for r in rows if not r["impl"].startswith("cudaMemcpy")})
    fig, axes = panels(len(sels), 5)
    for ax, sel in zip(axes, sels):
        series = defaultdict(list)
        for r in rows:
            if r["selectivity"] == sel or r["impl"].startswith("cudaMemcpy"):
                series[r["impl"]].append((int(r["n"]), float(r["median_ms"])))
        for impl, pts in sorted(series.items()):
            pts.sort()
            style = "--" if impl.startswith("cudaMemcpy") else "-"
            ax.loglog([p[0] for p in pts], [p[1] for p in pts], style, marker=".", label=impl)
        label_axes(ax, "elements (int32)", title=f"{float(sel) * 100:g}% kept")
    axes[0].set_ylabel("median time (ms)")
    save(fig, out, legend_ax=axes[-1],
         suptitle=f"Stream compaction time vs size (Figure 39-11 analogue), {device}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
