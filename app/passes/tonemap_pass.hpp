// The tone-map pass: the blurred HDR radiance (an RGBA16F texture) -> exposure -> tone curve ->
// sRGB -> an RGBA8 texture (image store), the maths of the CPU gold scandof::tone_map
// (kernels/include/scandof/tonemap.hpp; its GLSL twin is shaders/tonemap.glsl).
//
// Auto exposure stays on the GPU: tonemap_reduce.comp sums log2 luminance per 16 x 16 workgroup,
// tonemap_exposure.comp (one workgroup) turns the partial sums into this frame's EV and smooths it
// against the previous frame's (scandof::adapt_exposure_ev, time constant
// ToneMapSettings::adaptation_s; 0 = no smoothing, the gold's single-frame answer) into a 4-word
// buffer that tonemap.comp reads in the same frame. So the image is exposed for the frame itself,
// at the cost of one extra read of the frame (~0.02 ms at 1080p on a recent GPU) and two small
// dispatches; engines that expose with last frame's value save the ordering, not the read. The
// CPU reads the result only for reports, through a ring of copies read when their fence has
// signalled (never waiting): exposure() trails the frame by a frame or two.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "scandof/gl/util.hpp"
#include "scandof/tonemap.hpp"

namespace demo {

class TonemapPass {
 public:
  // Builds the three programs from resources/shaders; needs a current GL 4.5 context.
  explicit TonemapPass(const std::string& resources);
  ~TonemapPass();
  // Owns fences: neither copied nor moved (hold it by value in its owner, or by unique_ptr).
  TonemapPass(const TonemapPass&) = delete;
  TonemapPass& operator=(const TonemapPass&) = delete;

  // Tone maps `radiance` (RGBA16F or any float colour texture, level 0, width x height) into
  // `out_rgba8` (an immutable-storage GL_RGBA8 texture of the same size, bound as an image).
  // dt_s: seconds since the last run, for the auto-exposure smoothing. Issues the barriers its
  // reads need and, after, those that let anything sample, copy, blit or image-load `out_rgba8`.
  void run(GLuint radiance, GLuint out_rgba8, int width, int height,
           const scandof::ToneMapSettings& s, float dt_s = 0.0f);
  // The next auto-exposed run takes its frame's EV outright (a cut, a resize, a new scene).
  void reset_adaptation() { reset_ = true; }

  // GPU time of the whole pass (reduction + exposure + tone map), read a few frames late.
  float ms() const { return timer_.ms(); }

  // What the GPU's auto exposure last measured, as read back without waiting.
  struct Exposure {
    float ev_applied = 0;   // the EV the image was exposed with (smoothed)
    float ev_measured = 0;  // that frame's own EV: log2(0.18 / Lavg) + compensation
    float log2_average = 0; // mean log2 luminance
    uint32_t pixels = 0;    // pixels of finite luminance
    uint64_t run = 0;       // which run() measured it (1 = the first); 0 = nothing landed yet
  };
  // Non-blocking: collects every readback whose fence has signalled (glClientWaitSync with a zero
  // timeout), then returns the newest. Also called by run().
  const Exposure& exposure();
  // The last measured EV (NaN until one has landed): exposure().ev_measured.
  float last_measured_ev();

 private:
  void ensure_partials(int groups);
  void collect();

  scandof::gl::GlProgram reduce_prog_, exposure_prog_, map_prog_;
  scandof::gl::GlBuffer partials_, exposure_buf_;
  int partial_capacity_ = 0;
  bool reset_ = true;
  uint64_t runs_ = 0;
  // The readback ring: a copy of the exposure buffer per auto-exposed run and a fence after it;
  // a slot still in flight when its turn comes again is skipped (that run is not reported).
  static constexpr int kRing = 4;
  struct Readback {
    scandof::gl::GlBuffer buf;
    GLsync fence = nullptr;
    uint64_t run = 0;
  };
  std::array<Readback, kRing> ring_;
  int next_ = 0;
  Exposure last_;
  scandof::gl::GlTimer timer_;
};

}  // namespace demo
