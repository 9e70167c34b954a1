#!/usr/bin/python3
"""Checks the demo's depth of field (CI: Mesa llvmpipe through EGL, the GL passes and the CPU
fallback). Images are the demo's headless outputs; PNGs top row first, .npy row 0 = the bottom.

  check_dof_report.py --aperture0 REFERENCE.png SHARP.png
      the lens reference rendered with aperture 0 equals the sharp frame: PSNR above 50 dB

  check_dof_report.py --methods REPORT.json DIR GATHER_BOX_PASS DOF [DOF ...]
      a run with --report, --method-images DIR --method-gold (and --all-methods or --quality);
      for each DOF ("spread/box", ...):
      - its run exists and the pass that drew it (report's dof_pass, and quality.dof_pass) is
        GATHER_BOX_PASS ("compute (GL)", "fragment") for gather/box and "cpu" for the rest: on
        CI every method but gather/box is the CPU gold method, and a method that silently fell
        back to another pass fails here;
      - DIR/METHOD.png equals DIR/METHOD_gold.npy (scandof::dof::render of the same read-back
        sharp frame and view z with the run's settings) within 1/255 per channel: see GOLD_*;
      - it is closer to the lens reference (DIR/reference.png) than the unblurred frame
        (DIR/sharp.png) by MARGIN_DB, and the report's PSNR is the one measured here;
      - every method but gather/box differs from gather/box (DISTINCT_*), so a method that
        became gather/box inside the gold implementation fails too.

  check_dof_report.py --radiance REPORT.json DIR PASS DOF [DOF ...]
      an HDR run with --report, --method-images DIR --method-gold: for each DOF, drawn by PASS
      ("compute (GL)", "fragment", "compute (CUDA)") as the report says, the output's radiance
      (DIR/METHOD_radiance.npy, the RGBA16F target read back) equals the gold method's
      (DIR/METHOD_gold_radiance.npy) within RADIANCE_REL of it plus RADIANCE_ABS, every pixel;
      the tone-mapped images differ by one level in about 2 % of values between the GPU's tone map
      and the CPU's whatever the DoF pass, which would hide a difference of the pass itself.

  check_dof_report.py --plane REPORT.json DIR
      a --view-preset wall run (one plane at one depth fills the frame) with --method-images DIR
      --method-gold: the accumulated lens reference equals the pinhole frame filtered by the disc
      of the circle of confusion that the report's aperture and focus and DIR/depth.npy give
      (computed here, by area of each pixel inside the disc), within PLANE_TOL_DB; and the disc of
      that radius fits better than discs PLANE_RADIUS_STEP smaller and larger and than no blur.

Exit status 0 when every check passes.
"""
import json
import math
import os
import sys

import matplotlib.image as mpimg
import numpy as np

# The GL passes compute the gather in float (box sums converted from uint32 or float tables,
# weights, one division) as the CPU does, but in another order of operations, with the GPU's
# division and its own float -> unorm8 rounding: a value within float rounding of a half level
# may land on either side, so a channel may differ by one level, never more. llvmpipe at 160x90
# gives 0 values off on all four GL runs (compute and fragment, uint32 and float32 tables);
# GOLD_OFF_FRACTION leaves 1 % for GPUs that contract to FMA or divide otherwise, which a shifted
# or wrong kernel, moving most blurred values by several levels, cannot meet. The CPU fallback
# uploads the gold image itself: zero differences are required there.
GOLD_MAX_LEVELS = 1
GOLD_OFF_FRACTION = 0.01

# Each method against the lens reference, less the unblurred frame against it (dB). Measured on
# llvmpipe at 160x90, near-blur, 64 lens samples: the unblurred frame 17.1 dB, the methods
# 33.4 to 34.7 dB, the smallest gain 16.3 dB (layered/box; gather/box 16.3). Half of it: a
# method that blurs nothing gains 0, one that blurs only part of what it should falls short.
MARGIN_DB = 8.0
# The report's PSNR (float images) against the one from the 8-bit PNGs here: PNG rounding moves
# it by a few hundredths of a dB at these errors.
REPORT_PSNR_TOL_DB = 0.1

# A method is not gather/box when at least this fraction of pixels differs from gather/box by
# more than 2 levels in some channel. Measured: 19.6 % (gather/octagon, the closest) to 38.8 %.
DISTINCT_LEVELS = 2
DISTINCT_FRACTION = 0.05

# The plane check: PSNR of the lens reference against the disc-filtered pinhole frame, over the
# pixels at least radius + 2 from the border (the lens frames see past the pinhole frame's
# edges). Measured 55.6 dB on llvmpipe at 160x90, 256 lens samples, radius 5, near the 58.9 dB
# that rounding both images to 8 bits alone allows; the 256 Fibonacci points instead of the
# continuous disc cost nothing visible (as pixel shifts of the pinhole frame: 74 dB). A lens
# radius 20 % off scores 45.6 / 46.6 dB, the unblurred frame 25 dB: PLANE_TOL_DB sits between.
PLANE_TOL_DB = 50.0
PLANE_RADIUS_STEP = 0.2


def load(path):
    img = mpimg.imread(path)
    if img.ndim != 3 or img.shape[2] < 3:
        raise SystemExit(f"{path}: expected an RGB(A) image, got shape {img.shape}")
    return img[..., :3].astype(np.float64)


def load_levels(path):
    return np.rint(load(path) * 255).astype(np.int32)


def load_npy_top_down(path):
    return np.flipud(np.load(path))


def psnr(a, b):
    mse = float(np.mean((a - b) ** 2))
    return math.inf if mse == 0 else 10 * math.log10(1.0 / mse)


def check_aperture0(ref_path, sharp_path):
    ref, sharp = load(ref_path), load(sharp_path)
    if ref.shape != sharp.shape:
        raise SystemExit(f"sizes differ: {ref.shape} vs {sharp.shape}")
    p = psnr(ref, sharp)
    print(f"reference (aperture 0) vs sharp frame: PSNR {p:.2f} dB (want > 50)")
    return p > 50


def file_of(folder, dof):
    # automation/method_sheet.cpp names a method's files by its label with '/' as '_'.
    return os.path.join(folder, dof.replace("/", "_"))


def scored_runs(report_path):
    """The report and its first scored run of each method ("gather/box": run)."""
    with open(report_path) as f:
        report = json.load(f)
    runs = {}
    for r in report.get("runs", []):
        if r.get("quality"):
            runs.setdefault(r.get("dof"), r)
    return report, runs


def check_methods(report_path, folder, gather_box_pass, wanted):
    report, runs = scored_runs(report_path)
    ref = load(os.path.join(folder, "reference.png"))
    sharp = load(os.path.join(folder, "sharp.png"))
    sharp_db = psnr(sharp, ref)
    print(f"unblurred frame vs lens reference: PSNR {sharp_db:.3f} dB "
          f"({report.get('reference_samples')} lens samples); each method must gain "
          f">= {MARGIN_DB} dB")
    ok = True
    images = {}
    for dof in wanted:
        r = runs.get(dof)
        if r is None:
            print(f"FAIL {dof}: no scored run (have {sorted(k for k in runs if k)})")
            ok = False
            continue
        # The GL passes draw gather with every shape; the CPU gold method the rest.
        want_pass = gather_box_pass if dof.startswith("gather/") else "cpu"
        q = r["quality"]
        fails = []
        if r.get("dof_pass") != want_pass or q.get("dof_pass") != want_pass:
            fails.append(f"drawn by '{r.get('dof_pass')}' / scored '{q.get('dof_pass')}', "
                         f"want '{want_pass}' ({r.get('dof_message', 'no message')})")
        img = load_levels(file_of(folder, dof) + ".png")
        gold = load_npy_top_down(file_of(folder, dof) + "_gold.npy")
        if gold.shape != img.shape:
            raise SystemExit(f"{dof}: gold {gold.shape} vs image {img.shape}")
        diff = np.abs(img - np.rint(np.clip(gold, 0, 1) * 255).astype(np.int32))
        off = int(np.count_nonzero(diff))
        frac = off / diff.size
        if want_pass == "cpu":
            if off:
                fails.append(f"CPU fallback differs from the gold method in {off} values "
                             f"(max {diff.max()} levels; want identical)")
        elif diff.max() > GOLD_MAX_LEVELS or frac > GOLD_OFF_FRACTION:
            fails.append(f"differs from the gold method by up to {diff.max()} levels, "
                         f"{off} of {diff.size} values off (want <= {GOLD_MAX_LEVELS} level, "
                         f"<= {GOLD_OFF_FRACTION:.0%} of values)")
        img_f = img / 255.0
        images[dof] = img
        db = psnr(img_f, ref)
        if not db >= sharp_db + MARGIN_DB:
            fails.append(f"PSNR {db:.3f} dB gains {db - sharp_db:.3f} dB over the unblurred "
                         f"frame (want >= {MARGIN_DB})")
        rep_db = q.get("psnr_db")
        if not isinstance(rep_db, (int, float)) or abs(rep_db - db) > REPORT_PSNR_TOL_DB:
            fails.append(f"report says PSNR {rep_db}, measured {db:.3f} dB")
        if not (isinstance(q.get("ssim"), (int, float)) and 0 < q["ssim"] <= 1
                and q.get("reference_samples", 0) >= 1):
            fails.append(f"quality object out of range: {q}")
        print(f"{'ok  ' if not fails else 'FAIL'} {dof:15s} {r.get('dof_pass'):13s} vs gold: max "
              f"{diff.max()} level(s), {frac:.2%} values off; vs reference: PSNR {db:.3f} dB "
              f"(+{db - sharp_db:.3f}), SSIM {q.get('ssim')}")
        for m in fails:
            print(f"     {dof}: {m}")
        ok &= not fails
    base = images.get("gather/box")
    if base is not None:
        for dof, img in images.items():
            if dof == "gather/box":
                continue
            frac = float(np.mean(np.abs(img - base).max(axis=2) > DISTINCT_LEVELS))
            good = frac >= DISTINCT_FRACTION
            print(f"{'ok  ' if good else 'FAIL'} {dof:15s} differs from gather/box in "
                  f"{frac:.2%} of pixels by > {DISTINCT_LEVELS} levels (want >= "
                  f"{DISTINCT_FRACTION:.0%})")
            ok &= good
    return ok


# A GPU pass writes half floats (relative step 2^-10, so rounding 2^-11), twice where the bokeh
# adds its sums to the gather's output; its float arithmetic runs in another order than the
# gold's doubles.
RADIANCE_REL = 2.0 ** -9
RADIANCE_ABS = 1e-3


def check_radiance(report_path, folder, want_pass, wanted):
    _, runs = scored_runs(report_path)
    ok = True
    for dof in wanted:
        drawn = runs.get(dof, {}).get("dof_pass")
        if drawn != want_pass:
            print(f"FAIL {dof:15s} drawn by '{drawn}', want '{want_pass}'")
            ok = False
        got = np.load(file_of(folder, dof) + "_radiance.npy")[..., :3].astype(np.float64)
        gold = np.load(file_of(folder, dof) + "_gold_radiance.npy").astype(np.float64)
        if got.shape != gold.shape:
            raise SystemExit(f"{dof}: radiance {got.shape} vs gold {gold.shape}")
        d = np.abs(got - gold)
        bad = d > RADIANCE_REL * np.abs(gold) + RADIANCE_ABS
        worst = float(np.max(d / (np.abs(gold) + RADIANCE_ABS / RADIANCE_REL)))
        good = not bad.any()
        print(f"{'ok  ' if good else 'FAIL'} {dof:15s} radiance vs gold: {int(bad.sum())} of "
              f"{bad.size} values off, worst relative {worst:.2e} (want <= {RADIANCE_REL:.2e}), "
              f"brightest gold {gold.max():.2f}")
        ok &= good
    return ok


def disc_kernel(r, sub=16):
    """Weight of each pixel offset = area of its unit square inside the disc of radius r."""
    n = int(math.ceil(r + 0.5))
    s = (np.arange(sub) + 0.5) / sub - 0.5
    k = np.zeros((2 * n + 1, 2 * n + 1))
    for dy in range(-n, n + 1):
        for dx in range(-n, n + 1):
            yy, xx = np.meshgrid(dy + s, dx + s, indexing="ij")
            k[dy + n, dx + n] = np.mean(xx * xx + yy * yy <= r * r)
    return k / k.sum()


def filter_image(img, k):
    n = k.shape[0] // 2
    h, w = img.shape[:2]
    pad = np.pad(img, ((n, n), (n, n), (0, 0)), mode="edge")
    out = np.zeros_like(img)
    for dy in range(k.shape[0]):
        for dx in range(k.shape[1]):
            if k[dy, dx]:
                out += k[dy, dx] * pad[dy:dy + h, dx:dx + w]
    return out


def shift_bilinear(img, sx, sy):
    h, w = img.shape[:2]
    y, x = np.meshgrid(np.arange(h) + sy, np.arange(w) + sx, indexing="ij")
    x, y = np.clip(x, 0, w - 1), np.clip(y, 0, h - 1)
    x0, y0 = np.minimum(np.floor(x).astype(int), w - 2), np.minimum(np.floor(y).astype(int), h - 2)
    tx, ty = (x - x0)[..., None], (y - y0)[..., None]
    return ((1 - ty) * ((1 - tx) * img[y0, x0] + tx * img[y0, x0 + 1])
            + ty * ((1 - tx) * img[y0 + 1, x0] + tx * img[y0 + 1, x0 + 1]))


def fibonacci_mean(img, r, n):
    """The pinhole frame shifted to each of n Fibonacci lens points (scandof::dof::lens_sample)
    and averaged: what the accumulation would be if each lens frame were a shift of the pixels."""
    acc = np.zeros_like(img)
    for i in range(n):
        rho, th = math.sqrt((i + 0.5) / n), i * 2.39996322972865332
        acc += shift_bilinear(img, r * rho * math.cos(th), r * rho * math.sin(th))
    return acc / n


def check_plane(report_path, folder):
    with open(report_path) as f:
        report = json.load(f)
    z = load_npy_top_down(os.path.join(folder, "depth.npy"))
    if not (z.max() - z.min() <= 1e-4 * z.max()):
        print(f"FAIL the frame is not one plane at one depth: view z {z.min()} .. {z.max()}")
        return False
    zf, a, rmax = report["focus"], report["aperture"], report["max_radius"]
    zp = float(np.median(z))
    r = min(a * abs(zp - zf) / zp, rmax)  # scandof::dof::coc_radius, computed independently
    n_samples = report["reference_samples"]
    ref = load(os.path.join(folder, "reference.png"))
    sharp = load(os.path.join(folder, "sharp.png"))
    h, w = ref.shape[:2]
    b = int(math.ceil(r)) + 2
    if 2 * b >= min(h, w):
        raise SystemExit(f"radius {r:.2f} leaves no interior in {w}x{h}")
    inner = (slice(b, h - b), slice(b, w - b))

    def score(img):
        return psnr(img[inner], ref[inner])

    expect = filter_image(sharp, disc_kernel(r))
    db = score(expect)
    fib_db = psnr(fibonacci_mean(sharp, r, n_samples)[inner], expect[inner])
    smaller = score(filter_image(sharp, disc_kernel(r * (1 - PLANE_RADIUS_STEP))))
    larger = score(filter_image(sharp, disc_kernel(r * (1 + PLANE_RADIUS_STEP))))
    unblurred = score(sharp)
    print(f"plane at view z {zp:.4f}, focus {zf}, aperture {a} px: circle of confusion radius "
          f"{r:.4f} px; {n_samples} lens samples; {w}x{h}, border {b} px left out")
    print(f"lens reference vs pinhole frame * disc(r): PSNR {db:.3f} dB (want >= {PLANE_TOL_DB}; "
          f"the {n_samples} Fibonacci points alone, as pixel shifts: {fib_db:.3f} dB)")
    print(f"  controls: disc({1 - PLANE_RADIUS_STEP:.1f} r) {smaller:.3f} dB, "
          f"disc({1 + PLANE_RADIUS_STEP:.1f} r) {larger:.3f} dB, no blur {unblurred:.3f} dB "
          f"(each must score below disc(r))")
    ok = True
    if not db >= PLANE_TOL_DB:
        print("FAIL the lens reference is not the disc-filtered pinhole frame")
        ok = False
    if not (db > smaller and db > larger and db > unblurred):
        print("FAIL another radius (or none) fits the lens reference better than the circle of "
              "confusion")
        ok = False
    if r < 2:
        print(f"FAIL radius {r:.2f} px is too small for the controls to tell radii apart")
        ok = False
    return ok


def main():
    a = sys.argv[1:]
    if len(a) == 3 and a[0] == "--aperture0":
        ok = check_aperture0(a[1], a[2])
    elif len(a) >= 5 and a[0] == "--methods":
        ok = check_methods(a[1], a[2], a[3], a[4:])
    elif len(a) >= 5 and a[0] == "--radiance":
        ok = check_radiance(a[1], a[2], a[3], a[4:])
    elif len(a) == 3 and a[0] == "--plane":
        ok = check_plane(a[1], a[2])
    else:
        raise SystemExit(__doc__)
    print("PASS" if ok else "FAILED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
