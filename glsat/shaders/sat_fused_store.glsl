// The end of a fused tile scan (sat_fused_scan.comp, sat_fused_phased.comp, after their
// declaration of `table` and their #includes of sat_fused_offsets.glsl and s_bottom or
// sat_fused_planes.glsl): each pixel's value is its
// local 2D scan v plus base (corner, top and the rows of the teams above) plus its row's left sum;
// R, G, B, 0 as one 16-byte word (out_word).
#ifndef TRACE_MARK
#define TRACE_MARK(k)  // sat_fused_phased.comp's PHASE_TRACE marks
#endif
// Team w's slot for tile column k (k < TILE_W) in s_bottom, the bottom rows' and the staged
// stores' array; an includer that lays it out otherwise (sat_fused_planes.glsl: planes of uint)
// defines FUSED_BOTTOM_PLANES and these two itself.
#ifndef FUSED_BOTTOM_PLANES
uvec3 bottom_get(uint w, uint k) {
  return s_bottom[w][PAD16(k)];
}
void bottom_put(uint w, uint k, uvec3 v) {
  s_bottom[w][PAD16(k)] = v;
}
#endif

// s_bottom[w][x], team w's bottom row (its 4 rows summed down each column), replaced by `start`
// plus the sum of the bottom rows of the teams above w: one invocation per column (t < TILE_W
// passes its column's start), then a barrier. Every invocation calls it once s_bottom is
// complete. Each team summing the teams above it itself took team 7 through 28 dependent shared
// loads at a 64-byte stride (H100, 1080p: 0.0591 -> 0.0563 ms).
void bottoms_to_exclusive(uvec3 start) {
  const uint t = gl_LocalInvocationIndex;
  if (t < uint(TILE_W)) {
    uvec3 run = start;
    for (int w = 0; w < TEAMS; ++w) {
      const uvec3 b = bottom_get(uint(w), t);
      bottom_put(uint(w), t, run);
      run += b;
    }
  }
  barrier();
}

#if ROWS_PER_TEAM != 4
#error store_tile passes its rows one by one: ROWS_PER_TEAM must be 4
#endif

// The rows are handed to store_row / stage_row one by one, by constant index, so v stays in
// registers: NVIDIA's compiler left a row loop with a break (or a barrier) rolled and indexed v in
// local memory, 512 bytes per invocation through L1 (seen in the program binary's assembly,
// glsatbench --dump-programs).
#ifdef FUSED_STAGED_STORES
#define STAGE_PUT(k, v) bottom_put(team, k, v)
#define STAGE_GET(k) out_word(bottom_get(team, uint(k)))
// One row of a team's 4 through shared memory, so each store instruction writes 32 consecutive
// 16-byte words (512 B) rather than 16 B at a 64 B stride. The barriers are the workgroup's:
// subgroupBarrier() became a device-wide MEMBAR on NVIDIA, which waits for the stores in flight.
void stage_row(uvec3 vr[4], uvec3 base[4], int r, int y0, int bx) {
  const uint lane = LANE, team = TEAM;
  const int yl = int(team) * ROWS_PER_TEAM + r, y = y0 + yl;
  const uvec3 l = s_left[yl];
  for (int i = 0; i < 4; ++i) STAGE_PUT(lane * 4u + uint(i), vr[i] + base[i] + l);
  barrier();
  if (y < u_height) {
    const int row = y * u_width;
    for (int k = 0; k < 4; ++k) {
      const int xl = int(lane) + 32 * k, x = bx * TILE_W + xl;
      if (x < u_width) table[row + x] = STAGE_GET(xl);
    }
  }
  barrier();
}
#else
// Direct stores: a lane's 4 words are contiguous, so one store instruction covers 2 KB at 16 B
// per 64 B.
void store_row(uvec3 vr[4], uvec3 base[4], int r, int x0, int y0) {
  const int yl = int(TEAM) * ROWS_PER_TEAM + r, y = y0 + yl;
  if (y >= u_height) return;
  const uvec3 l = s_left[yl];
  const int row = y * u_width;
  for (int i = 0; i < 4; ++i)
    if (x0 + i < u_width) table[row + x0 + i] = out_word(vr[i] + base[i] + l);
}
#endif

// Every invocation of the workgroup calls it (the staged stores have barriers).
void store_tile(uvec3 v[ROWS_PER_TEAM][4], uvec3 base[4], int x0, int y0, int bx) {
#ifdef FUSED_STAGED_STORES
  barrier();  // s_bottom is free again once every team has its base
  stage_row(v[0], base, 0, y0, bx);
  stage_row(v[1], base, 1, y0, bx);
  stage_row(v[2], base, 2, y0, bx);
  stage_row(v[3], base, 3, y0, bx);
#else
  if (x0 >= u_width) return;  // after the last barrier
  store_row(v[0], base, 0, x0, y0);
  store_row(v[1], base, 1, x0, y0);
  store_row(v[2], base, 2, x0, y0);
  store_row(v[3], base, 3, x0, y0);
#endif
}

// The same from each row's inclusive row sums within the tile as channel pairs (w: 2 words a
// pixel where v holds 3, summed down the team's rows here rather than before): 16 fewer words per
// invocation live from the row scans to the stores.
void add_row(inout uvec3 acc[4], uvec2 wr[4]) {
  for (int i = 0; i < 4; ++i) acc[i] += rgb_of_pairs(wr[i]);
}
void store_tile_pairs(uvec2 w[ROWS_PER_TEAM][4], uvec3 base[4], int x0, int y0, int bx) {
  const uvec3 none[4] = uvec3[4](uvec3(0u), uvec3(0u), uvec3(0u), uvec3(0u));
  uvec3 acc[4] = base;
#ifdef FUSED_STAGED_STORES
  barrier();  // s_bottom is free again once every team has its base
  add_row(acc, w[0]);
  stage_row(acc, none, 0, y0, bx);
  TRACE_MARK(6);
  add_row(acc, w[1]);
  stage_row(acc, none, 1, y0, bx);
  add_row(acc, w[2]);
  stage_row(acc, none, 2, y0, bx);
  TRACE_MARK(7);
  add_row(acc, w[3]);
  stage_row(acc, none, 3, y0, bx);
#else
  if (x0 >= u_width) return;  // after the last barrier
  add_row(acc, w[0]);
  store_row(acc, none, 0, x0, y0);
  add_row(acc, w[1]);
  store_row(acc, none, 1, x0, y0);
  add_row(acc, w[2]);
  store_row(acc, none, 2, x0, y0);
  add_row(acc, w[3]);
  store_row(acc, none, 3, x0, y0);
#endif
}
