#!/usr/bin/python3
"""Plots a soak's memory (the "soak" object of a scandof --report, automation/soak.*).

  /usr/bin/python3 scripts/plot_soak.py REPORT.json OUT.png [--title TEXT]

Top: host RSS and the glibc heap in use; bottom: GPU memory in use (cudaMemGetInfo: the device's,
GL_NVX_gpu_memory_info: the driver's view), against the frame number. Every switch's sample is a
small dot (its configuration and frame size differ), the canonical samples (start settings and
size, the ones the flat-or-not verdict is taken over) are joined by a line; the grey band is the
warm-up the verdict leaves out. Debian's matplotlib (python3-matplotlib).
"""
import argparse
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MIB = 1024.0 * 1024.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("report")
    ap.add_argument("out")
    ap.add_argument("--title", default="")
    a = ap.parse_args()
    with open(a.report) as f:
        rep = json.load(f)
    soak = rep["soak"]
    samples, canon = soak["samples"], soak["canonical_samples"]
    v = soak["verdict"]

    def series(rows, key, scale):
        pts = [(s["frame"], s[key] / scale) for s in rows if s.get(key, -1) >= 0]
        return [p[0] for p in pts], [p[1] for p in pts]

    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(9, 6.5), sharex=True)
    # The warm-up: canonical samples before the first one the verdict counts.
    counted = v.get("samples_after_warmup", 0)
    if canon and counted and counted <= len(canon):
        first_counted = canon[len(canon) - counted]["frame"]
        for ax in (ax1, ax2):
            ax.axvspan(0, first_counted, color="0.9", lw=0)
    for key, label, colour in (("rss_bytes", "host RSS", "tab:blue"),
                               ("rss_anon_bytes", "RSS, anonymous part", "tab:cyan"),
                               ("heap_bytes", "heap in use (mallinfo2)", "tab:green")):
        x, y = series(samples, key, MIB)
        if not x:  # reports written before the RSS split have no anonymous series
            continue
        ax1.plot(x, y, ".", ms=3, color=colour, alpha=0.5)
        x, y = series(canon, key, MIB)
        ax1.plot(x, y, "-o", ms=4, color=colour, label=label + " (canonical)")
    ax1.set_ylabel("MiB")
    ax1.legend(loc="lower right", fontsize=8)
    ax1.grid(alpha=0.3)
    have_gpu = False
    for key, label, colour, scale in (("cuda_used_bytes", "CUDA device memory used", "tab:red", MIB),
                                      ("nvx_used_kib", "GL_NVX memory used", "tab:purple", 1024.0)):
        x, y = series(samples, key, scale)
        if not x:
            continue
        have_gpu = True
        ax2.plot(x, y, ".", ms=3, color=colour, alpha=0.5)
        x, y = series(canon, key, scale)
        ax2.plot(x, y, "-o", ms=4, color=colour, label=label + " (canonical)")
    if have_gpu:
        ax2.legend(loc="lower right", fontsize=8)
    else:
        ax2.text(0.5, 0.5, "no GPU memory source on this machine", ha="center",
                 transform=ax2.transAxes)
    ax2.set_ylabel("MiB")
    ax2.set_xlabel("frame")
    ax2.grid(alpha=0.3)

    def pct(d):
        return "n/a" if d is None or d < 0 else f"{100 * d:.2f}%"

    verdict = ("flat" if v["flat"] else ("not judged" if not v["enough_samples"] else "NOT FLAT"))
    sub = (f"{soak['frames']} frames, {soak['seconds']:.0f} s, {soak['switches']} switches, "
           f"{soak['resizes']} resizes; memory {verdict}: drift RSS {pct(v.get('rss_drift'))}, "
           f"CUDA {pct(v.get('cuda_drift'))}, NVX {pct(v.get('nvx_drift'))} (limit {pct(v['limit'])})")
    fig.suptitle((a.title + "\n" if a.title else "") + sub, fontsize=9)
    fig.tight_layout()
    fig.savefig(a.out, dpi=110)
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
