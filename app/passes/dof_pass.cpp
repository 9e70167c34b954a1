#include "passes/dof_pass.hpp"

#include <cmath>
#include <vector>

#include "shared.h"

namespace demo {

namespace {
// The kernel shape's uniforms: the radius offset and the unit shape's signed rectangles, the
// decomposition of scandof::dof::shape_boxes (box: none, blurred()'s own boxes; octagon: k = 2;
// disc: k). Float tables take the shape too, as the CPU gold does (the CUDA gather draws the box
// there); their box sums carry the table's float error, as the paper's box does.
void set_shape_uniforms(const Settings& s) {
  using scandof::dof::disc_stair;
  GLfloat rects[3 * DOF_MAX_RECTS] = {};
  int n = 0;
  if (s.dof_shape != scandof::dof::Shape::Box) {
    const int k = s.dof_shape == scandof::dof::Shape::Octagon ? 2 : s.disc_boxes;
    auto add = [&](float hx, float hy, float sign) {
      rects[3 * n] = hx;
      rects[3 * n + 1] = hy;
      rects[3 * n + 2] = sign;
      ++n;
    };
    for (int i = 1; i <= k; ++i) add(disc_stair(k, k + 1 - i), disc_stair(k, i), 1.0f);
    for (int i = 1; i < k; ++i) add(disc_stair(k, k - i), disc_stair(k, i), -1.0f);
  }
  glUniform1f(DOF_LOC_RADIUS_OFFSET, s.dof_radius_offset);
  glUniform1i(DOF_LOC_RECT_COUNT, n);
  glUniform3fv(DOF_LOC_RECTS, DOF_MAX_RECTS, rects);
}
static_assert(2 * scandof::dof::kMaxDiscBoxes - 1 <= DOF_MAX_RECTS, "the disc's rectangles");

// The frame size, the lens and the kernel shape: what the gather passes and the bokeh's spread
// read at the same locations (shaders/shared.h), for the program in use.
void set_lens_uniforms(const FrameTargets& t, const Settings& s) {
  glUniform2i(DOF_LOC_SIZE, t.width(), t.height());
  glUniform1f(DOF_LOC_FOCUS, s.focus_distance);
  glUniform1f(DOF_LOC_APERTURE, s.aperture);
  glUniform1f(DOF_LOC_MAX_RADIUS, s.max_radius);
  set_shape_uniforms(s);
}
}  // namespace

GlDofPass::GlDofPass(const std::string& resources, scandof::SatFormat format, bool hdr)
    : res_(resources) {
  build(format, hdr);
  empty_vao_ = gl::make_vertex_array();
}

void GlDofPass::build(scandof::SatFormat f, bool hdr) {
  format_ = f;
  hdr_ = hdr;
  std::vector<std::string> defs;
  if (f == scandof::SatFormat::F32) defs.push_back("SAT_FLOAT 1");
  if (hdr) defs.push_back("HDR 1");
  frag_prog_ = gl::build_program(res_ + "/shaders", "fullscreen.vert", "dof.frag", defs);
  compute_prog_ = gl::build_compute_program(res_ + "/shaders", "dof.comp", defs);
  if (hdr) {
    // 64-bit atomics where the driver has them (shaders/bokeh.glsl): one add instead of a 32-bit
    // add and the wait for its old value. Mesa's llvmpipe has not (CI tests the word pairs).
    if (gl::has_extension("GL_ARB_gpu_shader_int64") &&
        gl::has_extension("GL_NV_shader_atomic_int64"))
      defs.push_back("BOKEH_INT64 1");
    spread_prog_ = gl::build_compute_program(res_ + "/shaders", "bokeh_spread.comp", defs);
    resolve_prog_ = gl::build_compute_program(res_ + "/shaders", "bokeh_resolve.comp", defs);
  } else {
    spread_prog_ = gl::GlProgram();
    resolve_prog_ = gl::GlProgram();
  }
}

void GlDofPass::bokeh_spread(const FrameTargets& t, const Settings& s) {
  const std::size_t px = static_cast<std::size_t>(t.width()) * t.height();
  const int tx = (t.width() + BOKEH_TILE - 1) / BOKEH_TILE, ty = (t.height() + BOKEH_TILE - 1) / BOKEH_TILE;
  const std::size_t tiles = static_cast<std::size_t>(tx) * ty;
  if (px > sums_px_) {
    sums_ = gl::make_buffer();
    glNamedBufferData(sums_.get(), static_cast<GLsizeiptr>(px * 24), nullptr, GL_DYNAMIC_DRAW);
    glClearNamedBufferData(sums_.get(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, nullptr);
    sums_px_ = px;
  }
  if (tiles > tiles_) {
    touched_ = gl::make_buffer();
    glNamedBufferData(touched_.get(), static_cast<GLsizeiptr>(tiles * 4), nullptr, GL_DYNAMIC_DRAW);
    tiles_ = tiles;
  }
  glClearNamedBufferSubData(touched_.get(), GL_R32UI, 0, static_cast<GLsizeiptr>(tiles * 4),
                            GL_RED_INTEGER, GL_UNSIGNED_INT, nullptr);
  const scandof::SatFixedPoint fp = fixed_point(s);
  glUseProgram(spread_prog_.get());
  glBindTextureUnit(DOF_UNIT_COLOR, t.color());
  glBindTextureUnit(DOF_UNIT_VIEWZ, t.viewz());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, BOKEH_BINDING_SUMS, sums_.get());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, BOKEH_BINDING_TOUCHED, touched_.get());
  set_lens_uniforms(t, s);
  glUniform1i(BOKEH_LOC_FIXED_BITS, fp.frac_bits);
  glUniform1ui(BOKEH_LOC_FIXED_MAX, fp.max_value);
  glUniform1ui(BOKEH_LOC_BASE_MAX, table_fixed_point(s).max_value);
  glDispatchCompute((t.width() + DOF_COMPUTE_GROUP_X - 1) / DOF_COMPUTE_GROUP_X,
                    (t.height() + DOF_COMPUTE_GROUP_Y - 1) / DOF_COMPUTE_GROUP_Y, 1);
}

void GlDofPass::bokeh_resolve(const FrameTargets& t, const Settings& s) {
  // The spread's atomics and the gather's image stores, before this pass reads them.
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
  glUseProgram(resolve_prog_.get());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, BOKEH_BINDING_SUMS, sums_.get());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, BOKEH_BINDING_TOUCHED, touched_.get());
  glBindImageTexture(DOF_IMAGE_OUT, t.output(), 0, GL_FALSE, 0, GL_READ_WRITE, t.color_format());
  glUniform2i(DOF_LOC_SIZE, t.width(), t.height());
  glUniform1f(BOKEH_LOC_UNIT,
              std::ldexp(1.0f, -(fixed_point(s).frac_bits + scandof::dof::kSpreadScaleLog2)));
  glDispatchCompute((t.width() + BOKEH_TILE - 1) / BOKEH_TILE, (t.height() + BOKEH_TILE - 1) / BOKEH_TILE,
                    1);
  // Later readers: the next frame's spread (the zeroed sums), the present, screenshots.
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT |
                  GL_TEXTURE_UPDATE_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT);
}

void GlDofPass::render_fragment(const FrameTargets& t, const Settings& s, GLuint sat_buffer) {
  timer_.begin();
  const bool bokeh = hdr_ && bokeh_threshold(s) > 0.0f && s.view == View::DepthOfField;
  if (bokeh) bokeh_spread(t, s);
  glBindFramebuffer(GL_FRAMEBUFFER, t.output_fbo());
  glViewport(0, 0, t.width(), t.height());
  glDisable(GL_DEPTH_TEST);
  glUseProgram(frag_prog_.get());
  glBindTextureUnit(DOF_UNIT_COLOR, t.color());
  glBindTextureUnit(DOF_UNIT_VIEWZ, t.viewz());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, DOF_SAT_BINDING, sat_buffer);
  set_lens_uniforms(t, s);
  glUniform1i(DOF_LOC_VIEW, static_cast<int>(s.view));
  glUniform1f(DOF_LOC_SPLIT, s.split);
  glUniform1f(DOF_LOC_VALUE_SCALE, table_value_scale(s));
  glBindVertexArray(empty_vao_.get());
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  if (bokeh) bokeh_resolve(t, s);
  glUseProgram(0);
  timer_.end();
}

void GlDofPass::render_compute(const FrameTargets& t, const Settings& s, GLuint sat_buffer) {
  timer_.begin();
  const bool bokeh = hdr_ && bokeh_threshold(s) > 0.0f;
  if (bokeh) bokeh_spread(t, s);
  glUseProgram(compute_prog_.get());
  glBindTextureUnit(DOF_UNIT_VIEWZ, t.viewz());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, DOF_SAT_BINDING, sat_buffer);
  glBindImageTexture(DOF_IMAGE_OUT, t.output(), 0, GL_FALSE, 0, GL_WRITE_ONLY, t.color_format());
  glUniform1f(DOF_LOC_VALUE_SCALE, table_value_scale(s));
  set_lens_uniforms(t, s);
  glDispatchCompute((t.width() + DOF_COMPUTE_GROUP_X - 1) / DOF_COMPUTE_GROUP_X,
                    (t.height() + DOF_COMPUTE_GROUP_Y - 1) / DOF_COMPUTE_GROUP_Y, 1);
  if (bokeh) bokeh_resolve(t, s);
  // Later readers: the blit/present (framebuffer), screenshots (texture update), UI over it.
  glMemoryBarrier(GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT |
                  GL_TEXTURE_FETCH_BARRIER_BIT);
  glUseProgram(0);
  timer_.end();
}

}  // namespace demo
