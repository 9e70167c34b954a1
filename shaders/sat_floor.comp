#version 430
#if defined(FUSED_SUBGROUP)
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif
// Not a SAT: the floor glsatbench measures beside the fused path (GlSatBuilder::write_floor).
// Each pixel is read as the fused tile scans read it and its 16-byte word (R, G, B, 0, unscanned)
// is stored once, the same tile shape and store pattern with none of the arithmetic between.
#include "sat_fused_common.glsl"

layout(std430, binding = 0) writeonly buffer Table {
  uvec4 table[];
};

void main() {
  const int x0 = int(gl_WorkGroupID.x) * TILE_W + int(LANE) * 4;
  const int y0 = int(gl_WorkGroupID.y) * TILE_H + int(TEAM) * ROWS_PER_TEAM;
  uint px[ROWS_PER_TEAM][4];
  load_block(x0, y0, px);
  for (int r = 0; r < ROWS_PER_TEAM && y0 + r < u_height; ++r)
    for (int i = 0; i < 4; ++i)
      if (x0 + i < u_width) table[(y0 + r) * u_width + x0 + i] = uvec4(unpack_rgb(px[r][i]), 0u);
}
