// The end of a fused tile scan (sat_fused_scan.comp, after its declaration of `table` and its
// #includes of sat_fused_offsets.glsl and sat_fused_planes.glsl, whose bottom_get / bottom_put
// slots hold the bottom rows and then the staged stores): each pixel's value is its local 2D scan
// plus base (corner, top and the rows of the teams above) plus its row's left sum; R, G, B, 0 as
// one 16-byte word (out_word), stored through shared memory.

// Slot (w, x), team w's bottom row (its 4 rows summed down each column), replaced by `start`
// plus the sum of the bottom rows of the teams above w: one invocation per column (t < TILE_W
// passes its column's start), then a barrier. Every invocation calls it once the slots are
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
#error store_tile_pairs passes its rows one by one: ROWS_PER_TEAM must be 4
#endif

// The rows are handed to stage_row one by one, by constant index, so they stay in registers:
// NVIDIA's compiler left a row loop with a break (or a barrier) rolled and indexed the rows in
// local memory, 512 bytes per invocation through L1 (seen in the driver's program binary,
// glGetProgramBinary).
//
// One row of a team's 4 through shared memory, so each store instruction writes 32 consecutive
// 16-byte words (512 B) rather than 16 B at a 64 B stride: each lane storing its 4 words directly
// took the H100's 1080p build 0.0608 ms against 0.0506 staged (results/sat/README.md). The
// barriers are the workgroup's: subgroupBarrier() became a device-wide MEMBAR on NVIDIA, which
// waits for the stores in flight.
void stage_row(uvec3 vr[4], int r, int y0, int bx) {
  const uint lane = LANE, team = TEAM;
  const int yl = int(team) * ROWS_PER_TEAM + r, y = y0 + yl;
  const uvec3 l = s_left[yl];
  for (int i = 0; i < 4; ++i) bottom_put(team, lane * 4u + uint(i), vr[i] + l);
  barrier();
  if (y < u_height) {
    const int row = y * u_width;
    for (int k = 0; k < 4; ++k) {
      const int xl = int(lane) + 32 * k, x = bx * TILE_W + xl;
      if (x < u_width) table[row + x] = out_word(bottom_get(team, uint(xl)));
    }
  }
  barrier();
}

// The tile's rows from each row's inclusive row sums within the tile as channel pairs (w: 2 words
// a pixel where uvec3 holds 3, summed down the team's rows here rather than before): 16 fewer
// words per invocation live from the row scans to the stores. Every invocation of the workgroup
// calls it (the stores have barriers).
void add_row(inout uvec3 acc[4], PAIRS wr[4]) {
  for (int i = 0; i < 4; ++i) acc[i] += rgb_of_pairs(wr[i]);
}
void store_tile_pairs(PAIRS w[ROWS_PER_TEAM][4], uvec3 base[4], int y0, int bx) {
  uvec3 acc[4] = base;
  barrier();  // the slots are free again once every team has its base
  add_row(acc, w[0]);
  stage_row(acc, 0, y0, bx);
  add_row(acc, w[1]);
  stage_row(acc, 1, y0, bx);
  add_row(acc, w[2]);
  stage_row(acc, 2, y0, bx);
  add_row(acc, w[3]);
  stage_row(acc, 3, y0, bx);
}
