// glTF 2.0 scenes (.gltf and .glb) read into a flat, GL-free description (LoadedScene) the scene
// pass uploads (scene/mesh_scene.*). Parsing is Debian's tinygltf; everything it leaves to the
// caller is checked here before a byte is used: accessor ranges inside their buffer views and
// buffers, component types, index values below the vertex count, finite positions, the sizes of
// images, the node graph's depth and cycles, required extensions this renderer lacks, and totals
// (LoadLimits) that would exhaust memory. A bad file throws SceneLoadError naming the file and
// what is wrong; nothing is half-loaded.
//
// The node hierarchy is flattened: every vertex is moved into world space by its node's matrix and
// then by one uniform scale and offset that put the scene into the demo's units (the teapot scene's
// size: a bounding sphere of radius kSceneRadius, centred on x = z = 0, standing on y = 0), so the
// DoF settings, the camera's near/far planes and the lens reference mean the same for any model.
// Costs one transform per vertex at load and none per frame (one model matrix for everything).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "scene/teapot.hpp"  // MeshVertex, Mesh

namespace demo {

class SceneLoadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Ceilings on what a file may ask for, checked before anything that large is allocated.
struct LoadLimits {
  std::size_t max_vertices = 64u << 20;   // 64 Mi vertices (2 GiB as MeshVertex)
  std::size_t max_indices = 192u << 20;   // 64 Mi triangles
  std::size_t max_primitives = 1u << 16;  // draw calls
  std::size_t max_file_bytes = std::size_t(2) << 30;
  int max_texture_side = 16384;
  std::size_t max_texture_bytes = std::size_t(1) << 30;  // all decoded images together
  int max_node_depth = 256;
  std::size_t max_node_visits = 1u << 20;  // a node reached twice (a DAG) draws twice; bounded
};

constexpr float kSceneRadius = 5.0f;  // the scene's bounding sphere after normalisation

struct LoadedTexture {
  int width = 0, height = 0;
  std::vector<uint8_t> rgba;  // RGBA8, row 0 = the image's top row (glTF's uv origin)
  bool srgb = false;          // base colour and emissive: sRGB; the rest: linear data
  bool repeat_s = true, repeat_t = true, mirror_s = false, mirror_t = false;
  bool nearest = false;
};

struct LoadedMaterial {
  glm::vec4 base_color{1.0f};
  float metallic = 1.0f, roughness = 1.0f;
  glm::vec3 emissive{0.0f};  // times KHR_materials_emissive_strength
  float normal_scale = 1.0f;
  float alpha_cutoff = -1.0f;  // >= 0: MASK (discard below); OPAQUE and BLEND draw opaque
  int base_tex = -1, mr_tex = -1, normal_tex = -1, emissive_tex = -1;  // LoadedScene::textures
};

// One draw: a range of LoadedScene::indices (absolute vertex numbers) with one material.
struct LoadedPrimitive {
  std::uint32_t first_index = 0, index_count = 0;
  int material = -1;  // -1: the default material (white, rough dielectric)
};

enum class LightType { Directional, Point, Spot };
struct LoadedLight {
  LightType type = LightType::Directional;
  glm::vec3 position{0.0f}, direction{0.0f, -1.0f, 0.0f};  // scene units; direction of travel
  glm::vec3 color{1.0f};
  float intensity = 1.0f;  // as the file gives it; point and spot lights rescaled for the scale
  float range = 0.0f;      // 0: infinite
  float inner_cone = 0.0f, outer_cone = 0.7853982f;
};

struct LoadedCamera {
  std::string name;
  glm::vec3 eye{0.0f}, forward{0.0f, 0.0f, -1.0f}, up{0.0f, 1.0f, 0.0f};
  float yfov = 0.75f;  // radians (orthographic cameras are refused: the DoF needs perspective)
};

struct LoadedScene {
  std::string path;  // as given
  std::vector<MeshVertex> vertices;  // scene units (normalised), world space
  std::vector<std::uint32_t> indices;
  std::vector<LoadedPrimitive> primitives;
  std::vector<LoadedMaterial> materials;
  std::vector<LoadedTexture> textures;
  std::vector<LoadedLight> lights;   // KHR_lights_punctual, placed by their nodes
  std::vector<LoadedCamera> cameras;  // the file's perspective cameras, placed by their nodes
  glm::vec3 lo{0.0f}, hi{0.0f};      // bounds after normalisation
  float scale = 1.0f;                // file units -> scene units
  std::vector<std::string> notes;    // what was skipped (points, lines, unused attributes)
  std::size_t triangles() const { return indices.size() / 3; }
};

// Reads a .gltf (JSON, external or embedded buffers and images) or .glb (binary) file. Throws
// SceneLoadError("FILE: what is wrong") on anything it cannot use.
LoadedScene load_gltf(const std::string& path, const LoadLimits& limits = {});
// The same from bytes in memory (what the fuzz test drives); `name` is what messages call it,
// `base_dir` where relative URIs are looked up. .glb when the bytes start with "glTF".
LoadedScene load_gltf_memory(const std::vector<uint8_t>& bytes, const std::string& name,
                             const std::string& base_dir, const LoadLimits& limits = {});

}  // namespace demo
