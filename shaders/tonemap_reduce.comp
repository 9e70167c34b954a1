#version 450 core
// Auto exposure, step 1 of 2: each workgroup sums log2(max(Y, floor)) and counts the pixels of
// finite luminance Y over its 16 x 16 tile of the radiance (scandof::log_average_luminance's
// terms), one (sum, count) per workgroup into the partials buffer. A tree in shared memory, not
// atomics: float atomics are not core GL, and the sum stays the same from frame to frame (no
// flicker from a varying order). At 1080p: 8100 partials, one read of the frame.
#include "tonemap.glsl"
layout(local_size_x = TONEMAP_GROUP_X, local_size_y = TONEMAP_GROUP_Y) in;
layout(binding = TONEMAP_UNIT_RADIANCE) uniform sampler2D u_radiance;
layout(location = TONEMAP_LOC_SIZE) uniform ivec2 u_size;
struct Partial {
  float sum;
  uint count;
};
layout(std430, binding = TONEMAP_PARTIALS_BINDING) writeonly buffer Partials { Partial partials[]; };

const uint N = uint(TONEMAP_GROUP_X * TONEMAP_GROUP_Y);
shared float s_sum[N];
shared uint s_count[N];

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  const uint t = gl_LocalInvocationIndex;
  float l = 0.0f;
  uint n = 0u;
  if (p.x < u_size.x && p.y < u_size.y) {
    const float y = tm_luminance(texelFetch(u_radiance, p, 0).rgb);
    if (tm_finite(y)) {
      l = log2(max(y, TM_MIN_LUMINANCE));
      n = 1u;
    }
  }
  s_sum[t] = l;
  s_count[t] = n;
  barrier();
  for (uint k = N / 2u; k > 0u; k >>= 1u) {
    if (t < k) {
      s_sum[t] += s_sum[t + k];
      s_count[t] += s_count[t + k];
    }
    barrier();
  }
  if (t == 0u) {
    const uint g = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    partials[g].sum = s_sum[0];
    partials[g].count = s_count[0];
  }
}
