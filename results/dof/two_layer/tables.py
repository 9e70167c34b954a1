#!/usr/bin/env python3
"""Tables of results/dof/two_layer/README.md from what run.sh brought back (the folder holding
q_VIEW_L{1,2}.json, frame_*.json and two_layer.log): per view, layered/disc with one and with two
depth layers and the oracle (the near field over the lens reference of the scene without it), then
the frame. Usage: tables.py FOLDER > tables.md"""
import json
import re
import sys

d = sys.argv[1]
views = [("default", "default (focus 20)"), ("near-blur", "near-blur (focus 30)"),
         ("focus8", "focus8 (focus 8)"), ("highlights", "highlights (focus 12)")]
# The oracle lines: two_layer.log, or oracle.log (a later call that printed both oracles).
oracle, complete = {}, {}
for name in ("two_layer.log", "oracle.log"):
    try:
        log = open(f"{d}/{name}").read()
    except OSError:
        continue
    cur = None
    for line in log.splitlines():
        m = re.match(r"== (\S+?)(,|$)", line)
        if m:
            cur = m.group(1)
        m = re.search(r"\[quality\] oracle .*PSNR\s+([\d.]+|inf) dB\s+SSIM ([\d.]+)\s+edge PSNR"
                      r"\s+([\d.]+|inf) dB.*highlight energy ([+-][\d.]+) %", line)
        if m and cur:
            (complete if "complete" in line else oracle)[cur] = [float(x) for x in m.groups()]

print("| view | method | DoF pass | DoF ms | 2nd layer ms | PSNR dB | SSIM | edge PSNR dB | "
      "highlight energy |")
print("|---|---|---|---:|---:|---:|---:|---:|---:|")
for v, name in views:
    for L in (1, 2):
        r = json.load(open(f"{d}/q_{v}_L{L}.json"))["runs"][-1]
        q = r["quality"]
        print(f"| {name} | layered/disc, {L} layer{'s' if L == 2 else ''} | {r['dof_pass']} | "
              f"{r['dof_ms']:.3f} | {r.get('peel_gl_ms', 0):.3f} | {q['psnr_db']:.2f} | "
              f"{q['ssim']:.4f} | {q['edge_psnr_db']:.2f} | "
              f"{100 * q['highlight_energy_signed']:+.2f} % |")
    for tab, what in ((complete, "oracle: near field over the method's complete background"),
                      (oracle, "oracle: near field over the lens's own background")):
        if v in tab:
            o = tab[v]
            print(f"| {name} | {what} | - | - | - | {o[0]:.2f} | {o[1]:.4f} | {o[2]:.2f} | "
                  f"{o[3]:+.2f} % |")
print()
print("| frame (120 frames, --no-animate) | DoF pass | scene ms | 2nd layer ms | SAT ms | DoF ms | "
      "interop ms | tone map ms | GPU frame ms | all GPU ms |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for f, name in (("frame_L1", "layered/disc, 1 layer"), ("frame_L2", "layered/disc, 2 layers"),
                ("frame_default", "default gather/octagon, --dof-layers 2 (no effect)")):
    r = json.load(open(f"{d}/{f}.json"))["runs"][-1]
    print(f"| {name} | {r['dof_pass']} | {r['scene_gl_ms']:.3f} | {r.get('peel_gl_ms', 0):.3f} | "
          f"{r['sat_ms']:.3f} | {r['dof_ms']:.3f} | {r['interop_ms']:.3f} | "
          f"{r['tonemap_gl_ms']:.3f} | {r['frame_gpu_ms']:.3f} | {r['frame_gpu_all_ms']:.3f} |")
