// HDR radiance in summed-area tables: the fixed-point encoding every backend (CUDA, GL compute, the
// CPU) shares, so their tables are equal bit for bit, and IEEE half <-> float conversions for the
// RGBA16F frames. Host and device inline functions; GLSL twins in shaders/hdr.glsl.
//
// Why fixed point. A float32 table of radiance loses the low bits of a box sum exactly where a
// highlight sits: the table's running sums reach millions while a dark box differs from its
// neighbour in the last few bits (Hensley et al. 2005). Integers do not: with uint32 tables and
// wrap-around arithmetic, S(x1,y1) - S(x0,y1) - S(x1,y0) + S(x0,y0) is the box's exact sum
// whenever that sum fits in 32 bits, however often the table itself wrapped.
//
// The encoding. A radiance v >= 0 is stored as q = round_half_even(v * 2^F) (F = frac_bits), at
// most max_value. The largest box a depth-of-field pass reads at max radius r is (2 floor(r) + 3)
// pixels on a side (a fractional rectangle of half-width r touches floor(r) + 1 pixels either
// side), so max_value = floor((2^32 - 1) / side^2) keeps every such box sum below 2^32; it is
// capped at 2^24 so that v * 2^F compares exactly in float. A value above max_value / 2^F (the
// stated limit, SatFixedPoint::max_radiance) is clamped to it and counted: never a silent wrap.
// NaN and negative values become 0 and are counted too; -0 and +0 are 0 and not counted.
//
// Choosing F: hdr_fixed_point(r, L) takes the largest F (at most kMaxFracBits) whose limit still
// reaches L. For L = 100: at r = 24 (the demo's default) side = 51, max_value = 1,651,275, F = 14
// keeps radiance up to 100.8 at a step of 2^-14 = 6.1e-5; at r = 64 (side 131, max_value 250,275)
// F = 11 keeps up to 122.2 at a step of 4.9e-4.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "scandof/config.hpp"

namespace scandof {

constexpr int kMaxFracBits = 24;
constexpr uint32_t kMaxFixedValue = 1u << 24;

struct SatFixedPoint {
  int frac_bits = 0;       // F
  uint32_t max_value = 0;  // the largest stored q
  // The largest radiance stored unclamped: max_value / 2^F.
  double max_radiance() const { return std::ldexp(static_cast<double>(max_value), -frac_bits); }
  bool operator==(const SatFixedPoint& o) const {
    return frac_bits == o.frac_bits && max_value == o.max_value;
  }
  bool operator!=(const SatFixedPoint& o) const { return !(*this == o); }
};

// Side of the largest integer box a DoF pass of max radius r reads (see above); r < 0 or NaN
// counts as 0.
inline int64_t hdr_box_side(float max_radius) {
  const double r = max_radius > 0.0f ? std::floor(static_cast<double>(max_radius)) : 0.0;
  return 2 * static_cast<int64_t>(r) + 3;
}

// Encoding for max radius r and radiance up to `max_radiance` (> 0): max_value from the box, then
// the largest F in 0..kMaxFracBits with max_value / 2^F >= max_radiance. When even F = 0 cannot
// reach it, F = 0 and the limit is max_value (values above clamp, counted). Throws nothing.
inline SatFixedPoint hdr_fixed_point(float max_radius, float max_radiance) {
  const int64_t side = hdr_box_side(max_radius);
  const uint64_t box = static_cast<uint64_t>(side) * static_cast<uint64_t>(side);
  uint64_t q = 0xFFFFFFFFull / box;
  if (q > kMaxFixedValue) q = kMaxFixedValue;
  if (q < 1) q = 1;
  SatFixedPoint fp;
  fp.max_value = static_cast<uint32_t>(q);
  const double want = max_radiance > 0.0f ? static_cast<double>(max_radiance) : 1.0;
  for (int f = kMaxFracBits; f >= 0; --f) {
    if (std::ldexp(static_cast<double>(q), -f) >= want) {
      fp.frac_bits = f;
      return fp;
    }
  }
  fp.frac_bits = 0;
  return fp;
}

// One radiance value to fixed point (see above); sets *clamped when v was NaN, negative or above
// the limit (leaves it otherwise). F <= 24 and max_value <= 2^24, so v * 2^F is exact and the
// comparison with max_value is exact in float; rintf/__float2uint_rn round half to even.
SCANDOF_HD uint32_t quantize_radiance(float v, const SatFixedPoint& fp, bool* clamped) {
  if (!(v > 0.0f)) {
    if (!(v == 0.0f)) *clamped = true;
    return 0u;
  }
  const float x = v * static_cast<float>(1u << fp.frac_bits);
  if (x > static_cast<float>(fp.max_value)) {
    *clamped = true;
    return fp.max_value;
  }
#if defined(__CUDA_ARCH__)
  return __float2uint_rn(x);
#else
  return static_cast<uint32_t>(std::nearbyint(x));
#endif
}

// Back to radiance: q * 2^-F (exact in float for q < 2^24).
SCANDOF_HD float dequantize_radiance(double q, const SatFixedPoint& fp) {
  return static_cast<float>(q / static_cast<double>(1u << fp.frac_bits));
}

// ---- IEEE 754 binary16 ---------------------------------------------------------------------------

// Exact: every half is a float.
SCANDOF_HD float half_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1Fu;
  uint32_t mant = h & 0x3FFu;
  uint32_t bits;
  if (exp == 0x1Fu) {
    bits = sign | 0x7F800000u | (mant << 13);  // inf, NaN (payload kept)
  } else if (exp != 0) {
    bits = sign | ((exp + 112u) << 23) | (mant << 13);
  } else if (mant == 0) {
    bits = sign;  // +-0
  } else {
    // Subnormal: normalise.
    int e = 113;
    while ((mant & 0x400u) == 0) {
      mant <<= 1;
      --e;
    }
    bits = sign | (static_cast<uint32_t>(e) << 23) | ((mant & 0x3FFu) << 13);
  }
  float f;
#if defined(__CUDA_ARCH__)
  f = __uint_as_float(bits);
#else
  std::memcpy(&f, &bits, 4);
#endif
  return f;
}

// Round to nearest even; overflow to inf, NaN stays NaN (quiet).
SCANDOF_HD uint16_t float_to_half(float f) {
  uint32_t x;
#if defined(__CUDA_ARCH__)
  x = __float_as_uint(f);
#else
  std::memcpy(&x, &f, 4);
#endif
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  const uint32_t ax = x & 0x7FFFFFFFu;
  if (ax >= 0x7F800000u) return static_cast<uint16_t>(sign | (ax > 0x7F800000u ? 0x7E00u : 0x7C00u));
  if (ax >= 0x477FF000u) return static_cast<uint16_t>(sign | 0x7C00u);  // rounds past 65504
  if (ax < 0x38800000u) {
    // Subnormal half (or zero): value = m * 2^-24, m = round(|f| * 2^24).
    if (ax < 0x33000000u) return sign;  // below half the smallest subnormal: 0
    const uint32_t e = ax >> 23;
    const uint32_t m = (ax & 0x7FFFFFu) | 0x800000u;
    const uint32_t shift = 126u - e;  // |f| * 2^24 = m * 2^(e - 127 - 23 + 24)
    const uint32_t q = m >> shift;
    const uint32_t rem = m & ((1u << shift) - 1u);
    const uint32_t half = 1u << (shift - 1u);
    const uint32_t r = q + ((rem > half || (rem == half && (q & 1u))) ? 1u : 0u);
    return static_cast<uint16_t>(sign | r);
  }
  const uint32_t e = (ax >> 23) - 112u;
  const uint32_t m = ax & 0x7FFFFFu;
  uint32_t h = (e << 10) | (m >> 13);
  const uint32_t rem = m & 0x1FFFu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;  // may carry into the exponent: right
  return static_cast<uint16_t>(sign | h);
}

}  // namespace scandof
