#!/usr/bin/python3
"""The table of results/frame/README.md from the headless demo's reports (scripts/gpu/frame.sh):
one row per frame_WxH_BACKEND_PASS[_forward|_paper|_ldr].json (HDR, the default pipeline,
unless _ldr), every column a median over the run's
frames as the report gives it (GPU timers; "interval" is host time).

usage: scripts/frame_table.py DIR > TABLE.md
"""
import glob
import json
import os
import re
import sys

COLUMNS = [("scene", "scene_gl_ms"), ("interop", "interop_ms"), ("SAT", "sat_ms"),
           ("DoF", "dof_ms"), ("tone map", "tonemap_gl_ms"), ("frame GPU", "frame_gpu_ms"), ("all GPU", "frame_gpu_all_ms"),
           ("interval", "frame_interval_ms")]


def label(name):
    m = re.match(r"frame_(\d+)x(\d+)_(cuda|gl)_(compute|fragment)(_forward|_paper|_ldr)?\.json$",
                 name)
    if not m:
        return None
    w, h, backend, dof_pass, extra = m.groups()
    text = ("4K " if w == "3840" else "") + ("CUDA backend, " if backend == "cuda" else
                                             "GL compute backend, ")
    text += {"compute": "CUDA compute DoF" if backend == "cuda" else "GL compute DoF",
             "fragment": "fragment DoF"}[dof_pass]
    if extra == "_forward":
        text += ", floor and wall shaded forward"
    if extra == "_paper":
        text = text.replace("backend,", "backend, paper pipeline (work-efficient),")
    if extra == "_ldr":
        text += ", LDR (paper) frame"
    order = (int(w), extra or "", backend, dof_pass)
    return order, text


def main(folder):
    rows = []
    for path in glob.glob(os.path.join(folder, "frame_*.json")):
        lab = label(os.path.basename(path))
        if not lab:
            continue
        with open(path) as f:
            run = json.load(f)["runs"][0]
        rows.append((lab[0], lab[1], run))
    print("| configuration | " + " | ".join(c for c, _ in COLUMNS) + " |")
    print("|---|" + "---:|" * len(COLUMNS))
    for _, text, run in sorted(rows, key=lambda r: r[0]):
        cells = [f"{run.get(k, 0.0):.3f}" for _, k in COLUMNS]
        print(f"| {text} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
