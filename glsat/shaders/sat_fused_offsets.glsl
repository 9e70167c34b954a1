// What a fused tile scan adds from outside its tile, shared by sat_fused_scan.comp and
// sat_fused_single.comp (which #include it after sat_fused_common.glsl):
// top(x), the column sums above the tile scanned across its columns, and left(y), the row sums
// left of it scanned down its rows.
shared uvec3 s_left[TILE_H];            // left(y), inclusive down the tile
shared uvec3 s_top_total[TILE_W / 32];  // the totals of top's 32-column groups

// Every invocation calls it. above: column t's sum above the tile (invocations t < TILE_W, teams
// 0-3); left: row `lane`'s sum left of it (team left_team). Returns invocation t's top, inclusive
// within its group of 32 columns; fills s_top_total and s_left, which a barrier must then
// publish (column_start reads the first).
uvec3 scan_top_left(uvec3 above, uvec3 left, uint left_team) {
  const uint lane = LANE, team = TEAM;
  uvec3 top = uvec3(0u);
#ifdef FUSED_SUBGROUP
  if (team < 4u) {
    top = team_inclusive(above);
    if (lane == 31u) s_top_total[team] = top;
  }
  if (team == left_team) s_left[lane] = team_inclusive(left);
#else
  // The shared-memory scans need every invocation of the workgroup.
  top = team_inclusive(above);
  if (team < 4u && lane == 31u) s_top_total[team] = top;
  const uvec3 l_incl = team_inclusive(left);
  if (team == left_team) s_left[lane] = l_incl;
#endif
  return top;
}

// Column t's start (invocations t < TILE_W, after the barrier that follows scan_top_left): the
// corner plus top over every column of the tile up to t.
uvec3 column_start(uvec3 corner, uvec3 top) {
  uvec3 start = corner + top;
  for (uint g = 0u; g < gl_LocalInvocationIndex / 32u; ++g) start += s_top_total[g];
  return start;
}
