#!/usr/bin/python3
"""A PNG sequence written by `scandof --record DIR` as an animated GIF for the README.

    scripts/png_to_gif.py DIR OUT.gif [--every N] [--fps F] [--width W]

Pillow (python3-pil, which python3-matplotlib pulls in) does the encoding; one adaptive palette
is built from the middle frame and shared by every frame, so the blur's gradients do not flicker
from one frame's palette to the next (a per-frame palette makes the GIF about 1.5x larger too).
"""
import argparse
import pathlib
import sys

from PIL import Image


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", type=pathlib.Path)
    ap.add_argument("out", type=pathlib.Path)
    ap.add_argument("--every", type=int, default=2, help="keep every Nth frame (default 2)")
    ap.add_argument("--fps", type=float, default=15.0, help="playback rate of the kept frames")
    ap.add_argument("--width", type=int, default=0, help="scale to this width (0: as recorded)")
    a = ap.parse_args()
    if a.every < 1 or a.fps <= 0 or a.width < 0:
        print("png_to_gif: --every >= 1, --fps > 0 and --width >= 0", file=sys.stderr)
        return 2
    files = sorted(a.dir.glob("frame_*.png"))[:: a.every]
    if not files:
        print(f"png_to_gif: no frame_*.png in {a.dir}", file=sys.stderr)
        return 1
    frames = []
    for f in files:
        im = Image.open(f).convert("RGB")
        if a.width and im.width != a.width:
            im = im.resize((a.width, round(im.height * a.width / im.width)), Image.LANCZOS)
        frames.append(im)
    palette = frames[len(frames) // 2].quantize(colors=256, method=Image.MEDIANCUT)
    gif = [im.quantize(palette=palette, dither=Image.NONE) for im in frames]
    try:
        gif[0].save(a.out, save_all=True, append_images=gif[1:], duration=round(1000 / a.fps),
                    loop=0, optimize=True)
    except OSError as e:
        print(f"png_to_gif: cannot write {a.out}: {e}", file=sys.stderr)
        return 1
    print(f"{a.out}: {len(gif)} frames, {a.out.stat().st_size / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
