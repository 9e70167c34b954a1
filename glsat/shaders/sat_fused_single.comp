#version 430
#if defined(HAVE_SUBGROUP) || defined(FUSED_SUBGROUP)
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif
// Fused SAT in one dispatch (sat_fused_common.glsl included; GlSatFusedBuild::OnePass,
// glsatbench's fused-1pass rows): every tile reads its pixels once, publishes its own sums at
// once (aggregates), finds what lies above and left of it by decoupled look-back over the tiles
// before it, publishes its inclusive sums and writes its part of the table.
//
// Per tile (bx, by), S(x, y) = local + left(y) + top(x) + corner as in the three-pass path, with
//   left(y): row sums of the tiles to the left, through their row flag
//   top(x):  column sums of the tiles above, through their column flag
//   corner:  the column-inclusive tile sums (T_inc) of the tiles to the left in the tile row above
// A flag is epoch * 4 + status (1: aggregate published, 2: inclusive published), so the buffers
// never need clearing between builds. Tiles take their index from an atomic counter in launch
// order, so a tile mostly waits on tiles that are already running, briefly.
//
// Decoupled fallback (Smith, Levien and Owens, SPAA 2025): GL promises no forward progress
// between workgroups, so no wait here is unbounded. A flag is polled u_polls times at most
// (poll_flag); a predecessor that has published nothing by then is computed by the waiter from
// its pixels (help_late, help_tile) and published as the tile would publish it: the same
// integers, so a word written by both holds one value. The look-back then goes on from aggregates
// alone if it must (back to the first tile of a chain, whose aggregate is its inclusive sum). So
// a tile finishes whether or not any other workgroup ever runs, and the table is the one the waits
// would have given, bit for bit. With subgroups the waiting team computes the tile at once; with
// shared-memory teams the workgroup does, after the round, and runs the round again.
//
// Every loop is bounded. Mesa's llvmpipe ends an invocation's loops early once it has taken 65535
// back-edges in all, so the polls share a budget of SAT_LOOKBACK_POLL_BUDGET an invocation, and a
// help costs about 40 back-edges (a tile row or column of 32 pixels, a team sum): some 1,500 fit.
// A round that finds late tiles helps them all (up to MAX_REQUESTS) before it looks again; the
// CI sweep under llvmpipe with 8 threads on 2 cores computed 3,780 tiles in 200 builds of up to
// 510 tiles, about 19 a build, so one workgroup stays far from that cap.
//
// Sized for 4 workgroups an SM on NVIDIA's GL (about 50 KB of shared memory an SM, 64 registers
// an invocation at 4 x 256): a tile's time is mostly waiting (its pixels, its predecessors' flags),
// so what counts is how many tiles wait at once; at 1920x1080 4 an SM hold all 510 tiles in one
// wave where 3 left 114 for a second. So the tile keeps only its packed pixels (16 words an
// invocation) through the look-back and scans its rows again afterwards, the teams' column sums
// go through shared memory as 16-bit channel pairs, and the stores are staged 4 teams at a time.
#include "sat_hdr.glsl"  // RGBA16F pixels (PIXELS_RGBA16F); nothing otherwise
#include "sat_team_scan.glsl"  // the team scan in shared memory, for the next include
#include "sat_fused_common.glsl"

layout(std430, binding = 0) writeonly buffer Table {
  uvec4 table[];
};
// [0]: the tile counter; [1]: the tiles helped (help_tile), over every build since the buffer was
// cleared (GlSatBuilder::lookback_helps); then per tile: row flag, column flag.
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
// Polls of a flag before its tile's sums are computed here instead; 0 forces the fallback: the
// first round of each look-back takes no flag at all (the tests' policy).
layout(location = SAT_LOC_LOOKBACK_POLLS) uniform uint u_polls;

#define FLAG_ROW 0
#define FLAG_COL 1
#define ST_AGG 1u
#define ST_INC 2u

#include "sat_fused_offsets.glsl"

// Slot (w, k), team w's for tile column k, padded one word in 32 (a lane's 4 adjacent columns and
// a row read along k both fall on 32 banks), as sat_fused_planes.glsl lays out its planes.
#define PAD32(k) ((k) + ((k) >> 5))
#define PLANE_W (TILE_W + TILE_W / 32)
// Two uses in turn (8.4 KB; 12.7 KB for RGBA16F, whose "pairs" are 3 words): the teams' column sums
// as channel pairs (words w * PLANE_W + PAD32(k), TEAMS * PLANE_W + that, and for RGBA16F
// 2 * TEAMS * PLANE_W + that), made exclusive down the tile; then the staged stores, one row of
// 4 teams as R, G, B planes (word p * 4 * PLANE_W + j * PLANE_W + PAD32(k), j = team % 4).
shared uint s_words[PAIR_WORDS * TEAMS * PLANE_W];
shared uint s_start[3][PLANE_W];  // column k's corner + top, at PAD32(k)
shared PAIRS s_row_agg[TILE_H];   // the tile's row sums as pairs (up to 128 x 255)
shared uvec3 s_corner;
shared uvec3 s_tile_agg;
shared uint s_tile;
shared uint s_zero;  // 0: see store_row_of
shared uint s_first[2];  // per chain: the nearest predecessor with its inclusive sums published
#ifndef FUSED_SUBGROUP
// Tiles asked for in this round of a look-back (help_requested); asks past MAX_REQUESTS are
// dropped and asked again in the next round.
#define MAX_REQUESTS 32
shared uint s_requests;
shared uint s_request[MAX_REQUESTS];
#endif

PAIRS col_get(uint w, uint k) {
  const uint i = w * uint(PLANE_W) + PAD32(k);
#if PAIR_WORDS == 3
  return uvec3(s_words[i], s_words[uint(TEAMS * PLANE_W) + i],
               s_words[uint(2 * TEAMS * PLANE_W) + i]);
#else
  return uvec2(s_words[i], s_words[uint(TEAMS * PLANE_W) + i]);
#endif
}
void col_put(uint w, uint k, PAIRS v) {
  const uint i = w * uint(PLANE_W) + PAD32(k);
  s_words[i] = v.x;
  s_words[uint(TEAMS * PLANE_W) + i] = v.y;
#if PAIR_WORDS == 3
  s_words[uint(2 * TEAMS * PLANE_W) + i] = v.z;
#endif
}
uint stage_index(uint p, uint j, uint k) {
  return (p * 4u + j) * uint(PLANE_W) + PAD32(k);
}

uint flag_index(int tile, int kind) {
  return 2u + uint(tile) * 2u + uint(kind);
}

uint g_polls_left = SAT_LOOKBACK_POLL_BUDGET;

// The status this build's flag shows (0: nothing yet, ST_AGG, ST_INC) once it shows at least
// `status`, or after u_polls polls (fewer once this invocation's budget is spent; none with
// `force`). Polled with atomics: on the H100 plain loads of a coherent buffer and a back-off of
// 32 or more ALU steps between polls each made the 1080p build about 2x slower (0.15 against
// 0.074 ms).
uint poll_flag(int tile, int kind, uint status, bool force) {
  if (force) return 0u;
  const uint i = flag_index(tile, kind), base = u_epoch * 4u, polls = min(u_polls, g_polls_left);
  uint f = atomicAdd(flags[i], 0u), n = 0u;
  for (; n < polls && f < base + status; ++n) f = atomicAdd(flags[i], 0u);
  g_polls_left -= n;
  return f < base ? 0u : f - base;
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

// atomicMax: a helper's ST_AGG never takes back a tile's own ST_INC.
void set_flag(int tile, int kind, uint status) {
  atomicMax(flags[flag_index(tile, kind)], u_epoch * 4u + status);
}

PX pixel_at(int x, int y) {
  if (x >= u_width || y >= u_height) return PX_ZERO;
#if defined(PIXELS_GATHER) && defined(PIXELS_RGBA16F)
  return texelFetch(u_pixels, ivec2(x, y), 0).xy;
#elif defined(PIXELS_GATHER)
  return texelFetch(u_pixels, ivec2(x, y), 0).x;
#else
  return load_pixel(ivec2(x, y));
#endif
}

#ifdef FUSED_SUBGROUP
// The fallback: tile p's aggregates (its rows', its columns' and its own sums) from its pixels,
// published as p publishes them, by the one team that found p late, with subgroup operations
// only: no workgroup barrier, so the loops that call it hold none either (a barrier inside a loop
// on the look-back's path, even one never taken, made the H200's RGBA8 one pass 3-5 % slower).
// Lane L sums row L and columns 4L .. 4L+3; pixels are read twice (rows, then columns), so only
// a few registers are live. The loops start at s_zero (0) so that no compiler unrolls them:
// unrolled, their loads in flight at once would hold registers the rest of the program needs.
// Not counted in the clamp count (pairs_of): p counts its own pixels.
void help_tile(int p, int tiles_x) {
  const int x0 = (p % tiles_x) * TILE_W + int(LANE) * 4, y0 = (p / tiles_x) * TILE_H;
  const int z = int(s_zero);
  PAIRS mine = PAIRS(0u);
  for (int r = z; r < TILE_H; ++r) {
    PAIRS row = PAIRS(0u);
    for (int i = z; i < 4; ++i) row += pairs_of(pixel_at(x0 + i, y0 + r));
    row = team_sum2(row);
    if (LANE == uint(r)) mine = row;
  }
  const uvec3 row_sum = rgb_of_pairs(mine);
  rows[(p * TILE_H + int(LANE)) * 2] = uvec4(row_sum, 0u);
  for (int i = z; i < 4; ++i) {
    PAIRS col = PAIRS(0u);
    for (int r = z; r < TILE_H; ++r) col += pairs_of(pixel_at(x0 + i, y0 + r));
    cols[(p * TILE_W + int(LANE) * 4 + i) * 2] = uvec4(rgb_of_pairs(col), 0u);
  }
  const uvec3 total = team_sum(row_sum);
  if (LANE == 0u) tsum[p * 2] = uvec4(total, 0u);
  memoryBarrierBuffer();
  subgroupBarrier();
  if (LANE == 0u) {
    set_flag(p, FLAG_ROW, ST_AGG);
    set_flag(p, FLAG_COL, ST_AGG);
    atomicAdd(flags[1], 1u);
  }
}

// Every lane of the team whose tile p is late gets it computed, now, one tile after another.
void help_late(bool late, int p, int tiles_x) {
  for (;;) {
    const uint l = subgroupMin(late ? LANE : 32u);
    if (l == 32u) break;
    help_tile(int(subgroupMin(LANE == l ? uint(p) : 0xFFFFFFFFu)), tiles_x);
    if (LANE == l) late = false;
  }
}
#else
// The fallback where teams are slices of the workgroup (their sums take workgroup barriers): a
// late tile is asked for (help_late), and after the round the whole workgroup computes the tiles
// asked for (help_requested), then the round is run again. Tile p's aggregates (its rows', its
// columns' and its own sums) from its pixels, published as p publishes them: invocations
// t < TILE_W sum column t, the others a quarter of a row each; the row quarters meet in s_start,
// which is free until the corner is known. Not counted in the clamp count (pairs_of): p counts its
// own pixels. Every invocation calls it.
void help_tile(int p, int tiles_x) {
  const uint t = gl_LocalInvocationIndex;
  const int x0 = (p % tiles_x) * TILE_W, y0 = (p / tiles_x) * TILE_H;
  PAIRS sum = PAIRS(0u);
  if (t < uint(TILE_W)) {
    for (int r = 0; r < TILE_H; ++r) sum += pairs_of(pixel_at(x0 + int(t), y0 + r));
    cols[(p * TILE_W + int(t)) * 2] = uvec4(rgb_of_pairs(sum), 0u);
  } else {
    const int row = int(t - uint(TILE_W)) >> 2, x = x0 + (int(t) & 3) * 32;
    for (int k = 0; k < 32; ++k) sum += pairs_of(pixel_at(x + k, y0 + row));
    const uvec3 v = rgb_of_pairs(sum);
    const uint i = t - uint(TILE_W);  // row * 4 + quarter
    s_start[0][i] = v.x;
    s_start[1][i] = v.y;
    s_start[2][i] = v.z;
  }
  barrier();
  uvec3 row_sum = uvec3(0u);
  if (t < uint(TILE_H)) {
    for (uint q = 0u; q < 4u; ++q)
      row_sum += uvec3(s_start[0][t * 4u + q], s_start[1][t * 4u + q], s_start[2][t * 4u + q]);
    rows[(p * TILE_H + int(t)) * 2] = uvec4(row_sum, 0u);
  }
  const uvec3 total = team_sum(row_sum);  // team 0's: the tile's
  if (t == 0u) tsum[p * 2] = uvec4(total, 0u);
  memoryBarrierBuffer();
  barrier();
  if (t == 0u) {
    set_flag(p, FLAG_ROW, ST_AGG);
    set_flag(p, FLAG_COL, ST_AGG);
    atomicAdd(flags[1], 1u);
  }
}

void help_late(bool late, int p, int tiles_x) {
  if (!late) return;
  const uint k = atomicAdd(s_requests, 1u);
  if (k < uint(MAX_REQUESTS)) s_request[k] = uint(p);
}

// After a round of a look-back and a barrier: helps the tiles asked for in it and returns true,
// or returns false when none were. Every invocation calls it.
bool help_requested(int tiles_x) {
  const uint n = s_requests;
  if (n == 0u) return false;
  for (uint i = 0u; i < min(n, uint(MAX_REQUESTS)); ++i) help_tile(int(s_request[i]), tiles_x);
  barrier();
  if (gl_LocalInvocationIndex == 0u) s_requests = 0u;
  barrier();
  return true;
}
#endif

// Predecessor k (0 = nearest) of a chain of n tiles ending before `tile`, `stride` apart. One
// team scouts the chain: polls each predecessor until it has published at least its aggregate
// (the late ones are computed here: help_late) and records the nearest one whose inclusive sum
// is out (n when none). With subgroups the team stops after the first window of 32 that holds one
// (usually the first: in steady state the nearest predecessor is done).
void scout(int chain, int tile, int stride, int n, int kind, int tiles_x, bool force) {
  for (int k0 = 0; k0 < n; k0 += 32) {
    const int k = k0 + int(LANE), p = tile - (k + 1) * stride;
    uint st = k < n ? poll_flag(p, kind, ST_AGG, force) : 0u;
    help_late(k < n && st == 0u, p, tiles_x);
#ifdef FUSED_SUBGROUP
    if (k < n && st == 0u) st = ST_AGG;  // computed just now
#endif
    const bool inc = st == ST_INC;
    if (inc) atomicMin(s_first[chain], uint(k));
#ifdef FUSED_SUBGROUP
    if (subgroupMax(inc ? 1u : 0u) != 0u) break;  // arithmetic, which the path needs anyway
#endif
  }
  memoryBarrierBuffer();
}

// The corner's part from the columns i = lane, lane + 32, ... < bx: T_inc of tile (by - 1, i),
// the tile sums of column i up from the tile row above: its inclusive sum where published, else
// aggregates upward, the late tiles computed (help_late). With shared-memory teams a late tile
// ends the lane's round (false): the round runs again once it is computed.
bool corner_part(int tiles_x, int bx, int by, bool force, out uvec3 part) {
  part = uvec3(0u);
  for (int i0 = 0; i0 < bx; i0 += 32) {
    const int i = i0 + int(LANE);
    int j = by - 1;
    uvec3 sum = uvec3(0u);
    bool done = i >= bx, first = true;
    for (;;) {
      uint st = ST_INC;
      int p = 0;
      if (!done) {
        p = j * tiles_x + i;
        st = poll_flag(p, FLAG_COL, ST_INC, force && first);
        first = false;
        memoryBarrierBuffer();
        if (st == ST_INC) {
          part += sum + tsum[p * 2 + 1].xyz;
          done = true;
        } else if (st == ST_AGG) {
          sum += tsum[p * 2].xyz;
          if (--j < 0) {
            part += sum;
            done = true;
          }
        }
      }
      help_late(!done && st == 0u, p, tiles_x);
#ifdef FUSED_SUBGROUP
      if (subgroupMin(done ? 1u : 0u) == 1u) break;  // a late tile is polled again, computed
#else
      if (!done && st == 0u) return false;
      if (done) break;
#endif
    }
  }
  return true;
}

#define ROW_TEAM 4u
#define COL_SCOUT_TEAM 5u
#define CORNER_TEAM 6u

// One round of the scouts (ROW_TEAM along the tile row, COL_SCOUT_TEAM up the tile column).
// RGBA16F calls scout() once for both teams, RGBA8 once each: NVIDIA's compiler gave the H200's
// RGBA16F one pass 0.0890 ms at 1080p with two calls (the help inlined three times in all) and
// 0.0636 with one, against 0.0624 before the fallback; RGBA8 0.0367 with two and 0.0372 with one,
// against 0.0363 (single-build medians, one call, glsatbench).
void scouts(int tile, int tiles_x, int bx, int by, bool force) {
#ifdef PIXELS_RGBA16F
  if (TEAM == ROW_TEAM || TEAM == COL_SCOUT_TEAM) {
    const bool row = TEAM == ROW_TEAM;
    scout(row ? 0 : 1, tile, row ? 1 : tiles_x, row ? bx : by, row ? FLAG_ROW : FLAG_COL, tiles_x,
          force);
  }
#else
  if (TEAM == ROW_TEAM) scout(0, tile, 1, bx, FLAG_ROW, tiles_x, force);
  if (TEAM == COL_SCOUT_TEAM) scout(1, tile, tiles_x, by, FLAG_COL, tiles_x, force);
#endif
}

// One round of the corner: s_corner, if no tile was asked for. Every invocation calls it.
void corner(int tiles_x, int bx, int by, bool force) {
  uvec3 part = uvec3(0u);
  if (TEAM == CORNER_TEAM && by > 0) corner_part(tiles_x, bx, by, force, part);
#ifdef FUSED_SUBGROUP
  if (TEAM == CORNER_TEAM) {
    part = team_sum(part);
    if (LANE == 0u) s_corner = part;
  }
#else
  const uvec3 sum = team_sum(part);
  if (gl_LocalInvocationIndex == CORNER_TEAM * 32u) s_corner = sum;
#endif
}

// Row r of the 4 teams from `first` on through shared memory, so each store instruction writes
// 32 consecutive 16-byte words; every team then stores half of one staged row (64 columns). Each
// lane storing its 4 words directly took the H100's 1080p build 0.0579 ms against 0.0379
// (results/sat/README.md).
void stage_half(uvec3 v[4], int r, int y0, int bx, uint first) {
  const uint lane = LANE, team = TEAM;
  if (team - first < 4u)
    for (int i = 0; i < 4; ++i) {
      const uint k = lane * 4u + uint(i);
      s_words[stage_index(0u, team - first, k)] = v[i].x;
      s_words[stage_index(1u, team - first, k)] = v[i].y;
      s_words[stage_index(2u, team - first, k)] = v[i].z;
    }
  barrier();
  const uint j = team % 4u;
  const int y = y0 + int(first + j) * ROWS_PER_TEAM + r;
  if (y < u_height)
    for (int h = 0; h < 2; ++h) {
      const uint k = lane + 32u * uint(h) + 64u * (team / 4u);
      const int x = bx * TILE_W + int(k);
      if (x < u_width)
        table[y * u_width + x] = out_word(uvec3(s_words[stage_index(0u, j, k)],
                                                s_words[stage_index(1u, j, k)],
                                                s_words[stage_index(2u, j, k)]));
    }
  barrier();
}

// Row r of this team: acc (the row's offsets, then the rows above in the team) plus row r's
// inclusive sums plus left(y). Rows by constant index (see sat_fused_store.glsl: NVIDIA's compiler
// indexed a rolled row loop's arrays in local memory).
void store_row_of(inout uvec3 acc[4], PX px[4], int r, int y0, int bx) {
  PAIRS wr[4];
  // The row's scan waits for a load after the last barrier: without it NVIDIA's compiler scanned
  // all 4 rows up front, and their 32 live words left an SM 2 workgroups, not 4 (H100 1080p 0.0472
  // against 0.0379 ms, results/sat/README.md).
  const uint z = s_zero;
  row_scan(PX[4](px[0] ^ z, px[1] ^ z, px[2] ^ z, px[3] ^ z), wr);
  const int yl = int(TEAM) * ROWS_PER_TEAM + r;
  uvec3 v[4];
  for (int i = 0; i < 4; ++i) {
    acc[i] += rgb_of_pairs(wr[i]);
    v[i] = acc[i] + s_left[yl];
  }
  stage_half(v, r, y0, bx, 0u);
  stage_half(v, r, y0, bx, 4u);
}

#ifdef PIXELS_RGBA16F
// Row r of the team: its pixels summed into the columns' sums and across the team into the tile's
// row sum (each pixel quantized here, its clamp counted).
void sum_team_row(PX px[4], int r, inout PAIRS col[4]) {
  PAIRS row = PAIRS(0u);
  for (int i = 0; i < 4; ++i) {
    const PAIRS v = pairs_counted(px[i]);
    col[i] += v;
    row += v;
  }
  row = team_sum2(row);
  if (LANE == 0u) s_row_agg[TEAM * ROWS_PER_TEAM + uint(r)] = row;
}
#endif


void main() {
  const uint lane = LANE, team = TEAM, t = gl_LocalInvocationIndex;
  if (t == 0u) {
    s_tile = atomicAdd(flags[0], 1u) - u_id_base;
    s_first[0] = s_first[1] = 0xFFFFFFFFu;
    s_zero = 0u;
#ifndef FUSED_SUBGROUP
    s_requests = 0u;
#endif
  }
  barrier();
  const int tiles_x = int(gl_NumWorkGroups.x);
  const int tile = int(s_tile), bx = tile % tiles_x, by = tile / tiles_x;
  const int x0 = bx * TILE_W + int(lane) * 4;
  const int y0 = by * TILE_H;
  PX px[ROWS_PER_TEAM][4];
  load_block(x0, y0 + int(team) * ROWS_PER_TEAM, px);

  // The team's column sums (4 rows: up to 1020) and row sums, as channel pairs.
  {
    PAIRS col[4] = PAIRS[4](PAIRS(0u), PAIRS(0u), PAIRS(0u), PAIRS(0u));
#ifdef PIXELS_RGBA16F
    // By constant index: NVIDIA's compiler left the row loop rolled for RGBA16F and kept the
    // pixels in local memory through the whole build (the program binary's lmem0).
    sum_team_row(px[0], 0, col);
    sum_team_row(px[1], 1, col);
    sum_team_row(px[2], 2, col);
    sum_team_row(px[3], 3, col);
#else
    for (int r = 0; r < ROWS_PER_TEAM; ++r) {
      PAIRS row = PAIRS(0u);
      for (int i = 0; i < 4; ++i) {
        const PAIRS v = pairs_counted(px[r][i]);
        col[i] += v;
        row += v;
      }
      row = team_sum2(row);
      if (lane == 0u) s_row_agg[team * ROWS_PER_TEAM + uint(r)] = row;
    }
#endif
    FLUSH_CLAMPS();
    for (int i = 0; i < 4; ++i) col_put(team, lane * 4u + uint(i), col[i]);
  }
  barrier();

  // Aggregates. Column t: its sums made exclusive down the teams (what lies above each team in
  // the tile, up to 28 rows), their total its aggregate. The tile: its rows' sums added up.
  uvec3 row_agg = uvec3(0u), col_agg = uvec3(0u);
  if (t < uint(TILE_W)) {
    PAIRS run = PAIRS(0u);
    for (int w = 0; w < TEAMS; ++w) {
      const PAIRS c = col_get(uint(w), t);
      col_put(uint(w), t, run);
      run += c;
    }
    col_agg = rgb_of_pairs(run);
    cols[(tile * TILE_W + int(t)) * 2] = uvec4(col_agg, 0u);
  } else if (team == ROW_TEAM) {
    row_agg = rgb_of_pairs(s_row_agg[lane]);
    rows[(tile * TILE_H + int(lane)) * 2] = uvec4(row_agg, 0u);
  } else if (team == COL_SCOUT_TEAM && lane == 0u) {
    uvec3 sum = uvec3(0u);
    for (int y = 0; y < TILE_H; ++y) sum += rgb_of_pairs(s_row_agg[y]);
    tsum[tile * 2] = uvec4(sum, 0u);
    s_tile_agg = sum;
  }
  memoryBarrierBuffer();
  barrier();
  if (t == 0u) {
    set_flag(tile, FLAG_ROW, ST_AGG);
    set_flag(tile, FLAG_COL, ST_AGG);
  }

  // The look-back in rounds: the scouts poll, the tiles that published nothing in time are
  // helped, and the scouts look again (what they found stays found: flags only grow).
  scouts(tile, tiles_x, bx, by, u_polls == 0u);
  barrier();
#ifndef FUSED_SUBGROUP
  while (help_requested(tiles_x)) {
    scouts(tile, tiles_x, bx, by, false);
    barrier();
  }
#endif
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
  // Column t's top scanned across the tile (teams 0-3), row y's left down it (team 4).
  const uvec3 top = scan_top_left(above, left, ROW_TEAM);
  // corner: the column-inclusive tile sums of the tiles left of this one in the tile row above
  // (inclusive sums, which never wait on a corner), in rounds as the scouts' look-back; the
  // round's barrier also publishes scan_top_left's shared sums.
  corner(tiles_x, bx, by, u_polls == 0u);
  barrier();
#ifndef FUSED_SUBGROUP
  while (help_requested(tiles_x)) {
    corner(tiles_x, bx, by, false);
    barrier();
  }
#endif
  if (t < uint(TILE_W)) {
    const uvec3 start = column_start(s_corner, top);
    const uint k = PAD32(t);
    s_start[0][k] = start.x;
    s_start[1][k] = start.y;
    s_start[2][k] = start.z;
  }
  // What lies above this team in the tile, summed along the row (the column sums' exclusive
  // scan down the tile, scanned across it): the lane's 4 columns, then the team.
  uvec3 acc[4];
  for (int i = 0; i < 4; ++i) {
    acc[i] = rgb_of_pairs(col_get(team, lane * 4u + uint(i)));
    if (i > 0) acc[i] += acc[i - 1];
  }
  {
    const uvec3 ex = team_inclusive(acc[3]) - acc[3];
    for (int i = 0; i < 4; ++i) acc[i] += ex;
  }
  barrier();  // s_start complete; the column sums read (the staging reuses their words)
  for (int i = 0; i < 4; ++i) {
    const uint k = PAD32(lane * 4u + uint(i));
    acc[i] += uvec3(s_start[0][k], s_start[1][k], s_start[2][k]);
  }
  store_row_of(acc, px[0], 0, y0, bx);
  store_row_of(acc, px[1], 1, y0, bx);
  store_row_of(acc, px[2], 2, y0, bx);
  store_row_of(acc, px[3], 3, y0, bx);
}
