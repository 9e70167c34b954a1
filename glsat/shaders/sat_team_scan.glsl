// The 32-lane team scan in shared memory that stands in for subgroupInclusiveAdd where the teams
// are not subgroups of 32: sat_block_scan.glsl's SCAN_SUBGROUP without HAVE_SUBGROUP (sums of
// its T3) and sat_fused_common.glsl without FUSED_SUBGROUP (uvec3 sums) each expand it once. The
// shader loader expands #include one level deep, so the shaders that include either of those
// #include this file before it. A macro: GLSL has no generic functions.
// TEAM_SCAN_IN_SHARED(TYPE, ZERO) declares shared TYPE s_lane[WG] and TYPE team_inclusive(TYPE v):
// Hillis-Steele over each 32-lane slice of the workgroup, 5 steps of 2 barriers each, so every
// thread of the workgroup must call it. After its last barrier s_lane holds each lane's inclusive
// sum (what team_exclusive and team_sum read).
#define TEAM_SCAN_IN_SHARED(TYPE, ZERO)                          \
  shared TYPE s_lane[WG];                                        \
  TYPE team_inclusive(TYPE v) {                                  \
    const uint i = gl_LocalInvocationIndex, lane = i & 31u;      \
    s_lane[i] = v;                                               \
    barrier();                                                   \
    for (uint d = 1u; d < 32u; d <<= 1) {                        \
      const TYPE o = lane >= d ? s_lane[i - d] : ZERO;           \
      barrier();                                                 \
      v += o;                                                    \
      s_lane[i] = v;                                             \
      barrier();                                                 \
    }                                                            \
    return v;                                                    \
  }
