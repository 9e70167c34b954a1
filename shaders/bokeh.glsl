// Bokeh from highlights on the GL backends (scandof/dof.hpp, "Bokeh from highlights"; the CUDA
// twin is DofGpu's bokeh_delta_kernel and bokeh_resolve_kernel in kernels/src/dof.cu): what
// bokeh_spread.comp and bokeh_resolve.comp share. GLSL 4.50 has no 64-bit integers without an
// extension, so a 64-bit sum is a uvec2 (low, high) in wrapping arithmetic, and the buffer's adds
// are two 32-bit atomics, the low word's returned value giving its carry: exact modulo 2^64 in any
// order, as the CUDA atomics and the gold's sums.

layout(std430, binding = BOKEH_BINDING_SUMS) coherent buffer BokehSums { uint sums[]; };
layout(std430, binding = BOKEH_BINDING_TOUCHED) coherent buffer BokehTouched { uint touched[]; };
layout(location = DOF_LOC_SIZE) uniform ivec2 u_size;

uvec2 add64(uvec2 a, uvec2 b) {
  uint carry;
  const uint lo = uaddCarry(a.x, b.x, carry);
  return uvec2(lo, a.y + b.y + carry);
}

// Word pair i of plane k (sums: 3 planes of w * h pairs).
uint sum_index(int k, int i) { return 2u * uint(k * u_size.x * u_size.y + i); }
