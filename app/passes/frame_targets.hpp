// The frame's GL targets, shared by the passes: the scene's colour, R32F view-axis distance and
// depth (an FBO), the multisample twins when MSAA is on (resolved into the former by the scene
// pass), the output texture the DoF pass writes, and the RGBA8 display image present() shows and
// screenshots read. Colour and output are RGBA16F linear radiance in the HDR pipeline (the
// tone-map pass turns the output into the display image) and RGBA8 in the LDR one (the output is
// the display image). Re-created by resize() and set_hdr(); also the read-backs (click to focus,
// screenshots, the CPU paths, the diagnostics).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "scandof/gl/util.hpp"

namespace demo {
namespace gl = scandof::gl;

// A frame size the GL implementation or the free memory cannot take. Thrown before anything is
// released, so the frame goes on at the size it had (App::resize); at start it ends the run.
class FrameSizeRefused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws FrameSizeRefused naming the limit when a width x height frame exceeds what the current
// GL context allows (texture, renderbuffer and viewport sizes, the SAT's shader storage block).
void check_frame_size(int width, int height);

// About how many bytes the frame's targets, the SAT and its scratch and the lens reference's
// targets take at this size: per pixel the colour and output (8 bytes each in HDR, 4 in LDR), the
// RGBA8 display (HDR), depth and view z (4 each), MSAA's samples of colour, view z and depth, the
// SAT (16), the CUDA builder's and DoF's scratch (at most 32), the reference (28 + its MSAA
// samples) and, with the second depth layer, its colour, view z and depth. An upper estimate: a
// resize is refused only where even a generous one does not fit.
long long frame_bytes_estimate(int width, int height, int msaa, bool hdr, bool second_layer);
// Throws FrameSizeRefused when frame_bytes_estimate exceeds the free memory (mem_probe's
// free_frame_memory: cudaMemGetInfo, GL_NVX_gpu_memory_info or, on a software rasterizer, the
// host's MemAvailable) less what the current size holds (freed by the resize). Nothing to check
// where no source tells. --inject-fault low-memory@resize pretends nothing is free, once.
void check_frame_memory(int width, int height, int msaa, bool hdr, bool second_layer,
                        long long current_bytes);

// A render-target texture of `format` at width x height: one level, or `samples` > 1 samples
// (fixed sample locations, as the resolve and the reference's accumulation read them).
gl::GlTexture make_target_texture(GLenum format, int width, int height, int samples = 1);

class FrameTargets {
 public:
  // (Re)creates every target; width/height must be > 0 and within check_frame_size.
  void resize(int width, int height);
  int width() const { return width_; }
  int height() const { return height_; }
  // Scene samples per pixel (1 = off; clamped to GL_MAX_SAMPLES). Returns the value set.
  int set_msaa(int samples);
  int msaa() const { return msaa_; }
  // HDR (RGBA16F colour and output, a separate RGBA8 display) or LDR (RGBA8, display = output).
  void set_hdr(bool hdr);
  bool hdr() const { return hdr_; }
  GLenum color_format() const { return hdr_ ? GL_RGBA16F : GL_RGBA8; }

  GLuint color() const { return color_.get(); }
  GLuint viewz() const { return viewz_.get(); }  // R32F distance along the view axis
  GLuint output() const { return output_.get(); }  // the DoF pass's result (radiance in HDR)
  GLuint display() const { return hdr_ ? display_.get() : output_.get(); }  // RGBA8, shown
  GLuint scene_fbo() const { return scene_fbo_.get(); }  // colour + view z + depth
  GLuint output_fbo() const { return output_fbo_.get(); }
  GLuint display_fbo() const { return hdr_ ? display_fbo_.get() : output_fbo_.get(); }
  // Multisample colour, view z and their FBO (msaa() > 1 only).
  GLuint ms_color() const { return ms_color_.get(); }
  GLuint ms_viewz() const { return ms_viewz_.get(); }
  GLuint ms_fbo() const { return ms_fbo_.get(); }

  // Binds the display FBO for drawing on top of the frame (headless panels).
  void bind_output() const;
  // Scene distance along the view axis at pixel (x, y) (GL order, bottom-left origin); reads one
  // value back (on click and for autofocus, not a whole frame). Returns < 0 on the sky.
  float distance_at(int x, int y) const;
  std::vector<uint8_t> read_rgba(GLuint texture) const;  // bottom-up RGBA8 (float clamped)
  std::vector<float> read_rgba_f32(GLuint texture) const;  // bottom-up RGBA float
  std::vector<float> read_viewz() const;                 // bottom-up view z
  void upload_output(const uint8_t* rgba);               // width x height RGBA8, bottom-up
  void upload_output(const float* rgba);                 // RGBA float (radiance), bottom-up
  void upload_display(const uint8_t* rgba);              // RGBA8 straight to the display

 private:
  void make_msaa_targets();
  int width_ = 0, height_ = 0, msaa_ = 1;
  bool hdr_ = false;
  gl::GlTexture color_, depth_, viewz_, output_, display_;
  gl::GlFramebuffer scene_fbo_, output_fbo_, display_fbo_;
  gl::GlTexture ms_color_, ms_viewz_, ms_depth_;  // msaa_ > 1
  gl::GlFramebuffer ms_fbo_;
};

}  // namespace demo
