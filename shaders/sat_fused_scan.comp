#version 430
#if defined(HAVE_SUBGROUP) || defined(FUSED_SUBGROUP)
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif
// Fused SAT, pass 3 of 3 (sat_fused_common.glsl included): per tile, the local 2D scan plus the
// corner (sum over x < x0, y < y0), top (in-tile scan of the column sums above the tile) and left
// (in-tile scan of the row sums left of it); each pixel's R, G, B, 0 stored as one 16-byte word,
// a team's 32 lanes x 4 pixels writing 2 KB contiguously.
#include "sat_fused_common.glsl"

layout(std430, binding = 0) writeonly buffer Table {
  uvec4 table[];
};
layout(std430, binding = 1) readonly buffer Rt {
  uvec4 left_ex[];  // [tiles_x][height]
};
layout(std430, binding = 2) readonly buffer Ct {
  uvec4 above_ex[];  // [tiles_y][width]
};
layout(std430, binding = 3) readonly buffer St {
  uvec4 corner_ex[];  // [tiles_y][tiles_x]
};

shared uvec3 s_bottom[TEAMS][PADDED16(TILE_W)];  // PAD16
shared uvec3 s_left[TILE_H];

#include "sat_fused_store.glsl"

void main() {
  const uint lane = LANE, team = TEAM;
  const int bx = int(gl_WorkGroupID.x), by = int(gl_WorkGroupID.y);
  const int x0 = bx * TILE_W + int(lane) * 4;
  const int y0 = by * TILE_H;
  uint px[ROWS_PER_TEAM][4];
  load_block(x0, y0 + int(team) * ROWS_PER_TEAM, px);
  // Every global load is issued here, before the first barrier, so their latencies overlap
  // instead of following one another (the corner and top were read after the row scans).
  const uvec3 corner = corner_ex[by * int(gl_NumWorkGroups.x) + bx].xyz;
  uvec3 top[4];
  for (int i = 0; i < 4; ++i)
    top[i] = x0 + i < u_width ? above_ex[by * u_width + x0 + i].xyz : uvec3(0u);
  // left(y): team 0 scans the 32 row sums left of the tile (every team calls the scan: it may
  // need the whole workgroup).
  {
    const int y = y0 + int(lane);
    const uvec3 l = (team == 0u && y < u_height) ? left_ex[bx * u_height + y].xyz : uvec3(0u);
    const uvec3 incl = team_inclusive(l);
    if (team == 0u) s_left[lane] = incl;
  }
  // Local row scans on channel pairs (a row's prefix sums fit 16 bits), then unpacked and summed
  // down this team's 4 rows.
  uvec2 w[ROWS_PER_TEAM][4];
  for (int r = 0; r < ROWS_PER_TEAM; ++r) {
    w[r][0] = pairs_of(px[r][0]);
    for (int i = 1; i < 4; ++i) w[r][i] = w[r][i - 1] + pairs_of(px[r][i]);
  }
  uvec2 ex[ROWS_PER_TEAM];
  for (int r = 0; r < ROWS_PER_TEAM; ++r) ex[r] = team_inclusive2(w[r][3]) - w[r][3];
  uvec3 v[ROWS_PER_TEAM][4];
  for (int r = 0; r < ROWS_PER_TEAM; ++r)
    for (int i = 0; i < 4; ++i) {
      v[r][i] = rgb_of_pairs(w[r][i] + ex[r]);
      if (r > 0) v[r][i] += v[r - 1][i];
    }
  // top(x): in-tile scan of the column sums above the tile (loaded at the start).
  for (int i = 1; i < 4; ++i) top[i] += top[i - 1];
  {
    const uvec3 ex = team_inclusive(top[3]) - top[3];
    for (int i = 0; i < 4; ++i) top[i] += ex;
  }
  for (int i = 0; i < 4; ++i) s_bottom[team][PAD16(lane * 4u + uint(i))] = v[ROWS_PER_TEAM - 1][i];
  barrier();
  bottoms_to_exclusive();
  uvec3 base[4];
  for (int i = 0; i < 4; ++i) base[i] = corner + top[i] + s_bottom[team][PAD16(lane * 4u + uint(i))];
  store_tile(v, base, x0, y0, bx);
}
