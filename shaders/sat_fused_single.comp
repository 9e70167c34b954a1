#version 430
#if defined(HAVE_SUBGROUP) || defined(FUSED_SUBGROUP)
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
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

shared uint s_tile;
shared uvec3 s_bottom[TEAMS][PADDED16(TILE_W)];  // PAD16
shared uvec3 s_row_agg[TILE_H];
shared uvec3 s_top[TILE_W];
shared uvec3 s_left[TILE_H];
shared uvec3 s_corner_part[32];
shared uvec3 s_tile_agg;
shared uint s_first[2];  // per chain: the nearest predecessor with its inclusive sums published
#include "sat_fused_store.glsl"

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
  uint px[ROWS_PER_TEAM][4];
  load_block(x0, y0 + int(team) * ROWS_PER_TEAM, px);

  // Local row scans, then down this team's 4 rows; each row's total kept for the aggregates.
  uvec3 v[ROWS_PER_TEAM][4];
  for (int r = 0; r < ROWS_PER_TEAM; ++r) {
    v[r][0] = unpack_rgb(px[r][0]);
    for (int i = 1; i < 4; ++i) v[r][i] = v[r][i - 1] + unpack_rgb(px[r][i]);
    const uvec3 incl = team_inclusive(v[r][3]);
    const uvec3 ex = incl - v[r][3];
    if (lane == 31u) s_row_agg[team * ROWS_PER_TEAM + uint(r)] = incl;
    for (int i = 0; i < 4; ++i) v[r][i] += ex;
    if (r > 0)
      for (int i = 0; i < 4; ++i) v[r][i] += v[r - 1][i];
  }
  for (int i = 0; i < 4; ++i) s_bottom[team][PAD16(lane * 4u + uint(i))] = v[ROWS_PER_TEAM - 1][i];
  barrier();

  // Aggregates: row totals (team 0), column sums (teams 1-4: column c = t - 32, the difference
  // of the tile's bottom-row prefix at c and c - 1), the tile's sum.
  uvec3 row_agg = uvec3(0u), col_agg = uvec3(0u);
  const int c = int(t) - 32;
  if (team == 0u) {
    row_agg = s_row_agg[lane];
    rows[(tile * TILE_H + int(lane)) * 2] = uvec4(row_agg, 0u);
  } else if (c >= 0 && c < TILE_W) {
    uvec3 here = uvec3(0u), before = uvec3(0u);
    for (int w = 0; w < TEAMS; ++w) {
      here += s_bottom[w][PAD16(c)];
      if (c > 0) before += s_bottom[w][PAD16(c - 1)];
    }
    col_agg = here - before;
    cols[(tile * TILE_W + c) * 2] = uvec4(col_agg, 0u);
    if (c == TILE_W - 1) {
      tsum[tile * 2] = uvec4(here, 0u);
      s_tile_agg = here;
    }
  }
  memoryBarrierBuffer();
  barrier();
  if (t == 0u) {
    set_flag(tile, FLAG_ROW, ST_AGG);
    set_flag(tile, FLAG_COL, ST_AGG);
  }

  // Look-back: team 0 scouts the tiles to the left, team 1 those above.
  if (team == 0u) scout(0, tile, 1, bx, FLAG_ROW);
  if (team == 1u) scout(1, tile, tiles_x, by, FLAG_COL);
  barrier();
  // Sums over the scouted chains: aggregates of the tiles nearer than the first inclusive one,
  // then its inclusive sum. Loads are independent of one another, so they overlap.
  const int first_row = int(min(s_first[0], uint(bx))), first_col = int(min(s_first[1], uint(by)));
  if (team == 0u) {
    uvec3 left = first_row < bx ? rows[((tile - first_row - 1) * TILE_H + int(lane)) * 2 + 1].xyz
                                : uvec3(0u);
    SUM_CHAIN(left, rows, ((tile - k - 1) * TILE_H + int(lane)) * 2, first_row)
    rows[(tile * TILE_H + int(lane)) * 2 + 1] = uvec4(left + row_agg, 0u);
    s_left[lane] = left;
  } else if (c >= 0 && c < TILE_W) {
    uvec3 top = first_col < by ? cols[((tile - (first_col + 1) * tiles_x) * TILE_W + c) * 2 + 1].xyz
                               : uvec3(0u);
    SUM_CHAIN(top, cols, ((tile - (k + 1) * tiles_x) * TILE_W + c) * 2, first_col)
    cols[(tile * TILE_W + c) * 2 + 1] = uvec4(top + col_agg, 0u);
    s_top[c] = top;
  } else if (t == 160u) {
    uvec3 above = first_col < by ? tsum[(tile - (first_col + 1) * tiles_x) * 2 + 1].xyz : uvec3(0u);
    SUM_CHAIN(above, tsum, (tile - (k + 1) * tiles_x) * 2, first_col)
    tsum[tile * 2 + 1] = uvec4(s_tile_agg + above, 0u);
  }
  memoryBarrierBuffer();
  barrier();
  if (t == 0u) {
    set_flag(tile, FLAG_ROW, ST_INC);
    set_flag(tile, FLAG_COL, ST_INC);
  }
  // corner: the column-inclusive tile sums of the tiles left of this one in the tile row above
  // (waiting for their inclusive sums, which never wait on a corner).
  if (team == 0u) {
    uvec3 part = uvec3(0u);
    if (by > 0)
      for (int i = int(lane); i < bx; i += 32) {
        const int above_left = (by - 1) * tiles_x + i;
        wait_flag(above_left, FLAG_COL, ST_INC);
        memoryBarrierBuffer();
        part += tsum[above_left * 2 + 1].xyz;
      }
    s_corner_part[lane] = part;
  }
  barrier();
  uvec3 corner = uvec3(0u);
  for (int i = 0; i < 32; ++i) corner += s_corner_part[i];

  // In-tile scans of top (across the tile's columns) and left (down its rows).
  uvec3 top[4];
  for (int i = 0; i < 4; ++i) top[i] = s_top[lane * 4u + uint(i)];
  for (int i = 1; i < 4; ++i) top[i] += top[i - 1];
  {
    const uvec3 ex = team_inclusive(top[3]) - top[3];
    for (int i = 0; i < 4; ++i) top[i] += ex;
  }
  {
    const uvec3 incl = team_inclusive(team == 0u ? s_left[lane] : uvec3(0u));
    barrier();  // every team has read s_left
    if (team == 0u) s_left[lane] = incl;
  }
  barrier();
  bottoms_to_exclusive(uvec3(0u));
  uvec3 base[4];
  for (int i = 0; i < 4; ++i)
    base[i] = corner + top[i] + s_bottom[team][PAD16(lane * 4u + uint(i))];
  store_tile(v, base, x0, y0, bx);
}
