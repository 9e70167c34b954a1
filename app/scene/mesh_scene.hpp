// A loaded glTF scene on the GPU (scene/gltf_loader.* reads the file on the CPU): one vertex and
// one index buffer for the whole scene, one draw per primitive with its material's uniforms and
// textures (mipmapped; base colour and emissive as sRGB textures), its lights as uniforms of
// shaders/scene_gltf.frag. The scene pass (passes/scene_pass.*) draws it in place of the teapots,
// floor and wall, in the sharp frame and in every lens sample of the reference alike.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "scandof/gl/util.hpp"
#include "scene/gltf_loader.hpp"
#include "shared.h"

namespace demo {
namespace gl = scandof::gl;

// A mesh's vertex array with its vertex and index buffers, the attribute layout scene.vert reads
// (0 position, 1 normal, 2 uv): the teapot scene's meshes and a loaded file's all go through it.
struct MeshBuffers {
  gl::GlVertexArray vao;
  gl::GlBuffer vbo, ibo;
};
MeshBuffers upload_mesh(const std::vector<MeshVertex>& vertices, const std::vector<uint32_t>& indices);

class MeshScene {
 public:
  // Uploads `s` (needs a current GL 4.5 context). The CPU copy is not kept.
  explicit MeshScene(const LoadedScene& s);

  // Draws every primitive; the program (scene.vert + scene_gltf.frag) is bound and the view
  // uniforms set by the caller. `highlight` scales the emissive radiance in HDR (as the bulbs'),
  // `hdr` false: the LDR frame (emissive as authored).
  void draw(float highlight, bool hdr) const;
  // Anisotropic filtering of the model's textures (the value ScenePass clamped to the GPU's limit).
  void set_anisotropy(float a, bool supported);

  const std::string& path() const { return path_; }
  std::size_t triangles() const { return triangles_; }
  std::size_t draws() const { return prims_.size(); }
  const std::vector<LoadedCamera>& cameras() const { return cameras_; }
  glm::vec3 lo() const { return lo_; }
  glm::vec3 hi() const { return hi_; }
  bool file_lights() const { return file_lights_; }

 private:
  std::string path_;
  MeshBuffers mesh_;
  std::vector<gl::GlTexture> textures_;  // by glTF texture index; empty names where unused
  std::vector<LoadedPrimitive> prims_;
  std::vector<LoadedMaterial> materials_;
  std::vector<LoadedCamera> cameras_;
  // The lights as the shader's uniform arrays.
  int light_count_ = 0;
  glm::vec4 light_pos_[GLTF_MAX_LIGHTS], light_dir_[GLTF_MAX_LIGHTS],
      light_color_[GLTF_MAX_LIGHTS], light_cone_[GLTF_MAX_LIGHTS];
  glm::vec3 ambient_{0.0f};
  bool file_lights_ = false;
  glm::vec3 lo_{0.0f}, hi_{0.0f};
  std::size_t triangles_ = 0;
};

}  // namespace demo
