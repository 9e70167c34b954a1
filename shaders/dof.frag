#version 450 core
// Depth of field from summed-area tables (GPU Gems 3, 39.3.1). Each pixel's circle of confusion
// (thin lens) picks a box; the SAT gives that box's average with 4 reads per channel whatever its
// size. Defines: SAT_FLOAT (float tables; default uint32 tables).
//
// Tables: u_size.x * u_size.y elements of 4 words (R, G, B sums, 0), row 0 = the bottom row (GL
// order), element (x, y) = sum over x' <= x, y' <= y. The CUDA compute pass (kernels/src/dof.cu)
// is this shader's DepthOfField view as a kernel; keep the two in step.
#include "dof_gather.glsl"

layout(binding = DOF_UNIT_COLOR) uniform sampler2D u_color;
layout(location = DOF_LOC_VIEW) uniform int u_view;                // VIEW_* in shared.h
layout(location = DOF_LOC_SPLIT) uniform float u_split;
out vec4 frag;

void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  vec3 sharp = texelFetch(u_color, p, 0).rgb;
  float z = texelFetch(u_viewz, p, 0).r;
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
    vec3 total = vec3(fetch(u_size.x - 1, u_size.y - 1).rgb);
    c = vec3(fetch(p.x, p.y).rgb) / max(total, vec3(1.0));
  } else if (u_view == VIEW_SPLIT) {
    float sx = u_split * float(u_size.x);
    c = float(p.x) < sx ? sharp : blurred(p, r);
    if (abs(float(p.x) - sx) < 1.0) c = vec3(1.0);
  } else {
    c = blurred(p, r);
  }
  frag = vec4(c, 1.0);
}
