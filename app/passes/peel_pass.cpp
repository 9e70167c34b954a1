#include "passes/peel_pass.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include "shared.h"

namespace demo {

void PeelPass::configure(bool on, int width, int height, bool hdr) {
  if (!on) {
    fbo_ = {};
    color_ = {};
    viewz_ = {};
    depth_ = {};
    width_ = height_ = 0;
    clear_prog_ = {};
    return;
  }
  if (active() && width == width_ && height == height_ && hdr == hdr_) return;
  if (!clear_prog_.get() || hdr != hdr_)
    clear_prog_ = gl::build_compute_program(res_ + "/shaders", "clear_scene.comp",
                                            hdr ? std::vector<std::string>{"HDR 1"}
                                                : std::vector<std::string>{});
  width_ = width;
  height_ = height;
  hdr_ = hdr;
  // 8 (HDR) or 4 bytes of colour, 4 of view z and 4 of depth a pixel: 33 MB at 1080p in HDR.
  color_ = make_target_texture(hdr ? GL_RGBA16F : GL_RGBA8, width, height);
  viewz_ = make_target_texture(GL_R32F, width, height);
  depth_ = make_target_texture(GL_DEPTH_COMPONENT32F, width, height);
  for (GLuint t : {color_.get(), viewz_.get()}) {
    glTextureParameteri(t, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTextureParameteri(t, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  }
  fbo_ = gl::make_framebuffer();
  glNamedFramebufferTexture(fbo_.get(), GL_COLOR_ATTACHMENT0 + SCENE_OUT_COLOR, color_.get(), 0);
  glNamedFramebufferTexture(fbo_.get(), GL_COLOR_ATTACHMENT0 + SCENE_OUT_VIEWZ, viewz_.get(), 0);
  glNamedFramebufferTexture(fbo_.get(), GL_DEPTH_ATTACHMENT, depth_.get(), 0);
  const GLenum bufs[2] = {GL_COLOR_ATTACHMENT0 + SCENE_OUT_COLOR,
                          GL_COLOR_ATTACHMENT0 + SCENE_OUT_VIEWZ};
  glNamedFramebufferDrawBuffers(fbo_.get(), 2, bufs);
  if (glCheckNamedFramebufferStatus(fbo_.get(), GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
    throw std::runtime_error("second depth layer: framebuffer incomplete at " +
                             std::to_string(width) + "x" + std::to_string(height));
}

void PeelPass::render(const FrameTargets& t, ScenePass& scene, const Camera& cam, float time_s,
                      const scandof::dof::Params& p, bool cut) {
  if (!active()) throw std::logic_error("PeelPass::render: not configured");
  timer_.begin();
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_.get());
  glViewport(0, 0, width_, height_);
  glEnable(GL_DEPTH_TEST);
  glDisable(GL_BLEND);
  glDisable(GL_CULL_FACE);
  // Colour and view z to 0 (view z 0: nothing behind) by shaders/clear_scene.comp, as the scene
  // pass clears its targets: glClear of these two costs a few tenths of a millisecond a 1080p
  // frame on the H100 (see that shader); the depth keeps glClear.
  glUseProgram(clear_prog_.get());
  glUniform4f(CLEAR_LOC_SKY, 0.0f, 0.0f, 0.0f, 0.0f);
  glUniform1f(CLEAR_LOC_FAR, 0.0f);
  glBindImageTexture(CLEAR_IMAGE_COLOR, color_.get(), 0, GL_FALSE, 0, GL_WRITE_ONLY,
                     hdr_ ? GL_RGBA16F : GL_RGBA8);
  glBindImageTexture(CLEAR_IMAGE_VIEWZ, viewz_.get(), 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_R32F);
  glDispatchCompute((width_ + CLEAR_GROUP_X - 1) / CLEAR_GROUP_X,
                    (height_ + CLEAR_GROUP_Y - 1) / CLEAR_GROUP_Y, 1);
  glMemoryBarrier(GL_FRAMEBUFFER_BARRIER_BIT);
  const GLfloat depth_one = 1.0f;
  glClearNamedFramebufferfv(fbo_.get(), GL_DEPTH, 0, &depth_one);
  const float k = static_cast<float>(p.layers);
  const float lens[4] = {p.aperture_px, p.focus, p.max_radius, cut ? -k : k};
  scene.draw_peel(width_, height_, cam, time_s, t.viewz(), lens);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  timer_.end();
}

std::vector<float> PeelPass::read_viewz() const {
  std::vector<float> z(static_cast<std::size_t>(width_) * height_);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTextureImage(viewz_.get(), 0, GL_RED, GL_FLOAT, static_cast<GLsizei>(z.size() * 4),
                    z.data());
  return z;
}

std::vector<float> PeelPass::read_rgba_f32() const {
  std::vector<float> px(static_cast<std::size_t>(width_) * height_ * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTextureImage(color_.get(), 0, GL_RGBA, GL_FLOAT,
                    static_cast<GLsizei>(px.size() * sizeof(float)), px.data());
  return px;
}

std::vector<uint8_t> PeelPass::read_rgba() const {
  std::vector<uint8_t> px(static_cast<std::size_t>(width_) * height_ * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTextureImage(color_.get(), 0, GL_RGBA, GL_UNSIGNED_BYTE, static_cast<GLsizei>(px.size()),
                    px.data());
  return px;
}

}  // namespace demo
