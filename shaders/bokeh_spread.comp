#version 450 core
#ifdef BOKEH_INT64
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_NV_shader_atomic_int64 : require
#extension GL_NV_gpu_shader5 : enable
#endif
// Bokeh from highlights, stage 1 on the GL backends (dof::bokeh_delta_gold; the CUDA twin is
// bokeh_delta_kernel): a pixel whose fixed-point colour passes the base in any channel spreads
// the excess over its own shape, e W_j per integer box, each box cut at the BOKEH_TILE tiles so
// that bokeh_resolve.comp integrates only the tiles some shape reaches (see the CUDA kernel's
// comment for why the pieces' corners integrate to the gold's sums).
layout(local_size_x = DOF_COMPUTE_GROUP_X, local_size_y = DOF_COMPUTE_GROUP_Y) in;

#include "bokeh.glsl"

layout(binding = DOF_UNIT_COLOR) uniform sampler2D u_color;  // RGBA16F radiance
layout(binding = DOF_UNIT_VIEWZ) uniform sampler2D u_viewz;
layout(location = DOF_LOC_FOCUS) uniform float u_focus;
layout(location = DOF_LOC_APERTURE) uniform float u_aperture;
layout(location = DOF_LOC_MAX_RADIUS) uniform float u_max_radius;
layout(location = DOF_LOC_RADIUS_OFFSET) uniform float u_radius_offset;
layout(location = DOF_LOC_RECT_COUNT) uniform int u_rect_count;
layout(location = DOF_LOC_RECTS) uniform vec3 u_rects[DOF_MAX_RECTS];
layout(location = BOKEH_LOC_FIXED_BITS) uniform int u_fixed_bits;
layout(location = BOKEH_LOC_FIXED_MAX) uniform uint u_fixed_max;
layout(location = BOKEH_LOC_BASE_MAX) uniform uint u_base_max;

// scandof::quantize_radiance (kernels/include/scandof/hdr.hpp): round half to even of v 2^F, at
// most max_value; NaN, negative and zero give 0 (tested on the bits, as glsat's sat_hdr.glsl).
uint quantize(float v) {
  const uint b = floatBitsToUint(v);
  if ((b & 0x80000000u) != 0u || (b & 0x7FFFFFFFu) == 0u || (b & 0x7FFFFFFFu) > 0x7F800000u)
    return 0u;
  const float x = v * float(1u << uint(u_fixed_bits));
  return x > float(u_fixed_max) ? u_fixed_max : uint(roundEven(x));
}

// scandof::dof::shape_boxes at radius r: the fractional rectangles' integer boxes, equal boxes
// merged, cancelled ones dropped; then spread_weights. Box: the one rectangle (r, r).
const int kMaxBoxes = 4 * DOF_MAX_RECTS;
ivec2 g_half[kMaxBoxes];
float g_coef[kMaxBoxes];
int g_n = 0;

void add_box(int rx, int ry, float coef) {
  for (int j = 0; j < g_n; ++j)
    if (g_half[j] == ivec2(rx, ry)) {
      g_coef[j] += coef;
      return;
    }
  g_half[g_n] = ivec2(rx, ry);
  g_coef[g_n] = coef;
  ++g_n;
}
void add_rect(float hx, float hy, float sign) {
  const float fx = floor(hx), fy = floor(hy), tx = hx - fx, ty = hy - fy;
  const int ix = int(fx), iy = int(fy);
  add_box(ix, iy, sign * ((1.0 - tx) * (1.0 - ty)));
  if (tx > 0.0) add_box(ix + 1, iy, sign * (tx * (1.0 - ty)));
  if (ty > 0.0) add_box(ix, iy + 1, sign * ((1.0 - tx) * ty));
  if (tx > 0.0 && ty > 0.0) add_box(ix + 1, iy + 1, sign * (tx * ty));
}

// e * w as a 64-bit two's complement pair.
uvec2 times(uint e, int w) {
  uint hi, lo;
  umulExtended(e, uint(abs(w)), hi, lo);
  return w >= 0 ? uvec2(lo, hi) : add64(uvec2(~lo, ~hi), uvec2(1u, 0u));
}

void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= u_size.x || p.y >= u_size.y) return;
  const vec3 c = texelFetch(u_color, p, 0).rgb;
  const uvec3 q = uvec3(quantize(c.r), quantize(c.g), quantize(c.b));
  const uvec3 e = uvec3(q.r > u_base_max ? q.r - u_base_max : 0u,
                        q.g > u_base_max ? q.g - u_base_max : 0u,
                        q.b > u_base_max ? q.b - u_base_max : 0u);
  if (e == uvec3(0u)) return;
  const float z = texelFetch(u_viewz, p, 0).r;
  const float r = max(min(u_aperture * abs(z - u_focus) / z, u_max_radius) - u_radius_offset, 0.0);
  // Every element written before add_box reads any: NVIDIA's compiler cannot see that only the
  // first g_n are read and warns (C7050) for each one otherwise. Bright pixels alone pay it.
  for (int j = 0; j < kMaxBoxes; ++j) {
    g_half[j] = ivec2(0);
    g_coef[j] = 0.0;
  }
  if (u_rect_count == 0) add_rect(r, r, 1.0);
  for (int i = 0; i < u_rect_count; ++i) add_rect(r * u_rects[i].x, r * u_rects[i].y, u_rects[i].z);
  int m = 0;
  float area = 0.0;
  for (int j = 0; j < g_n; ++j)
    if (abs(g_coef[j]) > 1e-6) {
      g_half[m] = g_half[j];
      g_coef[m] = g_coef[j];
      area += g_coef[m] * float((2 * g_half[m].x + 1) * (2 * g_half[m].y + 1));
      ++m;
    }
  const float unit = float(1 << 19) / area;  // kSpreadScale / area
  const int tiles_x = (u_size.x + BOKEH_TILE - 1) / BOKEH_TILE;
  for (int j = 0; j < m; ++j) {
    const int wt = int(floor(g_coef[j] * unit + 0.5));
    const int x0 = max(p.x - g_half[j].x, 0), x1 = min(p.x + g_half[j].x, u_size.x - 1);
    const int y0 = max(p.y - g_half[j].y, 0), y1 = min(p.y + g_half[j].y, u_size.y - 1);
    if (wt == 0 || x0 > x1 || y0 > y1) continue;
    const uvec2 v[3] = uvec2[3](times(e.r, wt), times(e.g, wt), times(e.b, wt));
    for (int ty = y0 / BOKEH_TILE; ty <= y1 / BOKEH_TILE; ++ty)
      for (int tx = x0 / BOKEH_TILE; tx <= x1 / BOKEH_TILE; ++tx) {
        const int ex = min((tx + 1) * BOKEH_TILE, u_size.x), ey = min((ty + 1) * BOKEH_TILE, u_size.y);
        const int cx0 = max(x0, tx * BOKEH_TILE), cx1 = min(x1, ex - 1);
        const int cy0 = max(y0, ty * BOKEH_TILE), cy1 = min(y1, ey - 1);
        touched[ty * tiles_x + tx] = 1u;
        for (int k = 0; k < 3; ++k) {
          const uvec2 neg = add64(uvec2(~v[k].x, ~v[k].y), uvec2(1u, 0u));
          atomic_add64(sum_index(k, cy0 * u_size.x + cx0), v[k]);
          if (cx1 + 1 < ex) atomic_add64(sum_index(k, cy0 * u_size.x + cx1 + 1), neg);
          if (cy1 + 1 < ey) atomic_add64(sum_index(k, (cy1 + 1) * u_size.x + cx0), neg);
          if (cx1 + 1 < ex && cy1 + 1 < ey)
            atomic_add64(sum_index(k, (cy1 + 1) * u_size.x + cx1 + 1), v[k]);
        }
      }
  }
}
