#!/usr/bin/python3
"""Checks the demo's screenshots (CI, under Xvfb + Mesa): teapots visible, focus region sharp, far
region blurred.

  check_screenshot.py DOF.png SHARP.png
  check_screenshot.py --size WxH FILE.png    (only checks the image size: the resize test)
  check_screenshot.py --primitives REPORT.json (the --primitives entries of a --report)
  check_screenshot.py --ui-coverage MAXFRAC SCENE.png UI.png
      (the window's frame with its panels, UI.png, against the same frame without them,
      SCENE.png: the pixels that differ, i.e. the UI, must be at most MAXFRAC of the window)
  check_screenshot.py --match REF.png FILE.png [--max-mean M] [--max-off F] [--level L]
      (FILE.png against a reference of the same settings, REF.png: same size, neither blank,
      the mean absolute difference over every channel at most M levels of 255 (default 1), and
      the pixels with a channel off by more than L levels (default 24) at most the fraction F of
      the image (default 0.002))

DOF.png is the depth-of-field output focused near the camera, SHARP.png the same still frame in the
sharp view (--view sharp). Sharpness is local contrast (mean absolute Laplacian) in a band of the
image; comparing each band against the sharp frame cancels out what the texture itself contributes:
the near band (bottom of the image, the floor in focus) must keep its contrast, the far band (top,
the back wall) must lose most of it. Exit status 0 when every check passes.
"""
import json
import sys

import matplotlib.image as mpimg
import numpy as np


def load(path):
    img = mpimg.imread(path)  # float32 in [0, 1] for PNG
    if img.ndim != 3 or img.shape[2] < 3:
        raise SystemExit(f"{path}: expected an RGB(A) image, got shape {img.shape}")
    return img[..., :3].astype(np.float64)


def contrast(gray, k=4):
    # Structure at a 4-pixel scale: block-average first, so the finest texture grain (which even a
    # 1-2 pixel circle of confusion inside the depth of field removes) does not dominate, while a
    # blur of 10 pixels and more still wipes the measure out.
    h, w = gray.shape
    gray = gray[: h // k * k, : w // k * k].reshape(h // k, k, w // k, k).mean(axis=(1, 3))
    lap = 4 * gray[1:-1, 1:-1] - gray[:-2, 1:-1] - gray[2:, 1:-1] - gray[1:-1, :-2] - gray[1:-1, 2:]
    return float(np.mean(np.abs(lap)))


def band(img, top, bottom):
    h = img.shape[0]
    return img[int(top * h):int(bottom * h)]


def saturated_fraction(img, hue_lo, hue_hi):
    mx, mn = img.max(axis=2), img.min(axis=2)
    sat = np.where(mx > 0, (mx - mn) / np.maximum(mx, 1e-6), 0)
    r, g, b = img[..., 0], img[..., 1], img[..., 2]
    d = np.maximum(mx - mn, 1e-6)
    hue = np.where(mx == r, ((g - b) / d) % 6, np.where(mx == g, (b - r) / d + 2, (r - g) / d + 4)) * 60
    mask = (sat > 0.45) & (mx > 0.25) & (hue >= hue_lo) & (hue < hue_hi)
    return float(mask.mean())


def check_size(spec, path):
    w, h = (int(v) for v in spec.split("x"))
    img = mpimg.imread(path)
    print(f"{path}: {img.shape[1]}x{img.shape[0]} (want {w}x{h})")
    if img.shape[:2] != (h, w):
        print("FAILED: wrong size")
        return 1
    if img[..., :3].std() < 0.02:
        print("FAILED: the image is blank")
        return 1
    return 0


def check_primitives(path):
    """Every primitive that ran must have both outputs (library and CUB) equal to the CPU
    reference and positive times; without a CUDA device the single not-run entry must say so."""
    with open(path) as f:
        report = json.load(f)
    entries = report.get("primitives")
    if not entries:
        print(f"FAILED: {path} has no primitives entries")
        return 1
    bad = 0
    for e in entries:
        if not e["ran"]:
            ok = "CUDA device" in e.get("error", "")
            print(f"{e['label']}: not run ({e.get('error', '')})" + ("" if ok else "  <- FAILED"))
            bad += not ok
            continue
        ok = e["lib_verified"] and e["cub_verified"] and e["lib_ms"] > 0 and e["cub_ms"] > 0
        print(f"{e['label']} 2^{e['log2_n']}: lib {e['lib_ms']:.4f} ms ({e['lib_check']}), "
              f"CUB {e['cub_ms']:.4f} ms ({e['cub_check']})" + ("" if ok else "  <- FAILED"))
        bad += not ok
    if bad:
        print(f"FAILED: {bad} of {len(entries)} primitive entries")
        return 1
    print("primitives checks passed")
    return 0


def check_ui_coverage(max_frac, scene_path, ui_path):
    scene, ui = load(scene_path), load(ui_path)
    if scene.shape != ui.shape:
        print(f"FAILED: size mismatch {scene.shape} vs {ui.shape}")
        return 1
    # A pixel belongs to the UI when any channel differs by more than 2 levels of 255 (the
    # panels' translucent backgrounds change every pixel they cover by far more).
    differs = (np.abs(scene - ui) > 2.5 / 255).any(axis=2)
    frac = float(differs.mean())
    h, w = differs.shape
    print(f"UI covers {100 * frac:.1f}% of the {w}x{h} window (limit {100 * float(max_frac):.0f}%)")
    if frac < 0.005:
        print("FAILED: no UI found in the screenshot with panels")
        return 1
    if frac > float(max_frac):
        print("FAILED: the UI covers too much of the scene")
        return 1
    print("ui coverage check passed")
    return 0


def check_match(args):
    """A picture against a reference picture of the same settings. Two measures, as they catch
    different faults: the mean absolute difference (what a changed focus, aperture or exposure
    moves a little everywhere) and the fraction of pixels off by more than `level` (what a missing
    or misplaced object, panel or stale region moves a lot in one place)."""
    opts = {"--max-mean": 1.0, "--max-off": 0.002, "--level": 24.0}
    paths = []
    i = 0
    while i < len(args):
        if args[i] in opts:
            if i + 1 >= len(args):
                raise SystemExit(f"{args[i]} needs a value\n\n{__doc__}")
            try:
                opts[args[i]] = float(args[i + 1])
            except ValueError:
                raise SystemExit(f"{args[i]}: not a number: {args[i + 1]}")
            i += 2
        else:
            paths.append(args[i])
            i += 1
    if len(paths) != 2:
        raise SystemExit(__doc__)
    ref_path, path = paths
    ref, img = load(ref_path), load(path)
    print(f"{path}: {img.shape[1]}x{img.shape[0]}; reference {ref_path}: "
          f"{ref.shape[1]}x{ref.shape[0]}")
    if ref.shape != img.shape:
        print("FAILED: the picture and its reference differ in size")
        return 1
    for p, im in ((ref_path, ref), (path, img)):
        if im.std() < 0.02:
            print(f"FAILED: {p} is blank")
            return 1
    diff = np.abs(img - ref) * 255.0
    mean = float(diff.mean())
    off = float((diff > opts["--level"]).any(axis=2).mean())
    print(f"mean absolute difference {mean:.3f} of 255 (limit {opts['--max-mean']:g}); "
          f"{100 * off:.3f}% of the pixels off by more than {opts['--level']:g} "
          f"(limit {100 * opts['--max-off']:g}%)")
    failures = []
    if mean > opts["--max-mean"]:
        failures.append("the picture differs from its reference on the whole")
    if off > opts["--max-off"]:
        failures.append("too many pixels differ from the reference")
    return verdict(failures, "match check passed")


def verdict(failures, passed):
    """Prints the failures or the all-clear; the exit status."""
    if failures:
        print("FAILED: " + "; ".join(failures))
        return 1
    print(passed)
    return 0


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "--match":
        return check_match(sys.argv[2:])
    if len(sys.argv) == 5 and sys.argv[1] == "--ui-coverage":
        return check_ui_coverage(sys.argv[2], sys.argv[3], sys.argv[4])
    if len(sys.argv) == 4 and sys.argv[1] == "--size":
        return check_size(sys.argv[2], sys.argv[3])
    if len(sys.argv) == 3 and sys.argv[1] == "--primitives":
        return check_primitives(sys.argv[2])
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    dof, sharp = load(sys.argv[1]), load(sys.argv[2])
    if dof.shape != sharp.shape:
        raise SystemExit(f"size mismatch: {dof.shape} vs {sharp.shape}")
    failures = []

    # Teapots: the scene has a blue and a green teapot, colours nothing else in it has.
    for name, lo, hi, need in (("blue", 195, 235, 0.002), ("green", 95, 150, 0.001)):
        f = saturated_fraction(dof, lo, hi)
        print(f"{name} teapot pixels: {100 * f:.3f}% (need > {100 * need:.2f}%)")
        if f <= need:
            failures.append(f"no {name} teapot visible")

    gray_d, gray_s = dof.mean(axis=2), sharp.mean(axis=2)
    near = contrast(band(gray_d, 0.85, 1.0)) / max(contrast(band(gray_s, 0.85, 1.0)), 1e-9)
    far = contrast(band(gray_d, 0.02, 0.22)) / max(contrast(band(gray_s, 0.02, 0.22)), 1e-9)
    print(f"near band (in focus): contrast kept {near:.2f} of the sharp frame (need > 0.6)")
    print(f"far band (background): contrast kept {far:.2f} of the sharp frame (need < 0.4)")
    if near <= 0.6:
        failures.append("the focus region is not sharp")
    if far >= 0.4:
        failures.append("the far region is not blurred")
    if np.abs(dof - sharp).mean() < 1e-3:
        failures.append("the depth-of-field frame equals the sharp frame")

    return verdict(failures, "screenshot checks passed")


if __name__ == "__main__":
    sys.exit(main())
