#version 430
#if defined(HAVE_SUBGROUP) || defined(FUSED_SUBGROUP)
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif
// Fused SAT in one dispatch of ticket-ordered phases (sat_fused_common.glsl included;
// GlSatTuning::fused_phased, glsatbench's fused-phased rows): the three passes of
// sat_fused_reduce.comp, sat_fused_aux.comp and sat_fused_scan.comp without the two dispatch
// boundaries and barriers between them. Each workgroup takes a ticket from an atomic counter:
//   [0, tiles)                    reduce a tile (row, column and tile sums), then count it done
//   [tiles, tiles + aux groups)   wait until every tile is reduced, do a small scan, count it done
//   the rest                      scan a tile: load its pixels and scan its rows, wait until the
//                                 small scans are done, add the offsets, store
// Each scan tile adds up its corner (the sums of the tiles above and left of it) itself, so the
// small scans' 2D scan of the tile sums, the longest of their chains, is gone.
// A ticket only waits on lower tickets, which belong to workgroups already running; like
// sat_fused_single.comp it relies on running workgroups progressing, which GL does not promise
// (GlSatSupport::lookback; llvmpipe is right with LP_NUM_THREADS=1 only).
// H100, 1080p: 0.0421 ms against the three passes' 0.0499 (results/sat/gl/README.md, session 18).
#include "sat_fused_common.glsl"

layout(std430, binding = 0) writeonly buffer Table {
  uvec4 table[];
};
layout(std430, binding = 1) coherent buffer Rt {
  uvec4 rt[];  // [tiles_x][height]
};
layout(std430, binding = 2) coherent buffer Ct {
  uvec4 ct[];  // [tiles_y][width]
};
layout(std430, binding = 3) coherent buffer St {
  uvec4 st[];  // [tiles_y][tiles_x]
};
// [0] tickets handed out, [1] tiles reduced, [2] small-scan workgroups done: only ever grow; this
// build's counts are taken relative to the bases the host passes.
layout(std430, binding = 4) coherent buffer Counters {
  uint cnt[];
};
layout(location = 2) uniform int u_tiles_x;
layout(location = 3) uniform int u_tiles_y;
layout(location = 4) uniform int u_nb_rows;
layout(location = 5) uniform int u_nb_cols;
layout(location = 6) uniform uint u_base_ticket;
layout(location = 7) uniform uint u_base_reduced;
layout(location = 8) uniform uint u_base_aux;

shared uvec3 s_bottom[TEAMS][PADDED16(TILE_W)];  // PAD16; the other phases' scratch too
shared uvec3 s_left[TILE_H];
shared uvec3 s_top[TILE_W];
shared uvec3 s_top_total[TILE_W / 32];
shared uint s_ticket;
shared uvec3 s_corner_part[TEAMS];
// The stores stage in s_bottom, never in a separate array: with it (18 KB more per workgroup)
// fewer workgroups fit an SM, and the H100's 1080p build took 0.0538 ms against 0.0434.
#undef FUSED_STAGE_SEPARATE
#include "sat_fused_store.glsl"

// The reduce phase's column partials and the small scans' partial sums live in s_bottom.
#define S_COL(w, k) s_bottom[w][k].xy
#define S_ROW(w) s_left[w]
#define S_ST(i) s_bottom[(i) / PADDED16(TILE_W)][(i) % PADDED16(TILE_W)]  // i < 1152
#define S_PART(i) S_ST(i)
#define S_CARRY(i) S_ST(256 + (i))

// Polled as sat_fused_single.comp polls, by invocation 0 (up to 2^24 polls, seconds). Plain
// loads of a volatile buffer instead of the atomics measured no faster (1080p 0.0439 against
// 0.0434 ms on the H100).
void wait_count(int k, uint base, uint need) {
  uint c = atomicAdd(cnt[k], 0u) - base;
  for (int i = 0; i < 4096 && c < need; ++i)
    for (int j = 0; j < 4096 && c < need; ++j) c = atomicAdd(cnt[k], 0u) - base;
}
// Every invocation: its buffer writes are made visible, then one atomic counts the workgroup.
void signal_done(int k) {
  memoryBarrierBuffer();
  barrier();
  if (gl_LocalInvocationIndex == 0u) atomicAdd(cnt[k], 1u);
}
void wait_all(int k, uint base, uint need) {
  if (gl_LocalInvocationIndex == 0u) wait_count(k, base, need);
  barrier();
  memoryBarrierBuffer();
}

void reduce_tile(int bx, int by) {
  const uint lane = LANE, team = TEAM;
  uint px[ROWS_PER_TEAM][4];
  const int x0 = bx * TILE_W + int(lane) * 4;
  load_block(x0, by * TILE_H + int(team) * ROWS_PER_TEAM, px);
  uvec2 col[4] = uvec2[4](uvec2(0u), uvec2(0u), uvec2(0u), uvec2(0u));
  uvec2 s[ROWS_PER_TEAM];
  for (int r = 0; r < ROWS_PER_TEAM; ++r) {
    s[r] = uvec2(0u);
    for (int i = 0; i < 4; ++i) {
      const uvec2 v = pairs_of(px[r][i]);
      col[i] += v;
      s[r] += v;
    }
  }
  for (int r = 0; r < ROWS_PER_TEAM; ++r) s[r] = team_sum2(s[r]);
  uvec3 rows = uvec3(0u);
  for (int r = 0; r < ROWS_PER_TEAM; ++r) {
    const int y = by * TILE_H + int(team) * ROWS_PER_TEAM + r;
    const uvec3 rgb = rgb_of_pairs(s[r]);
    rows += rgb;
    if (lane == 0u && y < u_height) rt[bx * u_height + y] = uvec4(rgb, 0u);
  }
  for (int i = 0; i < 4; ++i) S_COL(team, PAD8(lane * 4u + uint(i))) = col[i];
  if (lane == 0u) S_ROW(team) = rows;
  barrier();
  const uint t = gl_LocalInvocationIndex;
  if (t < uint(TILE_W)) {
    uvec2 c = uvec2(0u);
    for (int w = 0; w < TEAMS; ++w) c += S_COL(w, PAD8(t));
    const int x = bx * TILE_W + int(t);
    if (x < u_width) ct[by * u_width + x] = uvec4(rgb_of_pairs(c), 0u);
  }
  if (t == 0u) {
    uvec3 r = uvec3(0u);
    for (int w = 0; w < TEAMS; ++w) r += S_ROW(w);
    st[by * u_tiles_x + bx] = uvec4(r, 0u);
  }
}

#include "sat_fused_small_scan.glsl"

void aux_work(int b) {
  if (b < u_nb_rows) {
    SEGMENTED_SCAN(rt, b * SAT_AUX_ROWS_PER_GROUP, u_height, u_height, u_tiles_x, AUX_RT_G,
                   AUX_RT_K)
  } else {
    SEGMENTED_SCAN(ct, (b - u_nb_rows) * SAT_AUX_COLS_PER_GROUP, u_width, u_width, u_tiles_y,
                   AUX_CT_G, AUX_CT_K)
  }
}

void scan_tile(int bx, int by, int aux_groups) {
  const uint lane = LANE, team = TEAM;
  const int x0 = bx * TILE_W + int(lane) * 4;
  const int y0 = by * TILE_H;
  uint px[ROWS_PER_TEAM][4];
  load_block(x0, y0 + int(team) * ROWS_PER_TEAM, px);
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
  for (int i = 0; i < 4; ++i) s_bottom[team][PAD16(lane * 4u + uint(i))] = v[ROWS_PER_TEAM - 1][i];
  // Everything above needs no offsets; now the small scans' results.
  wait_all(2, u_base_aux, uint(aux_groups));
  const uint t = gl_LocalInvocationIndex;
  const int xt = bx * TILE_W + int(t);
  const uvec3 above = t < uint(TILE_W) && xt < u_width ? ct[by * u_width + xt].xyz : uvec3(0u);
  // corner: the raw sums of the tiles above and left of this one, added up here.
  uvec3 cpart = uvec3(0u);
  for (int k = int(t); k < bx * by; k += WG) cpart += st[(k / bx) * u_tiles_x + k % bx].xyz;
  const int yl = y0 + int(lane);
  const uvec3 left = team == 0u && yl < u_height ? rt[bx * u_height + yl].xyz : uvec3(0u);
#ifdef FUSED_SUBGROUP
  if (team < 4u) {
    const uvec3 incl = team_inclusive(above);
    s_top[t] = incl;
    if (lane == 31u) s_top_total[team] = incl;
  }
  if (team == 0u) s_left[lane] = team_inclusive(left);
#else
  {
    const uvec3 incl = team_inclusive(above);
    if (team < 4u) s_top[t] = incl;
    if (team < 4u && lane == 31u) s_top_total[team] = incl;
    const uvec3 l_incl = team_inclusive(left);
    if (team == 0u) s_left[lane] = l_incl;
  }
#endif
  cpart = team_sum(cpart);
  if (lane == 0u) s_corner_part[team] = cpart;
  barrier();
  uvec3 corner = uvec3(0u);
  for (int w = 0; w < TEAMS; ++w) corner += s_corner_part[w];
  uvec3 start = uvec3(0u);
  if (t < uint(TILE_W)) {
    start = corner + s_top[t];
    for (uint g = 0u; g < t / 32u; ++g) start += s_top_total[g];
  }
  bottoms_to_exclusive(start);
  uvec3 base[4];
  for (int i = 0; i < 4; ++i) base[i] = s_bottom[team][PAD16(lane * 4u + uint(i))];
  store_tile(v, base, x0, y0, bx);
}

void main() {
  if (gl_LocalInvocationIndex == 0u) s_ticket = atomicAdd(cnt[0], 1u) - u_base_ticket;
  barrier();
  const int ticket = int(s_ticket);
  const int tiles = u_tiles_x * u_tiles_y;
  const int aux_groups = u_nb_rows + u_nb_cols;
  if (ticket < tiles) {
    reduce_tile(ticket % u_tiles_x, ticket / u_tiles_x);
    signal_done(1);
  } else if (ticket < tiles + aux_groups) {
    wait_all(1, u_base_reduced, uint(tiles));
    aux_work(ticket - tiles);
    signal_done(2);
  } else {
    const int k = ticket - tiles - aux_groups;
    scan_tile(k % u_tiles_x, k / u_tiles_x, aux_groups);
  }
}
