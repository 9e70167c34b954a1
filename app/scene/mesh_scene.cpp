#include "scene/mesh_scene.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include <glm/gtc/type_ptr.hpp>

#include "shared.h"

namespace demo {

namespace {
constexpr GLenum kTextureMaxAnisotropy = 0x84FE;  // GL 4.6 / EXT_texture_filter_anisotropic
// The key light of a file without lights: the teapots' key direction (scene_shading.glsl), its
// irradiance such that a white Lambertian surface facing it has radiance ~1 (E / pi).
const glm::vec3 kKeyTravel = -glm::normalize(glm::vec3(0.45f, 0.8f, 0.55f));
constexpr float kKeyIrradiance = 3.2f;
constexpr float kPi = 3.14159265f;
}  // namespace

MeshBuffers upload_mesh(const std::vector<MeshVertex>& vertices,
                        const std::vector<uint32_t>& indices) {
  MeshBuffers b;
  b.vao = gl::make_vertex_array();
  b.vbo = gl::make_buffer();
  b.ibo = gl::make_buffer();
  glNamedBufferStorage(b.vbo.get(), static_cast<GLsizeiptr>(vertices.size() * sizeof(MeshVertex)),
                       vertices.data(), 0);
  glNamedBufferStorage(b.ibo.get(), static_cast<GLsizeiptr>(indices.size() * sizeof(uint32_t)),
                       indices.data(), 0);
  const GLuint vao = b.vao.get();
  glVertexArrayVertexBuffer(vao, 0, b.vbo.get(), 0, sizeof(MeshVertex));
  glVertexArrayElementBuffer(vao, b.ibo.get());
  const GLuint offs[3] = {offsetof(MeshVertex, pos), offsetof(MeshVertex, normal),
                          offsetof(MeshVertex, uv)};
  const GLint sizes[3] = {3, 3, 2};
  for (GLuint a = 0; a < 3; ++a) {
    glEnableVertexArrayAttrib(vao, a);
    glVertexArrayAttribFormat(vao, a, sizes[a], GL_FLOAT, GL_FALSE, offs[a]);
    glVertexArrayAttribBinding(vao, a, 0);
  }
  return b;
}

MeshScene::MeshScene(const LoadedScene& s)
    : path_(s.path),
      prims_(s.primitives),
      materials_(s.materials),
      cameras_(s.cameras),
      lo_(s.lo),
      hi_(s.hi),
      triangles_(s.triangles()) {
  mesh_ = upload_mesh(s.vertices, s.indices);
  textures_.resize(s.textures.size());
  for (std::size_t i = 0; i < s.textures.size(); ++i) {
    const LoadedTexture& t = s.textures[i];
    if (t.rgba.empty()) continue;
    gl::GlTexture tex = gl::make_texture(GL_TEXTURE_2D);
    const int levels = 1 + static_cast<int>(std::floor(std::log2(std::max(t.width, t.height))));
    glTextureStorage2D(tex.get(), levels, t.srgb ? GL_SRGB8_ALPHA8 : GL_RGBA8, t.width, t.height);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTextureSubImage2D(tex.get(), 0, 0, 0, t.width, t.height, GL_RGBA, GL_UNSIGNED_BYTE,
                        t.rgba.data());
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glGenerateTextureMipmap(tex.get());
    glTextureParameteri(tex.get(), GL_TEXTURE_MIN_FILTER,
                        t.nearest ? GL_NEAREST_MIPMAP_LINEAR : GL_LINEAR_MIPMAP_LINEAR);
    glTextureParameteri(tex.get(), GL_TEXTURE_MAG_FILTER, t.nearest ? GL_NEAREST : GL_LINEAR);
    auto wrap = [](bool repeat, bool mirror) {
      return mirror ? GL_MIRRORED_REPEAT : repeat ? GL_REPEAT : GL_CLAMP_TO_EDGE;
    };
    glTextureParameteri(tex.get(), GL_TEXTURE_WRAP_S, wrap(t.repeat_s, t.mirror_s));
    glTextureParameteri(tex.get(), GL_TEXTURE_WRAP_T, wrap(t.repeat_t, t.mirror_t));
    textures_[i] = std::move(tex);
  }
  // Lights: the file's, or one key light. The ambient fill is a fraction of the strongest
  // light's irradiance at the scene's scale (point lights: at the bounding radius), so files
  // whose intensities are in lux or candela and files in arbitrary units both get a fill that
  // neither vanishes nor drowns the lights; auto exposure takes care of the absolute level.
  file_lights_ = !s.lights.empty();
  float strongest = 0.0f;
  if (file_lights_) {
    for (const LoadedLight& l : s.lights) {
      if (light_count_ >= GLTF_MAX_LIGHTS) break;
      const int i = light_count_++;
      const int type = l.type == LightType::Directional ? 0 : l.type == LightType::Point ? 1 : 2;
      light_pos_[i] = glm::vec4(l.position, static_cast<float>(type));
      light_dir_[i] = glm::vec4(l.direction, l.range);
      light_color_[i] = glm::vec4(l.color * l.intensity, 0.0f);
      const float co = std::cos(l.outer_cone), ci = std::cos(std::min(l.inner_cone, l.outer_cone));
      light_cone_[i] = glm::vec4(co, 1.0f / std::max(1e-4f, ci - co), 0.0f, 0.0f);
      const float lum = glm::dot(l.color, glm::vec3(0.2126f, 0.7152f, 0.0722f)) * l.intensity;
      strongest = std::max(strongest, type == 0 ? lum : lum / (kSceneRadius * kSceneRadius));
    }
  } else {
    light_count_ = 1;
    light_pos_[0] = glm::vec4(0.0f);
    light_dir_[0] = glm::vec4(kKeyTravel, 0.0f);
    light_color_[0] = glm::vec4(glm::vec3(kKeyIrradiance), 0.0f);
    light_cone_[0] = glm::vec4(0.0f);
    strongest = kKeyIrradiance;
  }
  ambient_ = glm::vec3(0.55f, 0.62f, 0.75f) * (0.3f * strongest / kPi);
}

void MeshScene::set_anisotropy(float a, bool supported) {
  if (!supported) return;
  for (const gl::GlTexture& t : textures_)
    if (t) glTextureParameterf(t.get(), kTextureMaxAnisotropy, a);
}

void MeshScene::draw(float highlight, bool hdr) const {
  glUniform1i(GLTF_LOC_LIGHT_COUNT, light_count_);
  glUniform3fv(GLTF_LOC_AMBIENT, 1, glm::value_ptr(ambient_));
  glUniform4fv(GLTF_LOC_LIGHT_POS, GLTF_MAX_LIGHTS, glm::value_ptr(light_pos_[0]));
  glUniform4fv(GLTF_LOC_LIGHT_DIR, GLTF_MAX_LIGHTS, glm::value_ptr(light_dir_[0]));
  glUniform4fv(GLTF_LOC_LIGHT_COLOR, GLTF_MAX_LIGHTS, glm::value_ptr(light_color_[0]));
  glUniform4fv(GLTF_LOC_LIGHT_CONE, GLTF_MAX_LIGHTS, glm::value_ptr(light_cone_[0]));
  const glm::mat4 identity(1.0f);  // the loader placed every vertex in world space
  glUniformMatrix4fv(SCENE_LOC_MODEL, 1, GL_FALSE, glm::value_ptr(identity));
  glUniform2f(SCENE_LOC_UV_SCALE, 1.0f, 1.0f);
  glBindVertexArray(mesh_.vao.get());
  const float emissive_gain = hdr ? highlight : 1.0f;
  const LoadedMaterial fallback{};
  auto bound = [&](int t, GLuint unit) {
    if (t < 0 || static_cast<std::size_t>(t) >= textures_.size() || !textures_[t]) return 0;
    glBindTextureUnit(unit, textures_[t].get());
    return 1;
  };
  for (const LoadedPrimitive& p : prims_) {
    const LoadedMaterial& m =
        p.material >= 0 && static_cast<std::size_t>(p.material) < materials_.size()
            ? materials_[p.material]
            : fallback;
    // glTF's factors are linear already (unlike the teapots' sRGB-authored colours).
    glUniform4fv(GLTF_LOC_BASE_COLOR, 1, glm::value_ptr(m.base_color));
    glUniform2f(GLTF_LOC_METAL_ROUGH, p.material >= 0 ? m.metallic : 0.0f, m.roughness);
    const glm::vec3 e = m.emissive * emissive_gain;
    glUniform3fv(GLTF_LOC_EMISSIVE, 1, glm::value_ptr(e));
    glUniform1f(GLTF_LOC_NORMAL_SCALE, m.normal_scale);
    glUniform1f(GLTF_LOC_ALPHA_CUTOFF, m.alpha_cutoff);
    glUniform4i(GLTF_LOC_TEXTURES, bound(m.base_tex, GLTF_UNIT_BASE),
                bound(m.mr_tex, GLTF_UNIT_METAL_ROUGH), bound(m.normal_tex, GLTF_UNIT_NORMAL),
                bound(m.emissive_tex, GLTF_UNIT_EMISSIVE));
    glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(p.index_count), GL_UNSIGNED_INT,
                   reinterpret_cast<const void*>(static_cast<std::size_t>(p.first_index) * 4));
  }
  glBindVertexArray(0);
}

}  // namespace demo
