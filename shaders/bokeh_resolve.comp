#version 450 core
#ifdef BOKEH_INT64
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_NV_shader_atomic_int64 : require
#extension GL_NV_gpu_shader5 : enable
#endif
// Bokeh from highlights, stages 2 and 3 on the GL backends (the CUDA twin is
// bokeh_resolve_kernel): a workgroup per touched tile loads its deltas into shared memory and
// zeroes them in the buffer, integrates them (rows, then columns, Hillis-Steele in 64-bit pairs)
// and adds sum * 2^-(F + 19) to its pixel of the gather's output.
layout(local_size_x = BOKEH_TILE, local_size_y = BOKEH_TILE) in;

#include "bokeh.glsl"

layout(COLOR_FORMAT, binding = DOF_IMAGE_OUT) uniform image2D u_out;
layout(location = BOKEH_LOC_UNIT) uniform float u_unit;

shared uvec2 t[3][BOKEH_TILE][BOKEH_TILE];

void main() {
  const int tiles_x = (u_size.x + BOKEH_TILE - 1) / BOKEH_TILE;
  // The same tile for the whole workgroup, so the return is uniform.
  if (touched[gl_WorkGroupID.y * uint(tiles_x) + gl_WorkGroupID.x] == 0u) return;
  const int lx = int(gl_LocalInvocationID.x), ly = int(gl_LocalInvocationID.y);
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  const bool in_frame = p.x < u_size.x && p.y < u_size.y;
  for (int k = 0; k < 3; ++k) {
    uvec2 v = uvec2(0u);
    if (in_frame) v = take64(sum_index(k, p.y * u_size.x + p.x));  // all zero for the next frame
    t[k][ly][lx] = v;
  }
  barrier();
  // Rows (along x), then columns (along y): log2(32) steps each, read then write.
  for (int o = 1; o < BOKEH_TILE; o <<= 1) {
    uvec2 a[3];
    for (int k = 0; k < 3; ++k) a[k] = lx >= o ? t[k][ly][lx - o] : uvec2(0u);
    barrier();
    for (int k = 0; k < 3; ++k) t[k][ly][lx] = add64(t[k][ly][lx], a[k]);
    barrier();
  }
  for (int o = 1; o < BOKEH_TILE; o <<= 1) {
    uvec2 a[3];
    for (int k = 0; k < 3; ++k) a[k] = ly >= o ? t[k][ly - o][lx] : uvec2(0u);
    barrier();
    for (int k = 0; k < 3; ++k) t[k][ly][lx] = add64(t[k][ly][lx], a[k]);
    barrier();
  }
  if (!in_frame) return;
  vec3 s;
  for (int k = 0; k < 3; ++k)  // the pair as a signed 64-bit value, in float
    s[k] = (float(int(t[k][ly][lx].y)) * 4294967296.0 + float(t[k][ly][lx].x)) * u_unit;
  const vec4 o = imageLoad(u_out, p);
  imageStore(u_out, p, vec4(o.rgb + s, o.a));
}
