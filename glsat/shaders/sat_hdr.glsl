// RGBA16F pixels (linear radiance, the HDR frame), for the shaders that read pixels (sat_lines.comp,
// sat_fused_*.comp), which #include it before their pixel declarations. Without PIXELS_RGBA16F it
// declares nothing, so the RGBA8 programs are the ones they were. The pixels come through an
// rgba16f image (every half is a float exactly), then:
//   uint32 tables: the fixed point of kernels/include/scandof/hdr.hpp, the GLSL twin of
//     scandof::quantize_radiance (round half to even of v * 2^F, at most max_value; NaN and
//     negative values 0; -0 and +0 0), F and max_value at uniform locations SAT_LOC_FIXED_BITS and
//     SAT_LOC_FIXED_MAX. A pixel with any of R, G, B clamped, NaN or negative adds 1 to the
//     counter at SSBO binding SAT_BINDING_CLAMPS, once per invocation (FLUSH_CLAMPS()) and only
//     when nonzero: clamps are rare, so the atomics cost next to nothing.
//   float tables (SAT_F32): the radiance itself, NaN and negative values 0; nothing counted (as
//     scandof::sat_gold_hdr and the CUDA builder count only for uint32 tables).
// NaN and sign are tested on the bits: GLSL does not promise IEEE comparisons with NaN, and a
// compiler may turn !(v > 0.0) into v <= 0.0.
#ifdef PIXELS_RGBA16F
layout(binding = 0, rgba16f) uniform readonly image2D u_pixels;

// v's bits: 0 for +0 and -0, 1 for NaN or negative (nonzero), 2 for positive (inf included).
uint radiance_class(float v) {
  const uint b = floatBitsToUint(v);
  if ((b & 0x7FFFFFFFu) == 0u) return 0u;
  return (b & 0x80000000u) != 0u || (b & 0x7FFFFFFFu) > 0x7F800000u ? 1u : 2u;
}

#ifdef SAT_F32
vec3 load_radiance(ivec2 p) {
  const vec3 c = imageLoad(u_pixels, p).rgb;
  return vec3(radiance_class(c.r) == 2u ? c.r : 0.0, radiance_class(c.g) == 2u ? c.g : 0.0,
              radiance_class(c.b) == 2u ? c.b : 0.0);
}
#define FLUSH_CLAMPS()
#else
layout(location = SAT_LOC_FIXED_BITS) uniform int u_fixed_bits;  // F, 0..24
layout(location = SAT_LOC_FIXED_MAX) uniform uint u_fixed_max;   // 1..2^24
layout(std430, binding = SAT_BINDING_CLAMPS) buffer Clamps {
  uint clamp_count;
};
uint g_clamped = 0u;  // this invocation's clamped pixels so far

// F <= 24 and max_value <= 2^24: v * 2^F is exact (a half times a power of two), float(max_value)
// is exact, so the comparison is exact, and roundEven of x <= 2^24 is an exact integer.
uint quantize_radiance(float v, inout bool clamped) {
  const uint k = radiance_class(v);
  if (k != 2u) {
    clamped = clamped || k == 1u;
    return 0u;
  }
  const float x = v * float(1u << uint(u_fixed_bits));
  if (x > float(u_fixed_max)) {
    clamped = true;
    return u_fixed_max;
  }
  return uint(roundEven(x));
}

uvec3 load_radiance(ivec2 p) {
  const vec3 c = imageLoad(u_pixels, p).rgb;
  bool clamped = false;
  const uvec3 q = uvec3(quantize_radiance(c.r, clamped), quantize_radiance(c.g, clamped),
                        quantize_radiance(c.b, clamped));
  if (clamped) ++g_clamped;
  return q;
}
#define FLUSH_CLAMPS() \
  if (g_clamped != 0u) atomicAdd(clamp_count, g_clamped)
#endif
#else
#define FLUSH_CLAMPS()
#endif
