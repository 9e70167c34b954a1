// Block-level inclusive scans of BLOCK = 2 * WG elements of 3 channels (GPU Gems 3 ch. 39.2), the
// paper's variants as compute-shader code. Included by sat_lines.comp (#include, expanded by the
// shader loader, glsat/src/util.cpp) before its layout line, after sat_team_scan.glsl. Chosen by
// injected defines:
//   SAT_F32                      float sums (else uint32, exact modulo 2^32)
//   SCAN_NAIVE | SCAN_BLELLOCH | SCAN_CONFLICT_FREE | SCAN_SUBGROUP
//   HAVE_SUBGROUP                SCAN_SUBGROUP uses GL_KHR_shader_subgroup_arithmetic; without it
//                                the same algorithm runs on 32-lane teams emulated in shared memory
//   SCAN_NO_SUBTRACT             SCAN_SUBGROUP takes each pair's exclusive sum from an exclusive
//                                team scan instead of inclusive - (a + b): float sums of radiance
//                                (RGBA16F into float tables) would otherwise lose the low bits of
//                                small sums next to large pixels (an error of an ulp of the
//                                largest pixel, not of the sum). Integer sums are exact either way,
//                                so the RGBA8 programs keep the subtraction.
// Callers put() the block's elements (logical indices 0..BLOCK-1), call block_scan() from uniform
// control flow (it starts with a barrier), then get() the inclusive results.
#define WG 256
#define BLOCK (2 * WG)

#ifdef SAT_F32
#define T float
#define T3 vec3
#define T3_ZERO vec3(0.0)
#define T3_FROM_BITS(u) uintBitsToFloat(u)
#define T3_TO_BITS(v) floatBitsToUint(v)
#define T3_FROM_U(u) vec3(u)
#else
#define T uint
#define T3 uvec3
#define T3_ZERO uvec3(0u)
#define T3_FROM_BITS(u) (u)
#define T3_TO_BITS(v) (v)
#define T3_FROM_U(u) (u)
#endif

#ifdef SCAN_CONFLICT_FREE
// One padding word per 32 (the bank count of every current GPU): the tree's strided accesses then
// fall into distinct banks. Costs BLOCK / 32 words of shared memory per channel.
#define IDX(i) ((i) + ((i) >> 5))
#define SH_SIZE (BLOCK + BLOCK / 32)
#else
#define IDX(i) (i)
#define SH_SIZE BLOCK
#endif

#ifdef SCAN_NAIVE
// Double-buffered: each of the log2(BLOCK) steps reads one buffer and writes the other, so a
// step needs one barrier and no read-after-write hazard within it.
shared T s_buf[2][3][SH_SIZE];
#else
shared T s_buf[1][3][SH_SIZE];
#endif

void put(uint i, T3 v) {
  s_buf[0][0][IDX(i)] = v.x;
  s_buf[0][1][IDX(i)] = v.y;
  s_buf[0][2][IDX(i)] = v.z;
}
T3 get(uint i) {
  return T3(s_buf[0][0][IDX(i)], s_buf[0][1][IDX(i)], s_buf[0][2][IDX(i)]);
}

#if defined(SCAN_NAIVE)

T3 get_b(uint b, uint i) {
  return T3(s_buf[b][0][i], s_buf[b][1][i], s_buf[b][2][i]);
}
void put_b(uint b, uint i, T3 v) {
  s_buf[b][0][i] = v.x;
  s_buf[b][1][i] = v.y;
  s_buf[b][2][i] = v.z;
}

void block_scan() {
  const uint t = gl_LocalInvocationIndex;
  uint pin = 0u;
  barrier();
  for (uint d = 1u; d < uint(BLOCK); d <<= 1) {
    for (uint k = 0u; k < 2u; ++k) {
      const uint i = t + k * uint(WG);
      T3 v = get_b(pin, i);
      if (i >= d) v += get_b(pin, i - d);
      put_b(1u - pin, i, v);
    }
    pin = 1u - pin;
    barrier();
  }
  // log2(BLOCK) is odd: the result is in buffer 1; get() reads buffer 0.
  if (pin != 0u) {
    for (uint k = 0u; k < 2u; ++k) put_b(0u, t + k * uint(WG), get_b(pin, t + k * uint(WG)));
    barrier();
  }
}

#elif defined(SCAN_BLELLOCH) || defined(SCAN_CONFLICT_FREE)

void block_scan() {
  const uint t = gl_LocalInvocationIndex;
  barrier();
  // The originals of this thread's two elements, to turn the exclusive result inclusive.
  const T3 a = get(t), b = get(t + uint(WG));
  barrier();  // read before the up-sweep's first level overwrites odd indices
  uint offset = 1u;
  for (uint d = uint(BLOCK) >> 1; d > 0u; d >>= 1) {  // up-sweep (reduce)
    if (t < d) {
      const uint ai = offset * (2u * t + 1u) - 1u;
      const uint bi = offset * (2u * t + 2u) - 1u;
      for (int c = 0; c < 3; ++c) s_buf[0][c][IDX(bi)] += s_buf[0][c][IDX(ai)];
    }
    offset <<= 1;
    barrier();
  }
  if (t == 0u) put(uint(BLOCK) - 1u, T3_ZERO);
  barrier();
  for (uint d = 1u; d < uint(BLOCK); d <<= 1) {  // down-sweep
    offset >>= 1;
    if (t < d) {
      const uint ai = offset * (2u * t + 1u) - 1u;
      const uint bi = offset * (2u * t + 2u) - 1u;
      for (int c = 0; c < 3; ++c) {
        const T x = s_buf[0][c][IDX(ai)];
        s_buf[0][c][IDX(ai)] = s_buf[0][c][IDX(bi)];
        s_buf[0][c][IDX(bi)] += x;
      }
    }
    barrier();
  }
  put(t, get(t) + a);
  put(t + uint(WG), get(t + uint(WG)) + b);
  barrier();
}

#elif defined(SCAN_SUBGROUP)

// Each thread owns the consecutive pair 2t, 2t+1: a serial add, a subgroup (team) scan of the
// pair sums, then the teams' totals scanned once and added back.
#ifdef HAVE_SUBGROUP
shared T3 s_team[WG];  // one total per subgroup (at most WG of them)
#define TEAM_ID gl_SubgroupID
// Not gl_NumSubgroups: NVIDIA defines it through gl_WorkGroupSize, so it fails to compile
// wherever the layout(local_size_x) line comes later; the team count from WG is the same number.
#define NUM_TEAMS ((uint(WG) + gl_SubgroupSize - 1u) / gl_SubgroupSize)
T3 team_inclusive(T3 v) {
  return subgroupInclusiveAdd(v);
}
T3 team_exclusive(T3 v) {
  return subgroupExclusiveAdd(v);
}
bool team_last() {
  return gl_SubgroupInvocationID == gl_SubgroupSize - 1u;
}
#else
shared T3 s_team[WG];
// s_lane and team_inclusive: 32-lane Hillis-Steele in shared memory (sat_team_scan.glsl),
// standing in for the subgroup scan where the context lacks KHR_shader_subgroup.
TEAM_SCAN_IN_SHARED(T3, T3_ZERO)
#define TEAM_ID (gl_LocalInvocationIndex >> 5)
#define NUM_TEAMS (uint(WG) / 32u)
// The lane to the left's inclusive sum: s_lane holds them after team_inclusive's last barrier,
// and the next write to s_lane follows block_scan's first barrier.
T3 team_exclusive(T3 v) {
  team_inclusive(v);
  const uint i = gl_LocalInvocationIndex;
  return (i & 31u) != 0u ? s_lane[i - 1u] : T3_ZERO;
}
bool team_last() {
  return (gl_LocalInvocationIndex & 31u) == 31u;
}
#endif

void block_scan() {
  const uint t = gl_LocalInvocationIndex;
  barrier();
  const T3 a = get(2u * t), b = get(2u * t + 1u);
#ifdef SCAN_NO_SUBTRACT
  const T3 ex_team = team_exclusive(a + b);
  const T3 incl = ex_team + (a + b);
#else
  const T3 incl = team_inclusive(a + b);
#endif
  if (team_last()) s_team[TEAM_ID] = incl;
  barrier();
  if (t == 0u) {  // a handful of teams (8 of 32 lanes): serial is cheapest
    T3 run = T3_ZERO;
    for (uint k = 0u; k < NUM_TEAMS; ++k) {
      const T3 x = s_team[k];
      s_team[k] = run;
      run += x;
    }
  }
  barrier();
#ifdef SCAN_NO_SUBTRACT
  const T3 ex = s_team[TEAM_ID] + ex_team;
#else
  const T3 ex = s_team[TEAM_ID] + (incl - (a + b));
#endif
  put(2u * t, ex + a);
  put(2u * t + 1u, ex + a + b);
  barrier();
}

#else
#error "one of SCAN_NAIVE, SCAN_BLELLOCH, SCAN_CONFLICT_FREE, SCAN_SUBGROUP must be defined"
#endif
