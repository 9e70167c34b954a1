// The end of a fused tile (sat_fused_scan.comp, sat_fused_single.comp, after their declarations
// of `table`, s_left and s_bottom): each pixel's value is its local 2D scan v plus base (corner,
// top and the rows of the teams above) plus its row's left sum; R, G, B, 0 as one 16-byte word.
uvec4 out_word(uvec3 v) {
#ifdef SAT_F32
  return uvec4(floatBitsToUint(vec3(v)), 0u);
#else
  return uvec4(v, 0u);
#endif
}

// Every invocation of the workgroup calls it (the staged stores have barriers).
void store_tile(uvec3 v[ROWS_PER_TEAM][4], uvec3 base[4], int x0, int y0, int bx) {
  const uint lane = LANE, team = TEAM;
#ifdef FUSED_STAGED_STORES
  // The results leave through shared memory, a team row at a time, so each store instruction
  // writes 32 consecutive 16-byte words (512 B) rather than 16 B at a 64 B stride (twice the
  // L2 write transactions). s_bottom is free again once every team has its base.
  barrier();
  for (int r = 0; r < ROWS_PER_TEAM; ++r) {
    const int yl = int(team) * ROWS_PER_TEAM + r, y = y0 + yl;
    const uvec3 l = s_left[yl];
    for (int i = 0; i < 4; ++i) s_bottom[team][lane * 4u + uint(i)] = v[r][i] + base[i] + l;
    TEAM_BARRIER();
    if (y < u_height) {
      for (int k = 0; k < 4; ++k) {
        const int xl = int(lane) + 32 * k, x = bx * TILE_W + xl;
        if (x < u_width) table[y * u_width + x] = out_word(s_bottom[team][xl]);
      }
    }
    TEAM_BARRIER();
  }
#else
  // Direct stores: a lane's 4 words are contiguous, so one store instruction covers 2 KB at
  // 16 B per 64 B (the default; glsatbench compares the staged stores as fused-staged).
  if (x0 >= u_width) return;  // after the last barrier
  for (int r = 0; r < ROWS_PER_TEAM; ++r) {
    const int yl = int(team) * ROWS_PER_TEAM + r, y = y0 + yl;
    if (y >= u_height) break;
    const uvec3 l = s_left[yl];
    const int row = y * u_width;
    for (int i = 0; i < 4; ++i)
      if (x0 + i < u_width) table[row + x0 + i] = out_word(v[r][i] + base[i] + l);
  }
#endif
}
