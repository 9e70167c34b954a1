#!/usr/bin/python3
"""results/dof/bokeh: the tables of one `scripts/gpu/hdr.sh bokeh` run.

  /usr/bin/python3 scripts/bokeh_tables.py DIR

DIR holds what the step returned: bokeh{0,1}_VIEW.json (every method, the split off and at
threshold 1, four HDR views), bokeh_tT_VIEW.json (gather/octagon at other thresholds) and
bokeh_frame_cuda_t{0,1}.json (the CUDA frame, 300 frames). Prints markdown: per view the gather
rows without and with the split beside the other methods, the threshold sweep, the frame.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dof_compare  # noqa: E402
from hdr_tables import fmt, load, pct  # noqa: E402

VIEWS = ["near-blur", "highlights", "default", "focus8"]
KEEP = ["gather/box", "gather/octagon", "gather/disc", "spread/disc", "layered/disc", "engine/box",
        "hybrid/octagon"]


def row(label, r):
    q = r["quality"]
    return (f"| {label} | {r['dof_ms']:.3f} | {fmt(q['psnr_db'], 2)} | {fmt(q['ssim'], 4)} | "
            f"{fmt(q['edge_psnr_db'], 2)} | {pct(q['highlight_energy_signed'])} | "
            f"{fmt(q['log_luminance_psnr_db'], 2)} |")


def runs_by_method(report):
    out = {}
    for r in dof_compare.method_runs(report):
        out.setdefault(r["dof"], r)  # the first run of a method (--all-methods repeats the default)
    return out


def main():
    d = sys.argv[1]
    head = ("| method | DoF ms | PSNR dB | SSIM | edge PSNR dB | highlight energy | "
            "log-luminance PSNR dB |\n|---|---:|---:|---:|---:|---:|---:|")
    for v in VIEWS:
        off, on = (load(os.path.join(d, f"bokeh{t}_{v}.json")) for t in (0, 1))
        a, b = runs_by_method(off), runs_by_method(on)
        print(f"#### {v} (focus {off['focus']}, aperture {off['aperture']} px)\n\n{head}")
        for m in KEEP:
            if m.startswith("gather/"):
                print(row(m, a[m]))
                print(row(f"**{m} + bokeh**", b[m]))
            elif m in a:
                print(row(m, a[m]))
        print()
    print("#### Thresholds: gather/octagon + bokeh\n")
    print("| view | threshold | sources (pixels above it) | DoF ms | PSNR dB | edge PSNR dB | "
          "highlight energy |\n|---|---:|---:|---:|---:|---:|---:|")
    for v in ["near-blur", "highlights"]:
        for t in ["0.5", "1", "2", "4"]:
            p = (os.path.join(d, f"bokeh1_{v}.json") if t == "1"
                 else os.path.join(d, f"bokeh_t{t}_{v}.json"))
            rep = load(p)
            r = runs_by_method(rep)["gather/octagon"]
            q = r["quality"]
            print(f"| {v} | {t} | {rep['hdr']['clamped_pixels']} | {r['dof_ms']:.3f} | "
                  f"{fmt(q['psnr_db'], 2)} | {fmt(q['edge_psnr_db'], 2)} | "
                  f"{pct(q['highlight_energy_signed'])} |")
    print("\n#### The CUDA frame (default view, 1080p, 300 frames, medians)\n")
    print("| bokeh | DoF ms | GPU frame ms |\n|---|---:|---:|")
    for t in ("0", "1"):
        r = load(os.path.join(d, f"bokeh_frame_cuda_t{t}.json"))["runs"][0]
        print(f"| {'off' if t == '0' else 'threshold 1'} | {r['dof_compute_ms']:.4f} | "
              f"{r['frame_gpu_ms']:.4f} |")


if __name__ == "__main__":
    main()
