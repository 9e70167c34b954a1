#version 450 core
// The tone-map pass: HDR radiance (RGBA16F, the blurred frame) -> exposure 2^EV -> tone curve ->
// sRGB encode -> RGBA8 image, alpha 1; the maths is tonemap.glsl, the twin of the CPU gold
// scandof::tone_map. The EV is u_ev, or with auto exposure the exposure buffer's (written earlier
// in the same frame by tonemap_exposure.comp: no CPU round trip). The rgba8 store converts to 8
// bits; GL rounds to nearest there, as the gold's unorm8 does.
#include "tonemap.glsl"
layout(local_size_x = TONEMAP_GROUP_X, local_size_y = TONEMAP_GROUP_Y) in;
layout(binding = TONEMAP_UNIT_RADIANCE) uniform sampler2D u_radiance;
layout(rgba8, binding = TONEMAP_IMAGE_OUT) writeonly uniform image2D u_out;
layout(location = TONEMAP_LOC_OP) uniform int u_op;
layout(location = TONEMAP_LOC_EV) uniform float u_ev;
layout(location = TONEMAP_LOC_AUTO) uniform int u_auto;
layout(location = TONEMAP_LOC_WHITE) uniform float u_white;
layout(location = TONEMAP_LOC_SIZE) uniform ivec2 u_size;
layout(std430, binding = TONEMAP_EXPOSURE_BINDING) readonly buffer Exposure {
  float ev;
  float ev_measured;
  float log2_average;
  uint pixels;
} exposure;

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= u_size.x || p.y >= u_size.y) return;
  const float ev = u_auto != 0 ? exposure.ev : u_ev;
  const vec3 c = texelFetch(u_radiance, p, 0).rgb * exp2(ev);
  imageStore(u_out, p, vec4(tm_srgb_encode(tm_curve(u_op, c, u_white)), 1.0f));
}
