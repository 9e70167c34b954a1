#!/usr/bin/python3
"""Radix sort throughput against size, one panel per key distribution (sortbench --csv output).

usage: scripts/plot_sort.py SORT.csv OUT.png
"""
import sys
from collections import defaultdict

from plotlib import label_axes, panels, read_csv, save


def main(path, out):
    rows = [r for r in read_csv(path) if not r["impl"].startswith("cudaMemcpy")]
    device = rows[0]["device"] if rows else "?"
    keyed = sorted({(r["keys"], r["dist"]) for r in rows})
    fig, axes = panels(len(keyed), 4.5)
    for ax, (keys, dist) in zip(axes, keyed):
        series = defaultdict(list)
        for r in rows:
            if (r["keys"], r["dist"]) == (keys, dist) and "[" not in r["impl"]:
                series[r["impl"]].append((int(r["n"]), float(r["gkeys_s"])))
        for impl, pts in sorted(series.items()):
            pts.sort()
            ax.semilogx([p[0] for p in pts], [p[1] for p in pts], marker=".", label=impl)
        label_axes(ax, "keys", title=f"{keys} keys, {dist}")
    axes[0].set_ylabel("Gkeys/s (median)")
    save(fig, out, legend_ax=axes[-1], suptitle=f"Radix sort throughput vs size, {device}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
