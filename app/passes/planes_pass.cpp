#include "passes/planes_pass.hpp"

#include <glm/gtc/type_ptr.hpp>

#include "passes/scene_layout.hpp"
#include "shared.h"

namespace demo {

PlanesPass::PlanesPass(const std::string& resources)
    : res_(resources),
      prog_(gl::build_compute_program(resources + "/shaders", "shade_planes.comp")) {}

void PlanesPass::shade(const FrameTargets& t, const Camera& cam, GLuint floor_texture,
                       GLuint wall_texture, float highlight) {
  const int w = t.width(), h = t.height();
  const glm::mat4 vp = cam.view_proj(static_cast<float>(w) / h);
  if (t.hdr() && !hdr_prog_)
    hdr_prog_ = gl::build_compute_program(res_ + "/shaders", "shade_planes.comp", {"HDR 1"});
  glUseProgram(t.hdr() ? hdr_prog_.get() : prog_.get());
  glUniform1f(PLANES_LOC_SPEC_GAIN, t.hdr() ? highlight : 1.0f);
  // Inverted in double: in float the near/far ratio of the projection costs the rays a few
  // millimetres at the wall, enough to move the checker edges of the floor by a texel.
  const glm::mat4 inv_vp = glm::mat4(glm::inverse(glm::dmat4(vp)));
  glUniformMatrix4fv(PLANES_LOC_INV_VIEW_PROJ, 1, GL_FALSE, glm::value_ptr(inv_vp));
  glUniform3fv(PLANES_LOC_EYE, 1, glm::value_ptr(cam.eye()));
  const glm::vec3 view_dir = glm::normalize(cam.target - cam.eye());
  glUniform3fv(PLANES_LOC_VIEW_DIR, 1, glm::value_ptr(view_dir));
  glm::vec3 blobs[MAX_BLOBS] = {};
  const int nblob = teapot_blobs(blobs);
  glUniform3fv(PLANES_LOC_BLOBS, nblob, glm::value_ptr(blobs[0]));
  glUniform1i(PLANES_LOC_BLOB_COUNT, nblob);
  for (int k = 0; k < NUM_PLANES; ++k) {
    const PlaneDef& d = kPlanes[k];
    glUniform3fv(PLANES_LOC_ORIGIN + k, 1, glm::value_ptr(d.origin));
    const glm::vec3 au = d.edge_u / glm::dot(d.edge_u, d.edge_u);
    const glm::vec3 av = d.edge_v / glm::dot(d.edge_v, d.edge_v);
    glUniform3fv(PLANES_LOC_AXIS_U + k, 1, glm::value_ptr(au));
    glUniform3fv(PLANES_LOC_AXIS_V + k, 1, glm::value_ptr(av));
    glUniform3fv(PLANES_LOC_NORMAL + k, 1, glm::value_ptr(d.normal));
    glUniform2fv(PLANES_LOC_UV_SCALE + k, 1, glm::value_ptr(d.uv_scale));
    glUniform2f(PLANES_LOC_MATERIAL + k, d.shininess, d.specular);
  }
  glBindTextureUnit(PLANES_UNIT_FLOOR, floor_texture);
  glBindTextureUnit(PLANES_UNIT_WALL, wall_texture);
  glBindImageTexture(PLANES_IMAGE_COLOR, t.color(), 0, GL_FALSE, 0, GL_WRITE_ONLY,
                     t.color_format());
  glBindImageTexture(PLANES_IMAGE_VIEWZ, t.viewz(), 0, GL_FALSE, 0, GL_READ_WRITE, GL_R32F);
  // The scene's colour writes must land before the pass reads them, its stores before anything
  // samples, maps or draws into the colour texture next.
  glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
  glDispatchCompute((w + PLANES_GROUP_X - 1) / PLANES_GROUP_X,
                    (h + PLANES_GROUP_Y - 1) / PLANES_GROUP_Y, 1);
  glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT |
                  GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT);
}

}  // namespace demo
