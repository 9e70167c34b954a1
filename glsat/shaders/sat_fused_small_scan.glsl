// The fused SAT's small scans of rt and ct (sat_fused_aux.comp #includes it); the includer
// defines S_PART_GET(i), S_PART_PUT(i, v) (i < 256) and S_CARRY_GET(i), S_CARRY_PUT(i, v)
// (i < 256 / G), shared uvec3 slots, before using SEGMENTED_SCAN.
// A sequence (an image row's rt, an image column's ct) is split among G invocations, each loading
// K consecutive elements at once, so a round of G * K elements costs one L2 round trip (1080p: the
// 34 tile rows of ct in one round). Invocation t takes sequence t % (256 / G) of the workgroup
// (adjacent invocations, adjacent columns or rows: coalesced) and part t / (256 / G). One
// invocation per sequence walking it in chunks of 8 (5 dependent round trips for ct at 1080p)
// took the H100's 1080p build 0.0508 ms against 0.0499, but 512x512 0.0246 against 0.0256.
#define AUX_RT_G 4
#define AUX_RT_K 4
#define AUX_CT_G 8
#define AUX_CT_K 8
#define AUX_K_MAX 8
#if SAT_AUX_ROWS_PER_GROUP != 256 / AUX_RT_G || SAT_AUX_COLS_PER_GROUP != 256 / AUX_CT_G
#error "shared.h's SAT_AUX_*_PER_GROUP must match the split here"
#endif
#if AUX_RT_K > AUX_K_MAX || AUX_CT_K > AUX_K_MAX
#error "a part's elements are held in v[AUX_K_MAX]"
#endif
// Exclusive scan in place of buf[s + k * stride], k < n, for the workgroup's sequences
// s = first + t % (256 / G) (those below `limit`). A macro: GLSL cannot pass a buffer to a
// function. Every invocation runs the same rounds (the barriers), loading only what exists.
#define SEGMENTED_SCAN(buf, first, limit, stride, n, G, K)                                         \
  {                                                                                                \
    const int per = 256 / (G), t = int(gl_LocalInvocationIndex);                                   \
    const int sl = t % per, part = t / per, s = (first) + sl;                                      \
    const bool live = s < (limit);                                                                 \
    if (part == 0) S_CARRY_PUT(sl, uvec3(0u));                                                     \
    for (int k0 = 0; k0 < (n); k0 += (G) * (K)) {                                                  \
      const int kb = k0 + part * (K);                                                              \
      uvec3 v[AUX_K_MAX];                                                                          \
      uvec3 sum = uvec3(0u);                                                                       \
      for (int i = 0; i < (K); ++i) {                                                              \
        v[i] = live && kb + i < (n) ? buf[s + (kb + i) * (stride)].xyz : uvec3(0u);                \
        sum += v[i];                                                                               \
      }                                                                                            \
      S_PART_PUT(t, sum);                                                                          \
      barrier();                                                                                   \
      uvec3 run = S_CARRY_GET(sl);                                                                 \
      for (int p = 0; p < part; ++p) run += S_PART_GET(p * per + sl);                              \
      for (int i = 0; i < (K); ++i)                                                                \
        if (live && kb + i < (n)) {                                                                \
          buf[s + (kb + i) * (stride)] = uvec4(run, 0u);                                           \
          run += v[i];                                                                             \
        }                                                                                          \
      barrier();                                                                                   \
      if (part == (G) - 1) S_CARRY_PUT(sl, run);                                                   \
      barrier();                                                                                   \
    }                                                                                              \
  }
