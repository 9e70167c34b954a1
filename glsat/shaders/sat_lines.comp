#version 430
#if defined(HAVE_SUBGROUP) || defined(FUSED_SUBGROUP)
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif
// The paper's SAT pipeline, one pass of it: inclusive scans along every line of the table, a line
// being a row (LINES_ROWS: read from the pixels, RGBA8 or RGBA16F, written to the table) or a column
// (LINES_COLUMNS: read and written in place in the table). Lines longer than one block take the
// paper's arbitrary-size scan in three passes (PASS define):
//   PASS_BLOCKS  workgroup (b, line): block b scanned; its total to sums[line * nblocks + b]
//   PASS_SUMS    workgroup line: the line's block totals scanned, exclusive, in place
//   PASS_ADD     workgroup (b, line), b >= 1: the scanned total added to block b's elements
// Columns are scanned without a transpose: a thread's 16-byte accesses are a row apart, half of
// each 32-byte sector is used. The paper's transposes would cost two more passes over the table.
// The block scan (sat_block_scan.glsl, which defines WG and BLOCK) comes first.
#include "sat_team_scan.glsl"  // the team scan in shared memory, for the next include
#include "sat_block_scan.glsl"

layout(local_size_x = WG) in;

// RGBA16F pixels (PIXELS_RGBA16F, only on the row pass's PASS_BLOCKS, the one program of the six
// that reads pixels): their declarations and load_radiance(); nothing otherwise.
#include "sat_hdr.glsl"
#if defined(PIXELS_RGBA16F)
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
layout(std430, binding = 0) buffer Table {
  uvec4 table[];
};
layout(std430, binding = 1) buffer Sums {
  uvec4 sums[];
};
layout(location = 0) uniform int u_width;
layout(location = 1) uniform int u_height;
layout(location = 2) uniform int u_nblocks;  // blocks per line

#ifdef LINES_ROWS
#define LINE_LEN uint(u_width)
#else
#define LINE_LEN uint(u_height)
#endif

uint address(uint i, uint line) {
#ifdef LINES_ROWS
  return line * uint(u_width) + i;
#else
  return i * uint(u_width) + line;
#endif
}

T3 load_element(uint i, uint line) {
#if defined(LINES_ROWS) && defined(PASS_BLOCKS) && defined(PIXELS_RGBA16F)
  return load_radiance(ivec2(int(i), int(line)));
#elif defined(LINES_ROWS) && defined(PASS_BLOCKS)
  const uint p = load_pixel(ivec2(int(i), int(line)));
  return T3_FROM_U(uvec3(p & 0xFFu, (p >> 8) & 0xFFu, (p >> 16) & 0xFFu));
#else
  return T3_FROM_BITS(table[address(i, line)].xyz);
#endif
}

void main() {
  const uint t = gl_LocalInvocationIndex;
#if defined(PASS_BLOCKS)
  const uint b = gl_WorkGroupID.x, line = gl_WorkGroupID.y;
  const uint base = b * uint(BLOCK);
  for (uint k = 0u; k < 2u; ++k) {
    const uint i = base + t + k * uint(WG);
    put(t + k * uint(WG), i < LINE_LEN ? load_element(i, line) : T3_ZERO);
  }
  FLUSH_CLAMPS();
  block_scan();
  for (uint k = 0u; k < 2u; ++k) {
    const uint i = base + t + k * uint(WG);
    if (i < LINE_LEN) table[address(i, line)] = uvec4(T3_TO_BITS(get(t + k * uint(WG))), 0u);
  }
  if (u_nblocks > 1 && t == 0u)
    sums[line * uint(u_nblocks) + b] = uvec4(T3_TO_BITS(get(uint(BLOCK) - 1u)), 0u);
#elif defined(PASS_SUMS)
  // Exclusive results as the inclusive value one to the left (no subtraction: float-safe).
  const uint line = gl_WorkGroupID.x, n = uint(u_nblocks), first = line * n;
  T3 carry = T3_ZERO;
  for (uint c0 = 0u; c0 < n; c0 += uint(BLOCK)) {
    for (uint k = 0u; k < 2u; ++k) {
      const uint i = c0 + t + k * uint(WG);
      put(t + k * uint(WG), i < n ? T3_FROM_BITS(sums[first + i].xyz) : T3_ZERO);
    }
    block_scan();
    for (uint k = 0u; k < 2u; ++k) {
      const uint j = t + k * uint(WG), i = c0 + j;
      if (i < n) sums[first + i] = uvec4(T3_TO_BITS(carry + (j > 0u ? get(j - 1u) : T3_ZERO)), 0u);
    }
    carry += get(uint(BLOCK) - 1u);
    barrier();  // everyone has read this chunk before the next one is put()
  }
#elif defined(PASS_ADD)
  const uint b = gl_WorkGroupID.x + 1u, line = gl_WorkGroupID.y;
  const T3 add = T3_FROM_BITS(sums[line * uint(u_nblocks) + b].xyz);
  for (uint k = 0u; k < 2u; ++k) {
    const uint i = b * uint(BLOCK) + t + k * uint(WG);
    if (i < LINE_LEN) {
      const uint a = address(i, line);
      table[a] = uvec4(T3_TO_BITS(T3_FROM_BITS(table[a].xyz) + add), 0u);
    }
  }
#else
#error "one of PASS_BLOCKS, PASS_SUMS, PASS_ADD must be defined"
#endif
}
