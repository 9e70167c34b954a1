#version 430
// Fused SAT, pass 2 of 3: the small scans, all exclusive and in place. Workgroups
//   [0, nb_rows)                    rt across tile columns, one thread per image row
//   [nb_rows, nb_rows + nb_cols)    ct across tile rows, one thread per image column
//   the last one                    st, 2D: down the tile rows, then across
// About 1 MB at 1080p. Serial per thread, as the CUDA kernel, with the loads issued in chunks.
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

// Each workgroup scans sequences whose elements depend on nothing but the load: the loads of a
// chunk are issued together (one L2 round trip per AUX_CHUNK elements, not one per element), and
// the tile-sum grid is scanned in shared memory when it fits (at 1080p: 15 x 34 tiles, a chain
// of 49 dependent steps that cost an L2 round trip each when done in the buffer).
#define AUX_CHUNK 8
#define AUX_SHARED_TILES 2048
shared uvec3 s_st[AUX_SHARED_TILES];

// Exclusive scan in place of buf[first + k * stride], k < n (the macro serves rt and ct alike:
// GLSL cannot pass a buffer to a function).
#define EXCLUSIVE_SCAN_STRIDED(buf, first, stride, n)                  \
  {                                                                    \
    uvec4 run = uvec4(0u);                                             \
    for (int k0 = 0; k0 < (n); k0 += AUX_CHUNK) {                      \
      uvec4 v[AUX_CHUNK];                                              \
      for (int k = 0; k < AUX_CHUNK; ++k)                              \
        if (k0 + k < (n)) v[k] = buf[(first) + (k0 + k) * (stride)];   \
      for (int k = 0; k < AUX_CHUNK; ++k)                              \
        if (k0 + k < (n)) {                                            \
          buf[(first) + (k0 + k) * (stride)] = run;                    \
          run += v[k];                                                 \
        }                                                              \
    }                                                                  \
  }

void main() {
  const int b = int(gl_WorkGroupID.x), t = int(gl_LocalInvocationIndex);
  if (b < u_nb_rows) {
    const int y = b * 256 + t;
    if (y < u_height) EXCLUSIVE_SCAN_STRIDED(rt, y, u_height, u_tiles_x)
  } else if (b < u_nb_rows + u_nb_cols) {
    const int x = (b - u_nb_rows) * 256 + t;
    if (x < u_width) EXCLUSIVE_SCAN_STRIDED(ct, x, u_width, u_tiles_y)
  } else if (u_tiles_x * u_tiles_y <= AUX_SHARED_TILES) {
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
    // Larger grids (beyond 2048 tiles, about 8K x 8K): in the buffer, down the tile rows and then
    // across; a workgroup's own buffer writes are visible to it after the barrier.
    for (int i = t; i < u_tiles_x; i += 256) EXCLUSIVE_SCAN_STRIDED(st, i, u_tiles_x, u_tiles_y)
    memoryBarrierBuffer();
    barrier();
    for (int j = t; j < u_tiles_y; j += 256) EXCLUSIVE_SCAN_STRIDED(st, j * u_tiles_x, 1, u_tiles_x)
  }
}
