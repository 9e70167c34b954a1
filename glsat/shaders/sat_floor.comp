#version 430
#if defined(FUSED_SUBGROUP)
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif
// Not a SAT, and not used by the builder: the floor glsatbench measures beside the fused path (its
// own program, bench/glsatbench.cpp; pixels as the builder binds them on the image path): the
// fastest copy found of the same bytes in the same tile shape. Each pixel is loaded once and its
// 16-byte word (R, G, B, 0, unscanned) stored once, lane l of a team taking columns l + 32 k, so
// every load and store instruction covers consecutive words. (Lanes on 4 adjacent columns, the
// fused path's quad layout, stored at half this rate on the H100; the fused tile scans on these
// strided lanes were slower still: four team scans per row cost more than coalescing gained.)
#include "sat_team_scan.glsl"  // the team scan in shared memory, for the next include
#include "sat_fused_common.glsl"

layout(std430, binding = 0) writeonly buffer Table {
  uvec4 table[];
};

void main() {
  const int xb = int(gl_WorkGroupID.x) * TILE_W + int(LANE);
  const int y0 = int(gl_WorkGroupID.y) * TILE_H + int(TEAM) * ROWS_PER_TEAM;
  uint px[ROWS_PER_TEAM][4];
  for (int r = 0; r < ROWS_PER_TEAM; ++r) load_strided(xb, y0 + r, px[r]);
  for (int r = 0; r < ROWS_PER_TEAM && y0 + r < u_height; ++r)
    for (int k = 0; k < 4; ++k)
      if (xb + 32 * k < u_width)
        table[(y0 + r) * u_width + xb + 32 * k] = uvec4(unpack_rgb(px[r][k]), 0u);
}
