#!/usr/bin/python3
"""Checks the demo's depth of field against the lens reference (CI: the CPU fallback, Mesa EGL).

  check_dof_report.py --aperture0 REFERENCE.png SHARP.png
      the lens reference rendered with aperture 0 equals the sharp frame: PSNR above 50 dB
  check_dof_report.py --quality REPORT.json DOF [DOF ...]
      the --report of a headless run scored against the reference (--quality / --reference N):
      a run for each DOF ("spread/box", ...) with a quality object holding psnr_db, ssim,
      edge_psnr_db, edge_ssim and reference_samples, each a number in range

Exit status 0 when every check passes.
"""
import json
import math
import sys

import matplotlib.image as mpimg
import numpy as np

QUALITY_KEYS = ("psnr_db", "ssim", "edge_psnr_db", "edge_ssim", "reference_samples")


def load(path):
    img = mpimg.imread(path)
    if img.ndim != 3 or img.shape[2] < 3:
        raise SystemExit(f"{path}: expected an RGB(A) image, got shape {img.shape}")
    return img[..., :3].astype(np.float64)


def check_aperture0(ref_path, sharp_path):
    ref, sharp = load(ref_path), load(sharp_path)
    if ref.shape != sharp.shape:
        raise SystemExit(f"sizes differ: {ref.shape} vs {sharp.shape}")
    mse = float(np.mean((ref - sharp) ** 2))
    psnr = math.inf if mse == 0 else 10 * math.log10(1.0 / mse)
    print(f"reference (aperture 0) vs sharp frame: PSNR {psnr:.2f} dB (want > 50)")
    return psnr > 50


def check_quality(path, wanted):
    with open(path) as f:
        report = json.load(f)
    runs = {r.get("dof"): r for r in report.get("runs", [])}
    ok = True
    for dof in wanted:
        r = runs.get(dof)
        if r is None:
            print(f"{path}: no run with dof '{dof}' (have {sorted(k for k in runs if k)})")
            ok = False
            continue
        q = r.get("quality")
        if not isinstance(q, dict) or any(k not in q for k in QUALITY_KEYS):
            print(f"{dof}: quality object missing or incomplete: {q}")
            ok = False
            continue
        good = (isinstance(q["psnr_db"], (int, float)) and q["psnr_db"] > 10
                and isinstance(q["ssim"], (int, float)) and 0 < q["ssim"] <= 1
                and q["reference_samples"] >= 1
                # the edge band may be empty (null) only if the frame has no depth edge
                and (q["edge_psnr_db"] is None or q["edge_psnr_db"] > 10)
                and (q["edge_ssim"] is None or 0 < q["edge_ssim"] <= 1))
        print(f"{dof}: {r.get('dof_pass')} PSNR {q['psnr_db']} SSIM {q['ssim']} edge PSNR "
              f"{q['edge_psnr_db']} edge SSIM {q['edge_ssim']} ({q['reference_samples']} samples)"
              f"{'' if good else '  OUT OF RANGE'}")
        ok &= good
    return ok


def main():
    a = sys.argv[1:]
    if len(a) == 3 and a[0] == "--aperture0":
        ok = check_aperture0(a[1], a[2])
    elif len(a) >= 3 and a[0] == "--quality":
        ok = check_quality(a[1], a[2:])
    else:
        raise SystemExit(__doc__)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
