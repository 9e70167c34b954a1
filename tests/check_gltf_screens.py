#!/usr/bin/python3
"""Checks the demo's screenshots of a loaded glTF scene (tests/demo_gltf.cmake):

  check_gltf_screens.py DOF.png SHARP.png

SHARP.png is the sharp frame (--view sharp), DOF.png the depth-of-field output of the same still
frame. The model must show (at least 2% of the sharp frame's pixels differ from the sky, read at
the frame's corners, by more than 8 levels), and the depth of field must blur it: the DoF image
differs from the sharp one, and its local contrast (mean absolute Laplacian of the luma, where
the model is) is below the sharp frame's. Exit status 0 when every check passes.
"""
import sys

import matplotlib.image as mpimg
import numpy as np


def load(path):
    img = mpimg.imread(path)
    if img.ndim != 3 or img.shape[2] < 3:
        raise SystemExit(f"{path}: expected an RGB(A) image, got shape {img.shape}")
    return img[..., :3].astype(np.float64) * 255.0


def contrast(luma, mask):
    lap = np.abs(4 * luma[1:-1, 1:-1] - luma[:-2, 1:-1] - luma[2:, 1:-1] - luma[1:-1, :-2]
                 - luma[1:-1, 2:])
    m = mask[1:-1, 1:-1]
    return float(lap[m].mean()) if m.any() else 0.0


def main(argv):
    if len(argv) != 3:
        raise SystemExit(__doc__)
    dof, sharp = load(argv[1]), load(argv[2])
    if dof.shape != sharp.shape:
        raise SystemExit(f"sizes differ: {dof.shape} vs {sharp.shape}")
    h, w, _ = sharp.shape
    corners = np.stack([sharp[2, 2], sharp[2, w - 3], sharp[h - 3, 2], sharp[h - 3, w - 3]])
    sky = np.median(corners, axis=0)
    model = np.abs(sharp - sky).max(axis=2) > 8
    frac = float(model.mean())
    luma = lambda im: im @ np.array([0.2126, 0.7152, 0.0722])
    diff = float(np.abs(dof - sharp).mean())
    c_sharp, c_dof = contrast(luma(sharp), model), contrast(luma(dof), model)
    print(f"model covers {frac:.1%} of the frame; DoF vs sharp mean difference {diff:.2f} levels; "
          f"contrast on the model sharp {c_sharp:.2f}, DoF {c_dof:.2f}")
    ok = True
    if frac < 0.02:
        print("FAIL: the model does not show in the sharp frame")
        ok = False
    if diff < 0.5:
        print("FAIL: the depth of field did not change the frame")
        ok = False
    if not c_dof < 0.9 * c_sharp:
        print("FAIL: the depth of field did not blur the model")
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
