#include "passes/frame_targets.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/faults.hpp"
#include "passes/mem_probe.hpp"
#include "core/camera.hpp"
#include "shared.h"

namespace demo {

void check_frame_size(int width, int height) {
  // Asked of the GL implementation before anything is allocated: a size past a limit used to end
  // in a crash inside the driver (16384x16384: SIGSEGV after 40 s and 12 GB), not a message.
  GLint max_tex = 0, max_rb = 0, vp[2] = {0, 0};
  GLint64 max_ssbo = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_tex);
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_rb);
  glGetIntegerv(GL_MAX_VIEWPORT_DIMS, vp);
  glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &max_ssbo);
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  auto refuse = [&](const std::string& what) {
    throw FrameSizeRefused("frame size " + size + " is beyond this GL implementation: " + what);
  };
  const int side = std::max(width, height);
  if (side > max_tex) refuse("GL_MAX_TEXTURE_SIZE is " + std::to_string(max_tex));
  if (side > max_rb) refuse("GL_MAX_RENDERBUFFER_SIZE is " + std::to_string(max_rb));
  if (width > vp[0] || height > vp[1])
    refuse("GL_MAX_VIEWPORT_DIMS is " + std::to_string(vp[0]) + "x" + std::to_string(vp[1]));
  // The SAT buffer is read as one shader storage block (16 bytes per pixel).
  const double sat_bytes = 16.0 * width * height;
  if (sat_bytes > static_cast<double>(max_ssbo))
    refuse("its summed-area table needs " + std::to_string(static_cast<long long>(sat_bytes)) +
           " bytes, GL_MAX_SHADER_STORAGE_BLOCK_SIZE is " + std::to_string(max_ssbo));
}

long long frame_bytes_estimate(int width, int height, int msaa, bool hdr, bool second_layer) {
  const long long px = static_cast<long long>(width) * height;
  const long long color = hdr ? 8 : 4;
  const long long samples = msaa > 1 ? msaa : 0;
  const long long per_px = 2 * color + (hdr ? 4 : 0) + 4 + 4 +  // colour, output, display, depth, z
                           samples * (color + 4 + 4) +           // MSAA colour, view z, depth
                           16 + 32 +                              // SAT, CUDA scratch
                           28 + samples * (color + 4) +           // the reference's targets
                           (second_layer ? color + 4 + 4 : 0);    // PeelPass: colour, z, depth
  return px * per_px;
}

void check_frame_memory(int width, int height, int msaa, bool hdr, bool second_layer,
                        long long current_bytes) {
  std::string source;
  long long free_b = free_frame_memory(&source);
  if (take_fault(Fault::LowMemoryResize)) {
    free_b = 0;
    current_bytes = 0;
    source = "pretended by --inject-fault low-memory@resize";
  }
  if (free_b < 0) return;
  const long long need = frame_bytes_estimate(width, height, msaa, hdr, second_layer);
  if (need > free_b + current_bytes) {
    auto mib = [](long long b) {
      return b < (10LL << 20) ? std::to_string(b >> 10) + " KiB" : std::to_string(b >> 20) + " MiB";
    };
    throw FrameSizeRefused("frame size " + std::to_string(width) + "x" + std::to_string(height) +
                           " needs about " + mib(need) + " and " + mib(free_b) + " are free (" +
                           source + ") besides the " + mib(current_bytes) +
                           " the current size holds");
  }
}

namespace {
// Colour and view z as the scene's two outputs (shared.h's SCENE_OUT_*), depth attached.
void attach_scene_outputs(GLuint fbo, GLuint color, GLuint viewz, GLuint depth) {
  glNamedFramebufferTexture(fbo, GL_COLOR_ATTACHMENT0 + SCENE_OUT_COLOR, color, 0);
  glNamedFramebufferTexture(fbo, GL_COLOR_ATTACHMENT0 + SCENE_OUT_VIEWZ, viewz, 0);
  glNamedFramebufferTexture(fbo, GL_DEPTH_ATTACHMENT, depth, 0);
  const GLenum bufs[2] = {GL_COLOR_ATTACHMENT0 + SCENE_OUT_COLOR,
                          GL_COLOR_ATTACHMENT0 + SCENE_OUT_VIEWZ};
  glNamedFramebufferDrawBuffers(fbo, 2, bufs);
}
}  // namespace

gl::GlTexture make_target_texture(GLenum format, int width, int height, int samples) {
  if (samples > 1) {
    gl::GlTexture t = gl::make_texture(GL_TEXTURE_2D_MULTISAMPLE);
    glTextureStorage2DMultisample(t.get(), samples, format, width, height, GL_TRUE);
    return t;
  }
  gl::GlTexture t = gl::make_texture(GL_TEXTURE_2D);
  glTextureStorage2D(t.get(), 1, format, width, height);
  return t;
}

int FrameTargets::set_msaa(int samples) {
  GLint max_samples = 1;
  glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
  msaa_ = std::clamp(samples, 1, std::max(1, static_cast<int>(max_samples)));
  if (width_ > 0) make_msaa_targets();
  return msaa_;
}

void FrameTargets::make_msaa_targets() {
  ms_color_ = {};
  ms_viewz_ = {};
  ms_depth_ = {};
  ms_fbo_ = {};
  if (msaa_ <= 1) return;
  ms_color_ = make_target_texture(color_format(), width_, height_, msaa_);
  ms_viewz_ = make_target_texture(GL_R32F, width_, height_, msaa_);
  ms_depth_ = make_target_texture(GL_DEPTH_COMPONENT32F, width_, height_, msaa_);
  ms_fbo_ = gl::make_framebuffer();
  attach_scene_outputs(ms_fbo_.get(), ms_color_.get(), ms_viewz_.get(), ms_depth_.get());
  if (glCheckNamedFramebufferStatus(ms_fbo_.get(), GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
    throw std::runtime_error("MSAA framebuffer incomplete at " + std::to_string(msaa_) +
                             " samples");
}

void FrameTargets::resize(int width, int height) {
  if (width <= 0 || height <= 0) throw std::invalid_argument("render targets need a nonzero size");
  check_frame_size(width, height);
  width_ = width;
  height_ = height;
  color_ = make_target_texture(color_format(), width, height);
  depth_ = make_target_texture(GL_DEPTH_COMPONENT32F, width, height);
  viewz_ = make_target_texture(GL_R32F, width, height);
  output_ = make_target_texture(color_format(), width, height);
  display_ = hdr_ ? make_target_texture(GL_RGBA8, width, height) : gl::GlTexture{};
  for (GLuint t : {color_.get(), depth_.get(), viewz_.get(), output_.get(), display_.get()}) {
    if (t == 0) continue;
    glTextureParameteri(t, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTextureParameteri(t, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTextureParameteri(t, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTextureParameteri(t, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  }
  scene_fbo_ = gl::make_framebuffer();
  attach_scene_outputs(scene_fbo_.get(), color_.get(), viewz_.get(), depth_.get());
  output_fbo_ = gl::make_framebuffer();
  glNamedFramebufferTexture(output_fbo_.get(), GL_COLOR_ATTACHMENT0, output_.get(), 0);
  display_fbo_ = {};
  if (hdr_) {
    display_fbo_ = gl::make_framebuffer();
    glNamedFramebufferTexture(display_fbo_.get(), GL_COLOR_ATTACHMENT0, display_.get(), 0);
  }
  for (GLuint f : {scene_fbo_.get(), output_fbo_.get(), display_fbo_.get()})
    if (f != 0 &&
        glCheckNamedFramebufferStatus(f, GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
      throw std::runtime_error("framebuffer incomplete at " + std::to_string(width) + "x" +
                               std::to_string(height));
  make_msaa_targets();
}

void FrameTargets::set_hdr(bool hdr) {
  if (hdr == hdr_) return;
  hdr_ = hdr;
  if (width_ > 0) resize(width_, height_);
}

void FrameTargets::bind_output() const {
  glBindFramebuffer(GL_FRAMEBUFFER, display_fbo());
  glViewport(0, 0, width_, height_);
}

float FrameTargets::distance_at(int x, int y) const {
  if (x < 0 || y < 0 || x >= width_ || y >= height_) return -1.0f;
  // The same view-axis distance the DoF passes turn into a circle of confusion.
  float z = Camera::kFar;
  glGetTextureSubImage(viewz_.get(), 0, x, y, 0, 1, 1, 1, GL_RED, GL_FLOAT, sizeof z, &z);
  return z >= Camera::kFar ? -1.0f : z;
}

std::vector<float> FrameTargets::read_viewz() const {
  std::vector<float> z(static_cast<std::size_t>(width_) * height_);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTextureImage(viewz_.get(), 0, GL_RED, GL_FLOAT, static_cast<GLsizei>(z.size() * 4),
                    z.data());
  return z;
}

void FrameTargets::upload_output(const uint8_t* rgba) {
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTextureSubImage2D(output_.get(), 0, 0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
}

void FrameTargets::upload_output(const float* rgba) {
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTextureSubImage2D(output_.get(), 0, 0, 0, width_, height_, GL_RGBA, GL_FLOAT, rgba);
}

void FrameTargets::upload_display(const uint8_t* rgba) {
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTextureSubImage2D(display(), 0, 0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
}

std::vector<float> FrameTargets::read_rgba_f32(GLuint texture) const {
  std::vector<float> px(static_cast<std::size_t>(width_) * height_ * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTextureImage(texture, 0, GL_RGBA, GL_FLOAT, static_cast<GLsizei>(px.size() * sizeof(float)),
                    px.data());
  return px;
}

std::vector<uint8_t> FrameTargets::read_rgba(GLuint texture) const {
  std::vector<uint8_t> px(static_cast<std::size_t>(width_) * height_ * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTextureImage(texture, 0, GL_RGBA, GL_UNSIGNED_BYTE, static_cast<GLsizei>(px.size()),
                    px.data());
  return px;
}

}  // namespace demo
