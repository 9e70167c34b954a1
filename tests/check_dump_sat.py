#!/usr/bin/python3
"""Checks the demo's --dump-sat against a summed-area table computed here from the frame it was
built from (--out-frame of the same run): np.cumsum over both axes of the frame's R, G and B.

  check_dump_sat.py [--size WxH] SAT.npy FRAME.png

The dump is .npy of shape (3, H, W), row 0 = the bottom row (GL order), element (c, y, x) = the
sum of channel c over x' <= x, y' <= y. uint32 tables are compared exactly, modulo 2^32 (the
library's arithmetic); float32 tables exactly too while every sum stays below 2^24 (each partial
sum is then an integer float32 holds), else within float32 rounding of the largest sum. The PNG is
decoded here (zlib and numpy, no imaging library), so the check shares no code with the demo.
Exit status 0 when the table matches.
"""
import struct
import sys
import zlib

import numpy as np


def read_png(path):
    """8-bit RGB or RGBA PNG (non-interlaced) as a uint8 array (H, W, C), rows top-down."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    pos, idat, hdr = 8, [], None
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    if hdr is None:
        raise SystemExit(f"{path}: no IHDR")
    w, h, depth, ctype, _, _, interlace = hdr
    channels = {2: 3, 6: 4}.get(ctype)
    if depth != 8 or channels is None or interlace != 0:
        raise SystemExit(f"{path}: want 8-bit RGB(A) non-interlaced, got depth {depth} type {ctype}")
    raw = np.frombuffer(zlib.decompress(b"".join(idat)), dtype=np.uint8)
    stride = w * channels
    if raw.size != h * (stride + 1):
        raise SystemExit(f"{path}: {raw.size} bytes of image data, want {h * (stride + 1)}")
    rows = raw.reshape(h, stride + 1)
    out = np.zeros((h, stride), dtype=np.int64)
    prev = np.zeros(stride, dtype=np.int64)
    bpp = channels
    for y in range(h):
        ftype, line = rows[y, 0], rows[y, 1:].astype(np.int64)
        cur = np.zeros(stride, dtype=np.int64)
        if ftype == 0:
            cur = line
        elif ftype == 2:
            cur = (line + prev) & 255
        elif ftype in (1, 3, 4):
            for i in range(stride):
                a = cur[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                if ftype == 1:
                    pred = a
                elif ftype == 3:
                    pred = (a + b) // 2
                else:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                cur[i] = (line[i] + pred) & 255
        else:
            raise SystemExit(f"{path}: row {y}: unknown filter {ftype}")
        out[y] = cur
        prev = cur
    return out.reshape(h, w, channels).astype(np.uint8)


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
