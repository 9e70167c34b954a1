#version 430
#if defined(HAVE_SUBGROUP) || defined(FUSED_SUBGROUP)
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif
// Fused SAT, pass 3 of 3 (sat_fused_common.glsl included): per tile, the local 2D scan plus the
// corner (sum over x < x0, y < y0), top (in-tile scan of the column sums above the tile) and left
// (in-tile scan of the row sums left of it); each pixel's R, G, B, 0 stored as one 16-byte word,
// a team's 32 lanes x 4 pixels writing 2 KB contiguously.
#include "sat_hdr.glsl"  // RGBA16F pixels (PIXELS_RGBA16F); nothing otherwise
#include "sat_team_scan.glsl"  // the team scan in shared memory, for the next include
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

#include "sat_fused_planes.glsl"
#include "sat_fused_offsets.glsl"

#include "sat_fused_store.glsl"  // staging in the planes

void main() {
  const uint lane = LANE, team = TEAM;
  const int bx = int(gl_WorkGroupID.x), by = int(gl_WorkGroupID.y);
  const int x0 = bx * TILE_W + int(lane) * 4;
  const int y0 = by * TILE_H;
  PX px[ROWS_PER_TEAM][4];
  load_block(x0, y0 + int(team) * ROWS_PER_TEAM, px);
  // Every global load is issued here, before the first barrier, so their latencies overlap
  // instead of following one another (the corner and top were read after the row scans).
  // top(x): the column sums above the tile, one column per invocation of teams 0-3 (coalesced),
  // scanned once per 32 columns below; bottoms_to_exclusive adds the groups and the corner. Every
  // team loading and scanning all 128 columns itself, 4 adjacent per lane, took the H100's 1080p
  // build 0.0538 ms against 0.0512 (4K 0.1538 against 0.1449).
  const uint t = gl_LocalInvocationIndex;
  const int xt = bx * TILE_W + int(t);
  const uvec3 above =
      t < uint(TILE_W) && xt < u_width ? above_ex[by * u_width + xt].xyz : uvec3(0u);
  const uvec3 corner = corner_ex[by * int(gl_NumWorkGroups.x) + bx].xyz;
  // left(y): the 32 row sums left of the tile, scanned by team 0.
  const int yl = y0 + int(lane);
  const uvec3 left = team == 0u && yl < u_height ? left_ex[bx * u_height + yl].xyz : uvec3(0u);
  // Each row's inclusive sums within the tile, kept as pairs: 2 words a pixel live until the
  // stores, not 3.
  PAIRS w[ROWS_PER_TEAM][4];
#ifdef PIXELS_RGBA16F
  // By constant index: NVIDIA's compiler left this loop rolled for RGBA16F (its subgroup scans and
  // quantization make the body long) and kept px and w in local memory (the program binary's
  // lmem0); RGBA8's program is left as it was.
  row_scan(px[0], w[0]);
  row_scan(px[1], w[1]);
  row_scan(px[2], w[2]);
  row_scan(px[3], w[3]);
#else
  for (int r = 0; r < ROWS_PER_TEAM; ++r) row_scan(px[r], w[r]);
#endif
  // The scans of top and left, after the row scans, whose pixels arrive first. Column t's scan
  // stays with invocation t, which adds it to its start below.
  const uvec3 top = scan_top_left(above, left, 0u);
  for (int i = 0; i < 4; ++i) {
    uvec3 b = uvec3(0u);
    for (int r = 0; r < ROWS_PER_TEAM; ++r) b += rgb_of_pairs(w[r][i]);
    bottom_put(team, lane * 4u + uint(i), b);
  }
  barrier();
  // Column t starts from the corner plus top(t): its group's scan and the groups left of it.
  bottoms_to_exclusive(t < uint(TILE_W) ? column_start(corner, top) : uvec3(0u));
  uvec3 base[4];
  for (int i = 0; i < 4; ++i) base[i] = bottom_get(team, lane * 4u + uint(i));
  store_tile_pairs(w, base, y0, bx);
}
