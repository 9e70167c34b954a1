#!/usr/bin/python3
"""Checks a SAT dumped by `scandof --headless --dump-sat SAT.npy --out-frame FRAME.png` against a
SAT computed here with numpy from the same frame (exact for uint32 tables).

  check_sat_dump.py SAT.npy FRAME.png
"""
import sys

import matplotlib.image as mpimg
import numpy as np


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    sat = np.load(sys.argv[1])
    img = mpimg.imread(sys.argv[2])
    if img.dtype != np.uint8:
        img = np.rint(img * 255).astype(np.uint8)
    # The PNG is top-down; the tables' row 0 is the bottom row (GL order).
    rgb = img[::-1, :, :3].astype(np.uint64)
    want = rgb.cumsum(axis=0).cumsum(axis=1).transpose(2, 0, 1)
    print(f"dump {sys.argv[1]}: shape {sat.shape} dtype {sat.dtype}; frame {img.shape}")
    if sat.shape != want.shape:
        print("FAILED: shapes differ")
        return 1
    if sat.dtype == np.uint32:
        bad = int(np.count_nonzero(sat.astype(np.uint64) != want))
        print(f"uint32 tables: {bad} of {sat.size} elements differ from numpy's SAT of the frame")
        return 0 if bad == 0 else 1
    err = np.abs(sat.astype(np.float64) - want).max()
    print(f"float tables: max abs error {err:.6g} (largest value {want.max()})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
