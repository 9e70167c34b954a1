#include "renderer.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>

#include "image_io.hpp"

namespace demo {

namespace {

struct Mat4 {
  float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};  // column-major, as GL
};

Mat4 mul(const Mat4& a, const Mat4& b) {
  Mat4 r;
  for (int c = 0; c < 4; ++c)
    for (int row = 0; row < 4; ++row) {
      float s = 0;
      for (int k = 0; k < 4; ++k) s += a.m[k * 4 + row] * b.m[c * 4 + k];
      r.m[c * 4 + row] = s;
    }
  return r;
}

Mat4 perspective(float fovy, float aspect, float n, float f) {
  Mat4 r;
  float t = 1.0f / std::tan(fovy / 2);
  r.m[0] = t / aspect;
  r.m[5] = t;
  r.m[10] = (f + n) / (n - f);
  r.m[11] = -1;
  r.m[14] = 2 * f * n / (n - f);
  r.m[15] = 0;
  return r;
}

Mat4 look_at(const float e[3], const float c[3]) {
  float f[3] = {c[0] - e[0], c[1] - e[1], c[2] - e[2]};
  float fl = std::sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
  for (float& v : f) v /= fl;
  float up[3] = {0, 1, 0};
  float s[3] = {f[1] * up[2] - f[2] * up[1], f[2] * up[0] - f[0] * up[2],
                f[0] * up[1] - f[1] * up[0]};
  float sl = std::sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
  for (float& v : s) v /= sl;
  float u[3] = {s[1] * f[2] - s[2] * f[1], s[2] * f[0] - s[0] * f[2], s[0] * f[1] - s[1] * f[0]};
  Mat4 r;
  r.m[0] = s[0], r.m[4] = s[1], r.m[8] = s[2];
  r.m[1] = u[0], r.m[5] = u[1], r.m[9] = u[2];
  r.m[2] = -f[0], r.m[6] = -f[1], r.m[10] = -f[2];
  r.m[12] = -(s[0] * e[0] + s[1] * e[1] + s[2] * e[2]);
  r.m[13] = -(u[0] * e[0] + u[1] * e[1] + u[2] * e[2]);
  r.m[14] = f[0] * e[0] + f[1] * e[1] + f[2] * e[2];
  return r;
}

Mat4 model_matrix(float x, float y, float z, float yaw, float scale) {
  Mat4 r;
  float c = std::cos(yaw) * scale, s = std::sin(yaw) * scale;
  r.m[0] = c, r.m[2] = -s;
  r.m[5] = scale;
  r.m[8] = s, r.m[10] = c;
  r.m[12] = x, r.m[13] = y, r.m[14] = z;
  return r;
}

Mesh quad(float x0, float y0, float z0, float ux, float uy, float uz, float vx, float vy, float vz,
          float nx, float ny, float nz) {
  Mesh m;
  for (int i = 0; i < 4; ++i) {
    float a = (i & 1) ? 1.f : 0.f, b = (i & 2) ? 1.f : 0.f;
    m.vertices.push_back(MeshVertex{
        {x0 + a * ux + b * vx, y0 + a * uy + b * vy, z0 + a * uz + b * vz}, {nx, ny, nz}, {a, b}});
  }
  m.indices = {0, 1, 2, 2, 1, 3};
  return m;
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
constexpr float kWallZ = -24.0f;

}  // namespace

void Camera::orbit(float dx, float dy) {
  yaw -= dx * 0.006f;
  pitch = std::clamp(pitch + dy * 0.006f, -0.1f, 1.45f);
}

void Camera::pan(float dx, float dy) {
  // Move the target in the camera's right/up plane, scaled with distance so panning feels even.
  float k = distance * 0.0015f;
  float rx = std::cos(yaw), rz = -std::sin(yaw);
  target[0] -= dx * k * rx;
  target[2] -= dx * k * rz;
  target[1] += dy * k;
}

void Camera::zoom(float steps) {
  distance = std::clamp(distance * std::pow(0.9f, steps), 2.0f, 80.0f);
}

void Camera::eye(float out[3]) const {
  out[0] = target[0] + distance * std::cos(pitch) * std::sin(yaw);
  out[1] = target[1] + distance * std::sin(pitch);
  out[2] = target[2] + distance * std::cos(pitch) * std::cos(yaw);
}

Renderer::Renderer(const std::string& resources, int tessellation) : res_(resources) {
  teapot_data_ = load_bezier_patches(res_ + "/assets/teapot.txt");
  set_tessellation(tessellation);
  floor_ = upload(quad(-60, 0, 40, 120, 0, 0, 0, 0, -120, 0, 1, 0));
  wall_ = upload(quad(-60, -1, kWallZ, 120, 0, 0, 0, 40, 0, 0, 0, 1));
  load_textures();
  scene_prog_ = build_program(res_ + "/shaders/scene.vert", res_ + "/shaders/scene.frag");
  set_sat_format(scandof::SatFormat::U32);
  empty_vao_ = make_vertex_array();
}

void Renderer::set_tessellation(int level) {
  teapot_ = upload(tessellate(teapot_data_, level));
}

void Renderer::set_sat_format(scandof::SatFormat f) {
  std::vector<std::string> defs;
  if (f == scandof::SatFormat::F32) defs.push_back("SAT_FLOAT 1");
  dof_prog_ = build_program(res_ + "/shaders/fullscreen.vert", res_ + "/shaders/dof.frag", defs);
}

Renderer::Drawable Renderer::upload(const Mesh& m) {
  Drawable d;
  d.vao = make_vertex_array();
  d.vbo = make_buffer();
  d.ibo = make_buffer();
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
    GlTexture t = make_texture(GL_TEXTURE_2D);
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
}

void Renderer::resize(int width, int height) {
  if (width <= 0 || height <= 0) throw std::invalid_argument("render targets need a nonzero size");
  width_ = width;
  height_ = height;
  color_ = make_texture(GL_TEXTURE_2D);
  glTextureStorage2D(color_.get(), 1, GL_RGBA8, width, height);
  depth_ = make_texture(GL_TEXTURE_2D);
  glTextureStorage2D(depth_.get(), 1, GL_DEPTH_COMPONENT32F, width, height);
  output_ = make_texture(GL_TEXTURE_2D);
  glTextureStorage2D(output_.get(), 1, GL_RGBA8, width, height);
  for (GLuint t : {color_.get(), depth_.get(), output_.get()}) {
    glTextureParameteri(t, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTextureParameteri(t, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTextureParameteri(t, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTextureParameteri(t, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  }
  scene_fbo_ = make_framebuffer();
  glNamedFramebufferTexture(scene_fbo_.get(), GL_COLOR_ATTACHMENT0, color_.get(), 0);
  glNamedFramebufferTexture(scene_fbo_.get(), GL_DEPTH_ATTACHMENT, depth_.get(), 0);
  output_fbo_ = make_framebuffer();
  glNamedFramebufferTexture(output_fbo_.get(), GL_COLOR_ATTACHMENT0, output_.get(), 0);
  for (GLuint f : {scene_fbo_.get(), output_fbo_.get()})
    if (glCheckNamedFramebufferStatus(f, GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
      throw std::runtime_error("framebuffer incomplete at " + std::to_string(width) + "x" +
                               std::to_string(height));
}

void Renderer::render_scene(const Camera& cam, float time_s) {
  scene_timer.begin();
  glBindFramebuffer(GL_FRAMEBUFFER, scene_fbo_.get());
  glViewport(0, 0, width_, height_);
  glEnable(GL_DEPTH_TEST);
  glDisable(GL_BLEND);
  glDisable(GL_CULL_FACE);
  glClearColor(0.55f, 0.68f, 0.85f, 1.0f);
  glClearDepth(1.0);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);

  float eye[3];
  cam.eye(eye);
  Mat4 vp =
      mul(perspective(0.75f, static_cast<float>(width_) / height_, Camera::kNear, Camera::kFar),
          look_at(eye, cam.target));
  GLuint p = scene_prog_.get();
  glUseProgram(p);
  glUniformMatrix4fv(glGetUniformLocation(p, "u_view_proj"), 1, GL_FALSE, vp.m);
  glUniform3fv(glGetUniformLocation(p, "u_eye"), 1, eye);
  glUniform1i(glGetUniformLocation(p, "u_albedo"), 0);
  const GLint l_model = glGetUniformLocation(p, "u_model");
  const GLint l_color = glGetUniformLocation(p, "u_color");
  const GLint l_tex = glGetUniformLocation(p, "u_textured");
  const GLint l_uv = glGetUniformLocation(p, "u_uv_scale");
  const GLint l_shin = glGetUniformLocation(p, "u_shininess");
  const GLint l_spec = glGetUniformLocation(p, "u_specular");

  auto draw = [&](const Drawable& d, const Mat4& model) {
    glUniformMatrix4fv(l_model, 1, GL_FALSE, model.m);
    glBindVertexArray(d.vao.get());
    glDrawElements(GL_TRIANGLES, d.count, GL_UNSIGNED_INT, nullptr);
  };
  glUniform1i(l_tex, 1);
  glUniform3f(l_color, 1, 1, 1);
  glUniform1f(l_shin, 16.0f);
  glUniform1f(l_spec, 0.05f);
  glBindTextureUnit(0, floor_tex_.get());
  glUniform2f(l_uv, 24.0f, 24.0f);
  float blobs[8 * 3] = {};
  int nblob = 0;
  for (const auto& t : kTeapots) {
    blobs[nblob * 3 + 0] = t.x;
    blobs[nblob * 3 + 1] = t.z;
    blobs[nblob * 3 + 2] = 2.6f * t.scale;  // the teapot's footprint radius is about 2 (x 1.3)
    ++nblob;
  }
  const GLint l_nblob = glGetUniformLocation(p, "u_blob_count");
  glUniform3fv(glGetUniformLocation(p, "u_blobs"), nblob, blobs);
  glUniform1i(l_nblob, nblob);
  draw(floor_, Mat4{});
  glUniform1i(l_nblob, 0);
  glBindTextureUnit(0, wall_tex_.get());
  glUniform2f(l_uv, 6.0f, 4.0f);
  draw(wall_, Mat4{});

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
  scene_timer.end();
}

void Renderer::render_dof(const Settings& s, GLuint sat_buffer) {
  dof_timer.begin();
  glBindFramebuffer(GL_FRAMEBUFFER, output_fbo_.get());
  glViewport(0, 0, width_, height_);
  glDisable(GL_DEPTH_TEST);
  GLuint p = dof_prog_.get();
  glUseProgram(p);
  glBindTextureUnit(0, color_.get());
  glBindTextureUnit(1, depth_.get());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, sat_buffer);
  glUniform1i(glGetUniformLocation(p, "u_color"), 0);
  glUniform1i(glGetUniformLocation(p, "u_depth"), 1);
  glUniform2i(glGetUniformLocation(p, "u_size"), width_, height_);
  glUniform1f(glGetUniformLocation(p, "u_near"), Camera::kNear);
  glUniform1f(glGetUniformLocation(p, "u_far"), Camera::kFar);
  glUniform1f(glGetUniformLocation(p, "u_focus"), s.focus_distance);
  glUniform1f(glGetUniformLocation(p, "u_aperture"), s.aperture);
  glUniform1f(glGetUniformLocation(p, "u_max_radius"), s.max_radius);
  glUniform1i(glGetUniformLocation(p, "u_view"), static_cast<int>(s.view));
  glUniform1f(glGetUniformLocation(p, "u_split"), s.split);
  glBindVertexArray(empty_vao_.get());
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
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
  float d = 1.0f;
  glBindFramebuffer(GL_READ_FRAMEBUFFER, scene_fbo_.get());
  glReadPixels(x, y, 1, 1, GL_DEPTH_COMPONENT, GL_FLOAT, &d);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  if (d >= 1.0f) return -1.0f;
  const float n = Camera::kNear, f = Camera::kFar;
  return n * f / (f - d * (f - n));
}

std::vector<uint8_t> Renderer::read_rgba(GLuint texture) const {
  std::vector<uint8_t> px(static_cast<std::size_t>(width_) * height_ * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTextureImage(texture, 0, GL_RGBA, GL_UNSIGNED_BYTE, static_cast<GLsizei>(px.size()),
                    px.data());
  return px;
}

}  // namespace demo
