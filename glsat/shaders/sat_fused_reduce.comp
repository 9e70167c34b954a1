#version 430
#if defined(HAVE_SUBGROUP) || defined(FUSED_SUBGROUP)
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif
// Fused SAT, pass 1 of 3 (sat_fused_common.glsl included): per tile, each row's sum (rt), each
// column's sum (ct) and the tile's sum (st). Workgroup (tile x, tile y).
#include "sat_hdr.glsl"  // RGBA16F pixels (PIXELS_RGBA16F); nothing otherwise
#include "sat_team_scan.glsl"  // the team scan in shared memory, for the next include
#include "sat_fused_common.glsl"

layout(std430, binding = 1) writeonly buffer Rt {
  uvec4 rt[];  // [tiles_x][height]
};
layout(std430, binding = 2) writeonly buffer Ct {
  uvec4 ct[];  // [tiles_y][width]
};
layout(std430, binding = 3) writeonly buffer St {
  uvec4 st[];  // [tiles_y][tiles_x]
};

// Channel pairs (pairs_of): 32 rows stay within 16 bits. Padded (PAD8).
shared PAIRS s_col[TEAMS][PADDED8(TILE_W)];
shared uvec3 s_row[TEAMS];

void main() {
  const uint lane = LANE, team = TEAM;
  const int bx = int(gl_WorkGroupID.x), by = int(gl_WorkGroupID.y);
  PX px[ROWS_PER_TEAM][4];
  const int x0 = bx * TILE_W + int(lane) * 4;
  load_block(x0, by * TILE_H + int(team) * ROWS_PER_TEAM, px);
  PAIRS col[4] = PAIRS[4](PAIRS(0u), PAIRS(0u), PAIRS(0u), PAIRS(0u));
  PAIRS s[ROWS_PER_TEAM];
  for (int r = 0; r < ROWS_PER_TEAM; ++r) {
    s[r] = PAIRS(0u);
    for (int i = 0; i < 4; ++i) {
      const PAIRS v = pairs_counted(px[r][i]);
      col[i] += v;
      s[r] += v;
    }
  }
  FLUSH_CLAMPS();  // this pass counts the clamped pixels; the tile scan reads them again
  // The team's 4 row reductions one after another in the source, independent of each other.
  for (int r = 0; r < ROWS_PER_TEAM; ++r) s[r] = team_sum2(s[r]);
  uvec3 rows = uvec3(0u);  // 4 rows of 128 pixels can pass 16 bits: unpacked first
  for (int r = 0; r < ROWS_PER_TEAM; ++r) {
    const int y = by * TILE_H + int(team) * ROWS_PER_TEAM + r;
    const uvec3 rgb = rgb_of_pairs(s[r]);
    rows += rgb;
    if (lane == 0u && y < u_height) rt[bx * u_height + y] = uvec4(rgb, 0u);
  }
  for (int i = 0; i < 4; ++i) s_col[team][PAD8(lane * 4u + uint(i))] = col[i];
  if (lane == 0u) s_row[team] = rows;
  barrier();
  const uint t = gl_LocalInvocationIndex;
  if (t < uint(TILE_W)) {
    PAIRS c = PAIRS(0u);
    for (int w = 0; w < TEAMS; ++w) c += s_col[w][PAD8(t)];
    const int x = bx * TILE_W + int(t);
    if (x < u_width) ct[by * u_width + x] = uvec4(rgb_of_pairs(c), 0u);
  }
  if (t == 0u) {
    uvec3 r = uvec3(0u);
    for (int w = 0; w < TEAMS; ++w) r += s_row[w];
    st[by * int(gl_NumWorkGroups.x) + bx] = uvec4(r, 0u);
  }
}
