#include "passes/renderer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <stdexcept>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "passes/image_io.hpp"
#include "scandof/dof.hpp"
#include "shared.h"

namespace demo {

namespace {

// Rotation about +y, uniform scale, then translation (teapots stand on the floor).
glm::mat4 model_matrix(float x, float y, float z, float yaw, float scale) {
  const glm::mat4 t = glm::translate(glm::mat4(1.0f), glm::vec3(x, y, z));
  return glm::scale(glm::rotate(t, yaw, glm::vec3(0.0f, 1.0f, 0.0f)), glm::vec3(scale));
}

// A parallelogram from (x0, y0, z0) along u and v as an n x m grid of quads (uv 0..1 across it).
// A grid, not two triangles: the lens reference's clamped shift (scene.vert) is exact at vertices
// only, so big triangles would bend it; the sharp frame is the same either way.
Mesh quad(float x0, float y0, float z0, float ux, float uy, float uz, float vx, float vy, float vz,
          float nx, float ny, float nz, int n = 1, int m = 1) {
  Mesh mesh;
  for (int j = 0; j <= m; ++j) {
    for (int i = 0; i <= n; ++i) {
      const float a = static_cast<float>(i) / n, b = static_cast<float>(j) / m;
      mesh.vertices.push_back(
          MeshVertex{{x0 + a * ux + b * vx, y0 + a * uy + b * vy, z0 + a * uz + b * vz},
                     {nx, ny, nz},
                     {a, b}});
    }
  }
  for (int j = 0; j < m; ++j) {
    for (int i = 0; i < n; ++i) {
      const uint32_t k = static_cast<uint32_t>(j * (n + 1) + i), up = static_cast<uint32_t>(n + 1);
      mesh.indices.insert(mesh.indices.end(), {k, k + 1, k + up, k + up, k + 1, k + up + 1});
    }
  }
  return mesh;
}

// The floor and the back wall: one table for their meshes and for shade_planes.comp, which
// recomputes their points and texture coordinates from the same numbers.
struct PlaneDef {
  glm::vec3 origin, edge_u, edge_v, normal;
  glm::vec2 uv_scale;
  float shininess, specular;
};
constexpr float kWallZ = -24.0f;
const PlaneDef kPlanes[NUM_PLANES] = {
    // PLANE_FLOOR: 120 x 120 m at y = 0, from z = 40 back to z = -80 (behind the wall, hidden).
    {{-60, 0, 40}, {120, 0, 0}, {0, 0, -120}, {0, 1, 0}, {24, 24}, 16.0f, 0.05f},
    // PLANE_WALL: 120 x 40 m at z = kWallZ, from just below the floor up.
    {{-60, -1, kWallZ}, {120, 0, 0}, {0, 40, 0}, {0, 0, 1}, {6, 4}, 16.0f, 0.05f},
};

Mesh plane_mesh(const PlaneDef& d, int n = 1, int m = 1) {
  return quad(d.origin.x, d.origin.y, d.origin.z, d.edge_u.x, d.edge_u.y, d.edge_u.z, d.edge_v.x,
              d.edge_v.y, d.edge_v.z, d.normal.x, d.normal.y, d.normal.z, n, m);
}

// Placement of the teapots: clearly separated depths from near the camera to the back wall.
struct TeapotPlace {
  float x, z, scale, spin, r, g, b;
};
constexpr TeapotPlace kTeapots[] = {
    {-3.2f, 5.5f, 0.55f, 0.6f, 0.85f, 0.20f, 0.18f},    // near, red
    {2.6f, 1.0f, 0.65f, -0.4f, 0.95f, 0.75f, 0.25f},    // gold
    {-1.5f, -4.0f, 0.75f, 1.2f, 0.25f, 0.55f, 0.90f},   // blue, around the default focus
    {3.5f, -10.0f, 0.85f, 2.0f, 0.30f, 0.80f, 0.35f},   // green
    {-4.5f, -17.0f, 0.95f, 0.3f, 0.85f, 0.85f, 0.88f},  // far, white porcelain
};
static_assert(sizeof kTeapots / sizeof *kTeapots == kNumTeapots, "kNumTeapots");
static_assert(sizeof kTeapots / sizeof *kTeapots <= MAX_BLOBS, "one shadow blob per teapot");

// The soft contact shadows (x, z, radius) under the teapots, whose footprint radius is about 2
// (x 1.3); returns how many.
int teapot_blobs(glm::vec3* out) {
  int n = 0;
  for (const auto& t : kTeapots) out[n++] = glm::vec3(t.x, t.z, 2.6f * t.scale);
  return n;
}

// Anisotropic filtering: core in GL 4.6 and the same enums as the EXT/ARB extensions (glad here
// loads GL 4.5, so they are spelled out).
constexpr GLenum kTextureMaxAnisotropy = 0x84FE, kMaxTextureMaxAnisotropy = 0x84FF;

bool has_anisotropy() {
  GLint major = 0, minor = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  if (major > 4 || (major == 4 && minor >= 6)) return true;
  GLint n = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &n);
  for (GLint i = 0; i < n; ++i) {
    const char* e = reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, i));
    if (e && (std::string(e) == "GL_EXT_texture_filter_anisotropic" ||
              std::string(e) == "GL_ARB_texture_filter_anisotropic"))
      return true;
  }
  return false;
}

}  // namespace

glm::vec3 teapot_position(int i) {
  const TeapotPlace& t = kTeapots[std::clamp(i, 0, kNumTeapots - 1)];
  return glm::vec3(t.x, 0.8f * t.scale, t.z);  // the body's centre (the teapot is ~1.6 high)
}

Renderer::Renderer(const std::string& resources, int tessellation) : res_(resources) {
  teapot_data_ = load_bezier_patches(res_ + "/assets/teapot.txt");
  set_tessellation(tessellation);
  // The sharp frame draws the floor and wall as one quad each; the lens reference as 1 m grids
  // (see quad()). The grids cost 0.33 ms a frame on the H100 at 1080p (0.62 -> 0.95 ms scene), and
  // the perspective-correct interpolation makes both give the same image.
  floor_ = upload(plane_mesh(kPlanes[PLANE_FLOOR]));
  wall_ = upload(plane_mesh(kPlanes[PLANE_WALL]));
  floor_grid_ = upload(plane_mesh(kPlanes[PLANE_FLOOR], 120, 120));
  wall_grid_ = upload(plane_mesh(kPlanes[PLANE_WALL], 120, 40));
  load_textures();
  scene_prog_ = gl::build_program(res_ + "/shaders", "scene.vert", "scene.frag");
  scene_deferred_prog_ =
      gl::build_program(res_ + "/shaders", "scene.vert", "scene.frag", {"DEFER_PLANES"});
  planes_prog_ = gl::build_compute_program(res_ + "/shaders", "shade_planes.comp");
  accum_prog_ = gl::build_compute_program(res_ + "/shaders", "accum.comp");
  accum_ms_prog_ = gl::build_compute_program(res_ + "/shaders", "accum.comp", {"MSAA 1"});
  resolve_prog_ = gl::build_program(res_ + "/shaders", "fullscreen.vert", "resolve.frag");
  clear_prog_ = gl::build_compute_program(res_ + "/shaders", "clear_scene.comp");
  set_sat_format(scandof::SatFormat::U32);
  empty_vao_ = gl::make_vertex_array();
}

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
    throw std::runtime_error("frame size " + size + " is beyond this GL implementation: " + what);
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

void Renderer::set_tessellation(int level) {
  teapot_ = upload(tessellate(teapot_data_, level));
}

void Renderer::set_sat_format(scandof::SatFormat f) {
  std::vector<std::string> defs;
  if (f == scandof::SatFormat::F32) defs.push_back("SAT_FLOAT 1");
  dof_prog_ = gl::build_program(res_ + "/shaders", "fullscreen.vert", "dof.frag", defs);
  dof_compute_prog_ = gl::build_compute_program(res_ + "/shaders", "dof.comp", defs);
}

Renderer::Drawable Renderer::upload(const Mesh& m) {
  Drawable d;
  d.vao = gl::make_vertex_array();
  d.vbo = gl::make_buffer();
  d.ibo = gl::make_buffer();
  glNamedBufferStorage(d.vbo.get(), static_cast<GLsizeiptr>(m.vertices.size() * sizeof(MeshVertex)),
                       m.vertices.data(), 0);
  glNamedBufferStorage(d.ibo.get(), static_cast<GLsizeiptr>(m.indices.size() * sizeof(uint32_t)),
                       m.indices.data(), 0);
  GLuint vao = d.vao.get();
  glVertexArrayVertexBuffer(vao, 0, d.vbo.get(), 0, sizeof(MeshVertex));
  glVertexArrayElementBuffer(vao, d.ibo.get());
  const GLuint offs[3] = {offsetof(MeshVertex, pos), offsetof(MeshVertex, normal),
                          offsetof(MeshVertex, uv)};
  const GLint sizes[3] = {3, 3, 2};
  for (GLuint a = 0; a < 3; ++a) {
    glEnableVertexArrayAttrib(vao, a);
    glVertexArrayAttribFormat(vao, a, sizes[a], GL_FLOAT, GL_FALSE, offs[a]);
    glVertexArrayAttribBinding(vao, a, 0);
  }
  d.count = static_cast<GLsizei>(m.indices.size());
  return d;
}

void Renderer::load_textures() {
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

float Renderer::set_anisotropy(float a) {
  aniso_ = std::clamp(a, 1.0f, max_aniso_);
  if (max_aniso_ > 1.0f)
    for (GLuint t : {floor_tex_.get(), wall_tex_.get()})
      glTextureParameterf(t, kTextureMaxAnisotropy, aniso_);
  return aniso_;
}

void Renderer::set_msaa(int samples) {
  GLint max_samples = 1;
  glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
  msaa_ = std::clamp(samples, 1, std::max(1, static_cast<int>(max_samples)));
  if (width_ > 0) make_msaa_targets();
}

void Renderer::make_msaa_targets() {
  ms_color_ = {};
  ms_viewz_ = {};
  ms_depth_ = {};
  ms_fbo_ = {};
  if (msaa_ <= 1) return;
  ms_color_ = gl::make_texture(GL_TEXTURE_2D_MULTISAMPLE);
  glTextureStorage2DMultisample(ms_color_.get(), msaa_, GL_RGBA8, width_, height_, GL_TRUE);
  ms_viewz_ = gl::make_texture(GL_TEXTURE_2D_MULTISAMPLE);
  glTextureStorage2DMultisample(ms_viewz_.get(), msaa_, GL_R32F, width_, height_, GL_TRUE);
  ms_depth_ = gl::make_texture(GL_TEXTURE_2D_MULTISAMPLE);
  glTextureStorage2DMultisample(ms_depth_.get(), msaa_, GL_DEPTH_COMPONENT32F, width_, height_,
                                GL_TRUE);
  ms_fbo_ = gl::make_framebuffer();
  glNamedFramebufferTexture(ms_fbo_.get(), GL_COLOR_ATTACHMENT0 + SCENE_OUT_COLOR, ms_color_.get(),
                            0);
  glNamedFramebufferTexture(ms_fbo_.get(), GL_COLOR_ATTACHMENT0 + SCENE_OUT_VIEWZ, ms_viewz_.get(),
                            0);
  glNamedFramebufferTexture(ms_fbo_.get(), GL_DEPTH_ATTACHMENT, ms_depth_.get(), 0);
  const GLenum bufs[2] = {GL_COLOR_ATTACHMENT0 + SCENE_OUT_COLOR,
                          GL_COLOR_ATTACHMENT0 + SCENE_OUT_VIEWZ};
  glNamedFramebufferDrawBuffers(ms_fbo_.get(), 2, bufs);
  if (glCheckNamedFramebufferStatus(ms_fbo_.get(), GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
    throw std::runtime_error("MSAA framebuffer incomplete at " + std::to_string(msaa_) +
                             " samples");
}

void Renderer::resize(int width, int height) {
  if (width <= 0 || height <= 0) throw std::invalid_argument("render targets need a nonzero size");
  check_frame_size(width, height);
  width_ = width;
  height_ = height;
  color_ = gl::make_texture(GL_TEXTURE_2D);
  glTextureStorage2D(color_.get(), 1, GL_RGBA8, width, height);
  depth_ = gl::make_texture(GL_TEXTURE_2D);
  glTextureStorage2D(depth_.get(), 1, GL_DEPTH_COMPONENT32F, width, height);
  viewz_ = gl::make_texture(GL_TEXTURE_2D);
  glTextureStorage2D(viewz_.get(), 1, GL_R32F, width, height);
  output_ = gl::make_texture(GL_TEXTURE_2D);
  glTextureStorage2D(output_.get(), 1, GL_RGBA8, width, height);
  for (GLuint t : {color_.get(), depth_.get(), viewz_.get(), output_.get()}) {
    glTextureParameteri(t, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTextureParameteri(t, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTextureParameteri(t, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTextureParameteri(t, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  }
  scene_fbo_ = gl::make_framebuffer();
  glNamedFramebufferTexture(scene_fbo_.get(), GL_COLOR_ATTACHMENT0 + SCENE_OUT_COLOR, color_.get(),
                            0);
  glNamedFramebufferTexture(scene_fbo_.get(), GL_COLOR_ATTACHMENT0 + SCENE_OUT_VIEWZ, viewz_.get(),
                            0);
  glNamedFramebufferTexture(scene_fbo_.get(), GL_DEPTH_ATTACHMENT, depth_.get(), 0);
  const GLenum bufs[2] = {GL_COLOR_ATTACHMENT0 + SCENE_OUT_COLOR,
                          GL_COLOR_ATTACHMENT0 + SCENE_OUT_VIEWZ};
  glNamedFramebufferDrawBuffers(scene_fbo_.get(), 2, bufs);
  output_fbo_ = gl::make_framebuffer();
  glNamedFramebufferTexture(output_fbo_.get(), GL_COLOR_ATTACHMENT0, output_.get(), 0);
  for (GLuint f : {scene_fbo_.get(), output_fbo_.get()})
    if (glCheckNamedFramebufferStatus(f, GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
      throw std::runtime_error("framebuffer incomplete at " + std::to_string(width) + "x" +
                               std::to_string(height));
  make_msaa_targets();
  ref_color_ = {};  // the reference's targets follow on its next use
  ref_depth_ = {};
  ref_accum_ = {};
  ref_fbo_ = {};
}

namespace {
const GLfloat kSky[4] = {0.55f, 0.68f, 0.85f, 1.0f};
}  // namespace

void Renderer::render_scene(const Camera& cam, float time_s, gl::GlTimer* frame_timer) {
  const GLuint fbo = msaa_ > 1 ? ms_fbo_.get() : scene_fbo_.get();
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glViewport(0, 0, width_, height_);
  glEnable(GL_DEPTH_TEST);
  glDisable(GL_BLEND);
  glDisable(GL_CULL_FACE);
  const GLfloat far_z[4] = {Camera::kFar, 0, 0, 0};  // the sky is as far as the far plane
  const GLfloat depth_one = 1.0f;
  if (msaa_ > 1) {
    glClearNamedFramebufferfv(fbo, GL_COLOR, SCENE_OUT_COLOR, kSky);
    glClearNamedFramebufferfv(fbo, GL_COLOR, SCENE_OUT_VIEWZ, far_z);
  } else {  // see shaders/clear_scene.comp for why
    glUseProgram(clear_prog_.get());
    glUniform4fv(CLEAR_LOC_SKY, 1, kSky);
    glUniform1f(CLEAR_LOC_FAR, Camera::kFar);
    glBindImageTexture(CLEAR_IMAGE_COLOR, color_.get(), 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
    glBindImageTexture(CLEAR_IMAGE_VIEWZ, viewz_.get(), 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_R32F);
    glDispatchCompute((width_ + CLEAR_GROUP_X - 1) / CLEAR_GROUP_X,
                      (height_ + CLEAR_GROUP_Y - 1) / CLEAR_GROUP_Y, 1);
    glMemoryBarrier(GL_FRAMEBUFFER_BARRIER_BIT);
  }
  glClearNamedFramebufferfv(fbo, GL_DEPTH, 0, &depth_one);
  // Timers start after the clears: the first writes to textures CUDA read last frame are where GL
  // waits for that frame's unmap, and that wait belongs to the previous frame, not to this one.
  if (frame_timer) frame_timer->begin();
  scene_timer.begin();
  const bool deferred = deferred_planes_active();
  glUseProgram(deferred ? scene_deferred_prog_.get() : scene_prog_.get());
  glUniform4f(SCENE_LOC_LENS, 0.0f, 1.0f, -1.0f, 0.0f);  // pinhole
  draw_scene(cam, time_s, false, deferred);
  if (deferred) shade_planes(cam);
  if (msaa_ > 1) {
    // Resolve into the single-sample colour and view-z textures the SAT and DoF passes read.
    glBindFramebuffer(GL_FRAMEBUFFER, scene_fbo_.get());
    glDisable(GL_DEPTH_TEST);
    glUseProgram(resolve_prog_.get());
    glBindTextureUnit(RESOLVE_UNIT_COLOR, ms_color_.get());
    glBindTextureUnit(RESOLVE_UNIT_VIEWZ, ms_viewz_.get());
    glUniform1i(RESOLVE_LOC_SAMPLES, msaa_);
    glBindVertexArray(empty_vao_.get());
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindVertexArray(0);
  }
  scene_timer.end();
}

void Renderer::shade_planes(const Camera& cam) {
  const glm::mat4 vp = cam.view_proj(static_cast<float>(width_) / height_);
  glUseProgram(planes_prog_.get());
  // Inverted in double: in float the near/far ratio of the projection costs the rays a few
  // millimetres at the wall, enough to move the checker edges of the floor by a texel.
  const glm::mat4 inv_vp = glm::mat4(glm::inverse(glm::dmat4(vp)));
  glUniformMatrix4fv(PLANES_LOC_INV_VIEW_PROJ, 1, GL_FALSE, glm::value_ptr(inv_vp));
  glUniform3fv(PLANES_LOC_EYE, 1, glm::value_ptr(cam.eye()));
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
  glBindTextureUnit(PLANES_UNIT_FLOOR, floor_tex_.get());
  glBindTextureUnit(PLANES_UNIT_WALL, wall_tex_.get());
  glBindImageTexture(PLANES_IMAGE_COLOR, color_.get(), 0, GL_FALSE, 0, GL_READ_WRITE, GL_RGBA8);
  // The scene's colour writes must land before the pass reads them, its stores before anything
  // samples, maps or draws into the colour texture next.
  glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
  glDispatchCompute((width_ + PLANES_GROUP_X - 1) / PLANES_GROUP_X,
                    (height_ + PLANES_GROUP_Y - 1) / PLANES_GROUP_Y, 1);
  glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT |
                  GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT);
}

void Renderer::draw_scene(const Camera& cam, float time_s, bool grids, bool deferred) {
  const glm::vec3 eye = cam.eye();
  const glm::mat4 vp = cam.view_proj(static_cast<float>(width_) / height_);
  glUniform2f(SCENE_LOC_VIEWPORT, static_cast<float>(width_), static_cast<float>(height_));
  glUniformMatrix4fv(SCENE_LOC_VIEW_PROJ, 1, GL_FALSE, glm::value_ptr(vp));
  glUniform3fv(SCENE_LOC_EYE, 1, glm::value_ptr(eye));
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
  glm::vec3 blobs[MAX_BLOBS] = {};
  const int nblob = teapot_blobs(blobs);
  glUniform3fv(SCENE_LOC_BLOBS, nblob, glm::value_ptr(blobs[0]));
  auto plane = [&](int k, const Drawable& d, GLuint tex, int blob_count) {
    glUniform1f(l_shin, kPlanes[k].shininess);
    glUniform1f(l_spec, kPlanes[k].specular);
    glUniform2fv(l_uv, 1, glm::value_ptr(kPlanes[k].uv_scale));
    glBindTextureUnit(SCENE_UNIT_ALBEDO, tex);
    glUniform1i(l_nblob, blob_count);
    if (deferred) glUniform1i(SCENE_LOC_PLANE, k);
    draw(d, glm::mat4(1.0f));
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
  glBindVertexArray(0);
}

std::vector<float> Renderer::render_reference(const Camera& cam, float time_s, float aperture_px,
                                              float focus, float max_radius, bool clamp,
                                              int samples) {
  if (samples < 1) throw std::invalid_argument("the lens reference needs at least one sample");
  if (!ref_fbo_ || ref_samples_ != msaa_) {
    ref_samples_ = msaa_;
    if (msaa_ > 1) {
      ref_color_ = gl::make_texture(GL_TEXTURE_2D_MULTISAMPLE);
      glTextureStorage2DMultisample(ref_color_.get(), msaa_, GL_RGBA8, width_, height_, GL_TRUE);
      ref_depth_ = gl::make_texture(GL_TEXTURE_2D_MULTISAMPLE);
      glTextureStorage2DMultisample(ref_depth_.get(), msaa_, GL_DEPTH_COMPONENT32F, width_, height_,
                                    GL_TRUE);
    } else {
      ref_color_ = gl::make_texture(GL_TEXTURE_2D);
      glTextureStorage2D(ref_color_.get(), 1, GL_RGBA8, width_, height_);
      ref_depth_ = gl::make_texture(GL_TEXTURE_2D);
      glTextureStorage2D(ref_depth_.get(), 1, GL_DEPTH_COMPONENT32F, width_, height_);
    }
    ref_accum_ = gl::make_texture(GL_TEXTURE_2D);
    glTextureStorage2D(ref_accum_.get(), 1, GL_RGBA32F, width_, height_);
    ref_fbo_ = gl::make_framebuffer();
    glNamedFramebufferTexture(ref_fbo_.get(), GL_COLOR_ATTACHMENT0 + SCENE_OUT_COLOR,
                              ref_color_.get(), 0);
    glNamedFramebufferTexture(ref_fbo_.get(), GL_DEPTH_ATTACHMENT, ref_depth_.get(), 0);
    static_assert(SCENE_OUT_COLOR == 0, "the reference keeps colour only (view z dropped)");
    const GLenum bufs[2] = {GL_COLOR_ATTACHMENT0, GL_NONE};
    glNamedFramebufferDrawBuffers(ref_fbo_.get(), 2, bufs);
    if (glCheckNamedFramebufferStatus(ref_fbo_.get(), GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
      throw std::runtime_error("lens reference framebuffer incomplete");
  }
  glFinish();
  const auto t0 = std::chrono::steady_clock::now();
  const GLfloat zero[4] = {0, 0, 0, 0};
  const GLfloat depth_one = 1.0f;
  glClearTexImage(ref_accum_.get(), 0, GL_RGBA, GL_FLOAT, zero);
  glViewport(0, 0, width_, height_);
  glDisable(GL_CULL_FACE);
  for (int i = 0; i < samples; ++i) {
    float lx = 0, ly = 0;
    scandof::dof::lens_sample(i, samples, &lx, &ly);
    glBindFramebuffer(GL_FRAMEBUFFER, ref_fbo_.get());
    glEnable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    glClearNamedFramebufferfv(ref_fbo_.get(), GL_COLOR, 0, kSky);
    glClearNamedFramebufferfv(ref_fbo_.get(), GL_DEPTH, 0, &depth_one);
    glUseProgram(scene_prog_.get());
    glUniform2f(SCENE_LOC_LENS_SAMPLE, lx, ly);
    glUniform4f(SCENE_LOC_LENS, aperture_px, focus, clamp ? max_radius : -1.0f, 0.0f);
    draw_scene(cam, time_s, true);
    // Add this sample's 8-bit frame (the sharp frame's own quantisation) into the float sum. The
    // draw -> texelFetch and texelFetch -> next clear orders are GL's own; the image load/store
    // of the sum between dispatches needs the barrier.
    glUseProgram(msaa_ > 1 ? accum_ms_prog_.get() : accum_prog_.get());
    if (msaa_ > 1) glUniform1i(ACCUM_LOC_SAMPLES, msaa_);
    glBindTextureUnit(ACCUM_UNIT_SAMPLE, ref_color_.get());
    glBindImageTexture(ACCUM_IMAGE_SUM, ref_accum_.get(), 0, GL_FALSE, 0, GL_READ_WRITE,
                       GL_RGBA32F);
    glDispatchCompute((width_ + ACCUM_GROUP_X - 1) / ACCUM_GROUP_X,
                      (height_ + ACCUM_GROUP_Y - 1) / ACCUM_GROUP_Y, 1);
    glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
  }
  glMemoryBarrier(GL_TEXTURE_UPDATE_BARRIER_BIT);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glFinish();
  ref_render_ms_ =
      std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::vector<float> rgb(static_cast<std::size_t>(width_) * height_ * 3);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTextureImage(ref_accum_.get(), 0, GL_RGB, GL_FLOAT,
                    static_cast<GLsizei>(rgb.size() * sizeof(float)), rgb.data());
  const float inv = 1.0f / static_cast<float>(samples);
  for (float& v : rgb) v *= inv;
  return rgb;
}

void Renderer::render_dof(const Settings& s, GLuint sat_buffer) {
  dof_timer.begin();
  glBindFramebuffer(GL_FRAMEBUFFER, output_fbo_.get());
  glViewport(0, 0, width_, height_);
  glDisable(GL_DEPTH_TEST);
  glUseProgram(dof_prog_.get());
  glBindTextureUnit(DOF_UNIT_COLOR, color_.get());
  glBindTextureUnit(DOF_UNIT_VIEWZ, viewz_.get());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, DOF_SAT_BINDING, sat_buffer);
  glUniform2i(DOF_LOC_SIZE, width_, height_);
  glUniform1f(DOF_LOC_FOCUS, s.focus_distance);
  glUniform1f(DOF_LOC_APERTURE, s.aperture);
  glUniform1f(DOF_LOC_MAX_RADIUS, s.max_radius);
  glUniform1i(DOF_LOC_VIEW, static_cast<int>(s.view));
  glUniform1f(DOF_LOC_SPLIT, s.split);
  glBindVertexArray(empty_vao_.get());
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  dof_timer.end();
}

void Renderer::render_dof_compute(const Settings& s, GLuint sat_buffer) {
  dof_timer.begin();
  glUseProgram(dof_compute_prog_.get());
  glBindTextureUnit(DOF_UNIT_VIEWZ, viewz_.get());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, DOF_SAT_BINDING, sat_buffer);
  glBindImageTexture(DOF_IMAGE_OUT, output_.get(), 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
  glUniform2i(DOF_LOC_SIZE, width_, height_);
  glUniform1f(DOF_LOC_FOCUS, s.focus_distance);
  glUniform1f(DOF_LOC_APERTURE, s.aperture);
  glUniform1f(DOF_LOC_MAX_RADIUS, s.max_radius);
  glDispatchCompute((width_ + DOF_COMPUTE_GROUP_X - 1) / DOF_COMPUTE_GROUP_X,
                    (height_ + DOF_COMPUTE_GROUP_Y - 1) / DOF_COMPUTE_GROUP_Y, 1);
  // Later readers: the blit/present (framebuffer), screenshots (texture update), UI over it.
  glMemoryBarrier(GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT |
                  GL_TEXTURE_FETCH_BARRIER_BIT);
  glUseProgram(0);
  dof_timer.end();
}

void Renderer::present(int fb_width, int fb_height) {
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glBlitNamedFramebuffer(output_fbo_.get(), 0, 0, 0, width_, height_, 0, 0, fb_width, fb_height,
                         GL_COLOR_BUFFER_BIT, GL_NEAREST);
}

void Renderer::bind_output() const {
  glBindFramebuffer(GL_FRAMEBUFFER, output_fbo_.get());
  glViewport(0, 0, width_, height_);
}

float Renderer::distance_at(int x, int y) {
  if (x < 0 || y < 0 || x >= width_ || y >= height_) return -1.0f;
  // The same view-axis distance the DoF passes turn into a circle of confusion.
  float z = Camera::kFar;
  glGetTextureSubImage(viewz_.get(), 0, x, y, 0, 1, 1, 1, GL_RED, GL_FLOAT, sizeof z, &z);
  return z >= Camera::kFar ? -1.0f : z;
}

std::vector<float> Renderer::read_viewz() const {
  std::vector<float> z(static_cast<std::size_t>(width_) * height_);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTextureImage(viewz_.get(), 0, GL_RED, GL_FLOAT, static_cast<GLsizei>(z.size() * 4),
                    z.data());
  return z;
}

void Renderer::upload_output(const uint8_t* rgba) {
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTextureSubImage2D(output_.get(), 0, 0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
}

std::vector<uint8_t> Renderer::read_rgba(GLuint texture) const {
  std::vector<uint8_t> px(static_cast<std::size_t>(width_) * height_ * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTextureImage(texture, 0, GL_RGBA, GL_UNSIGNED_BYTE, static_cast<GLsizei>(px.size()),
                    px.data());
  return px;
}

}  // namespace demo
