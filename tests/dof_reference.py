#!/usr/bin/python3
"""Independent numbers behind tests/test_image_metrics.cpp and scandof/dof.hpp.

  dof_reference.py            SSIM of the fixed test pair, by direct 2D windows (numpy only)
  dof_reference.py --stairs   the disc staircase band edges kDiscStairs (needs scipy; ~2 min)
  dof_reference.py --bounds   worst-case spreading weight per pixel (overflow limit of spread)

The SSIM here is written from the paper's definition with explicit 2D windows (no separable
filtering, no shared code with image_metrics.cpp): 11 x 11 Gaussian, sigma 1.5, K1 = 0.01,
K2 = 0.03, L = 1, population statistics; near the border the window is cut and renormalised
("full"), or only pixels whose window lies inside are averaged ("valid", Wang et al.'s MATLAB).
"""
import sys

import numpy as np

W, H = 23, 17


def fixed_pair():
    """The pair test_image_metrics.cpp builds: integer formulas, float32 like the C++ side."""
    y, x, c = np.meshgrid(np.arange(H), np.arange(W), np.arange(3), indexing="ij")
    a = (((x * 7 + y * 13 + c * 29) % 64).astype(np.float32) / np.float32(63.0)).astype(np.float32)
    d = (((x * y + 3 * c) % 7) - 3).astype(np.float32) / np.float32(40.0)
    b = np.clip(a + d, np.float32(0.0), np.float32(1.0)).astype(np.float32)
    return a.astype(np.float64), b.astype(np.float64)


def ssim_map(pa, pb):
    r, sigma = 5, 1.5
    c1, c2 = 0.01**2, 0.03**2
    h, w = pa.shape
    out = np.zeros((h, w))
    for y in range(h):
        for x in range(w):
            ys = np.arange(max(0, y - r), min(h, y + r + 1))
            xs = np.arange(max(0, x - r), min(w, x + r + 1))
            g = np.exp(-((ys[:, None] - y) ** 2 + (xs[None, :] - x) ** 2) / (2 * sigma**2))
            g /= g.sum()
            A = pa[np.ix_(ys, xs)]
            B = pb[np.ix_(ys, xs)]
            ma, mb = (g * A).sum(), (g * B).sum()
            va = (g * (A - ma) ** 2).sum()
            vb = (g * (B - mb) ** 2).sum()
            cab = (g * (A - ma) * (B - mb)).sum()
            out[y, x] = ((2 * ma * mb + c1) * (2 * cab + c2)) / ((ma**2 + mb**2 + c1) * (va + vb + c2))
    return out


def ssim_values():
    a, b = fixed_pair()
    luma = lambda im: 0.299 * im[..., 0] + 0.587 * im[..., 1] + 0.114 * im[..., 2]
    m_luma = ssim_map(luma(a), luma(b))
    m_rgb = sum(ssim_map(a[..., c], b[..., c]) for c in range(3)) / 3
    inner = (slice(5, H - 5), slice(5, W - 5))
    print("luma full  %.12f" % m_luma.mean())
    print("luma valid %.12f" % m_luma[inner].mean())
    print("rgb  full  %.12f" % m_rgb.mean())
    mse = ((a - b) ** 2).mean()
    print("mse %.12g psnr %.12f" % (mse, 10 * np.log10(1 / mse)))


def stairs():
    from scipy.integrate import quad
    from scipy.optimize import minimize

    f = lambda y: np.sqrt(max(0.0, 1 - y * y))

    def symdiff(hs):
        hs = np.sort(np.clip(hs, 0, 1))
        ws, prev, tot = hs[::-1], 0.0, 0.0
        for h, w in zip(hs, ws):
            tot += quad(lambda y: abs(f(y) - w), prev, h)[0]
            prev = h
        return 4 * (tot + quad(f, prev, 1)[0])

    rng = np.random.default_rng(1)
    for k in range(1, 9):
        start = np.sin(np.pi / 2 * np.arange(1, k + 1) / (k + 0.5))
        best = None
        for t in range(30):
            x0 = start * (1 + (0.02 * rng.standard_normal(k) if t else 0))
            r = minimize(symdiff, x0, method="Nelder-Mead",
                         options={"xatol": 1e-9, "fatol": 1e-13, "maxiter": 40000})
            if best is None or r.fun < best.fun:
                best = r
        print(k, "symdiff/(pi r^2) %.4f" % (best.fun / np.pi),
              ", ".join("%.6ff" % v for v in np.sort(best.x)))


def bounds():
    # Float model of the shapes (box: one fractional rectangle; disc: staircase of k), weight of
    # offset (dx, dy) per unit of kSpreadScale = w(dx, dy) / area; the worst pixel receives the
    # sum over offsets of the largest such weight any radius <= r_max gives.
    stairs_k = {2: [0.619366, 0.950840], 4: [0.410585, 0.659124, 0.844944, 0.978701]}

    def wf(h, d):  # 1D weight of a fractional half-width h at offsets d
        f = np.floor(h)
        return np.where(d <= f, 1.0, np.where(d == f + 1, h - f, 0.0))

    for rmax in (24, 64, 256):
        d = np.arange(0, int(rmax) + 2)
        for name in ("box", "octagon", "disc4"):
            best = np.zeros((d.size, d.size))
            for r in np.arange(0, rmax + 1e-9, 1 / 8 if rmax < 100 else 1 / 2):
                if name == "box":
                    wmap = np.outer(wf(r, d), wf(r, d))
                else:
                    hs = np.array(stairs_k[2 if name == "octagon" else 4]) * r
                    ws = hs[::-1]
                    k = len(hs)
                    wmap = sum(np.outer(wf(hs[i], d), wf(ws[i], d)) for i in range(k))
                    wmap = wmap - sum(np.outer(wf(hs[i], d), wf(ws[i + 1], d)) for i in range(k - 1))
                area = 4 * wmap.sum() - 2 * wmap[0].sum() - 2 * wmap[:, 0].sum() + wmap[0, 0]
                best = np.maximum(best, wmap / area)
            full = 4 * best.sum() - 2 * best[0].sum() - 2 * best[:, 0].sum() + best[0, 0]
            print("r_max %3d %-8s worst weight %.2f x scale; 255 x 2^19 x that = %.3g (< 2^31 = %.3g)"
                  % (rmax, name, full, 255 * 2**19 * full, 2.0**31))


if __name__ == "__main__":
    if "--stairs" in sys.argv:
        stairs()
    elif "--bounds" in sys.argv:
        bounds()
    else:
        ssim_values()
