#include "passes/lens_reference.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>

#include "core/faults.hpp"
#include "core/frame_times.hpp"
#include "passes/scene_layout.hpp"
#include "scandof/dof.hpp"
#include "scandof/image_metrics.hpp"
#include "shared.h"

namespace demo {

float lens_radius(const Camera& cam, int frame_height, const Settings& s) {
  const double f_px = scandof::dof::focal_length_px_from_fovy(cam.fovy, std::max(frame_height, 1));
  return static_cast<float>(scandof::dof::lens_radius(s.aperture, s.focus_distance, f_px));
}

LensReference::LensReference(const std::string& resources)
    : accum_prog_(gl::build_compute_program(resources + "/shaders", "accum.comp")),
      accum_ms_prog_(gl::build_compute_program(resources + "/shaders", "accum.comp", {"MSAA 1"})) {}

std::vector<float> LensReference::key(const FrameTargets& t, const Camera& cam, float time_s,
                                      const Settings& s, const ScenePass& scene) {
  const glm::vec3 e = cam.eye();
  return {static_cast<float>(t.width()),
          static_cast<float>(t.height()),
          e.x,
          e.y,
          e.z,
          cam.target.x,
          cam.target.y,
          cam.target.z,
          cam.fovy,
          time_s,
          s.aperture,
          s.focus_distance,
          s.max_radius,
          s.reference_clamp ? 1.0f : 0.0f,
          static_cast<float>(s.reference_samples),
          static_cast<float>(s.tessellation),
          static_cast<float>(s.msaa),
          s.anisotropy,
          static_cast<float>(s.pipeline),
          demo::hdr(s) ? s.highlight : 0.0f,
          static_cast<float>(scene.scene_id()),
          static_cast<float>(s.dof_blades),
          s.dof_blades > 0 ? s.dof_blade_rotation : 0.0f};
}

void LensReference::drop_targets() {
  color_ = {};
  depth_ = {};
  accum_ = {};
  fbo_ = {};
}

void LensReference::ensure(const FrameTargets& t, ScenePass& scene, const Camera& cam,
                           float time_s, const Settings& s) {
  const std::vector<float> k = key(t, cam, time_s, s, scene);
  if (current(k)) return;
  glFinish();  // the frame's own work is not the reference's
  const auto t0 = std::chrono::steady_clock::now();
  rgb_ = render(t, scene, cam, time_s, s);
  ms_ = ms_since(t0);
  key_ = k;
  hdr_ = t.hdr();
  // What the reference view uploads every frame, made once per reference: RGBA8 (LDR) or the
  // radiance as RGBA float (HDR, tone mapped like the frame).
  const std::size_t n = rgb_.size() / 3;
  view_rgba8_.clear();
  view_f32_.clear();
  if (hdr_) {
    view_f32_.assign(n * 4, 1.0f);
    for (std::size_t i = 0; i < n; ++i)
      for (int c = 0; c < 3; ++c) view_f32_[4 * i + c] = rgb_[3 * i + c];
  } else {
    view_rgba8_.resize(n * 4);
    scandof::metrics::rgb_to_rgba8(rgb_.data(), t.width(), t.height(), view_rgba8_.data());
  }
  std::fprintf(stderr,
               "[scandof] lens reference: %d samples, lens radius %.4g, %dx%d in %.1f ms "
               "(GL render %.1f ms + read back)\n",
               s.reference_samples, lens_radius(cam, t.height(), s), t.width(), t.height(), ms_,
               render_ms_);
}

std::vector<float> LensReference::render(const FrameTargets& t, ScenePass& scene,
                                         const Camera& cam, float time_s, const Settings& s) {
  const int samples = s.reference_samples, w = t.width(), h = t.height(), msaa = t.msaa();
  if (samples < 1) throw std::invalid_argument("the lens reference needs at least one sample");
  if (!fbo_ || samples_ != msaa || format_ != t.color_format()) {
    samples_ = msaa;
    format_ = t.color_format();
    color_ = make_target_texture(format_, w, h, msaa);
    depth_ = make_target_texture(GL_DEPTH_COMPONENT32F, w, h, msaa);
    accum_ = make_target_texture(GL_RGBA32F, w, h);
    fbo_ = gl::make_framebuffer();
    glNamedFramebufferTexture(fbo_.get(), GL_COLOR_ATTACHMENT0 + SCENE_OUT_COLOR, color_.get(), 0);
    glNamedFramebufferTexture(fbo_.get(), GL_DEPTH_ATTACHMENT, depth_.get(), 0);
    static_assert(SCENE_OUT_COLOR == 0, "the reference keeps colour only (view z dropped)");
    const GLenum bufs[2] = {GL_COLOR_ATTACHMENT0, GL_NONE};
    glNamedFramebufferDrawBuffers(fbo_.get(), 2, bufs);
    if (glCheckNamedFramebufferStatus(fbo_.get(), GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
      throw std::runtime_error("lens reference framebuffer incomplete");
  }
  glFinish();
  const auto t0 = std::chrono::steady_clock::now();
  const GLfloat zero[4] = {0, 0, 0, 0};
  const GLfloat depth_one = 1.0f;
  glClearTexImage(accum_.get(), 0, GL_RGBA, GL_FLOAT, zero);
  glViewport(0, 0, w, h);
  glDisable(GL_CULL_FACE);
  for (int i = 0; i < samples; ++i) {
    if (i == samples / 2 && take_fault(Fault::ReferenceCancel)) {
      // Cancelled half-way (--inject-fault reference-cancel): the partial sum is dropped and the
      // reference kept before (if any) stays, with its key, so the next use renders afresh.
      glBindFramebuffer(GL_FRAMEBUFFER, 0);
      throw ReferenceCancelled("lens reference cancelled after " + std::to_string(i) + " of " +
                               std::to_string(samples) + " samples");
    }
    float lx = 0, ly = 0;
    // The aperture the methods' kernel has: the disc, or the blades' polygon (uniform in it).
    if (s.dof_blades > 0)
      scandof::dof::polygon_lens_sample(i, samples, s.dof_blades, s.dof_blade_rotation, &lx, &ly);
    else
      scandof::dof::lens_sample(i, samples, &lx, &ly);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_.get());
    glEnable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    glClearNamedFramebufferfv(fbo_.get(), GL_COLOR, 0, sky_color(t.hdr()));
    glClearNamedFramebufferfv(fbo_.get(), GL_DEPTH, 0, &depth_one);
    scene.draw_lens_sample(w, h, cam, time_s, lx, ly, s.aperture, s.focus_distance,
                           s.reference_clamp ? s.max_radius : -1.0f);
    // Add this sample's frame (the sharp frame's own format: RGBA8, or RGBA16F radiance whose
    // highlights keep their energy) into the float sum. The
    // draw -> texelFetch and texelFetch -> next clear orders are GL's own; the image load/store
    // of the sum between dispatches needs the barrier.
    glUseProgram(msaa > 1 ? accum_ms_prog_.get() : accum_prog_.get());
    if (msaa > 1) glUniform1i(ACCUM_LOC_SAMPLES, msaa);
    glBindTextureUnit(ACCUM_UNIT_SAMPLE, color_.get());
    glBindImageTexture(ACCUM_IMAGE_SUM, accum_.get(), 0, GL_FALSE, 0, GL_READ_WRITE, GL_RGBA32F);
    glDispatchCompute((w + ACCUM_GROUP_X - 1) / ACCUM_GROUP_X, (h + ACCUM_GROUP_Y - 1) / ACCUM_GROUP_Y,
                      1);
    glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
  }
  glMemoryBarrier(GL_TEXTURE_UPDATE_BARRIER_BIT);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glFinish();
  render_ms_ = ms_since(t0);
  std::vector<float> rgb(static_cast<std::size_t>(w) * h * 3);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTextureImage(accum_.get(), 0, GL_RGB, GL_FLOAT,
                    static_cast<GLsizei>(rgb.size() * sizeof(float)), rgb.data());
  const float inv = 1.0f / static_cast<float>(samples);
  for (float& v : rgb) v *= inv;
  return rgb;
}

namespace {
// The legend in the bottom-left corner (0 at the left, the scale at the right; the UI and
// results/dof name the scale), framed in white.
void add_legend(std::vector<uint8_t>& out, int w, int h) {
  const int lw = std::min(256, w - 16), lh = 10;
  if (lw < 16 || h < lh + 16) return;
  std::vector<uint8_t> legend(static_cast<std::size_t>(lw) * lh * 4);
  scandof::metrics::heatmap_legend(lw, lh, legend.data());
  for (int y = -1; y <= lh; ++y)
    for (int x = -1; x <= lw; ++x) {
      uint8_t* d = &out[(static_cast<std::size_t>(8 + y) * w + 8 + x) * 4];
      if (y < 0 || y == lh || x < 0 || x == lw)
        d[0] = d[1] = d[2] = 255;
      else
        std::copy_n(&legend[(static_cast<std::size_t>(y) * lw + x) * 4], 4, d);
    }
}
}  // namespace

std::vector<uint8_t> error_map(const std::vector<float>& image, const std::vector<float>& reference,
                               int w, int h, float scale) {
  std::vector<uint8_t> out(static_cast<std::size_t>(w) * h * 4);
  if (reference.size() != image.size() || image.size() != out.size() / 4 * 3) return out;
  scandof::metrics::error_heatmap(image.data(), reference.data(), w, h, scale, out.data());
  add_legend(out, w, h);
  return out;
}

std::vector<uint8_t> LensReference::display(const scandof::ToneMapSettings& tone) const {
  const std::size_t n = rgb_.size() / 3;
  std::vector<uint8_t> out(n * 4);
  const int w = static_cast<int>(key_.empty() ? 0 : key_[0]), h = static_cast<int>(key_.empty() ? 0 : key_[1]);
  if (n == 0) return out;
  if (hdr_)
    scandof::tone_map(rgb_.data(), 3, w, h, tone, out.data());
  else
    scandof::metrics::rgb_to_rgba8(rgb_.data(), w, h, out.data());
  return out;
}

void LensReference::show_before_tonemap(View v, FrameTargets& t) const {
  if (v != View::Reference) return;
  const int w = t.width(), h = t.height();
  if (rgb_.size() != static_cast<std::size_t>(w) * h * 3 || hdr_ != t.hdr()) return;
  if (hdr_)
    t.upload_output(view_f32_.data());
  else
    t.upload_output(view_rgba8_.data());
}

void LensReference::show_after_tonemap(View v, FrameTargets& t, float error_scale,
                                       const scandof::ToneMapSettings& tone) const {
  if (v != View::Error) return;
  const int w = t.width(), h = t.height();
  if (rgb_.size() != static_cast<std::size_t>(w) * h * 3 || hdr_ != t.hdr()) return;
  const std::vector<uint8_t> px = t.read_rgba(t.display());
  std::vector<float> img(static_cast<std::size_t>(w) * h * 3), ref(img.size());
  scandof::metrics::rgba8_to_rgb(px.data(), w, h, img.data());
  const std::vector<uint8_t> ref8 = display(tone);
  scandof::metrics::rgba8_to_rgb(ref8.data(), w, h, ref.data());
  t.upload_display(error_map(img, ref, w, h, error_scale).data());
}

}  // namespace demo
