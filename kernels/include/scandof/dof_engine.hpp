// The engine-style depth of field (Method::Engine) and the SAT hybrid (Method::Hybrid): the
// per-pixel arithmetic both the CPU gold (kernels/src/dof_engine_gold.cpp) and the CUDA kernels
// (kernels/src/dof.cu) run, so the two agree to float rounding. Host-only header; includable from
// .cu files.
//
// ---- Engine: scatter-as-gather with a near and a far field ---------------------------------------
// The design real-time engines ship (Jimenez 2014, "Next-generation post-processing in Call of
// Duty: Advanced Warfare"; Sterna 2017; AMD FidelityFX DoF: downsample, tile dilate, blur,
// composite), written here from those descriptions. Signed CoC s = -r in front of the focal plane,
// +r behind it (r = coc_radius). Five passes:
//  1. Downsample to half resolution (W2 = ceil(W / 2), H2 likewise; a half pixel covers the 2 x 2
//     full pixels 2i..2i+1, 2j..2j+1, clamped to the frame):
//       far  = (mean colour, mean s / 2)                     -- s in half pixels
//       near = (mean colour of the pixels with s < 0 (all if none), rn = max over the four of
//               max(0, -s) / 2)
//  2. Tiles of kTile x kTile half pixels: the largest near radius rn of each.
//  3. Dilate: each tile takes the largest rn of the tiles within kTileReach(r_max) of it, so a
//     pixel knows how far the nearest blurred foreground can reach it.
//  4. Gathers on a ring pattern (FidelityFX's "quality" is its ring count; here Params::rings = N):
//     the centre and N rings, ring k = 1..N of 8k samples at radius R k / N, 1 + 4 N (N + 1)
//     samples (N = 3: 49), each sample the nearest half pixel (clamped to the frame) at distance d.
//     Near (R = the dilated tile's rn): sources are samples with rn_j >= kNearMin (a smaller
//     blur stays with the far field / the sharp frame). Each spreads its colour over its disc of
//     area pi rn_j^2; a sample stands for a = pi (R + 1/2)^2 / samples half pixels of the kernel,
//     so its weight is w_j = saturate(rn_j - d + 1/2) a / (pi rn_j^2) (coverage of its
//     antialiased disc times its density): sum w_j is the fraction of the pixel the foreground
//     covers (alpha, clamped to 1) and sum w_j c_j / sum w_j its colour. Stored premultiplied.
//     Far (R = |s| of the pixel): behind the focal plane (s >= 0) a sample counts as far as its
//     own CoC reaches the pixel, w_j = saturate(s_j - d + 1) for s_j >= 0, 0 in front (so a
//     sharp or near object does not bleed into the blurred background behind it); in front of
//     the focal plane the pixel averages the near samples (the near field covers it anyway).
//     colour = sum w_j c_j / sum w_j (the centre always counts).
//  5. Composite at full resolution, the half-resolution fields bilinearly upsampled:
//     base = sharp + saturate(r - 1) (far - sharp)   (r <= 1: sharp; r >= 2: the far field)
//     out  = base (1 - alpha) + near_premultiplied.
// Cost: the gathers run at a quarter of the pixels, the near one only where the dilated tile has
// a foreground; no table is read.
//
// ---- Hybrid: the summed-area gather with the engine's near field over it ----------------------
// Gather with any shape (docs/dof.md's gather, exactly: exact SAT box sums) is right wherever the
// pixel's own circle decides what it sees, and wrong where a blurred foreground should spread
// over a sharper background (a gather never reaches past the foreground's silhouette). Hybrid
// takes base = the SAT gather of the pixel and composites passes 1-4's near field over it, scaled
// by hybrid_near_share() (the near gather also returns its sources' mean radius).
//
// Colour units: LDR colour c / 255; HDR the fixed-point radiance q 2^-F (the quantize_radiance of
// the tables). Output as every method (LDR clamped to [0, 1], HDR >= 0).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "scandof/config.hpp"
#include "scandof/dof.hpp"

namespace scandof {
namespace dof {
namespace fields {

constexpr int kTile = 8;           // half pixels per tile side (16 full pixels)
constexpr float kNearMin = 1.0f;   // smallest near radius (half pixels) in the near field
constexpr int kMaxSamples = 1 + 4 * kMaxRings * (kMaxRings + 1);

struct F4 {
  float x, y, z, w;
};

SCANDOF_HD int clampi(int v, int lo, int hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}
SCANDOF_HD int half_size(int n) {
  return (n + 1) / 2;
}
SCANDOF_HD float saturate(float v) {
  return fminf(fmaxf(v, 0.0f), 1.0f);
}
SCANDOF_HD float signed_coc(float z, const Params& p) {
  const float r = coc_radius(z, p);
  return z < p.focus ? -r : r;
}
SCANDOF_HD int samples(int rings) {
  return 1 + 4 * rings * (rings + 1);
}
// Tiles a pixel's dilated tile looks across: a near source of radius rn <= r_max / 2 reaches
// pixels closer than rn + 1/2; a tile k tiles away is at least (k - 1) kTile + 1 half pixels off.
SCANDOF_HD int tile_reach(float max_radius) {
  return static_cast<int>(ceilf((0.5f * max_radius + 0.5f) / static_cast<float>(kTile)));
}

// The ring pattern's unit offsets: sample i at (ux[i], uy[i]) R (R the kernel radius), centre
// first. Computed on the host once (RingTable::make) and copied to the device as they are, so the
// CPU and GPU offsets are the same floats.
// (No member initialisers: the CUDA side keeps one in __constant__ memory.)
struct RingTable {
  int n;
  float ux[kMaxSamples], uy[kMaxSamples];
  static RingTable make(int rings) {
    RingTable t;
    t.ux[0] = t.uy[0] = 0.0f;
    t.n = 1;
    for (int k = 1; k <= rings; ++k) {
      const int m = 8 * k;
      for (int i = 0; i < m; ++i) {
        // Odd rings turned by half a step, so samples of neighbouring rings do not line up.
        const double a = 6.283185307179586 * (i + 0.5 * (k & 1)) / m;
        const double rho = static_cast<double>(k) / rings;
        t.ux[t.n] = static_cast<float>(rho * std::cos(a));
        t.uy[t.n] = static_cast<float>(rho * std::sin(a));
        ++t.n;
      }
    }
    return t;
  }
};

// Pass 1: one half pixel from its (up to) four full pixels' colours c[k] (colour units) and
// signed CoCs s[k] (full pixels); n = 4 always (duplicates at an odd edge).
SCANDOF_HD void downsample(const F4* c, const float* s, F4* near_out, F4* far_out) {
  F4 mean{0, 0, 0, 0}, nmean{0, 0, 0, 0};
  float ss = 0.0f, rn = 0.0f;
  int nn = 0;
  for (int k = 0; k < 4; ++k) {
    mean.x += c[k].x;
    mean.y += c[k].y;
    mean.z += c[k].z;
    ss += s[k];
    if (s[k] < 0.0f) {
      nmean.x += c[k].x;
      nmean.y += c[k].y;
      nmean.z += c[k].z;
      ++nn;
      rn = fmaxf(rn, -0.5f * s[k]);
    }
  }
  far_out->x = 0.25f * mean.x;
  far_out->y = 0.25f * mean.y;
  far_out->z = 0.25f * mean.z;
  far_out->w = 0.125f * ss;
  if (nn > 0) {
    const float inv = 1.0f / static_cast<float>(nn);
    near_out->x = nmean.x * inv;
    near_out->y = nmean.y * inv;
    near_out->z = nmean.z * inv;
  } else {
    near_out->x = far_out->x;
    near_out->y = far_out->y;
    near_out->z = far_out->z;
  }
  near_out->w = rn;
}

// Pass 4, near: the premultiplied near colour and alpha at half pixel (x, y) of a W2 x H2 field,
// kernel radius R (the dilated tile's largest rn).
SCANDOF_HD F4 near_gather(const F4* near, int w2, int h2, int x, int y, float R,
                          const RingTable& t, float* mean_radius) {
  F4 acc{0, 0, 0, 0};
  *mean_radius = 0.0f;
  if (!(R >= kNearMin)) return acc;
  float rsum = 0.0f;
  const float pi = 3.14159265358979f;
  const float a = pi * (R + 0.5f) * (R + 0.5f) / static_cast<float>(t.n);
  float wsum = 0.0f;
  for (int i = 0; i < t.n; ++i) {
    const float ox = rintf(R * t.ux[i]), oy = rintf(R * t.uy[i]);
    const int sx = clampi(x + static_cast<int>(ox), 0, w2 - 1);
    const int sy = clampi(y + static_cast<int>(oy), 0, h2 - 1);
    const F4 v = near[static_cast<std::size_t>(sy) * w2 + sx];
    if (!(v.w >= kNearMin)) continue;
    const float d = sqrtf(ox * ox + oy * oy);
    const float wj = saturate(v.w - d + 0.5f) * a / (pi * v.w * v.w);
    acc.x += wj * v.x;
    acc.y += wj * v.y;
    acc.z += wj * v.z;
    rsum += wj * v.w;
    wsum += wj;
  }
  if (!(wsum > 0.0f)) return F4{0, 0, 0, 0};
  *mean_radius = rsum / wsum;
  const float alpha = fminf(wsum, 1.0f), k = alpha / wsum;
  return F4{acc.x * k, acc.y * k, acc.z * k, alpha};
}

// Pass 4, far: the far colour at half pixel (x, y) (w = 1).
SCANDOF_HD F4 far_gather(const F4* far, int w2, int h2, int x, int y, const RingTable& t) {
  const F4 c = far[static_cast<std::size_t>(y) * w2 + x];
  const float R = fabsf(c.w);
  if (!(R >= 0.5f)) return F4{c.x, c.y, c.z, 1.0f};
  const bool behind = c.w >= 0.0f;
  F4 acc{0, 0, 0, 0};
  float wsum = 0.0f;
  for (int i = 0; i < t.n; ++i) {
    const float ox = rintf(R * t.ux[i]), oy = rintf(R * t.uy[i]);
    const int sx = clampi(x + static_cast<int>(ox), 0, w2 - 1);
    const int sy = clampi(y + static_cast<int>(oy), 0, h2 - 1);
    const F4 v = far[static_cast<std::size_t>(sy) * w2 + sx];
    float wj;
    if (behind) {
      wj = v.w >= 0.0f ? saturate(v.w - sqrtf(ox * ox + oy * oy) + 1.0f) : 0.0f;
    } else {
      wj = v.w < 0.0f ? 1.0f : 0.0f;
    }
    if (i == 0) wj = 1.0f;
    acc.x += wj * v.x;
    acc.y += wj * v.y;
    acc.z += wj * v.z;
    wsum += wj;
  }
  const float k = 1.0f / wsum;
  return F4{acc.x * k, acc.y * k, acc.z * k, 1.0f};
}

// Pass 5: a half-resolution field bilinearly at full pixel (x, y) (half-pixel centres at
// 2 i + 1 in full pixels, clamped at the edges). The four taps and their weights, shared by the
// colour and the single-channel fields.
struct HalfResTaps {
  std::size_t a, b, c, d;  // (x0, y0), (x1, y0), (x0, y1), (x1, y1)
  float wa, wb, wc, wd;
};

SCANDOF_HD HalfResTaps half_res_taps(int w2, int h2, int x, int y) {
  const float fx = 0.5f * static_cast<float>(x) - 0.25f, fy = 0.5f * static_cast<float>(y) - 0.25f;
  const float bx = floorf(fx), by = floorf(fy);
  const float tx = fx - bx, ty = fy - by;
  const int ix = static_cast<int>(bx), iy = static_cast<int>(by);
  const int x0 = clampi(ix, 0, w2 - 1), x1 = clampi(ix + 1, 0, w2 - 1);
  const int y0 = clampi(iy, 0, h2 - 1), y1 = clampi(iy + 1, 0, h2 - 1);
  const std::size_t r0 = static_cast<std::size_t>(y0) * w2, r1 = static_cast<std::size_t>(y1) * w2;
  return HalfResTaps{r0 + x0, r0 + x1, r1 + x0, r1 + x1,
                     (1 - tx) * (1 - ty), tx * (1 - ty), (1 - tx) * ty, tx * ty};
}

SCANDOF_HD F4 upsample(const F4* f, int w2, int h2, int x, int y) {
  const HalfResTaps t = half_res_taps(w2, h2, x, y);
  const F4 a = f[t.a], b = f[t.b], c = f[t.c], d = f[t.d];
  return F4{t.wa * a.x + t.wb * b.x + t.wc * c.x + t.wd * d.x,
            t.wa * a.y + t.wb * b.y + t.wc * c.y + t.wd * d.y,
            t.wa * a.z + t.wb * b.z + t.wc * c.z + t.wd * d.z,
            t.wa * a.w + t.wb * b.w + t.wc * c.w + t.wd * d.w};
}

SCANDOF_HD float upsample1(const float* f, int w2, int h2, int x, int y) {
  const HalfResTaps t = half_res_taps(w2, h2, x, y);
  return t.wa * f[t.a] + t.wb * f[t.b] + t.wc * f[t.c] + t.wd * f[t.d];
}

// Pass 5: the engine's base (sharp blended into the far field by r) -- Hybrid passes its gather.
SCANDOF_HD F4 engine_base(F4 sharp, float r, F4 far) {
  const float b = saturate(r - 1.0f);
  return F4{sharp.x + b * (far.x - sharp.x), sharp.y + b * (far.y - sharp.y),
            sharp.z + b * (far.z - sharp.z), 1.0f};
}
// Hybrid: how much of the near field goes over a pixel with signed CoC s (full pixels) where the
// near field's sources have the mean radius rbar (full pixels; 0: none). A pixel behind the focal
// plane or in focus takes all of it; a pixel that is itself blurred in front takes the part the
// sources' larger blur brings (1 - r / rbar): inside a blurred foreground (r = rbar) its own SAT
// gather, which is exact there, is kept instead of the sparser half-resolution ring estimate;
// a less blurred surface in front of the focus still lies under a more blurred, nearer one.
SCANDOF_HD float hybrid_near_share(float s, float rbar) {
  if (!(s < 0.0f) || !(rbar > 0.0f)) return 1.0f;
  return saturate(1.0f + s / rbar);
}
SCANDOF_HD F4 scaled(F4 v, float k) {
  return F4{v.x * k, v.y * k, v.z * k, v.w * k};
}
SCANDOF_HD F4 composite(F4 base, F4 near_premultiplied) {
  const float t = 1.0f - near_premultiplied.w;
  return F4{base.x * t + near_premultiplied.x, base.y * t + near_premultiplied.y,
            base.z * t + near_premultiplied.z, 1.0f};
}

}  // namespace fields
}  // namespace dof
}  // namespace scandof
