// The GL depth-of-field passes: the paper's full-screen fragment pass (shaders/dof.frag, also
// every debug view) and the same DepthOfField view as a compute pass (shaders/dof.comp); both read
// the SAT buffer and write the frame targets' output texture, and both include
// shaders/dof_gather.glsl, the arithmetic of the CUDA kernel (kernels/src/dof.cu) that runs
// instead inside the SAT stage's map on the CUDA backend. They draw gather with the box, octagon and
// disc (the radius offset included; no aperture blades), with the bokeh from highlights of the
// HDR pipeline; which pass runs is core/dof_path.hpp's choice.
#pragma once

#include <string>

#include "core/settings.hpp"
#include "passes/frame_targets.hpp"
#include "scandof/gl/util.hpp"

namespace demo {

class GlDofPass {
 public:
  GlDofPass(const std::string& resources, scandof::SatFormat format, bool hdr = false);
  // Rebuilds both programs with the defines the SAT format and the pipeline need (SAT_FLOAT; HDR:
  // the compute pass stores RGBA16F).
  void set_sat_format(scandof::SatFormat f) { build(f, hdr_); }
  void set_hdr(bool hdr) { build(format_, hdr); }
  // The fragment pass: the view of `s` (DoF, sharp, CoC, SAT, split) into the output texture.
  void render_fragment(const FrameTargets& t, const Settings& s, GLuint sat_buffer);
  // The DepthOfField view as a compute pass into the output texture.
  void render_compute(const FrameTargets& t, const Settings& s, GLuint sat_buffer);
  float ms() const { return timer_.ms(); }

 private:
  void build(scandof::SatFormat f, bool hdr);
  // Bokeh from highlights (bokeh_threshold(s) > 0, HDR): the excess spread into sums_ before the
  // gather, integrated and added to its output after it (shaders/bokeh_*.comp).
  void bokeh_spread(const FrameTargets& t, const Settings& s);
  void bokeh_resolve(const FrameTargets& t, const Settings& s);
  std::string res_;
  scandof::SatFormat format_ = scandof::SatFormat::U32;
  bool hdr_ = false;
  gl::GlProgram frag_prog_, compute_prog_;
  gl::GlProgram spread_prog_, resolve_prog_;  // HDR only
  // The bokeh's scratch, kept all zero between frames (bokeh_resolve.comp clears what it read):
  // 3 planes of 64-bit sums as word pairs (24 bytes a pixel) and a word a tile.
  gl::GlBuffer sums_, touched_;
  std::size_t sums_px_ = 0, tiles_ = 0;
  gl::GlVertexArray empty_vao_;
  gl::GlTimer timer_;
};

}  // namespace demo
