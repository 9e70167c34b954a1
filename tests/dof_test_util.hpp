// Shared by the depth-of-field tests: an independent formulation of a kernel shape's per-offset
// weights (from dof.hpp's definition, not its code), the lenses the tests render with, the blocky
// depth maps the GPU tests use, random depths, random RGBA8 images and random RGBA radiance.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

#include "scandof/dof.hpp"
#include "scandof/hdr.hpp"
#include "scandof/util/rng.hpp"

namespace dof_test {

// The depth-of-field vocabulary, for tests that take this namespace whole.
using scandof::dof::Method;
using scandof::dof::Params;
using scandof::dof::Shape;

inline std::size_t np(int w, int h) {
  return static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
}

// Every byte (alpha too) uniform in 0..255 from a Mersenne Twister seeded with `seed`.
inline std::vector<uint8_t> random_rgba(int w, int h, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> v(np(w, h) * 4);
  for (auto& x : v) x = static_cast<uint8_t>(rng() & 255u);
  return v;
}

// Every byte (alpha too) the low byte of its index's hash (hash_at, scandof/util/rng.hpp).
inline std::vector<uint8_t> hashed_rgba(int w, int h, std::uint64_t seed) {
  std::vector<uint8_t> v(np(w, h) * 4);
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = static_cast<uint8_t>(scandof::util::hash_at(seed, i));
  return v;
}

// Depths uniform in [0.6, 60) (Mersenne Twister): under gold_lens() their CoC radii spread over
// [0, r_max], some clamped, on both sides of the focal plane.
inline std::vector<float> random_depth(int w, int h, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(0.6f, 60.0f);
  std::vector<float> v(np(w, h));
  for (auto& x : v) x = d(rng);
  return v;
}

// RGBA radiance (Mersenne Twister): one value in ten exactly 0, three in a hundred up to 20
// (bulbs), the rest in [0, 1).
inline std::vector<float> random_radiance(int w, int h, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<float> v(np(w, h) * 4);
  for (auto& x : v) {
    const float a = u(rng);
    x = a < 0.1f ? 0.0f : (a > 0.97f ? 20.0f * u(rng) : u(rng));
  }
  return v;
}

// RGBA radiance as an RGBA16F frame holds it (every value a half; Mersenne Twister): mostly 0..2,
// one pixel in 50 a bright point of 20..100 in one or all channels, one in 50 exact zeros.
inline std::vector<float> random_hdr(int w, int h, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dim(0.0f, 2.0f), bright(20.0f, 100.0f);
  std::vector<float> v(np(w, h) * 4);
  for (std::size_t i = 0; i < np(w, h); ++i) {
    const uint32_t kind = rng() % 50;
    for (int c = 0; c < 4; ++c) {
      float x = dim(rng);
      if (kind == 0 || (kind == 1 && c == 1)) x = bright(rng);
      if (kind == 2) x = 0.0f;
      v[4 * i + c] = scandof::half_to_float(scandof::float_to_half(x));
    }
  }
  return v;
}

// Params with this aperture (the CoC radius of a point at infinity, pixels), focus and CoC clamp;
// every other field Params' default.
inline scandof::dof::Params lens(float aperture_px, float focus, float max_radius) {
  scandof::dof::Params p;
  p.aperture_px = aperture_px;
  p.focus = focus;
  p.max_radius = max_radius;
  return p;
}

// The CPU gold tests' lens on random_depth(): aperture 5 focused at 4, discs of 3 boxes.
inline scandof::dof::Params gold_lens(scandof::dof::Shape s, float max_radius = 6.5f,
                                      int layers = scandof::dof::Params{}.layers) {
  scandof::dof::Params p = lens(5.0f, 4.0f, max_radius);
  p.shape = s;
  p.disc_boxes = 3;
  p.layers = layers;
  return p;
}

// The GPU tests' lens on block_depth() (depths 1..40): aperture 9 focused at 8, radii up to 7.5,
// discs of 4 boxes.
inline scandof::dof::Params gpu_lens(scandof::dof::Shape s, int layers = 3) {
  scandof::dof::Params p = lens(9.0f, 8.0f, 7.5f);
  p.shape = s;
  p.disc_boxes = 4;
  p.layers = layers;
  return p;
}

// 1D fractional weights w_h(d) = 1 for |d| <= floor(h), frac(h) at floor(h) + 1; a shape's weight
// at offset (dx, dy) is the staircase sum_i w_{h_i}(dy) (w_{w_i}(dx) - w_{w_{i+1}}(dx)),
// w_{k+1} = 0.
inline double w1(double h, int d) {
  const double f = std::floor(h);
  d = std::abs(d);
  return d <= f ? 1.0 : (d == f + 1 ? h - f : 0.0);
}
inline double shape_weight(const scandof::dof::Params& p, float r, int dx, int dy) {
  namespace dof = scandof::dof;
  if (p.shape == dof::Shape::Box) return w1(r, dx) * w1(r, dy);
  const int k = p.shape == dof::Shape::Octagon ? 2 : p.disc_boxes;
  double s = 0;
  for (int i = 1; i <= k; ++i) {
    const float hy = r * dof::disc_stair(k, i), wx = r * dof::disc_stair(k, k + 1 - i);
    const double next = i < k ? w1(r * dof::disc_stair(k, k - i), dx) : 0.0;
    s += w1(hy, dy) * (w1(wx, dx) - next);
  }
  return s;
}

// Depth in blocks of 5 x 7 pixels, each a random depth in [1, 40) (discontinuities between
// blocks, runs of equal radius inside), w * h floats.
inline void block_depth(int w, int h, std::uint64_t seed, float* depth) {
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const std::uint64_t cell = scandof::util::hash_at(seed, (y / 7) * 1000 + x / 5);
      depth[static_cast<std::size_t>(y) * w + x] =
          1.0f + 39.0f * static_cast<float>(scandof::util::unit_double(cell));
    }
}

}  // namespace dof_test
