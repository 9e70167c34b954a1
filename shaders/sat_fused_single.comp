#version 430
#if defined(HAVE_SUBGROUP) || defined(FUSED_SUBGROUP)
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif
#ifdef PHASE_TRACE
#extension GL_ARB_shader_clock : require
#extension GL_NV_shader_thread_group : enable
#endif
// Fused SAT in one dispatch (sat_fused_common.glsl included), kept as the measured alternative
// to the three-pass path (GlSatTuning::fused_single_pass, glsatbench's fused-1pass rows): every
// tile reads its pixels once, publishes its own sums at once (aggregates), finds what lies above
// and left of it by decoupled look-back over the tiles before it, publishes its inclusive sums
// and writes its part of the table. On the H100 it beats the three passes only on small images
// (512x512: 0.021 against 0.028 ms), ties at 1080p and loses at 4K (results/sat/gl/README.md):
// the waits cost what the two saved dispatch boundaries and the second pixel read gain.
//
// Per tile (bx, by), S(x, y) = local + left(y) + top(x) + corner as in the three-pass path, with
//   left(y): row sums of the tiles to the left, through their row flag
//   top(x):  column sums of the tiles above, through their column flag
//   corner:  the column-inclusive tile sums (T_inc) of the tiles to the left in the tile row above
// A flag is epoch * 4 + status (1: aggregate published, 2: inclusive published), so the buffers
// never need clearing between builds. Tiles take their index from an atomic counter in launch
// order, so a tile only ever waits on tiles that are already running: they publish their
// aggregates without waiting on anything, and their inclusive sums after waiting only on
// aggregates (the corner waits last, on inclusive sums that never wait on a corner). GL does not
// promise that running workgroups progress together; NVIDIA's driver gives it. Mesa's llvmpipe
// does too but caps a shader invocation's loop iterations (65535 over all its loops), which ends
// a long wait early: there it is right only with LP_NUM_THREADS=1, where tiles never wait.
#include "sat_fused_common.glsl"

layout(std430, binding = 0) writeonly buffer Table {
  uvec4 table[];
};
// [0]: the tile counter; then per tile: row flag, column flag.
layout(std430, binding = 1) coherent buffer Flags {
  uint flags[];
};
// Per tile, per row of the tile: (aggregate, inclusive).
layout(std430, binding = 2) coherent buffer Rows {
  uvec4 rows[];
};
// Per tile, per column of the tile: (aggregate, inclusive).
layout(std430, binding = 3) coherent buffer Cols {
  uvec4 cols[];
};
// Per tile: the tile's sum (aggregate) and T_inc, its sum plus those of the tiles above it.
layout(std430, binding = 4) coherent buffer Tiles {
  uvec4 tsum[];
};
layout(location = 2) uniform uint u_epoch;    // >= 1; flags below epoch * 4 are stale
layout(location = 3) uniform uint u_id_base;  // the counter's value when this build started

#define FLAG_ROW 0
#define FLAG_COL 1
#define ST_AGG 1u
#define ST_INC 2u

// Trace marks (PHASE_TRACE, phase 3): 1 the tile's rows scanned, 2 its chains scouted, 4 its
// inclusive sums published, 5 its corner summed, 6 and 7 its rows 0 and 2 stored.
#include "sat_fused_trace.glsl"
shared uint s_tile;
#include "sat_fused_planes.glsl"
shared uvec3 s_row_agg[TILE_H];
shared uvec3 s_left[TILE_H];
shared uvec3 s_top_total[TILE_W / 32];
shared uvec3 s_corner;
shared uvec3 s_tile_agg;
shared uint s_first[2];  // per chain: the nearest predecessor with its inclusive sums published
#include "sat_fused_store.glsl"  // staging in the planes (the builder asks no separate array)

uint flag_index(int tile, int kind) {
  return 1u + uint(tile) * 2u + uint(kind);
}

// Waits until the flag shows at least `status` for this build; returns the status seen.
// Polled with atomics in two nested loops (up to 2^24 polls, seconds: far beyond any real wait).
// The H100 is sensitive to the shape of this loop: plain loads of a coherent buffer, a back-off
// of 32 or more ALU steps between polls, and a third nesting level each made the 1080p build
// about 2x slower (0.15 against 0.074 ms).
uint wait_flag(int tile, int kind, uint status) {
  const uint need = u_epoch * 4u + status;
  uint f = atomicAdd(flags[flag_index(tile, kind)], 0u);
  for (int i = 0; i < 4096 && f < need; ++i)
    for (int j = 0; j < 4096 && f < need; ++j) f = atomicAdd(flags[flag_index(tile, kind)], 0u);
  return f - u_epoch * 4u;
}

// acc += buf[INDEX].xyz for k = 0 .. n-1 (INDEX an expression in k), loads issued 8 at a time:
// they are independent, and in the first wave of tiles the chains are long (up to a tile row or
// column). A macro: GLSL cannot pass a buffer to a function.
#define SUM_CHAIN(acc, buf, INDEX, n)                                  \
  for (int k0 = 0; k0 < (n); k0 += 8) {                                \
    uvec3 got[8];                                                      \
    for (int j = 0; j < 8; ++j) {                                      \
      const int k = k0 + j;                                            \
      got[j] = k < (n) ? buf[INDEX].xyz : uvec3(0u);                   \
    }                                                                  \
    for (int j = 0; j < 8; ++j) acc += got[j];                         \
  }

void set_flag(int tile, int kind, uint status) {
  atomicExchange(flags[flag_index(tile, kind)], u_epoch * 4u + status);
}

// Predecessor k (0 = nearest) of a chain of n tiles ending before `tile`, `stride` apart. One
// team scouts the chain: waits until each predecessor has published at least its aggregate and
// records the nearest one whose inclusive sum is out (n when none).
// With subgroups the team stops after the first window of 32 that holds one (usually the first:
// in steady state the nearest predecessor is done).
void scout(int chain, int tile, int stride, int n, int kind) {
  for (int k0 = 0; k0 < n; k0 += 32) {
    const int k = k0 + int(LANE);
    const bool inc = k < n && wait_flag(tile - (k + 1) * stride, kind, ST_AGG) == ST_INC;
    if (inc) atomicMin(s_first[chain], uint(k));
#ifdef FUSED_SUBGROUP
    if (subgroupMax(inc ? 1u : 0u) != 0u) break;  // arithmetic, which the path needs anyway
#endif
  }
  memoryBarrierBuffer();
}

// Roles after the row scans: invocations t < TILE_W (teams 0-3) own tile column t (its aggregate,
// its look-back sum, its scan across the tile); team 4 owns the tile's rows (lane = row); team 5
// scouts the columns' chain and lane 0 of it sums the tile chain; team 6 sums the corner.
#define ROW_TEAM 4u
#define COL_SCOUT_TEAM 5u
#define CORNER_TEAM 6u

void main() {
  const uint lane = LANE, team = TEAM, t = gl_LocalInvocationIndex;
  if (t == 0u) {
    s_tile = atomicAdd(flags[0], 1u) - u_id_base;
    s_first[0] = s_first[1] = 0xFFFFFFFFu;
  }
  barrier();
  const int tiles_x = int(gl_NumWorkGroups.x);
  const int tile = int(s_tile), bx = tile % tiles_x, by = tile / tiles_x;
  const int x0 = bx * TILE_W + int(lane) * 4;
  const int y0 = by * TILE_H;
  TRACE_MARK(0);
  uint px[ROWS_PER_TEAM][4];
  load_block(x0, y0 + int(team) * ROWS_PER_TEAM, px);

  // Each row's inclusive sums within the tile as channel pairs (as sat_fused_phased.comp's
  // scan_tile): 2 words a pixel stay live through the look-back where 3 took the registers of
  // the third workgroup an SM. The rows' totals go to the row aggregates, the rows summed down
  // the team to the bottom rows.
  uvec2 w[ROWS_PER_TEAM][4];
  for (int r = 0; r < ROWS_PER_TEAM; ++r) {
    w[r][0] = pairs_of(px[r][0]);
    for (int i = 1; i < 4; ++i) w[r][i] = w[r][i - 1] + pairs_of(px[r][i]);
  }
  for (int r = 0; r < ROWS_PER_TEAM; ++r) {
    const uvec2 incl = team_inclusive2(w[r][3]);
    if (lane == 31u) s_row_agg[team * ROWS_PER_TEAM + uint(r)] = rgb_of_pairs(incl);
    const uvec2 ex = incl - w[r][3];
    for (int i = 0; i < 4; ++i) w[r][i] += ex;
  }
  for (int i = 0; i < 4; ++i) {
    uvec3 b = uvec3(0u);
    for (int r = 0; r < ROWS_PER_TEAM; ++r) b += rgb_of_pairs(w[r][i]);
    bottom_put(team, lane * 4u + uint(i), b);
  }
  barrier();
  TRACE_MARK(1);

  // Aggregates: column t's sum is the difference of the tile's row prefixes summed down the tile
  // at t and t - 1; at the last column they are the tile's sum.
  uvec3 row_agg = uvec3(0u), col_agg = uvec3(0u);
  if (t < uint(TILE_W)) {
    uvec3 here = uvec3(0u), before = uvec3(0u);
    for (int k = 0; k < TEAMS; ++k) {
      here += bottom_get(uint(k), t);
      if (t > 0u) before += bottom_get(uint(k), t - 1u);
    }
    col_agg = here - before;
    cols[(tile * TILE_W + int(t)) * 2] = uvec4(col_agg, 0u);
    if (t == uint(TILE_W - 1)) {
      tsum[tile * 2] = uvec4(here, 0u);
      s_tile_agg = here;
    }
  } else if (team == ROW_TEAM) {
    row_agg = s_row_agg[lane];
    rows[(tile * TILE_H + int(lane)) * 2] = uvec4(row_agg, 0u);
  }
  memoryBarrierBuffer();
  barrier();
  if (t == 0u) {
    set_flag(tile, FLAG_ROW, ST_AGG);
    set_flag(tile, FLAG_COL, ST_AGG);
  }

  if (team == ROW_TEAM) scout(0, tile, 1, bx, FLAG_ROW);
  if (team == COL_SCOUT_TEAM) scout(1, tile, tiles_x, by, FLAG_COL);
  barrier();
  TRACE_MARK(2);
  // Sums over the scouted chains: aggregates of the tiles nearer than the first inclusive one,
  // then its inclusive sum. Loads are independent of one another, so they overlap.
  const int first_row = int(min(s_first[0], uint(bx))), first_col = int(min(s_first[1], uint(by)));
  uvec3 above = uvec3(0u), left = uvec3(0u);
  if (t < uint(TILE_W)) {
    const int c = int(t);
    above = first_col < by ? cols[((tile - (first_col + 1) * tiles_x) * TILE_W + c) * 2 + 1].xyz
                           : uvec3(0u);
    SUM_CHAIN(above, cols, ((tile - (k + 1) * tiles_x) * TILE_W + c) * 2, first_col)
    cols[(tile * TILE_W + c) * 2 + 1] = uvec4(above + col_agg, 0u);
  } else if (team == ROW_TEAM) {
    left = first_row < bx ? rows[((tile - first_row - 1) * TILE_H + int(lane)) * 2 + 1].xyz
                          : uvec3(0u);
    SUM_CHAIN(left, rows, ((tile - k - 1) * TILE_H + int(lane)) * 2, first_row)
    rows[(tile * TILE_H + int(lane)) * 2 + 1] = uvec4(left + row_agg, 0u);
  } else if (team == COL_SCOUT_TEAM && lane == 0u) {
    uvec3 up = first_col < by ? tsum[(tile - (first_col + 1) * tiles_x) * 2 + 1].xyz : uvec3(0u);
    SUM_CHAIN(up, tsum, (tile - (k + 1) * tiles_x) * 2, first_col)
    tsum[tile * 2 + 1] = uvec4(s_tile_agg + up, 0u);
  }
  memoryBarrierBuffer();
  barrier();
  if (t == 0u) {
    set_flag(tile, FLAG_ROW, ST_INC);
    set_flag(tile, FLAG_COL, ST_INC);
  }
  TRACE_MARK(4);
  // corner: the column-inclusive tile sums of the tiles left of this one in the tile row above
  // (waiting for their inclusive sums, which never wait on a corner).
  uvec3 part = uvec3(0u);
  if (team == CORNER_TEAM) {
    if (by > 0)
      for (int i = int(lane); i < bx; i += 32) {
        const int above_left = (by - 1) * tiles_x + i;
        wait_flag(above_left, FLAG_COL, ST_INC);
        memoryBarrierBuffer();
        part += tsum[above_left * 2 + 1].xyz;
      }
#ifdef FUSED_SUBGROUP
    part = team_sum(part);
    if (lane == 0u) s_corner = part;
#endif
  }
#ifndef FUSED_SUBGROUP
  {
    const uvec3 sum = team_sum(part);  // every invocation calls it
    if (t == CORNER_TEAM * 32u) s_corner = sum;
  }
#endif
  // Column t's scan across the tile stays with invocation t; row y's down the tile goes to
  // s_left.
  uvec3 top = uvec3(0u);
#ifdef FUSED_SUBGROUP
  if (team < 4u) {
    top = team_inclusive(above);
    if (lane == 31u) s_top_total[team] = top;
  }
  if (team == ROW_TEAM) s_left[lane] = team_inclusive(left);
#else
  {
    top = team_inclusive(above);
    if (team < 4u && lane == 31u) s_top_total[team] = top;
    const uvec3 l_incl = team_inclusive(left);
    if (team == ROW_TEAM) s_left[lane] = l_incl;
  }
#endif
  barrier();
  TRACE_MARK(5);
  uvec3 start = uvec3(0u);
  if (t < uint(TILE_W)) {
    start = s_corner + top;
    for (uint g = 0u; g < t / 32u; ++g) start += s_top_total[g];
  }
  bottoms_to_exclusive(start);
  uvec3 base[4];
  for (int i = 0; i < 4; ++i) base[i] = bottom_get(team, lane * 4u + uint(i));
  store_tile_pairs(w, base, x0, y0, bx);
  TRACE_END(tile, 3u);
}
