// RGBA16F pixels (linear radiance, the HDR frame), for the shaders that read pixels (sat_lines.comp,
// sat_fused_*.comp), which #include it before their pixel declarations. Without PIXELS_RGBA16F it
// declares nothing, so the RGBA8 programs are the ones they were. The paper's row pass reads the
// pixels through an rgba16f image (every half is a float exactly, load_radiance); the fused path
// takes them as raw halves, two words a pixel (R | G << 16, B | A << 16): by textureGather from an
// rg32ui view where the texture is immutable (PIXELS_GATHER, the view declared by
// sat_fused_common.glsl), else through the image (load_halves). Then:
//   uint32 tables: the fixed point of kernels/include/scandof/hdr.hpp, the GLSL twin of
//     scandof::quantize_radiance (round half to even of v * 2^F, at most max_value; NaN and
//     negative values 0; -0 and +0 0), F and max_value at uniform locations SAT_LOC_FIXED_BITS and
//     SAT_LOC_FIXED_MAX. A pixel with any of R, G, B clamped, NaN or negative adds 1 to this
//     build's word of the clamp counters at SSBO binding SAT_BINDING_CLAMPS, once per invocation
//     (FLUSH_CLAMPS()) and only when nonzero: clamps are rare, so the atomics cost next to nothing.
//     The build also zeroes the next counting build's word (uniform SAT_LOC_CLAMP_WORDS: this
//     build's word, the next one's), so no build clears a counter of its own (GlSatBuilder).
//   float tables (SAT_F32): the radiance itself, NaN and negative values 0; nothing counted (as
//     scandof::sat_gold_hdr and the CUDA builder count only for uint32 tables).
// NaN and sign are tested on the bits: GLSL does not promise IEEE comparisons with NaN, and a
// compiler may turn !(v > 0.0) into v <= 0.0.
#ifdef PIXELS_RGBA16F
#ifndef PIXELS_GATHER
layout(binding = 0, rgba16f) uniform readonly image2D u_pixels;
#endif

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
layout(location = SAT_LOC_CLAMP_WORDS) uniform uvec2 u_clamp_words;  // (this build's, the next's)
layout(std430, binding = SAT_BINDING_CLAMPS) buffer Clamps {
  uint clamp_words[];
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

// A half's bits h (16 bits) and x = its value * 2^F (inf for +inf, anything for NaN), quantized as
// quantize_radiance does, the class tested on the bits: h - 1 < 0x7C00 is exactly the positive
// halves, +inf included. Branch-free (selects): the fused path quantizes 16 pixels a lane twice.
uint quantize_half(uint h, float x, inout bool clamped) {
  const bool pos = h - 1u < 0x7C00u;
  const bool over = pos && x > float(u_fixed_max);
  clamped = clamped || over || (!pos && (h & 0x7FFFu) != 0u);
  return !pos ? 0u : over ? u_fixed_max : uint(roundEven(x));
}

// A pixel as raw halves (x: R | G << 16, y: B | A << 16) in fixed point.
uvec3 quantize_halves(uvec2 p, inout bool clamped) {
  const float scale = float(1u << uint(u_fixed_bits));
  const vec2 rg = unpackHalf2x16(p.x) * scale;
  const float b = unpackHalf2x16(p.y).x * scale;
  return uvec3(quantize_half(p.x & 0xFFFFu, rg.x, clamped), quantize_half(p.x >> 16, rg.y, clamped),
               quantize_half(p.y & 0xFFFFu, b, clamped));
}

#ifndef PIXELS_GATHER
// The image path's pixel as raw halves: packHalf2x16 of a half's own value is exact; NaN and
// negative values become the NaN half 0xFFFF (GLSL does not promise what packHalf2x16 makes of a
// NaN), which quantizes as they do.
uint half_bits(float v) {
  const uint k = radiance_class(v);
  return k == 0u ? 0u : k == 1u ? 0xFFFFu : packHalf2x16(vec2(v, 0.0));
}
uvec2 load_halves(ivec2 p) {
  const vec4 c = imageLoad(u_pixels, p);
  return uvec2(half_bits(c.r) | (half_bits(c.g) << 16), half_bits(c.b));
}

uvec3 load_radiance(ivec2 p) {
  const vec3 c = imageLoad(u_pixels, p).rgb;
  bool clamped = false;
  const uvec3 q = uvec3(quantize_radiance(c.r, clamped), quantize_radiance(c.g, clamped),
                        quantize_radiance(c.b, clamped));
  if (clamped) ++g_clamped;
  return q;
}
#endif  // !PIXELS_GATHER
// Called once by every invocation of the one dispatch of a build that counts.
void flush_clamps() {
  if (g_clamped != 0u) atomicAdd(clamp_words[u_clamp_words.x], g_clamped);
  if (gl_GlobalInvocationID == uvec3(0u)) clamp_words[u_clamp_words.y] = 0u;
}
#define FLUSH_CLAMPS() flush_clamps()
#endif
#else
#define FLUSH_CLAMPS()
#endif
