#version 430
// Fused SAT, pass 2 of 3: the small scans, all exclusive and in place. Workgroups
//   [0, nb_rows)                    rt across tile columns, AUX_RT_G invocations per image row
//   [nb_rows, nb_rows + nb_cols)    ct across tile rows, AUX_CT_G invocations per image column
//   the last one                    st, 2D: down the tile rows, then across
// About 1 MB at 1080p.
layout(local_size_x = 256) in;
layout(std430, binding = 1) buffer Rt {
  uvec4 rt[];
};
layout(std430, binding = 2) buffer Ct {
  uvec4 ct[];
};
layout(std430, binding = 3) coherent buffer St {
  uvec4 st[];
};
layout(location = 0) uniform int u_width;
layout(location = 1) uniform int u_height;
layout(location = 2) uniform int u_tiles_x;
layout(location = 3) uniform int u_tiles_y;
layout(location = 4) uniform int u_nb_rows;
layout(location = 5) uniform int u_nb_cols;

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
#define AUX_SHARED_TILES 2048
// One array for every branch (a workgroup takes one; GL promises only 32 KB): the tile-sum grid,
// or a sequence scan's per-invocation partial sums and per-sequence carries.
shared uvec3 s_st[AUX_SHARED_TILES];
#define S_PART(i) s_st[i]
#define S_CARRY(i) s_st[256 + (i)]
// Exclusive scan in place of buf[s + k * stride], k < n, for the workgroup's sequences
// s = first + t % (256 / G) (those below `limit`). A macro: GLSL cannot pass a buffer to a
// function. Every invocation runs the same rounds (the barriers), loading only what exists.
#define SEGMENTED_SCAN(buf, first, limit, stride, n, G, K)                                         \
  {                                                                                                \
    const int per = 256 / (G), t = int(gl_LocalInvocationIndex);                                   \
    const int sl = t % per, part = t / per, s = (first) + sl;                                      \
    const bool live = s < (limit);                                                                 \
    if (part == 0) S_CARRY(sl) = uvec3(0u);                                                        \
    for (int k0 = 0; k0 < (n); k0 += (G) * (K)) {                                                  \
      const int kb = k0 + part * (K);                                                              \
      uvec3 v[AUX_K_MAX];                                                                          \
      uvec3 sum = uvec3(0u);                                                                       \
      for (int i = 0; i < (K); ++i) {                                                              \
        v[i] = live && kb + i < (n) ? buf[s + (kb + i) * (stride)].xyz : uvec3(0u);                \
        sum += v[i];                                                                               \
      }                                                                                            \
      S_PART(t) = sum;                                                                             \
      barrier();                                                                                   \
      uvec3 run = S_CARRY(sl);                                                                     \
      for (int p = 0; p < part; ++p) run += S_PART(p * per + sl);                                  \
      for (int i = 0; i < (K); ++i)                                                                \
        if (live && kb + i < (n)) {                                                                \
          buf[s + (kb + i) * (stride)] = uvec4(run, 0u);                                           \
          run += v[i];                                                                             \
        }                                                                                          \
      barrier();                                                                                   \
      if (part == (G) - 1) S_CARRY(sl) = run;                                                      \
      barrier();                                                                                   \
    }                                                                                              \
  }

void main() {
  const int b = int(gl_WorkGroupID.x), t = int(gl_LocalInvocationIndex);
  if (b < u_nb_rows) {
    SEGMENTED_SCAN(rt, b * SAT_AUX_ROWS_PER_GROUP, u_height, u_height, u_tiles_x, AUX_RT_G,
                   AUX_RT_K)
  } else if (b < u_nb_rows + u_nb_cols) {
    SEGMENTED_SCAN(ct, (b - u_nb_rows) * SAT_AUX_COLS_PER_GROUP, u_width, u_width, u_tiles_y,
                   AUX_CT_G, AUX_CT_K)
  } else if (u_tiles_x * u_tiles_y <= AUX_SHARED_TILES) {
    // The tile-sum grid in shared memory (1080p: 15 x 34 tiles, a chain of 49 dependent steps
    // that cost an L2 round trip each when done in the buffer).
    const int n = u_tiles_x * u_tiles_y;
    for (int a = t; a < n; a += 256) s_st[a] = st[a].xyz;
    barrier();
    for (int i = t; i < u_tiles_x; i += 256) {
      uvec3 run = uvec3(0u);
      for (int j = 0; j < u_tiles_y; ++j) {
        const uvec3 v = s_st[j * u_tiles_x + i];
        s_st[j * u_tiles_x + i] = run;
        run += v;
      }
    }
    barrier();
    for (int j = t; j < u_tiles_y; j += 256) {
      uvec3 run = uvec3(0u);
      for (int i = 0; i < u_tiles_x; ++i) {
        const uvec3 v = s_st[j * u_tiles_x + i];
        s_st[j * u_tiles_x + i] = run;
        run += v;
      }
    }
    barrier();
    for (int a = t; a < n; a += 256) st[a] = uvec4(s_st[a], 0u);
  } else {
    // Larger grids (beyond 2048 tiles, about 8K x 8K): in the buffer, down the tile rows (one
    // invocation per tile column, 8 loads in flight) and then across; a workgroup's own buffer
    // writes are visible to it after the barrier.
    for (int i = t; i < u_tiles_x; i += 256) {
      uvec3 run = uvec3(0u);
      for (int j0 = 0; j0 < u_tiles_y; j0 += AUX_K_MAX) {
        uvec3 v[AUX_K_MAX];
        for (int k = 0; k < AUX_K_MAX; ++k)
          if (j0 + k < u_tiles_y) v[k] = st[(j0 + k) * u_tiles_x + i].xyz;
        for (int k = 0; k < AUX_K_MAX; ++k)
          if (j0 + k < u_tiles_y) {
            st[(j0 + k) * u_tiles_x + i] = uvec4(run, 0u);
            run += v[k];
          }
      }
    }
    memoryBarrierBuffer();
    barrier();
    for (int j = t; j < u_tiles_y; j += 256) {
      uvec3 run = uvec3(0u);
      for (int i0 = 0; i0 < u_tiles_x; i0 += AUX_K_MAX) {
        uvec3 v[AUX_K_MAX];
        for (int k = 0; k < AUX_K_MAX; ++k)
          if (i0 + k < u_tiles_x) v[k] = st[j * u_tiles_x + i0 + k].xyz;
        for (int k = 0; k < AUX_K_MAX; ++k)
          if (i0 + k < u_tiles_x) {
            st[j * u_tiles_x + i0 + k] = uvec4(run, 0u);
            run += v[k];
          }
      }
    }
  }
}
