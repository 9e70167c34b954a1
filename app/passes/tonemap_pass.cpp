#include "passes/tonemap_pass.hpp"

#include <cmath>
#include <limits>

#include "shared.h"

namespace demo {

namespace gl = scandof::gl;

static_assert(static_cast<int>(scandof::ToneMapper::Aces) == TONEMAP_OP_ACES &&
                  static_cast<int>(scandof::ToneMapper::AgX) == TONEMAP_OP_AGX &&
                  static_cast<int>(scandof::ToneMapper::Reinhard) == TONEMAP_OP_REINHARD,
              "scandof::ToneMapper and shared.h's TONEMAP_OP_* disagree");

namespace {

// The exposure buffer's std430 layout (tonemap_exposure.comp): 4 words.
struct ExposureWords {
  float ev, ev_measured, log2_average;
  uint32_t pixels;
};
static_assert(sizeof(ExposureWords) == 16, "exposure buffer is 4 words");

int groups(int n, int size) { return (n + size - 1) / size; }

}  // namespace

TonemapPass::TonemapPass(const std::string& resources)
    : reduce_prog_(gl::build_compute_program(resources + "/shaders", "tonemap_reduce.comp")),
      exposure_prog_(gl::build_compute_program(resources + "/shaders", "tonemap_exposure.comp")),
      map_prog_(gl::build_compute_program(resources + "/shaders", "tonemap.comp")) {
  // NaN in ev: the first auto-exposed frame starts the adaptation from its own measure.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const ExposureWords init{nan, nan, 0.0f, 0u};
  exposure_buf_ = gl::make_buffer();
  glNamedBufferStorage(exposure_buf_.get(), sizeof(init), &init, 0);
  for (Readback& r : ring_) {
    r.buf = gl::make_buffer();
    glNamedBufferStorage(r.buf.get(), sizeof(ExposureWords), nullptr, GL_CLIENT_STORAGE_BIT);
  }
  last_.ev_applied = last_.ev_measured = nan;
}

TonemapPass::~TonemapPass() {
  for (Readback& r : ring_)
    if (r.fence) glDeleteSync(r.fence);
}

void TonemapPass::ensure_partials(int n) {
  if (n <= partial_capacity_) return;
  partials_ = gl::make_buffer();
  // (float sum, uint count) per workgroup; immutable, the GPU alone touches it.
  glNamedBufferStorage(partials_.get(), static_cast<GLsizeiptr>(n) * 8, nullptr, 0);
  partial_capacity_ = n;
}

void TonemapPass::run(GLuint radiance, GLuint out_rgba8, int w, int h,
                      const scandof::ToneMapSettings& s, float dt_s) {
  collect();
  if (w <= 0 || h <= 0) return;
  timer_.begin();
  const int gx = groups(w, TONEMAP_GROUP_X), gy = groups(h, TONEMAP_GROUP_Y);
  // The radiance may come from image stores (the compute DoF pass): make them visible to fetches.
  glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT);
  glBindTextureUnit(TONEMAP_UNIT_RADIANCE, radiance);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, TONEMAP_EXPOSURE_BINDING, exposure_buf_.get());
  if (s.auto_exposure) {
    ++runs_;
    ensure_partials(gx * gy);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, TONEMAP_PARTIALS_BINDING, partials_.get());
    glUseProgram(reduce_prog_.get());
    glUniform2i(TONEMAP_LOC_SIZE, w, h);
    glDispatchCompute(static_cast<GLuint>(gx), static_cast<GLuint>(gy), 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    glUseProgram(exposure_prog_.get());
    glUniform1f(TONEMAP_LOC_EV, s.exposure_ev);
    glUniform1i(TONEMAP_LOC_GROUPS, gx * gy);
    glUniform1f(TONEMAP_LOC_DT, dt_s);
    glUniform1f(TONEMAP_LOC_TAU, s.adaptation_s);
    glUniform1i(TONEMAP_LOC_RESET, reset_ ? 1 : 0);
    glDispatchCompute(1, 1, 1);
    reset_ = false;
    // The tone map reads the exposure as a storage buffer, the readback copies it.
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    Readback& r = ring_[next_];
    if (!r.fence) {  // else that copy is still in flight: this run goes unreported
      glCopyNamedBufferSubData(exposure_buf_.get(), r.buf.get(), 0, 0, sizeof(ExposureWords));
      r.fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
      r.run = runs_;
      next_ = (next_ + 1) % kRing;
    }
  }
  glUseProgram(map_prog_.get());
  glUniform1i(TONEMAP_LOC_OP, static_cast<int>(s.mapper));
  glUniform1f(TONEMAP_LOC_EV, s.exposure_ev);
  glUniform1i(TONEMAP_LOC_AUTO, s.auto_exposure ? 1 : 0);
  glUniform1f(TONEMAP_LOC_WHITE, s.reinhard_white);
  glUniform2i(TONEMAP_LOC_SIZE, w, h);
  glBindImageTexture(TONEMAP_IMAGE_OUT, out_rgba8, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
  glDispatchCompute(static_cast<GLuint>(gx), static_cast<GLuint>(gy), 1);
  glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT |
                  GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT);
  timer_.end();
}

void TonemapPass::collect() {
  // Oldest first, so last_ ends on the newest that has landed.
  for (int k = 0; k < kRing; ++k) {
    Readback& r = ring_[(next_ + k) % kRing];
    if (!r.fence) continue;
    const GLenum st = glClientWaitSync(r.fence, 0, 0);
    if (st != GL_ALREADY_SIGNALED && st != GL_CONDITION_SATISFIED) continue;
    ExposureWords e{};
    // The copy has completed (its fence signalled), so this returns without a pipeline wait.
    glGetNamedBufferSubData(r.buf.get(), 0, sizeof(e), &e);
    glDeleteSync(r.fence);
    r.fence = nullptr;
    if (r.run >= last_.run) {
      last_.ev_applied = e.ev;
      last_.ev_measured = e.ev_measured;
      last_.log2_average = e.log2_average;
      last_.pixels = e.pixels;
      last_.run = r.run;
    }
  }
}

const TonemapPass::Exposure& TonemapPass::exposure() {
  collect();
  return last_;
}

float TonemapPass::last_measured_ev() { return exposure().ev_measured; }

}  // namespace demo
