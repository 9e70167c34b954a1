#version 450 core
// Auto exposure, step 2 of 2, one workgroup: the partials of tonemap_reduce.comp -> the mean log2
// luminance -> this frame's EV (log2(0.18 / Lavg) + compensation), smoothed towards from the last
// frame's (tm_adapt_ev) unless u_reset, into the exposure buffer that tonemap.comp reads in the
// same frame. Nothing here is read by the CPU on the frame's path: the pass copies the buffer to a
// readback ring and reads it frames later, when its fence has signalled.
#include "tonemap.glsl"
layout(local_size_x = TONEMAP_EXPOSURE_THREADS) in;
layout(location = TONEMAP_LOC_EV) uniform float u_compensation;
layout(location = TONEMAP_LOC_GROUPS) uniform int u_groups;
layout(location = TONEMAP_LOC_DT) uniform float u_dt;
layout(location = TONEMAP_LOC_TAU) uniform float u_tau;
layout(location = TONEMAP_LOC_RESET) uniform int u_reset;
struct Partial {
  float sum;
  uint count;
};
layout(std430, binding = TONEMAP_PARTIALS_BINDING) readonly buffer Partials { Partial partials[]; };
layout(std430, binding = TONEMAP_EXPOSURE_BINDING) buffer Exposure {
  float ev;            // applied this frame (smoothed)
  float ev_measured;   // this frame's own
  float log2_average;  // mean log2 luminance (0 when no pixel counted)
  uint pixels;         // pixels of finite luminance
} exposure;

const uint N = uint(TONEMAP_EXPOSURE_THREADS);
shared float s_sum[N];
shared uint s_count[N];

void main() {
  const uint t = gl_LocalInvocationIndex;
  float sum = 0.0f;
  uint count = 0u;
  for (uint i = t; i < uint(u_groups); i += N) {
    sum += partials[i].sum;
    count += partials[i].count;
  }
  s_sum[t] = sum;
  s_count[t] = count;
  barrier();
  for (uint k = N / 2u; k > 0u; k >>= 1u) {
    if (t < k) {
      s_sum[t] += s_sum[t + k];
      s_count[t] += s_count[t + k];
    }
    barrier();
  }
  if (t == 0u) {
    const uint n = s_count[0];
    const float avg = n > 0u ? s_sum[0] / float(n) : 0.0f;
    const float target = n > 0u ? tm_ev_from_log2_average(avg, u_compensation) : u_compensation;
    const float prev = exposure.ev;
    // A NaN left by anything (or a first frame) restarts the adaptation.
    const bool restart = u_reset != 0 || !tm_finite(prev);
    exposure.ev = restart ? target : tm_adapt_ev(prev, target, u_dt, u_tau);
    exposure.ev_measured = target;
    exposure.log2_average = avg;
    exposure.pixels = n;
  }
}
