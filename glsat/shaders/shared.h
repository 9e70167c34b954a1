// Constants shared by the GL SAT builder (glsat/src/sat_builder.cpp) and its shaders. C++ includes
// this file; the shader loader (scandof::gl::build_compute_program) pastes it after each shader's
// #version line. Plain #defines only: the one syntax both languages' preprocessors share.
#ifndef SCANDOF_GLSAT_SHADERS_SHARED_H
#define SCANDOF_GLSAT_SHADERS_SHARED_H

// sat_fused_*.comp: the texture unit of the pixels' r32ui view (the gather pixel path).
#define SAT_UNIT_PIXELS 0
// sat_fused_aux.comp: image rows (rt) and image columns (ct) per workgroup of 256.
#define SAT_AUX_ROWS_PER_GROUP 64
#define SAT_AUX_COLS_PER_GROUP 32
// sat_hdr.glsl (RGBA16F pixels into uint32 tables): the fixed point's uniform locations (above
// every shader's own, which start at 0) and the SSBO binding of the clamped-pixel counters.
#define SAT_LOC_FIXED_BITS 8
#define SAT_LOC_FIXED_MAX 9
// The clamp counters' words of this build and of the next (uvec2), in the programs that count.
#define SAT_LOC_CLAMP_WORDS 10
#define SAT_BINDING_CLAMPS 5
// sat_fused_single.comp's decoupled fallback: the uniform location of the polls a workgroup gives
// one flag before it computes that tile's sums itself (GlSatPolicy::lookback_polls), and the polls
// an invocation may make in all, whatever the policy: Mesa's llvmpipe ends every loop of an
// invocation after 65535 back-edges in all, so the budget and the fallback's own loops stay far
// below that and no loop of the program can be cut short.
#define SAT_LOC_LOOKBACK_POLLS 4
#define SAT_LOOKBACK_POLL_BUDGET 4096

#endif  // SCANDOF_GLSAT_SHADERS_SHARED_H
