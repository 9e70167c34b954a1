#!/usr/bin/python3
"""Checks the demo's --dump-sat against a summed-area table computed here from the frame it was
built from (--out-frame of the same run): np.cumsum over both axes of the frame's R, G and B.

  check_dump_sat.py [--size WxH] SAT.npy FRAME.png

The dump is .npy of shape (3, H, W), row 0 = the bottom row (GL order), element (c, y, x) = the
sum of channel c over x' <= x, y' <= y. uint32 tables are compared exactly, modulo 2^32 (the
library's arithmetic); float32 tables exactly too while every sum stays below 2^24 (each partial
sum is then an integer float32 holds), else within float32 rounding of the largest sum. The PNG is
decoded by matplotlib (Pillow), so the check shares no code with the demo.
Exit status 0 when the table matches.
"""
import sys

import matplotlib.image as mpimg
import numpy as np


def read_png(path):
    """8-bit RGB or RGBA PNG as a uint8 array (H, W, C), rows top-down. matplotlib (Debian's
    python3-matplotlib, through Pillow) decodes it; the demo writes it with stb_image_write."""
    try:
        img = mpimg.imread(path)
    except (OSError, ValueError, SyntaxError) as e:
        raise SystemExit(f"{path}: cannot read PNG: {e}")
    if img.dtype != np.uint8:  # 8-bit PNGs come back as floats k / 255, exact after rounding
        img = np.rint(np.asarray(img, dtype=np.float64) * 255.0).astype(np.uint8)
    if img.ndim != 3 or img.shape[2] not in (3, 4):
        raise SystemExit(f"{path}: want RGB(A), got shape {img.shape}")
    return img


def main():
    args = sys.argv[1:]
    size = None
    if len(args) >= 2 and args[0] == "--size":
        size = tuple(int(v) for v in args[1].split("x"))
        args = args[2:]
    if len(args) != 2:
        raise SystemExit(__doc__)
    sat = np.load(args[0])
    frame = read_png(args[1])[::-1, :, :3]  # bottom-up, as GL and the dump
    h, w = frame.shape[:2]
    print(f"{args[0]}: dtype {sat.dtype}, shape {sat.shape}; frame {w}x{h}")
    fail = []
    if size is not None and (w, h) != size:
        fail.append(f"frame is {w}x{h}, --size asked {size[0]}x{size[1]}")
    if sat.shape != (3, h, w):
        fail.append(f"table shape {sat.shape}, want (3, {h}, {w})")
    if sat.dtype not in (np.uint32, np.float32):
        fail.append(f"table dtype {sat.dtype}, want uint32 or float32")
    # A frame of one colour would make a wrong layout (transposed, channels swapped) pass.
    if len(np.unique(frame.reshape(-1, 3), axis=0)) < 8:
        fail.append("the frame has fewer than 8 colours: the check would be weak")
    if fail:
        print("FAIL: " + "; ".join(fail))
        return 1
    want = np.cumsum(np.cumsum(frame.transpose(2, 0, 1).astype(np.uint64), axis=1), axis=2)
    if sat.dtype == np.uint32:
        got = sat.astype(np.uint64)
        want = want % (1 << 32)
        bad = got != want
        tol = 0
    else:
        got = sat.astype(np.float64)
        exact = want.max() < (1 << 24)
        tol = 0.0 if exact else float(want.max()) * 2.0 ** -23 * (w + h)
        bad = np.abs(got - want.astype(np.float64)) > tol
    n = int(bad.sum())
    print(f"largest sum {int(want.max())}; {n} of {bad.size} table entries differ"
          f" (tolerance {tol})")
    if n:
        c, y, x = (int(v[0]) for v in np.nonzero(bad))
        print(f"FAIL: first difference at channel {c}, row {y} (from the bottom), column {x}: "
              f"table {got[c, y, x]}, cumsum {want[c, y, x]}")
        return 1
    print("OK: the dumped SAT is the cumsum of the frame")
    return 0


if __name__ == "__main__":
    sys.exit(main())
