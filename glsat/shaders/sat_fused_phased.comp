#version 430
#if defined(HAVE_SUBGROUP) || defined(FUSED_SUBGROUP)
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif
#ifdef PHASE_TRACE
// glsatbench --trace-phased: each workgroup's SM and the cycles at which it reached its marks.
#extension GL_ARB_shader_clock : require
#extension GL_NV_shader_thread_group : enable
#endif
// Fused SAT in one dispatch of ticket-ordered phases (sat_fused_common.glsl included;
// GlSatTuning::fused_phased, glsatbench's fused-phased rows): the three passes of
// sat_fused_reduce.comp, sat_fused_aux.comp and sat_fused_scan.comp without the two dispatch
// boundaries and barriers between them. Each workgroup takes a ticket from an atomic counter:
//   [0, R)              reduce u_reduce_tiles tiles (row, column and tile sums), count them done
//   [R, R + aux groups) wait until every tile is reduced, do a small scan, count it done
//   the rest            scan u_scan_tiles tiles: load the first's pixels and scan its rows, wait
//                       until the small scans are done, add the offsets, store; then the next
// (R = tiles / u_reduce_tiles rounded up; the host picks 2 a workgroup for large grids, where a
// second wave of single tiles cost more than the longer workgroups.)
// Each scan tile adds up its corner (the sums of the tiles above and left of it) itself, so the
// small scans' 2D scan of the tile sums, the longest of their chains, is gone.
// A ticket only waits on lower tickets, which belong to workgroups already running; like
// sat_fused_single.comp it relies on running workgroups progressing, which GL does not promise
// (GlSatSupport::lookback; llvmpipe is right with LP_NUM_THREADS=1 only).
// H100, 1080p: 0.0422 ms against the three passes' 0.0470; 4K 0.1157 against 0.1136
// (results/sat/gl/README.md, session 19).
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
// Tiles a reduce or a scan workgroup takes in turn.
layout(location = 9) uniform int u_reduce_tiles;
layout(location = 10) uniform int u_scan_tiles;

// Trace marks (PHASE_TRACE): 1 and 2 before and after the phase's wait; in a scan tile (the last
// one a workgroup takes) 4 its offsets summed, 5 its bottom rows made exclusive, 6 and 7 its rows
// 0 and 2 stored; in a small-scan workgroup 4 its scan done.
#include "sat_fused_trace.glsl"
#include "sat_fused_planes.glsl"
#include "sat_fused_offsets.glsl"
shared uint s_ticket;
shared uvec3 s_corner_part[TEAMS];
#include "sat_fused_store.glsl"  // staging in the planes (the builder asks no separate array)

// The reduce phase's column partials (pairs) and the small scans' partial sums and carries.
#define COL_PUT(w, k, v)                \
  {                                     \
    const uint ci_ = slot_index(w, k);  \
    s_plane[0][ci_] = (v).x;            \
    s_plane[1][ci_] = (v).y;            \
  }
#define COL_GET(w, k) uvec2(s_plane[0][slot_index(w, k)], s_plane[1][slot_index(w, k)])
#define S_ROW(w) s_left[w]
#define S_PART_GET(i) slot_get(uint(i))
#define S_PART_PUT(i, v) slot_put(uint(i), v)
#define S_CARRY_GET(i) slot_get(256u + uint(i))
#define S_CARRY_PUT(i, v) slot_put(256u + uint(i), v)

// Polled as sat_fused_single.comp polls, by invocation 0 (up to 2^24 polls, seconds). Neither plain
// loads of a volatile buffer nor a flag raised by the last workgroup counted (on a line of its
// own, so waiters poll away from the counter) measured faster: 1080p 0.0439 against 0.0434 ms,
// and 0.0464 against 0.0456 (H100, session 19).
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

void load_tile(int tile, out uint px[ROWS_PER_TEAM][4]) {
  const int bx = tile % u_tiles_x, by = tile / u_tiles_x;
  load_block(bx * TILE_W + int(LANE) * 4, by * TILE_H + int(TEAM) * ROWS_PER_TEAM, px);
}
// px: the tile's pixels, as load_tile gives them.
void reduce_tile(int bx, int by, uint px[ROWS_PER_TEAM][4]) {
  const uint lane = LANE, team = TEAM;
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
  for (int i = 0; i < 4; ++i) COL_PUT(team, lane * 4u + uint(i), col[i])
  if (lane == 0u) S_ROW(team) = rows;
  barrier();
  const uint t = gl_LocalInvocationIndex;
  if (t < uint(TILE_W)) {
    uvec2 c = uvec2(0u);
    for (int w = 0; w < TEAMS; ++w) c += COL_GET(uint(w), t);
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

void scan_tile(int bx, int by, int aux_groups, bool first) {
  const uint lane = LANE, team = TEAM;
  const int x0 = bx * TILE_W + int(lane) * 4;
  const int y0 = by * TILE_H;
  uint px[ROWS_PER_TEAM][4];
  load_block(x0, y0 + int(team) * ROWS_PER_TEAM, px);
  // Each row's inclusive sums within the tile, still as pairs: what stays live through the wait
  // below is 2 words a pixel, not 3.
  uvec2 w[ROWS_PER_TEAM][4];
  for (int r = 0; r < ROWS_PER_TEAM; ++r) row_scan(px[r], w[r]);
  for (int i = 0; i < 4; ++i) {
    uvec3 b = uvec3(0u);
    for (int r = 0; r < ROWS_PER_TEAM; ++r) b += rgb_of_pairs(w[r][i]);
    bottom_put(team, lane * 4u + uint(i), b);
  }
  // Everything above needs no offsets; now the small scans' results.
  TRACE_MARK(1);
  if (first) wait_all(2, u_base_aux, uint(aux_groups));  // later tiles find the offsets done
  TRACE_MARK(2);
  const uint t = gl_LocalInvocationIndex;
  const int xt = bx * TILE_W + int(t);
  const uvec3 above = t < uint(TILE_W) && xt < u_width ? ct[by * u_width + xt].xyz : uvec3(0u);
  // corner: the raw sums of the tiles above and left of this one, added up here.
  uvec3 cpart = uvec3(0u);
  for (int k = int(t); k < bx * by; k += WG) cpart += st[(k / bx) * u_tiles_x + k % bx].xyz;
  const int yl = y0 + int(lane);
  const uvec3 left = team == 0u && yl < u_height ? rt[bx * u_height + yl].xyz : uvec3(0u);
  // Column t's scan stays with invocation t, which adds it to its start below.
  const uvec3 top = scan_top_left(above, left, 0u);
  cpart = team_sum(cpart);
  if (lane == 0u) s_corner_part[team] = cpart;
  barrier();
  uvec3 corner = uvec3(0u);
  for (int w = 0; w < TEAMS; ++w) corner += s_corner_part[w];
  const uvec3 start = t < uint(TILE_W) ? column_start(corner, top) : uvec3(0u);
  TRACE_MARK(4);
  bottoms_to_exclusive(start);
  TRACE_MARK(5);
  uvec3 base[4];
  for (int i = 0; i < 4; ++i) base[i] = bottom_get(team, lane * 4u + uint(i));
  store_tile_pairs(w, base, x0, y0, bx);
}

void main() {
  if (gl_LocalInvocationIndex == 0u) s_ticket = atomicAdd(cnt[0], 1u) - u_base_ticket;
  barrier();
  const int ticket = int(s_ticket);
  const int tiles = u_tiles_x * u_tiles_y;
  const int groups = (tiles + u_reduce_tiles - 1) / u_reduce_tiles;  // of the reduce phase
  const int aux_groups = u_nb_rows + u_nb_cols;
  TRACE_MARK(0);
  if (ticket < groups) {
    // The next tile's pixels are loaded before this one is reduced.
    const int first = ticket * u_reduce_tiles, n = min(u_reduce_tiles, tiles - first);
    uint px[ROWS_PER_TEAM][4], next[ROWS_PER_TEAM][4];
    load_tile(first, px);
    for (int k = 0; k < n; ++k) {
      if (k + 1 < n) load_tile(first + k + 1, next);
      if (k > 0) barrier();  // the scratch is reused
      reduce_tile((first + k) % u_tiles_x, (first + k) / u_tiles_x, px);
      px = next;
    }
    TRACE_MARK(1);
    signal_done(1);
    TRACE_MARK(2);
  } else if (ticket < groups + aux_groups) {
    TRACE_MARK(1);
    wait_all(1, u_base_reduced, uint(groups));
    TRACE_MARK(2);
    aux_work(ticket - groups);
    TRACE_MARK(4);
    signal_done(2);
  } else {
    const int first = (ticket - groups - aux_groups) * u_scan_tiles;
    for (int k = 0; k < u_scan_tiles && first + k < tiles; ++k) {
      if (k > 0) barrier();
      scan_tile((first + k) % u_tiles_x, (first + k) / u_tiles_x, aux_groups, k == 0);
    }
  }
  TRACE_END(ticket, ticket < groups ? 0u : ticket < groups + aux_groups ? 1u : 2u);
}
