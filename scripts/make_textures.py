#!/usr/bin/python3
"""Generates the demo's PNG textures under assets/ (deterministic: same bytes every run).

floor.png: a checkerboard of tiles with a fine grain, so blur on the floor is easy to see.
wall.png:  a brick wall for the far background: high-contrast mortar lines make the far blur
           measurable by the screenshot test (local contrast drops when it is out of focus).
Run with Debian's python (numpy + matplotlib): /usr/bin/python3 scripts/make_textures.py
"""
import os

import matplotlib.image as mpimg
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ASSETS = os.path.join(HERE, "..", "assets")


def floor(n=512, tiles=8):
    rng = np.random.default_rng(1975)
    y, x = np.mgrid[0:n, 0:n]
    checker = ((x * tiles // n + y * tiles // n) % 2).astype(np.float32)
    light = np.array([0.86, 0.80, 0.68], np.float32)
    dark = np.array([0.30, 0.22, 0.16], np.float32)
    img = dark + checker[..., None] * (light - dark)
    grain = 0.06 * np.sin(x * 0.9 + 3.0 * np.sin(y * 0.05)) + rng.normal(0, 0.025, (n, n))
    img = img * (1.0 + grain[..., None])
    # Thin dark grout lines between tiles.
    t = n // tiles
    grout = ((x % t) < 2) | ((y % t) < 2)
    img[grout] *= 0.35
    return np.clip(img, 0, 1)


def wall(w=1024, h=512, rows=16, cols=8):
    rng = np.random.default_rng(1976)
    y, x = np.mgrid[0:h, 0:w]
    bh, bw = h // rows, w // cols
    row = y // bh
    xs = x + (row % 2) * (bw // 2)
    brick_id = row * (cols + 1) + xs // bw
    tint = rng.uniform(0.75, 1.15, brick_id.max() + 1)[brick_id]
    base = np.array([0.62, 0.24, 0.16], np.float32)
    img = base * tint[..., None] * (1.0 + rng.normal(0, 0.04, (h, w)))[..., None]
    mortar = ((y % bh) < 4) | ((xs % bw) < 4)
    img[mortar] = np.array([0.88, 0.86, 0.80], np.float32)
    return np.clip(img, 0, 1)


def main():
    os.makedirs(ASSETS, exist_ok=True)
    for name, img in (("floor.png", floor()), ("wall.png", wall())):
        path = os.path.join(ASSETS, name)
        mpimg.imsave(path, (img * 255).astype(np.uint8))
        print("wrote", os.path.normpath(path), img.shape)


if __name__ == "__main__":
    main()
