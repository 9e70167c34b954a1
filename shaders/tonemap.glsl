// The GLSL twin of kernels/include/scandof/tonemap.hpp (the CPU gold): exposure, the three tone
// curves and the sRGB encoding, with the same constants digit for digit (test_gl_tonemap checks
// the digits and compares the pass's 8-bit output with the gold's). Each curve's source is cited
// in the header: ACES fitted by Stephen Hill (2016), AgX by Troy Sobotka (2022-2023) in Benjamin
// Wrensch's polynomial approximation (2023), extended Reinhard on luminance (Reinhard et al. 2002).
// Included by tonemap.comp and tonemap_reduce.comp; TONEMAP_* come from shared.h.

const float TM_MIDDLE_GREY = 0.18f;
const float TM_MIN_LUMINANCE = 1e-4f;  // kAutoExposureMinLuminance
const float TM_MAX_INPUT = 1e8f;       // kToneMaxInput

float tm_luminance(vec3 c) { return 0.2126f * c.r + 0.7152f * c.g + 0.0722f * c.b; }

// NaN, +-infinity (by their exponent bits: a compiler may fold isnan away) and negatives -> the
// gold's tone_sanitize: NaN and negatives -> 0, +infinity and above the limit -> the limit.
bool tm_finite(float x) { return (floatBitsToUint(x) & 0x7f800000u) != 0x7f800000u; }
float tm_sanitize(float x) {
  if (!tm_finite(x)) return (isinf(x) && x > 0.0f) ? TM_MAX_INPUT : 0.0f;
  return clamp(x, 0.0f, TM_MAX_INPUT);
}
float tm_clamp01(float x) { return clamp(x, 0.0f, 1.0f); }

// ACES fitted (Hill 2016): input matrix, rational fit of RRT + ODT, output matrix.
float tm_aces_fit(float v) {
  float a = v * (v + 0.0245786f) - 0.000090537f;
  float b = v * (0.983729f * v + 0.4329510f) + 0.238081f;
  return a / b;
}
vec3 tm_aces(vec3 c) {
  float i0 = 0.59719f * c.r + 0.35458f * c.g + 0.04823f * c.b;
  float i1 = 0.07600f * c.r + 0.90834f * c.g + 0.01566f * c.b;
  float i2 = 0.02840f * c.r + 0.13383f * c.g + 0.83777f * c.b;
  float f0 = tm_aces_fit(i0), f1 = tm_aces_fit(i1), f2 = tm_aces_fit(i2);
  return vec3(tm_clamp01(1.60475f * f0 - 0.53108f * f1 - 0.07367f * f2),
              tm_clamp01(-0.10208f * f0 + 1.10813f * f1 - 0.00605f * f2),
              tm_clamp01(-0.00327f * f0 - 0.07276f * f1 + 1.07602f * f2));
}

// AgX (Sobotka; Wrensch's approximation): inset, log2 over [min, max] EV, sigmoid polynomial,
// outset, then the 2.2 power display decoding.
const float TM_AGX_MIN_EV = -12.47393f;  // log2(0.18) - 10
const float TM_AGX_MAX_EV = 4.026069f;   // log2(0.18) + 6.5
float tm_agx_contrast(float x) {
  float x2 = x * x, x4 = x2 * x2;
  return 15.5f * x4 * x2 - 40.14f * x4 * x + 31.96f * x4 - 6.868f * x2 * x + 0.4298f * x2 +
         0.1191f * x - 0.00232f;
}
float tm_agx_encode(float v) {
  float l = clamp(log2(max(v, 1e-10f)), TM_AGX_MIN_EV, TM_AGX_MAX_EV);
  return tm_agx_contrast((l - TM_AGX_MIN_EV) / (TM_AGX_MAX_EV - TM_AGX_MIN_EV));
}
vec3 tm_agx(vec3 c) {
  float i0 = 0.842479062253094f * c.r + 0.0784335999999992f * c.g + 0.0792237451477643f * c.b;
  float i1 = 0.0423282422610123f * c.r + 0.878468636469772f * c.g + 0.0791661274605434f * c.b;
  float i2 = 0.0423756549057051f * c.r + 0.0784336f * c.g + 0.879142973793104f * c.b;
  float s0 = tm_agx_encode(i0), s1 = tm_agx_encode(i1), s2 = tm_agx_encode(i2);
  float o0 = 1.19687900512017f * s0 - 0.0980208811401368f * s1 - 0.0990297440797205f * s2;
  float o1 = -0.0528968517574562f * s0 + 1.15190312990417f * s1 - 0.0989611768448433f * s2;
  float o2 = -0.0529716355144438f * s0 - 0.0980434501171241f * s1 + 1.15107367264116f * s2;
  return pow(vec3(tm_clamp01(o0), tm_clamp01(o1), tm_clamp01(o2)), vec3(2.2f));
}

// Extended Reinhard on luminance (Reinhard et al. 2002, eq. 4), channels clipped to 1.
vec3 tm_reinhard(vec3 c, float white) {
  float L = tm_luminance(c);
  float s = (1.0f + L / (white * white)) / (1.0f + L);
  return clamp(c * s, 0.0f, 1.0f);
}

// Exposed radiance -> display-linear RGB in [0, 1] (the gold's tone_curve).
vec3 tm_curve(int op, vec3 c, float white) {
  c = vec3(tm_sanitize(c.r), tm_sanitize(c.g), tm_sanitize(c.b));
  if (op == TONEMAP_OP_AGX) return tm_agx(c);
  if (op == TONEMAP_OP_REINHARD) return tm_reinhard(c, white);
  return tm_aces(c);
}

// IEC 61966-2-1 encoding (clamped to [0, 1] first).
float tm_srgb_encode(float v) {
  v = tm_clamp01(v);
  return v <= 0.0031308f ? 12.92f * v : 1.055f * pow(v, 1.0f / 2.4f) - 0.055f;
}
vec3 tm_srgb_encode(vec3 v) {
  return vec3(tm_srgb_encode(v.r), tm_srgb_encode(v.g), tm_srgb_encode(v.b));
}

// Auto exposure's EV from the mean log2 luminance (the gold's exposure_ev_from_log2_average) and
// its temporal smoothing (adapt_exposure_ev).
float tm_ev_from_log2_average(float log2_average, float compensation_ev) {
  return log2(TM_MIDDLE_GREY) - log2_average + compensation_ev;
}
float tm_adapt_ev(float previous, float target, float dt_s, float tau_s) {
  if (!(tau_s > 0.0f)) return target;
  return previous + (target - previous) * (1.0f - exp(-dt_s / tau_s));
}
