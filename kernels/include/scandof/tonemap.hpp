// From linear HDR radiance to the 8-bit image: exposure, a tone curve, the sRGB encoding. The
// per-pixel maths is inline host/device code so the CPU gold (kernels/src/tonemap.cpp), CUDA and
// the GLSL twin (shaders/tonemap.glsl, the same constants digit for digit) agree; the GL pass that
// runs it on the frame is app/passes/tonemap_pass.*.
//
// Per pixel, for radiance c (linear RGB, the scene's primaries = sRGB/BT.709):
//   1. exposure   c' = c * 2^EV (EV the manual value, or auto exposure's, below)
//   2. sanitise   each channel: NaN and negatives -> 0, above kToneMaxInput -> kToneMaxInput, so
//                 every curve stays finite (the curves' squares would overflow float near 1e19)
//   3. the curve  -> display-linear RGB in [0, 1] (ToneMapper; each curve's comment cites its
//                 published source)
//   4. sRGB       IEC 61966-2-1 piecewise encoding, then round(255 v) to nearest (alpha 255)
//
// Auto exposure (Reinhard et al. 2002's "key" of a scene): over the pixels whose luminance
// Y = 0.2126 R + 0.7152 G + 0.0722 B (BT.709) is finite (NaN and +-infinity are ignored),
//   log2 Lavg = mean of log2(max(Y, kAutoExposureMinLuminance)),
//   EV        = log2(kMiddleGrey / Lavg) + compensation_ev,
// i.e. the exposure that puts the log-average at middle grey (0.18). The floor keeps black pixels
// (and slightly negative ones from a blur's rounding) from sending the average to -infinity; a
// constant image of luminance L >= the floor gets exactly EV = log2(0.18 / L). With no finite pixel
// the EV is the compensation alone.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "scandof/config.hpp"

namespace scandof {

// The values are the GLSL's TONEMAP_OP_* (shaders/shared.h; the GL pass checks they agree).
enum class ToneMapper : int { Aces = 0, AgX = 1, Reinhard = 2 };

const char* to_string(ToneMapper m);  // "aces", "agx", "reinhard"
// Inverse of to_string; throws std::invalid_argument naming the accepted names.
ToneMapper parse_tone_mapper(const std::string& name);

constexpr float kMiddleGrey = 0.18f;
constexpr float kAutoExposureMinLuminance = 1e-4f;  // the luminance floor of the log average
constexpr float kToneMaxInput = 1e8f;               // exposed radiance clamp (see step 2)
constexpr float kReinhardDefaultWhite = 16.0f;      // 4 stops over 1.0 after exposure

struct ToneMapSettings {
  ToneMapper mapper = ToneMapper::Aces;
  // Manual exposure in stops; with auto_exposure it is the compensation added to the measured EV.
  float exposure_ev = 0.0f;
  bool auto_exposure = false;
  // Reinhard's L_white: the (exposed) luminance that maps to 1. Infinity gives L / (1 + L).
  float reinhard_white = kReinhardDefaultWhite;
  // Auto exposure's time constant in seconds for the GL pass's temporal smoothing
  // (adapt_exposure_ev); 0 = each frame uses its own measure, which is what tone_map computes (one
  // image has no history).
  float adaptation_s = 0.0f;
};

// ---- per-pixel maths (host and device) -----------------------------------------------------

SCANDOF_HD float bt709_luminance(float r, float g, float b) {
  return 0.2126f * r + 0.7152f * g + 0.0722f * b;
}

// NaN and negatives -> 0, +infinity and anything over kToneMaxInput -> kToneMaxInput.
SCANDOF_HD float tone_sanitize(float x) {
  x = x > 0.0f ? x : 0.0f;  // false for NaN
  return x < kToneMaxInput ? x : kToneMaxInput;
}

SCANDOF_HD float tone_clamp01(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }

// ACES, fitted: Stephen Hill's fit (2016, "ACES Filmic Tone Mapping Curve", the BakingLab
// project's ACESFitted) of the ACES reference rendering transform followed by the sRGB output
// transform. Linear sRGB goes into the RRT's working space (AP1 with the RRT's saturation tweak
// folded into the input matrix), through the rational fit of RRT + ODT per channel, and back to
// linear sRGB by the output matrix (the ODT's desaturation folded in); clamp to [0, 1]. Rows of the
// matrices sum to 1, so grey stays grey; the fit tends to 1.0165 and saturates below ~90 input.
SCANDOF_HD float aces_rrt_odt_fit(float v) {
  const float a = v * (v + 0.0245786f) - 0.000090537f;
  const float b = v * (0.983729f * v + 0.4329510f) + 0.238081f;
  return a / b;
}
SCANDOF_HD void tone_aces(float r, float g, float b, float* out) {
  const float i0 = 0.59719f * r + 0.35458f * g + 0.04823f * b;
  const float i1 = 0.07600f * r + 0.90834f * g + 0.01566f * b;
  const float i2 = 0.02840f * r + 0.13383f * g + 0.83777f * b;
  const float f0 = aces_rrt_odt_fit(i0), f1 = aces_rrt_odt_fit(i1), f2 = aces_rrt_odt_fit(i2);
  out[0] = tone_clamp01(1.60475f * f0 - 0.53108f * f1 - 0.07367f * f2);
  out[1] = tone_clamp01(-0.10208f * f0 + 1.10813f * f1 - 0.00605f * f2);
  out[2] = tone_clamp01(-0.00327f * f0 - 0.07276f * f1 + 1.07602f * f2);
}

// AgX: Troy Sobotka's AgX base transform (2022-2023), in the form Benjamin Wrensch published as
// "Minimal AgX Implementation" (2023): an inset matrix (pulls the primaries inwards so bright
// saturated colours desaturate towards white instead of skewing), log2 encoding over
// [log2(0.18) - 10, log2(0.18) + 6.5] stops, his 6th-order polynomial fit of AgX's default
// contrast sigmoid, and the outset matrix (the inset's inverse). The sigmoid's output is display
// encoded for a 2.2 power display, so it is decoded with x^2.2 (Wrensch's EOTF) to return display
// linear light like the other curves; the sRGB encode after it differs from a pure 2.2 power only
// near black (below about 0.04 encoded), where this costs at most a level or two of 8 bits.
// The log of 0 is kept finite by a floor of 1e-10 (far below the encoding's -12.47 EV bottom).
// The polynomial ends at 0.99838, not 1: once one inset channel saturates, the outset's negative
// terms let the others' last rise dim it slightly, so luminance can fall by up to ~3e-4 near white.
constexpr float kAgxMinEv = -12.47393f;  // log2(0.18) - 10
constexpr float kAgxMaxEv = 4.026069f;   // log2(0.18) + 6.5
SCANDOF_HD float agx_contrast(float x) {
  const float x2 = x * x, x4 = x2 * x2;
  return 15.5f * x4 * x2 - 40.14f * x4 * x + 31.96f * x4 - 6.868f * x2 * x + 0.4298f * x2 +
         0.1191f * x - 0.00232f;
}
SCANDOF_HD float agx_encode(float v) {
  float l = log2f(v > 1e-10f ? v : 1e-10f);
  l = l < kAgxMinEv ? kAgxMinEv : (l > kAgxMaxEv ? kAgxMaxEv : l);
  return agx_contrast((l - kAgxMinEv) / (kAgxMaxEv - kAgxMinEv));
}
SCANDOF_HD void tone_agx(float r, float g, float b, float* out) {
  const float i0 = 0.842479062253094f * r + 0.0784335999999992f * g + 0.0792237451477643f * b;
  const float i1 = 0.0423282422610123f * r + 0.878468636469772f * g + 0.0791661274605434f * b;
  const float i2 = 0.0423756549057051f * r + 0.0784336f * g + 0.879142973793104f * b;
  const float s0 = agx_encode(i0), s1 = agx_encode(i1), s2 = agx_encode(i2);
  const float o0 = 1.19687900512017f * s0 - 0.0980208811401368f * s1 - 0.0990297440797205f * s2;
  const float o1 = -0.0528968517574562f * s0 + 1.15190312990417f * s1 - 0.0989611768448433f * s2;
  const float o2 = -0.0529716355144438f * s0 - 0.0980434501171241f * s1 + 1.15107367264116f * s2;
  out[0] = powf(tone_clamp01(o0), 2.2f);
  out[1] = powf(tone_clamp01(o1), 2.2f);
  out[2] = powf(tone_clamp01(o2), 2.2f);
}

// Reinhard, extended, on luminance: Reinhard, Stark, Shirley & Ferwerda (2002), "Photographic Tone
// Reproduction for Digital Images", eq. 4: Ld = L (1 + L / Lw^2) / (1 + L), the colour scaled by
// Ld / L (hue and saturation kept), each channel then clipped to 1. Written as c * (1 + L / Lw^2) /
// (1 + L), which is finite at L = 0. Lw = white: luminance Lw maps to exactly 1.
SCANDOF_HD void tone_reinhard(float r, float g, float b, float white, float* out) {
  const float L = bt709_luminance(r, g, b);
  const float s = (1.0f + L / (white * white)) / (1.0f + L);
  out[0] = tone_clamp01(r * s);
  out[1] = tone_clamp01(g * s);
  out[2] = tone_clamp01(b * s);
}

// Steps 2 and 3 for already exposed radiance: display-linear RGB in [0, 1].
SCANDOF_HD void tone_curve(ToneMapper m, float r, float g, float b, float white, float* out) {
  r = tone_sanitize(r);
  g = tone_sanitize(g);
  b = tone_sanitize(b);
  switch (m) {
    case ToneMapper::AgX: tone_agx(r, g, b, out); break;
    case ToneMapper::Reinhard: tone_reinhard(r, g, b, white, out); break;
    default: tone_aces(r, g, b, out); break;
  }
}

// IEC 61966-2-1 (sRGB) encoding of display-linear v, clamped to [0, 1] first.
SCANDOF_HD float srgb_encode(float v) {
  v = tone_clamp01(v);
  return v <= 0.0031308f ? 12.92f * v : 1.055f * powf(v, 1.0f / 2.4f) - 0.055f;
}
// Round to nearest: v in [0, 1] (clamped) -> 0..255.
SCANDOF_HD uint8_t unorm8(float v) {
  return static_cast<uint8_t>(floorf(tone_clamp01(v) * 255.0f + 0.5f));
}

// The whole chain for one pixel of radiance: exposure scale = 2^EV, curve, sRGB, 8 bits.
SCANDOF_HD void tone_map_pixel(float r, float g, float b, float exposure_scale, ToneMapper m,
                               float white, uint8_t* rgb8) {
  float lin[3];
  tone_curve(m, r * exposure_scale, g * exposure_scale, b * exposure_scale, white, lin);
  for (int c = 0; c < 3; ++c) rgb8[c] = unorm8(srgb_encode(lin[c]));
}

// Auto exposure's EV from the mean of log2(max(Y, floor)) over the finite pixels.
SCANDOF_HD float exposure_ev_from_log2_average(float log2_average, float compensation_ev) {
  return log2f(kMiddleGrey) - log2_average + compensation_ev;
}

// Temporal smoothing of auto exposure (the GL pass; engines adapt the eye the same way): the EV
// moves from `previous` towards this frame's `target` by 1 - e^(-dt / tau) of the gap, the
// frame-rate independent form of an exponential moving average; tau <= 0 takes the target.
SCANDOF_HD float adapt_exposure_ev(float previous, float target, float dt_s, float tau_s) {
  if (!(tau_s > 0.0f)) return target;
  return previous + (target - previous) * (1.0f - expf(-dt_s / tau_s));
}

// ---- whole images (CPU, kernels/src/tonemap.cpp) ---------------------------------------------

// Radiance images are `channels` (3: RGB, 4: RGBA, alpha ignored) floats per pixel, row 0 first.
struct LogAverage {
  double log2_average;  // mean of log2(max(Y, kAutoExposureMinLuminance)); 0 when pixels == 0
  std::size_t pixels;   // how many pixels had a finite luminance
};
LogAverage log_average_luminance(const float* radiance, int channels, int w, int h);
// The auto-exposure EV of the image (see the top of this file).
float auto_exposure_ev(const float* radiance, int channels, int w, int h, float compensation_ev);
// Tone maps the image into rgba8_out (4 bytes per pixel, alpha 255); returns the EV it applied
// (settings.exposure_ev, or auto_exposure_ev with it as compensation). Throws
// std::invalid_argument for channels other than 3 or 4, a negative size or null pointers.
float tone_map(const float* radiance, int channels, int w, int h, const ToneMapSettings& s,
               uint8_t* rgba8_out);

}  // namespace scandof
