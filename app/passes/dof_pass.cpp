#include "passes/dof_pass.hpp"

#include <vector>

#include "shared.h"

namespace demo {

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
}

void GlDofPass::render_fragment(const FrameTargets& t, const Settings& s, GLuint sat_buffer) {
  timer_.begin();
  glBindFramebuffer(GL_FRAMEBUFFER, t.output_fbo());
  glViewport(0, 0, t.width(), t.height());
  glDisable(GL_DEPTH_TEST);
  glUseProgram(frag_prog_.get());
  glBindTextureUnit(DOF_UNIT_COLOR, t.color());
  glBindTextureUnit(DOF_UNIT_VIEWZ, t.viewz());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, DOF_SAT_BINDING, sat_buffer);
  glUniform2i(DOF_LOC_SIZE, t.width(), t.height());
  glUniform1f(DOF_LOC_FOCUS, s.focus_distance);
  glUniform1f(DOF_LOC_APERTURE, s.aperture);
  glUniform1f(DOF_LOC_MAX_RADIUS, s.max_radius);
  glUniform1i(DOF_LOC_VIEW, static_cast<int>(s.view));
  glUniform1f(DOF_LOC_SPLIT, s.split);
  glUniform1f(DOF_LOC_VALUE_SCALE, table_value_scale(s));
  glBindVertexArray(empty_vao_.get());
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  timer_.end();
}

void GlDofPass::render_compute(const FrameTargets& t, const Settings& s, GLuint sat_buffer) {
  timer_.begin();
  glUseProgram(compute_prog_.get());
  glBindTextureUnit(DOF_UNIT_VIEWZ, t.viewz());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, DOF_SAT_BINDING, sat_buffer);
  glBindImageTexture(DOF_IMAGE_OUT, t.output(), 0, GL_FALSE, 0, GL_WRITE_ONLY, t.color_format());
  glUniform1f(DOF_LOC_VALUE_SCALE, table_value_scale(s));
  glUniform2i(DOF_LOC_SIZE, t.width(), t.height());
  glUniform1f(DOF_LOC_FOCUS, s.focus_distance);
  glUniform1f(DOF_LOC_APERTURE, s.aperture);
  glUniform1f(DOF_LOC_MAX_RADIUS, s.max_radius);
  glDispatchCompute((t.width() + DOF_COMPUTE_GROUP_X - 1) / DOF_COMPUTE_GROUP_X,
                    (t.height() + DOF_COMPUTE_GROUP_Y - 1) / DOF_COMPUTE_GROUP_Y, 1);
  // Later readers: the blit/present (framebuffer), screenshots (texture update), UI over it.
  glMemoryBarrier(GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT |
                  GL_TEXTURE_FETCH_BARRIER_BIT);
  glUseProgram(0);
  timer_.end();
}

}  // namespace demo
