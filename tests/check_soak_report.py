#!/usr/bin/python3
"""Checks the "soak" object of a scandof --report (automation/soak.*).

  check_soak_report.py REPORT.json --frames N [--allow-unknown]

Passes when: the soak rendered N frames; every --verify it took passed (and it took some); every
fault it provoked recovered; memory was judged flat (RSS and GPU memory within 1% after the
warm-up, GL objects and descriptors not growing), or, with --allow-unknown, too few samples to
judge; the samples are bounded and in frame order; and the switches met every SAT backend name,
SAT method, scan variant, DoF method x shape, view, MSAA setting, pipeline and table format.
"""
import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("report")
    ap.add_argument("--frames", type=int, required=True)
    ap.add_argument("--allow-unknown", action="store_true")
    a = ap.parse_args()
    with open(a.report) as f:
        soak = json.load(f)["soak"]
    errors = []
    if soak["frames"] != a.frames:
        errors.append(f"frames {soak['frames']}, want {a.frames}")
    if soak["verifies"] < 1 or soak["verify_failures"] != 0:
        errors.append(f"verifies {soak['verifies']}, failed {soak['verify_failures']}")
    for e in soak["faults"]:
        if not e["recovered"]:
            errors.append(f"fault {e['fault']} at frame {e['frame']} not recovered: {e['message']}")
    v = soak["verdict"]
    if not v["flat"] and not (a.allow_unknown and not v["enough_samples"]):
        errors.append("memory: " + v["line"])
    samples = soak["samples"]
    if not samples or len(samples) > 600 or len(soak["canonical_samples"]) > 600:
        errors.append(f"{len(samples)} samples: want 1..600")
    frames = [s["frame"] for s in samples]
    if frames != sorted(frames):
        errors.append("samples out of frame order")
    for s in samples:
        if s["rss_bytes"] <= 0 or s["fds"] <= 0 or s["gl_objects"]["textures"] <= 0:
            errors.append(f"sample at frame {s['frame']} lacks a measurement: {s}")
            break
    # The configuration label: backend/method/variant/dof-shape/view/msaaN/pipeline/format.
    parts = [s["config"].split("/") for s in samples if not s["canonical"]]
    want = [
        ("backend", 0, {"auto", "cuda", "gl", "cpu"}),
        ("SAT method", 1, {"paper", "fused", "fused-two-pass", "fused-one-pass", "fused-resident"}),
        ("scan variant", 2, {"naive", "work-efficient", "conflict-free", "optimized",
                             "warp-shuffle", "single-pass", "cub"}),
        ("DoF method x shape", 3, {f"{m}-{s}" for m in ("gather", "spread", "layered")
                                   for s in ("box", "octagon", "disc")}),
        ("view", 4, {"dof", "sharp", "coc", "sat", "split", "reference", "error"}),
        ("MSAA", 5, {"msaa1", "msaa2", "msaa4"}),
        ("pipeline", 6, {"hdr", "ldr"}),
        ("format", 7, {"u32", "f32"}),
    ]
    for name, i, values in want:
        seen = {p[i] for p in parts if len(p) > i}
        # A CPU-gold DoF capped on large frames shows gather-box instead; only small soaks check it.
        if name == "DoF method x shape" and soak["cpu_dof_capped_switches"] > 0:
            continue
        if not values <= seen:
            errors.append(f"{name}: never switched to {sorted(values - seen)}")
    if soak["resizes"] < 1:
        errors.append("no resize")
    print(v["line"])
    print(f"{soak['frames']} frames in {soak['seconds']:.1f} s, {soak['switches']} switches, "
          f"{soak['resizes']} resizes, {soak['verifies']} verifies, {len(samples)} samples")
    if errors:
        for e in errors:
            print("FAIL:", e)
        return 1
    print("soak report OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
