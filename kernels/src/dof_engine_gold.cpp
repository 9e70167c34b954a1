// CPU gold of the engine-style depth of field and the SAT hybrid (scandof/dof_engine.hpp): the
// same per-pixel functions the CUDA kernels call, on host arrays, pass by pass.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "scandof/dof.hpp"
#include "scandof/dof_engine.hpp"
#include "scandof/hdr.hpp"
#include "scandof/sat.hpp"
#include "scandof/util/parallel_for.hpp"

namespace scandof {
namespace dof {

namespace {

using fields::F4;

std::size_t npix(int w, int h) {
  return static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
}

// Passes 1-5 on the frame's colours (colour units, see dof_engine.hpp) and signed CoCs; base_rgb
// (Hybrid: the SAT gather, 3 floats a pixel) or null (Engine). ldr: clamp to [0, 1], else >= 0.
void engine_core(const std::vector<F4>& col, const float* depth, int w, int h, const Params& p,
                 const float* base_rgb, bool ldr, float* rgb) {
  const std::size_t n = npix(w, h);
  std::vector<float> s(n);
  util::parallel_for(n, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) s[i] = fields::signed_coc(depth[i], p);
  });
  const int w2 = fields::half_size(w), h2 = fields::half_size(h);
  const std::size_t n2 = npix(w2, h2);
  std::vector<F4> nearf(n2), farf(n2);
  util::parallel_for(static_cast<std::size_t>(h2), [&](std::size_t b, std::size_t e) {
    for (std::size_t y = b; y < e; ++y)
      for (int x = 0; x < w2; ++x) {
        F4 c[4];
        float ss[4];
        for (int k = 0; k < 4; ++k) {
          const int fx = std::min(2 * x + (k & 1), w - 1);
          const int fy = std::min(2 * static_cast<int>(y) + (k >> 1), h - 1);
          const std::size_t i = npix(w, fy) + static_cast<std::size_t>(fx);
          c[k] = col[i];
          ss[k] = s[i];
        }
        const std::size_t o = y * static_cast<std::size_t>(w2) + static_cast<std::size_t>(x);
        fields::downsample(c, ss, &nearf[o], &farf[o]);
      }
  });
  // Tiles and their dilation (pass 2, 3).
  const int tw = (w2 + fields::kTile - 1) / fields::kTile, th = (h2 + fields::kTile - 1) / fields::kTile;
  std::vector<float> tile(npix(tw, th), 0.0f), dil(tile.size(), 0.0f);
  for (int y = 0; y < h2; ++y)
    for (int x = 0; x < w2; ++x) {
      float& t = tile[npix(tw, y / fields::kTile) + static_cast<std::size_t>(x / fields::kTile)];
      t = std::max(t, nearf[npix(w2, y) + static_cast<std::size_t>(x)].w);
    }
  const int reach = fields::tile_reach(p.max_radius);
  for (int ty = 0; ty < th; ++ty)
    for (int tx = 0; tx < tw; ++tx) {
      float m = 0.0f;
      for (int dy = -reach; dy <= reach; ++dy)
        for (int dx = -reach; dx <= reach; ++dx) {
          const int x = tx + dx, y = ty + dy;
          if (x >= 0 && y >= 0 && x < tw && y < th) m = std::max(m, tile[npix(tw, y) + x]);
        }
      dil[npix(tw, ty) + static_cast<std::size_t>(tx)] = m;
    }
  // Pass 4.
  const fields::RingTable ring = fields::RingTable::make(p.rings);
  std::vector<F4> nearg(n2), farg(n2);
  std::vector<float> nearr(n2);
  util::parallel_for(static_cast<std::size_t>(h2), [&](std::size_t b, std::size_t e) {
    for (std::size_t yy = b; yy < e; ++yy) {
      const int y = static_cast<int>(yy);
      for (int x = 0; x < w2; ++x) {
        const std::size_t o = npix(w2, y) + static_cast<std::size_t>(x);
        const float R = dil[npix(tw, y / fields::kTile) + static_cast<std::size_t>(x / fields::kTile)];
        nearg[o] = fields::near_gather(nearf.data(), w2, h2, x, y, R, ring, &nearr[o]);
        farg[o] = fields::far_gather(farf.data(), w2, h2, x, y, ring);
      }
    }
  });
  // Pass 5.
  util::parallel_for(static_cast<std::size_t>(h), [&](std::size_t b, std::size_t e) {
    for (std::size_t yy = b; yy < e; ++yy) {
      const int y = static_cast<int>(yy);
      for (int x = 0; x < w; ++x) {
        const std::size_t i = npix(w, y) + static_cast<std::size_t>(x);
        F4 base;
        if (base_rgb != nullptr) {
          base = F4{base_rgb[3 * i], base_rgb[3 * i + 1], base_rgb[3 * i + 2], 1.0f};
        } else {
          base = fields::engine_base(col[i], std::fabs(s[i]),
                                     fields::upsample(farg.data(), w2, h2, x, y));
        }
        F4 nf = fields::upsample(nearg.data(), w2, h2, x, y);
        if (base_rgb != nullptr)
          nf = fields::scaled(nf, fields::hybrid_near_share(
                                      s[i], 2.0f * fields::upsample1(nearr.data(), w2, h2, x, y)));
        const F4 o = fields::composite(base, nf);
        const float v[3] = {o.x, o.y, o.z};
        for (int c = 0; c < 3; ++c)
          rgb[3 * i + c] = ldr ? std::min(std::max(v[c], 0.0f), 1.0f)
                               : (v[c] > 0.0f ? v[c] : 0.0f);
      }
    }
  });
}

void check(const void* a, const void* b, const void* out, int w, int h, Method m) {
  if (w < 0 || h < 0) throw std::invalid_argument("dof::engine: negative size");
  if (w > 0 && h > 0 && (a == nullptr || b == nullptr || out == nullptr))
    throw std::invalid_argument("dof::engine: null image");
  if (m != Method::Engine && m != Method::Hybrid)
    throw std::invalid_argument("dof::engine: the method must be engine or hybrid");
}

}  // namespace

void engine(Method m, const uint8_t* rgba, const float* depth, int w, int h, const Params& p,
            float* rgb) {
  check(rgba, depth, rgb, w, h, m);
  validate(p, m);
  if (w == 0 || h == 0) return;
  std::vector<F4> col(npix(w, h));
  for (std::size_t i = 0; i < col.size(); ++i)
    col[i] = F4{static_cast<float>(rgba[4 * i]) / 255.0f, static_cast<float>(rgba[4 * i + 1]) / 255.0f,
                static_cast<float>(rgba[4 * i + 2]) / 255.0f, 1.0f};
  std::vector<float> base;
  if (m == Method::Hybrid) {
    base.resize(npix(w, h) * 3);
    gather(rgba, depth, w, h, p, base.data());
  }
  engine_core(col, depth, w, h, p, base.empty() ? nullptr : base.data(), true, rgb);
}

void engine(Method m, const float* rgba, const float* depth, int w, int h, const Params& p,
            const SatFixedPoint& fp, float* rgb) {
  check(rgba, depth, rgb, w, h, m);
  validate(p, m);
  if (fp.frac_bits < 0 || fp.frac_bits > kMaxFracBits || fp.max_value < 1 ||
      fp.max_value > kMaxFixedValue)
    throw std::invalid_argument("dof::engine: frac_bits must be 0..24, max_value 1..2^24");
  if (w == 0 || h == 0) return;
  const float step = std::ldexp(1.0f, -fp.frac_bits);
  std::vector<F4> col(npix(w, h));
  for (std::size_t i = 0; i < col.size(); ++i) {
    bool clamped = false;
    float v[3];
    for (int c = 0; c < 3; ++c)
      v[c] = static_cast<float>(quantize_radiance(rgba[4 * i + c], fp, &clamped)) * step;
    col[i] = F4{v[0], v[1], v[2], 1.0f};
  }
  std::vector<float> base;
  if (m == Method::Hybrid) {
    base.resize(npix(w, h) * 3);
    gather(rgba, depth, w, h, p, fp, base.data());
  }
  engine_core(col, depth, w, h, p, base.empty() ? nullptr : base.data(), false, rgb);
}

}  // namespace dof
}  // namespace scandof
