#version 450 core
// Depth of field from summed-area tables (GPU Gems 3, 39.3.1). Each pixel's circle of confusion
// (thin lens) picks a box; the SAT gives that box's average with 4 reads per channel whatever its
// size. Defines: SAT_FLOAT (float tables; default uint32 tables).
//
// Tables: 3 planes (R, G, B) of u_size.x * u_size.y elements, row 0 = the bottom row (GL order),
// element (x, y) = sum over x' <= x, y' <= y.
#ifdef SAT_FLOAT
#define SAT_T float
#else
#define SAT_T uint
#endif

// Locations, units, binding and view ids come from shaders/shared.h (pasted in by the loader).
layout(std430, binding = DOF_SAT_BINDING) readonly buffer SatTables { SAT_T sat[]; };

layout(binding = DOF_UNIT_COLOR) uniform sampler2D u_color;
layout(binding = DOF_UNIT_DEPTH) uniform sampler2D u_depth;
layout(location = DOF_LOC_SIZE) uniform ivec2 u_size;
layout(location = DOF_LOC_NEAR) uniform float u_near;
layout(location = DOF_LOC_FAR) uniform float u_far;
layout(location = DOF_LOC_FOCUS) uniform float u_focus;  // focal distance (scene units, view axis)
layout(location = DOF_LOC_APERTURE) uniform float u_aperture;  // CoC radius (px) at infinity
layout(location = DOF_LOC_MAX_RADIUS) uniform float u_max_radius;  // CoC clamp in pixels
layout(location = DOF_LOC_VIEW) uniform int u_view;                // VIEW_* in shared.h
layout(location = DOF_LOC_SPLIT) uniform float u_split;

out vec4 frag;

SAT_T fetch(int c, int x, int y) {
  // Index -1 is the empty prefix: the table's implicit zero row/column.
  if (x < 0 || y < 0) return SAT_T(0);
  return sat[(c * u_size.y + y) * u_size.x + x];
}

// Colour sum (rgb, in units of 1/255) and true pixel count (a) of the box of integer half-widths
// rx, ry around p, clamped to the image, so border boxes are divided by their real area and the
// border does not darken.
vec4 box_sum(ivec2 p, int rx, int ry) {
  int x0 = max(p.x - rx - 1, -1), x1 = min(p.x + rx, u_size.x - 1);
  int y0 = max(p.y - ry - 1, -1), y1 = min(p.y + ry, u_size.y - 1);
  vec4 s;
  for (int c = 0; c < 3; ++c) {
    // For uint tables the corner differences run in uint: wrap-around cancels exactly, and the
    // box sum (< 2^32) converts to float only at the end.
    SAT_T v = fetch(c, x1, y1) - fetch(c, x0, y1) - fetch(c, x1, y0) + fetch(c, x0, y0);
    s[c] = float(v);
  }
  s.a = float((x1 - x0) * (y1 - y0));
  return s;
}

float linear_depth(float d) { return u_near * u_far / (u_far - d * (u_far - u_near)); }

// Thin lens: CoC diameter = A f |z - z_f| / (z (z_f - f)); with the lens constants folded into the
// radius at infinity this is u_aperture * |z - z_f| / z.
float coc_radius(float z) { return min(u_aperture * abs(z - u_focus) / z, u_max_radius); }

vec3 blurred(ivec2 p, float r) {
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
  return s.rgb / (s.a * 255.0);
}

void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  vec3 sharp = texelFetch(u_color, p, 0).rgb;
  float z = linear_depth(texelFetch(u_depth, p, 0).r);
  float r = coc_radius(z);
  vec3 c;
  if (u_view == VIEW_SHARP) {
    c = sharp;
  } else if (u_view == VIEW_COC) {
    // Near side of the focal plane blue, far side orange; brightness = radius / max radius.
    float k = u_max_radius > 0.0 ? r / u_max_radius : 0.0;
    c = (z < u_focus ? vec3(0.25, 0.55, 1.0) : vec3(1.0, 0.6, 0.2)) * k;
  } else if (u_view == VIEW_SAT) {
    // The red table scaled by its total: a smooth ramp towards the top right corner.
    float total = float(fetch(0, u_size.x - 1, u_size.y - 1));
    c = vec3(float(fetch(0, p.x, p.y)) / max(total, 1.0),
             float(fetch(1, p.x, p.y)) / max(float(fetch(1, u_size.x - 1, u_size.y - 1)), 1.0),
             float(fetch(2, p.x, p.y)) / max(float(fetch(2, u_size.x - 1, u_size.y - 1)), 1.0));
  } else if (u_view == VIEW_SPLIT) {
    float sx = u_split * float(u_size.x);
    c = float(p.x) < sx ? sharp : blurred(p, r);
    if (abs(float(p.x) - sx) < 1.0) c = vec3(1.0);
  } else {
    c = blurred(p, r);
  }
  frag = vec4(c, 1.0);
}
