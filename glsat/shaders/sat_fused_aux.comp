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

#include "sat_fused_small_scan.glsl"
#define AUX_SHARED_TILES 2048
// One array for every branch (a workgroup takes one; GL promises only 32 KB): the tile-sum grid,
// or a sequence scan's per-invocation partial sums and per-sequence carries.
shared uvec3 s_st[AUX_SHARED_TILES];
#define S_PART_GET(i) s_st[i]
#define S_PART_PUT(i, v) s_st[i] = (v)
#define S_CARRY_GET(i) s_st[256 + (i)]
#define S_CARRY_PUT(i, v) s_st[256 + (i)] = (v)

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
