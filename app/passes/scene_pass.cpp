#include "passes/scene_pass.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <glm/gtc/type_ptr.hpp>

#include "passes/image_io.hpp"
#include "passes/scene_layout.hpp"
#include "shared.h"

namespace demo {

namespace {

// Anisotropic filtering: core in GL 4.6 and the same enums as the EXT/ARB extensions (glad here
// loads GL 4.5, so they are spelled out).
constexpr GLenum kTextureMaxAnisotropy = 0x84FE, kMaxTextureMaxAnisotropy = 0x84FF;

bool has_anisotropy() {
  GLint major = 0, minor = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  if (major > 4 || (major == 4 && minor >= 6)) return true;
  return gl::has_extension("GL_EXT_texture_filter_anisotropic") ||
         gl::has_extension("GL_ARB_texture_filter_anisotropic");
}

}  // namespace

ScenePass::ScenePass(const std::string& resources, int tessellation) : res_(resources) {
  teapot_data_ = load_bezier_patches(res_ + "/assets/teapot.txt");
  set_tessellation(tessellation);
  // The sharp frame draws the floor and wall as one quad each; the lens reference as 1 m grids
  // (see plane_mesh). The grids cost 0.33 ms a frame on the H100 at 1080p (0.62 -> 0.95 ms
  // scene), and the perspective-correct interpolation makes both give the same image.
  floor_ = upload(plane_mesh(kPlanes[PLANE_FLOOR]));
  wall_ = upload(plane_mesh(kPlanes[PLANE_WALL]));
  floor_grid_ = upload(plane_mesh(kPlanes[PLANE_FLOOR], 120, 120));
  wall_grid_ = upload(plane_mesh(kPlanes[PLANE_WALL], 120, 40));
  sphere_ = upload(sphere_mesh(16, 10));
  load_textures();
  build_programs();
  resolve_prog_ = gl::build_program(res_ + "/shaders", "fullscreen.vert", "resolve.frag");
  empty_vao_ = gl::make_vertex_array();
}

void ScenePass::build_programs() {
  std::vector<std::string> defs;
  if (hdr_) defs.push_back("HDR 1");
  std::vector<std::string> deferred = defs;
  deferred.push_back("DEFER_PLANES");
  scene_prog_ = gl::build_program(res_ + "/shaders", "scene.vert", "scene.frag", defs);
  scene_deferred_prog_ = gl::build_program(res_ + "/shaders", "scene.vert", "scene.frag", deferred);
  clear_prog_ = gl::build_compute_program(res_ + "/shaders", "clear_scene.comp", defs);
  gltf_prog_ = gl::build_program(res_ + "/shaders", "scene.vert", "scene_gltf.frag", defs);
  peel_prog_ = {};  // rebuilt by draw_peel with the new defines
  gltf_peel_prog_ = {};
  cut_prog_ = {};
}

void ScenePass::set_model(std::unique_ptr<MeshScene> model) {
  model_ = std::move(model);
  ++scene_id_;
  if (model_) model_->set_anisotropy(aniso_, max_aniso_ > 1.0f);
}

void ScenePass::set_hdr(bool hdr) {
  if (hdr == hdr_) return;
  hdr_ = hdr;
  build_programs();
}

void ScenePass::set_tessellation(int level) {
  teapot_ = upload(tessellate(teapot_data_, level));
}

ScenePass::Drawable ScenePass::upload(const Mesh& m) {
  MeshBuffers b = upload_mesh(m.vertices, m.indices);
  Drawable d;
  d.vao = std::move(b.vao);
  d.vbo = std::move(b.vbo);
  d.ibo = std::move(b.ibo);
  d.count = static_cast<GLsizei>(m.indices.size());
  return d;
}

void ScenePass::load_textures() {
  auto load = [&](const char* name) {
    Image img = load_png(res_ + "/assets/" + name);
    gl::GlTexture t = gl::make_texture(GL_TEXTURE_2D);
    int levels = 1 + static_cast<int>(std::floor(std::log2(std::max(img.width, img.height))));
    glTextureStorage2D(t.get(), levels, GL_RGBA8, img.width, img.height);
    glTextureSubImage2D(t.get(), 0, 0, 0, img.width, img.height, GL_RGBA, GL_UNSIGNED_BYTE,
                        img.rgba.data());
    glGenerateTextureMipmap(t.get());
    glTextureParameteri(t.get(), GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTextureParameteri(t.get(), GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTextureParameteri(t.get(), GL_TEXTURE_WRAP_S, GL_REPEAT);
    glTextureParameteri(t.get(), GL_TEXTURE_WRAP_T, GL_REPEAT);
    return t;
  };
  floor_tex_ = load("floor.png");
  wall_tex_ = load("wall.png");
  if (has_anisotropy()) glGetFloatv(kMaxTextureMaxAnisotropy, &max_aniso_);
}

float ScenePass::set_anisotropy(float a) {
  aniso_ = std::clamp(a, 1.0f, max_aniso_);
  if (max_aniso_ > 1.0f)
    for (GLuint t : {floor_tex_.get(), wall_tex_.get()})
      glTextureParameterf(t, kTextureMaxAnisotropy, aniso_);
  if (model_) model_->set_anisotropy(aniso_, max_aniso_ > 1.0f);
  return aniso_;
}

void ScenePass::begin(const FrameTargets& t, gl::GlTimer* frame_timer) {
  const int w = t.width(), h = t.height();
  const bool ms = t.msaa() > 1;
  const GLuint fbo = ms ? t.ms_fbo() : t.scene_fbo();
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glViewport(0, 0, w, h);
  glEnable(GL_DEPTH_TEST);
  glDisable(GL_BLEND);
  glDisable(GL_CULL_FACE);
  const GLfloat far_z[4] = {Camera::kFar, 0, 0, 0};  // the sky is as far as the far plane
  const GLfloat depth_one = 1.0f;
  if (ms) {
    glClearNamedFramebufferfv(fbo, GL_COLOR, SCENE_OUT_COLOR, sky_color(hdr_));
    glClearNamedFramebufferfv(fbo, GL_COLOR, SCENE_OUT_VIEWZ, far_z);
  } else {  // see shaders/clear_scene.comp for why
    glUseProgram(clear_prog_.get());
    glUniform4fv(CLEAR_LOC_SKY, 1, sky_color(hdr_));
    glUniform1f(CLEAR_LOC_FAR, Camera::kFar);
    glBindImageTexture(CLEAR_IMAGE_COLOR, t.color(), 0, GL_FALSE, 0, GL_WRITE_ONLY,
                       t.color_format());
    glBindImageTexture(CLEAR_IMAGE_VIEWZ, t.viewz(), 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_R32F);
    glDispatchCompute((w + CLEAR_GROUP_X - 1) / CLEAR_GROUP_X,
                      (h + CLEAR_GROUP_Y - 1) / CLEAR_GROUP_Y, 1);
    glMemoryBarrier(GL_FRAMEBUFFER_BARRIER_BIT);
  }
  glClearNamedFramebufferfv(fbo, GL_DEPTH, 0, &depth_one);
  if (frame_timer) frame_timer->begin();
  timer_.begin();
}

void ScenePass::draw(const FrameTargets& t, const Camera& cam, float time_s, bool deferred) {
  glUseProgram(model_ ? gltf_prog_.get() : deferred ? scene_deferred_prog_.get() : scene_prog_.get());
  glUniform4f(SCENE_LOC_LENS, 0.0f, 1.0f, -1.0f, 0.0f);  // pinhole
  draw_scene(t.width(), t.height(), cam, time_s, false, deferred);
}

void ScenePass::end(const FrameTargets& t) {
  if (t.msaa() > 1) {
    // Resolve into the single-sample colour and view-z textures the SAT and DoF passes read.
    glBindFramebuffer(GL_FRAMEBUFFER, t.scene_fbo());
    glDisable(GL_DEPTH_TEST);
    glUseProgram(resolve_prog_.get());
    glBindTextureUnit(RESOLVE_UNIT_COLOR, t.ms_color());
    glBindTextureUnit(RESOLVE_UNIT_VIEWZ, t.ms_viewz());
    glUniform1i(RESOLVE_LOC_SAMPLES, t.msaa());
    glBindVertexArray(empty_vao_.get());
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindVertexArray(0);
  }
  timer_.end();
}

void ScenePass::draw_peel(int width, int height, const Camera& cam, float time_s,
                          GLuint first_viewz, const float lens[4]) {
  gl::GlProgram& prog = model_ ? gltf_peel_prog_ : peel_prog_;
  if (!prog.get()) {
    std::vector<std::string> defs{"PEEL"};
    if (hdr_) defs.push_back("HDR 1");
    prog = gl::build_program(res_ + "/shaders", "scene.vert",
                             model_ ? "scene_gltf.frag" : "scene.frag", defs);
  }
  glUseProgram(prog.get());
  glUniform4f(SCENE_LOC_LENS, 0.0f, 1.0f, -1.0f, 0.0f);  // pinhole
  glUniform4fv(SCENE_LOC_PEEL, 1, lens);
  glBindTextureUnit(SCENE_UNIT_PEEL_FIRST, first_viewz);
  draw_scene(width, height, cam, time_s, false, false);
  glBindTextureUnit(SCENE_UNIT_PEEL_FIRST, 0);
}

void ScenePass::draw_lens_sample(int width, int height, const Camera& cam, float time_s, float lx,
                                 float ly, float aperture_px, float focus, float clamp_radius) {
  const bool cut = near_cut_ > 0.0f && !model_;
  if (cut && !cut_prog_.get()) {
    std::vector<std::string> defs{"NEAR_CUT"};
    if (hdr_) defs.push_back("HDR 1");
    cut_prog_ = gl::build_program(res_ + "/shaders", "scene.vert", "scene.frag", defs);
  }
  glUseProgram(model_ ? gltf_prog_.get() : cut ? cut_prog_.get() : scene_prog_.get());
  if (cut) glUniform1f(SCENE_LOC_NEAR_CUT, near_cut_);
  glUniform2f(SCENE_LOC_LENS_SAMPLE, lx, ly);
  glUniform4f(SCENE_LOC_LENS, aperture_px, focus, clamp_radius, 0.0f);
  draw_scene(width, height, cam, time_s, true, false);
}

void ScenePass::draw_scene(int width, int height, const Camera& cam, float time_s, bool grids,
                           bool deferred) {
  const glm::vec3 eye = cam.eye();
  const glm::mat4 vp = cam.view_proj(static_cast<float>(width) / height);
  glUniform2f(SCENE_LOC_VIEWPORT, static_cast<float>(width), static_cast<float>(height));
  glUniformMatrix4fv(SCENE_LOC_VIEW_PROJ, 1, GL_FALSE, glm::value_ptr(vp));
  glUniform3fv(SCENE_LOC_EYE, 1, glm::value_ptr(eye));
  if (model_) {  // a loaded scene replaces the teapots, floor, wall and bulbs
    model_->draw(highlight_, hdr_);
    return;
  }
  const GLint l_color = SCENE_LOC_COLOR, l_tex = SCENE_LOC_TEXTURED, l_uv = SCENE_LOC_UV_SCALE,
              l_shin = SCENE_LOC_SHININESS, l_spec = SCENE_LOC_SPECULAR,
              l_nblob = SCENE_LOC_BLOB_COUNT;

  auto draw = [&](const Drawable& d, const glm::mat4& model) {
    glUniformMatrix4fv(SCENE_LOC_MODEL, 1, GL_FALSE, glm::value_ptr(model));
    glBindVertexArray(d.vao.get());
    glDrawElements(GL_TRIANGLES, d.count, GL_UNSIGNED_INT, nullptr);
  };
  glUniform1i(l_tex, 1);
  glUniform3f(l_color, 1, 1, 1);
  glUniform3f(SCENE_LOC_EMISSIVE, 0, 0, 0);
  glUniform1f(SCENE_LOC_SPEC_GAIN, hdr_ ? highlight_ : 1.0f);
  glm::vec3 blobs[MAX_BLOBS] = {};
  const int nblob = teapot_blobs(blobs);
  glUniform3fv(SCENE_LOC_BLOBS, nblob, glm::value_ptr(blobs[0]));
  auto plane = [&](int k, const Drawable& d, GLuint tex, int blob_count) {
    glUniform1f(l_shin, kPlanes[k].shininess);
    glUniform1f(l_spec, kPlanes[k].specular);
    glUniform2fv(l_uv, 1, glm::value_ptr(kPlanes[k].uv_scale));
    glBindTextureUnit(SCENE_UNIT_ALBEDO, tex);
    glUniform1i(l_nblob, blob_count);
    if (deferred) {
      // Only the mark in view z: the planes pass writes these pixels' colour.
      glUniform1i(SCENE_LOC_PLANE, k);
      glColorMaski(SCENE_OUT_COLOR, GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
    }
    draw(d, glm::mat4(1.0f));
    if (deferred) glColorMaski(SCENE_OUT_COLOR, GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  };
  plane(PLANE_FLOOR, grids ? floor_grid_ : floor_, floor_tex_.get(), nblob);
  plane(PLANE_WALL, grids ? wall_grid_ : wall_, wall_tex_.get(), 0);

  glUniform1i(l_tex, 0);
  glUniform2f(l_uv, 1.0f, 1.0f);
  glUniform1f(l_shin, 64.0f);
  glUniform1f(l_spec, 0.6f);
  int i = 0;
  for (const auto& t : kTeapots) {
    glUniform3f(l_color, t.r, t.g, t.b);
    float spin = t.spin + time_s * (0.4f + 0.1f * static_cast<float>(i++));
    draw(teapot_, model_matrix(t.x, 0.0f, t.z, spin, t.scale));
  }
  if (hdr_) {
    for (const Bulb& b : kBulbs) {
      const float k = b.intensity * highlight_;
      glUniform3f(SCENE_LOC_EMISSIVE, b.r * k, b.g * k, b.b * k);
      draw(sphere_, model_matrix(b.x, b.y, b.z, 0.0f, b.radius));
    }
    glUniform3f(SCENE_LOC_EMISSIVE, 0, 0, 0);
  }
  glBindVertexArray(0);
}

}  // namespace demo
