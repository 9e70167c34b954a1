// Bokeh from highlights on the GL backends (scandof/dof.hpp, "Bokeh from highlights"; the CUDA
// twin is DofGpu's bokeh_delta_kernel and bokeh_resolve_kernel in kernels/src/dof.cu): what
// bokeh_spread.comp and bokeh_resolve.comp share. A 64-bit sum is a uvec2 (low, high) in
// wrapping arithmetic. In the buffer: with BOKEH_INT64 (the driver has GL_ARB_gpu_shader_int64
// and GL_NV_shader_atomic_int64, as NVIDIA's) one 64-bit atomic add; without (Mesa's llvmpipe),
// two 32-bit atomics, the low word's returned value giving its carry, exact modulo 2^64 in any
// order as well, but each add then waits for its atomic's round trip: on the H100 the GL DoF at
// 1080p took 0.384 ms that way against 0.286 with the 64-bit adds (0.105 without the bokeh), and
// 0.508 with each piece's low words added first and the high words after.
#ifdef BOKEH_INT64
layout(std430, binding = BOKEH_BINDING_SUMS) coherent buffer BokehSums { uint64_t sums64[]; };
void atomic_add64(uint at, uvec2 v) { atomicAdd(sums64[at / 2u], packUint2x32(v)); }
uvec2 take64(uint at) {  // read, and leave 0 behind
  const uvec2 v = unpackUint2x32(sums64[at / 2u]);
  sums64[at / 2u] = 0ul;
  return v;
}
#else
layout(std430, binding = BOKEH_BINDING_SUMS) coherent buffer BokehSums { uint sums[]; };
void atomic_add64(uint at, uvec2 v) {
  const uint old = v.x != 0u ? atomicAdd(sums[at], v.x) : 0u;
  const uint hi = v.y + (old + v.x < old ? 1u : 0u);
  if (hi != 0u) atomicAdd(sums[at + 1u], hi);
}
uvec2 take64(uint at) {
  const uvec2 v = uvec2(sums[at], sums[at + 1u]);
  sums[at] = 0u;
  sums[at + 1u] = 0u;
  return v;
}
#endif
layout(std430, binding = BOKEH_BINDING_TOUCHED) coherent buffer BokehTouched { uint touched[]; };
layout(location = DOF_LOC_SIZE) uniform ivec2 u_size;

uvec2 add64(uvec2 a, uvec2 b) {
  uint carry;
  const uint lo = uaddCarry(a.x, b.x, carry);
  return uvec2(lo, a.y + b.y + carry);
}

// Word pair i of plane k (sums: 3 planes of w * h pairs).
uint sum_index(int k, int i) { return 2u * uint(k * u_size.x * u_size.y + i); }
