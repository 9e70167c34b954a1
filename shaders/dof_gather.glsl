// The depth-of-field gather shared by dof.frag (the fragment pass and the debug views) and
// dof.comp (the GL compute pass): the interleaved SAT buffer, the view-z texture, the lens
// uniforms, the circle of confusion and the bilinear-corner box average. The CUDA kernel in
// kernels/src/dof.cu is the same arithmetic; keep the three in step. Defines: SAT_FLOAT.
#ifdef SAT_FLOAT
#define SAT_V vec4
#else
#define SAT_V uvec4
#endif

// Locations, units, binding and view ids come from shaders/shared.h (pasted in by the loader).
// Interleaved tables (scandof::SatLayout::Interleaved): one 16-byte element per pixel holding the
// R, G, B sums, so a corner is one load instead of one per plane.
layout(std430, binding = DOF_SAT_BINDING) readonly buffer SatTables { SAT_V sat[]; };

layout(binding = DOF_UNIT_VIEWZ) uniform sampler2D u_viewz;  // distance along the view axis
layout(location = DOF_LOC_SIZE) uniform ivec2 u_size;
layout(location = DOF_LOC_FOCUS) uniform float u_focus;  // focal distance (scene units, view axis)
layout(location = DOF_LOC_APERTURE) uniform float u_aperture;  // CoC radius (px) at infinity
layout(location = DOF_LOC_MAX_RADIUS) uniform float u_max_radius;  // CoC clamp in pixels
// Table units to colour: 1/255 for RGBA8 frames, 2^-F for HDR fixed-point tables (scandof/hdr.hpp),
// 1 for float tables of radiance.
layout(location = DOF_LOC_VALUE_SCALE) uniform float u_value_scale;
// The kernel shape (scandof::dof::shape_boxes' rectangles): the radius offset, and the signed
// fractional rectangles of the unit shape (none: the box, blurred()'s own four boxes).
layout(location = DOF_LOC_RADIUS_OFFSET) uniform float u_radius_offset;
layout(location = DOF_LOC_RECT_COUNT) uniform int u_rect_count;
layout(location = DOF_LOC_RECTS) uniform vec3 u_rects[DOF_MAX_RECTS];

SAT_V fetch(int x, int y) {
  // Index -1 is the empty prefix: the table's implicit zero row/column.
  if (x < 0 || y < 0) return SAT_V(0);
  return sat[y * u_size.x + x];
}

// Colour sum (rgb, in table units) and true pixel count (a) of the box of integer half-widths
// rx, ry around p, clamped to the image, so border boxes are divided by their real area and the
// border does not darken.
vec4 box_sum(ivec2 p, int rx, int ry) {
  int x0 = max(p.x - rx - 1, -1), x1 = min(p.x + rx, u_size.x - 1);
  int y0 = max(p.y - ry - 1, -1), y1 = min(p.y + ry, u_size.y - 1);
  // For uint tables the corner differences run in uint: wrap-around cancels exactly, and the box
  // sum (< 2^32) converts to float only at the end.
  SAT_V v = fetch(x1, y1) - fetch(x0, y1) - fetch(x1, y0) + fetch(x0, y0);
  return vec4(vec3(v.rgb), float((x1 - x0) * (y1 - y0)));
}

// Thin lens: CoC diameter = A f |z - z_f| / (z (z_f - f)); with the lens constants folded into the
// radius at infinity this is u_aperture * |z - z_f| / z.
float coc_radius(float z) { return min(u_aperture * abs(z - u_focus) / z, u_max_radius); }

// sign * the fractional rectangle (hx, hy) as its four exact integer boxes (the CUDA kernel's
// add_rect_sum, scandof::dof::detail::add_rect).
vec4 rect_sum(ivec2 p, float hx, float hy) {
  float fx = floor(hx), fy = floor(hy), tx = hx - fx, ty = hy - fy;
  int ix = int(fx), iy = int(fy);
  vec4 s = (1.0 - tx) * (1.0 - ty) * box_sum(p, ix, iy);
  if (tx > 0.0) s += tx * (1.0 - ty) * box_sum(p, ix + 1, iy);
  if (ty > 0.0) s += (1.0 - tx) * ty * box_sum(p, ix, iy + 1);
  if (tx > 0.0 && ty > 0.0) s += tx * ty * box_sum(p, ix + 1, iy + 1);
  return s;
}

vec3 blurred(ivec2 p, float r) {
  // The shape is built at r - u_radius_offset (0.5 by default: the lens disc's area).
  r = max(r - u_radius_offset, 0.0);
  if (u_rect_count > 0) {
    // Octagon and disc: the signed rectangles united by inclusion-exclusion.
    vec4 s = vec4(0.0);
    for (int i = 0; i < u_rect_count; ++i)
      s += u_rects[i].z * rect_sum(p, r * u_rects[i].x, r * u_rects[i].y);
    return s.rgb * (u_value_scale / s.a);
  }
  // Fractional radius r = r0 + t by bilinear corner lookups: each corner of the box is the SAT
  // interpolated between r0 and r0 + 1 in x and in y. That interpolation is separable, so the
  // fractional box equals the weighted sum of the four integer boxes (r0|r0+1) x (r0|r0+1) with
  // weights (1-t)^2, t(1-t), t(1-t), t^2: the outer ring of pixels gets weight t, its corners t^2.
  // Summing exact integer boxes first keeps uint tables exact (interpolating wrapped uint corners
  // in float would not). 16 corner reads per channel instead of 4; only where t > 0.
  int r0 = int(floor(r));
  float t = r - float(r0);
  vec4 s = box_sum(p, r0, r0);
  if (t > 0.0) {
    s = (1.0 - t) * (1.0 - t) * s +
        t * (1.0 - t) * (box_sum(p, r0 + 1, r0) + box_sum(p, r0, r0 + 1)) +
        t * t * box_sum(p, r0 + 1, r0 + 1);
  }
  return s.rgb * (u_value_scale / s.a);
}

