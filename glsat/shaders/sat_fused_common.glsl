// Shared by the fused SAT path's shaders (sat_fused_reduce.comp, sat_fused_scan.comp,
// sat_fused_single.comp; and glsatbench's sat_floor.comp), which #include it after
// sat_team_scan.glsl (and sat_hdr.glsl, below). Port of
// kernels/include/scandof/device/sat_tiled.cuh: tiles of 128 columns x 32 rows, a workgroup of
// 8 teams of 32 lanes, a lane covering 4 adjacent pixels of 4 rows. All sums are uint32 (exact
// modulo 2^32); SAT_F32 converts at the store, so a float table is the exact table rounded once
// (the host only picks this for images of at most 2^32 / 255 pixels in float).
//   PIXELS_GATHER   pixels by textureGather from an r32ui texture view of the RGBA8 texture
//   PIXELS_RGBA8    pixels through an rgba8 image (else an r32ui image view of the texture)
//   FUSED_SUBGROUP  teams are subgroups of 32 (subgroupInclusiveAdd / subgroupAdd); without it the
//                   teams are 32-lane slices of the workgroup, scanned in shared memory.
//   PIXELS_RGBA16F  HDR pixels into uint32 tables (sat_hdr.glsl, which the including shader
//                   #includes first): a pixel is kept as its raw halves (PX = uvec2: R | G << 16,
//                   B | A << 16; by textureGather from an rg32ui view with PIXELS_GATHER, else
//                   through an rgba16f image) and quantized where it is summed (pairs_of); the
//                   channel "pairs" are plain uvec3 (PAIRS), since a fixed-point value takes up to
//                   25 bits. The RGBA8 programs are unchanged (PX = uint, PAIRS = uvec2).
#define WG 256
#define TILE_W 128
#define TILE_H 32
#define TEAMS 8
#define ROWS_PER_TEAM 4

layout(local_size_x = WG) in;

#if defined(PIXELS_RGBA16F) && defined(SAT_F32)
#error "float tables of RGBA16F pixels take the paper's pipeline (float sums), not the fused path"
#endif

// Shared arrays a lane writes 4 adjacent elements of (lane * 4 + i) and the workgroup later reads
// along (t, or lane + 32 k) are padded: one element after every 16 of 8 bytes (PAD8). Unpadded,
// the lanes' 32-byte stride put 4 lanes of a phase on the same banks; padded, both directions are
// conflict-free.
#define PAD8(k) ((k) + ((k) >> 4))
#define PADDED8(n) ((n) + (n) / 16)
#if defined(PIXELS_GATHER)
// An r32ui texture view of the RGBA8 texture (nearest, clamped) through the texture path: one
// gather returns a 2x2 block of packed pixels, a quarter of the instructions of image loads. For
// RGBA16F an rg32ui view of the same texel size: two gathers (components 0 and 1) a 2x2 block.
layout(binding = SAT_UNIT_PIXELS) uniform usampler2D u_pixels;
#elif defined(PIXELS_RGBA16F)
// Declared by sat_hdr.glsl.
uvec2 load_pixel(ivec2 p) {
  return load_halves(p);
}
#elif defined(PIXELS_RGBA8)
// Where the driver matches image formats by class (RGBA8 is not R32UI's class): the texels as
// normalized colours, packed back to bytes exactly (round(c * 255)).
layout(binding = 0, rgba8) uniform readonly image2D u_pixels;
uint load_pixel(ivec2 p) {
  return packUnorm4x8(imageLoad(u_pixels, p));
}
#else
// The RGBA8 texture viewed as one packed word per pixel (R in the low byte): one 32-bit load.
layout(binding = 0, r32ui) uniform readonly uimage2D u_pixels;
uint load_pixel(ivec2 p) {
  return imageLoad(u_pixels, p).x;
}
#endif
layout(location = 0) uniform int u_width;
layout(location = 1) uniform int u_height;

#ifdef FUSED_SUBGROUP
#define LANE gl_SubgroupInvocationID
#define TEAM gl_SubgroupID
uvec3 team_inclusive(uvec3 v) {
  return subgroupInclusiveAdd(v);
}
uvec3 team_sum(uvec3 v) {
  return subgroupAdd(v);
}
#else
#define LANE (gl_LocalInvocationIndex & 31u)
#define TEAM (gl_LocalInvocationIndex >> 5)
// s_lane and team_inclusive: 32-lane Hillis-Steele in shared memory (sat_team_scan.glsl); every
// thread of the workgroup must call it.
TEAM_SCAN_IN_SHARED(uvec3, uvec3(0u))
uvec3 team_sum(uvec3 v) {
  team_inclusive(v);
  const uvec3 s = s_lane[gl_LocalInvocationIndex | 31u];
  barrier();  // read before the next call overwrites
  return s;
}
#endif

// A table word: R, G, B, 0, as uint32 or (SAT_F32) float bits.
uvec4 out_word(uvec3 v) {
#ifdef SAT_F32
  return uvec4(floatBitsToUint(vec3(v)), 0u);
#else
  return uvec4(v, 0u);
#endif
}

uvec3 unpack_rgb(uint p) {
  return uvec3(p & 0xFFu, (p >> 8) & 0xFFu, (p >> 16) & 0xFFu);
}

// Channel pairs in 16-bit halves, as kernels/include/scandof/device/sat_tiled.cuh has them: x holds
// R | B << 16, y holds G (and A) | ... << 16. Sums of up to 257 pixels fit each half, so a tile row
// (128 pixels) or a tile column (32) is reduced or scanned as 2 words where uvec3 took 3.
#ifdef PIXELS_RGBA16F
// Raw halves (2 words a pixel through the look-back of sat_fused_single.comp, where quantized
// pixels took 3) quantized at each use: about 15 ALU steps a pixel, twice in the one pass.
#define PX uvec2
#define PAIRS uvec3
#define PAIR_WORDS 3
#define PX_ZERO uvec2(0u)
uvec3 pairs_of(uvec2 p) {
  bool clamped = false;  // not counted: see pairs_counted
  return quantize_halves(p, clamped);
}
// pairs_of, counting the pixel when it clamps: the pass that sums each pixel first calls it, once
// per pixel, then FLUSH_CLAMPS().
uvec3 pairs_counted(uvec2 p) {
  bool clamped = false;
  const uvec3 q = quantize_halves(p, clamped);
  if (clamped) ++g_clamped;
  return q;
}
uvec3 rgb_of_pairs(uvec3 w) {
  return w;
}
uvec3 team_inclusive2(uvec3 v) {
  return team_inclusive(v);
}
uvec3 team_sum2(uvec3 v) {
  return team_sum(v);
}
#else
#define PX uint
#define PAIRS uvec2
#define PAIR_WORDS 2
#define PX_ZERO 0u
uvec2 pairs_of(uint p) {
  return uvec2(p & 0x00FF00FFu, (p >> 8) & 0x00FF00FFu);
}
#define pairs_counted pairs_of
uvec3 rgb_of_pairs(uvec2 w) {
  return uvec3(w.x & 0xFFFFu, w.y & 0xFFFFu, w.x >> 16);
}
#ifdef FUSED_SUBGROUP
uvec2 team_inclusive2(uvec2 v) {
  return subgroupInclusiveAdd(v);
}
uvec2 team_sum2(uvec2 v) {
  return subgroupAdd(v);
}
#else
uvec2 team_inclusive2(uvec2 v) {
  return team_inclusive(uvec3(v, 0u)).xy;
}
uvec2 team_sum2(uvec2 v) {
  return team_sum(uvec3(v, 0u)).xy;
}
#endif
#endif  // PIXELS_RGBA16F

// A team's row (the lane's 4 pixels of it): its inclusive sums within the tile as channel pairs
// (up to 128 x 255 fits 16 bits).
void row_scan(PX px[4], out PAIRS wr[4]) {
  wr[0] = pairs_of(px[0]);
  for (int i = 1; i < 4; ++i) wr[i] = wr[i - 1] + pairs_of(px[i]);
  const PAIRS ex = team_inclusive2(wr[3]) - wr[3];
  for (int i = 0; i < 4; ++i) wr[i] += ex;
}

#ifdef PIXELS_GATHER
// Pixels x0..x0+3 of rows y0..y0+3 (zeros outside the image), one packed word each, by four
// gathers (RGBA16F: two words each, by eight). A gather at the corner shared by texels (x, y) ..
// (x+1, y+1) returns them as (x, y+1), (x+1, y+1), (x+1, y), (x, y).
void load_block(int x0, int y0, out PX px[ROWS_PER_TEAM][4]) {
  const vec2 inv = 1.0 / vec2(textureSize(u_pixels, 0));
  for (int r = 0; r < ROWS_PER_TEAM; r += 2)
    for (int i = 0; i < 4; i += 2) {
#ifdef PIXELS_RGBA16F
      const vec2 at = vec2(x0 + i + 1, y0 + r + 1) * inv;
      const uvec4 rg = textureGather(u_pixels, at, 0), ba = textureGather(u_pixels, at, 1);
      const uvec2 g[4] = uvec2[4](uvec2(rg.x, ba.x), uvec2(rg.y, ba.y), uvec2(rg.z, ba.z),
                                  uvec2(rg.w, ba.w));
#else
      const uvec4 g = textureGather(u_pixels, vec2(x0 + i + 1, y0 + r + 1) * inv);
#endif
      const bool x_in = x0 + i < u_width, x1_in = x0 + i + 1 < u_width;
      const bool y_in = y0 + r < u_height, y1_in = y0 + r + 1 < u_height;
      px[r][i] = x_in && y_in ? g[3] : PX_ZERO;
      px[r][i + 1] = x1_in && y_in ? g[2] : PX_ZERO;
      px[r + 1][i] = x_in && y1_in ? g[0] : PX_ZERO;
      px[r + 1][i + 1] = x1_in && y1_in ? g[1] : PX_ZERO;
    }
}
#else
PX load_pixel_or_zero(int x, int y) {
  return (y < u_height && x < u_width) ? load_pixel(ivec2(x, y)) : PX_ZERO;
}
// Pixels x0..x0+3 of rows y0..y0+3 (zeros outside the image): R, G, B as one packed word each
// (RGBA8) or as fixed point (RGBA16F).
void load_block(int x0, int y0, out PX px[ROWS_PER_TEAM][4]) {
  for (int r = 0; r < ROWS_PER_TEAM; ++r)
    for (int i = 0; i < 4; ++i) px[r][i] = load_pixel_or_zero(x0 + i, y0 + r);
}
#endif

#ifndef PIXELS_GATHER
// Pixels x0, x0 + 32, x0 + 64, x0 + 96 of row y (zeros outside the image).
void load_strided(int x0, int y, out PX px[4]) {
  for (int k = 0; k < 4; ++k) px[k] = load_pixel_or_zero(x0 + 32 * k, y);
}
#endif
