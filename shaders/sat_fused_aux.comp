#version 430
// Fused SAT, pass 2 of 3: the small scans, all exclusive and in place. Workgroups
//   [0, nb_rows)                    rt across tile columns, one thread per image row
//   [nb_rows, nb_rows + nb_cols)    ct across tile rows, one thread per image column
//   the last one                    st, 2D: down the tile rows, then across
// About 1 MB at 1080p. Serial per thread, as the CUDA kernel: the loads of a loop are independent.
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

void main() {
  const int b = int(gl_WorkGroupID.x), t = int(gl_LocalInvocationIndex);
  if (b < u_nb_rows) {
    const int y = b * 256 + t;
    if (y >= u_height) return;
    uvec4 run = uvec4(0u);
    for (int i = 0; i < u_tiles_x; ++i) {
      const int a = i * u_height + y;
      const uvec4 v = rt[a];
      rt[a] = run;
      run += v;
    }
  } else if (b < u_nb_rows + u_nb_cols) {
    const int x = (b - u_nb_rows) * 256 + t;
    if (x >= u_width) return;
    uvec4 run = uvec4(0u);
    for (int j = 0; j < u_tiles_y; ++j) {
      const int a = j * u_width + x;
      const uvec4 v = ct[a];
      ct[a] = run;
      run += v;
    }
  } else {
    for (int i = t; i < u_tiles_x; i += 256) {
      uvec4 run = uvec4(0u);
      for (int j = 0; j < u_tiles_y; ++j) {
        const int a = j * u_tiles_x + i;
        const uvec4 v = st[a];
        st[a] = run;
        run += v;
      }
    }
    memoryBarrierBuffer();
    barrier();
    for (int j = t; j < u_tiles_y; j += 256) {
      uvec4 run = uvec4(0u);
      for (int i = 0; i < u_tiles_x; ++i) {
        const int a = j * u_tiles_x + i;
        const uvec4 v = st[a];
        st[a] = run;
        run += v;
      }
    }
  }
}
