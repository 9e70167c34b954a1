// The glTF loader (scene/gltf_loader.*) on CPU: real files of Debian's assimp-testmodels corpus
// load with what they hold; its malformed files, and malformed files made here, are refused with
// a SceneLoadError naming the file and what is wrong; limits hold; a 1-million-triangle .glb
// loads in under 2 s (Release).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "gltf_test_util.hpp"
#include "scene/gltf_loader.hpp"

namespace demo {
namespace {

using testing::corpus_dir;
using testing::grid_glb;
using testing::make_glb;

std::string corpus(const std::string& rel) {
  const std::string dir = corpus_dir();
  return dir.empty() ? std::string() : dir + "/" + rel;
}

#define NEED_CORPUS()                                                                    \
  if (corpus_dir().empty())                                                               \
  GTEST_SKIP() << "assimp-testmodels not installed (scripts/setup.sh installs it): "      \
                  "/usr/share/assimp/models/glTF2 missing at configure time"

// Every vertex finite and inside the normalised bounds, every index in range, unit normals.
void expect_sane(const LoadedScene& s) {
  ASSERT_GT(s.triangles(), 0u);
  for (uint32_t i : s.indices) ASSERT_LT(i, s.vertices.size());
  for (const MeshVertex& v : s.vertices) {
    for (int k = 0; k < 3; ++k) ASSERT_TRUE(std::isfinite(v.pos[k]));
    const float n = std::sqrt(v.normal[0] * v.normal[0] + v.normal[1] * v.normal[1] +
                              v.normal[2] * v.normal[2]);
    ASSERT_NEAR(n, 1.0f, 1e-3f);
  }
  EXPECT_NEAR(0.5f * glm::length(s.hi - s.lo), kSceneRadius, 1e-3f);
  EXPECT_NEAR(s.lo.y, 0.0f, 1e-4f);
  for (const LoadedPrimitive& p : s.primitives)
    ASSERT_LE(std::size_t(p.first_index) + p.index_count, s.indices.size());
}

// The corpus file `rel` loaded (a SceneLoadError goes to the caller) and checked by expect_sane.
LoadedScene load_sane(const std::string& rel) {
  LoadedScene s = load_gltf(corpus(rel));
  expect_sane(s);
  return s;
}

// A refusal names the file and says `what`.
void expect_refused(const std::string& path, const std::string& what) {
  try {
    load_gltf(path);
    ADD_FAILURE() << path << " loaded";
  } catch (const SceneLoadError& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.rfind(path + ": ", 0), 0u) << m;
    EXPECT_NE(m.find(what), std::string::npos) << m;
  }
}

TEST(GltfCorpus, TexturedBoxBinary) {
  NEED_CORPUS();
  const LoadedScene s = load_sane("BoxTextured-glTF-Binary/BoxTextured.glb");
  EXPECT_EQ(s.triangles(), 12u);
  ASSERT_EQ(s.materials.size(), 1u);
  const int t = s.materials[0].base_tex;
  ASSERT_GE(t, 0);
  EXPECT_TRUE(s.textures[t].srgb);
  EXPECT_GT(s.textures[t].width, 16);
  EXPECT_EQ(s.textures[t].rgba.size(), std::size_t(s.textures[t].width) * s.textures[t].height * 4);
}

TEST(GltfCorpus, TexturedBoxExternalAndEmbeddedAgree) {
  NEED_CORPUS();
  const LoadedScene a = load_gltf(corpus("BoxTextured-glTF/BoxTextured.gltf"));
  const LoadedScene b = load_gltf(corpus("BoxTextured-glTF-Embedded/BoxTextured.gltf"));
  const LoadedScene c = load_gltf(corpus("BoxTextured-glTF-Binary/BoxTextured.glb"));
  expect_sane(a);
  ASSERT_EQ(a.vertices.size(), b.vertices.size());
  ASSERT_EQ(a.vertices.size(), c.vertices.size());
  for (std::size_t i = 0; i < a.vertices.size(); ++i)
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(a.vertices[i].pos[k], b.vertices[i].pos[k]);
      EXPECT_EQ(a.vertices[i].pos[k], c.vertices[i].pos[k]);
    }
  EXPECT_EQ(a.indices, c.indices);
}

TEST(GltfCorpus, EngineHierarchyAndCamera) {
  NEED_CORPUS();
  const LoadedScene s = load_sane("2CylinderEngine-glTF-Binary/2CylinderEngine.glb");
  EXPECT_EQ(s.triangles(), 121496u);
  EXPECT_GT(s.primitives.size(), 50u);
  EXPECT_EQ(s.materials.size(), 34u);
  ASSERT_EQ(s.cameras.size(), 1u);
  EXPECT_NEAR(glm::length(s.cameras[0].forward), 1.0f, 1e-4f);
  EXPECT_GT(s.cameras[0].yfov, 0.1f);
}

TEST(GltfCorpus, PerspectiveCameraKeptOrthographicNoted) {
  NEED_CORPUS();
  const LoadedScene s = load_sane("cameras/Cameras.gltf");
  EXPECT_EQ(s.cameras.size(), 1u);
  bool noted = false;
  for (const std::string& n : s.notes) noted |= n.find("orthographic") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST(GltfCorpus, PrimitiveModesLoadOrSayNoTriangles) {
  NEED_CORPUS();
  int loaded = 0;
  for (int k = 0; k <= 15; ++k) {
    char name[96];
    std::snprintf(name, sizeof name, "glTF-Asset-Generator/Mesh_PrimitiveMode/Mesh_PrimitiveMode_%02d.gltf", k);
    try {
      load_sane(name);
      ++loaded;
    } catch (const SceneLoadError& e) {
      EXPECT_NE(std::string(e.what()).find(corpus(name)), std::string::npos) << e.what();
    }
  }
  EXPECT_GE(loaded, 3);  // triangles, strip and fan at least
}

TEST(GltfCorpus, MalformedRefused) {
  NEED_CORPUS();
  expect_refused(corpus("BoxWithInfinites-glTF-Binary/BoxWithInfinites.glb"), "not finite");
  expect_refused(corpus("IndexOutOfRange/IndexOutOfRange.gltf"), "out of range");
  expect_refused(corpus("IndexOutOfRange/AllIndicesOutOfRange.gltf"), "out of range");
  expect_refused(corpus("MissingBin/BoxTextured.gltf"), "");
  expect_refused(corpus("draco/2CylinderEngine.gltf"),
                 "requires extension KHR_draco_mesh_compression");
  expect_refused(corpus("RecursiveNodes/RecursiveNodes.gltf"), "");
  for (const char* f : {"badArray", "badExtension", "badNumber", "badObject", "badString", "badUint"})
    expect_refused(corpus(std::string("wrongTypes/") + f + ".gltf"), "");
  expect_refused(corpus("SchemaFailures/sceneWrongType.gltf"), "");
}

TEST(GltfCorpus, EveryFileLoadsOrIsRefusedWithItsName) {
  NEED_CORPUS();
  const char* files[] = {
      "BoxBadNormals-glTF-Binary/BoxBadNormals.glb", "BoxTexcoords-glTF/boxTexcoords.gltf",
      "BoxTextured-glTF-pbrSpecularGlossiness/BoxTextured.gltf",
      "BoxTextured-glTF-techniqueWebGL/BoxTextured.gltf", "ClearCoat-glTF/ClearCoatTest.gltf",
      "IncorrectVertexArrays/Cube.gltf", "TestNoRootNode/NoScene.gltf",
      "TestNoRootNode/SceneWithoutNodes.gltf",
      "glTF-Sample-Models/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf",
      "issue_3269/texcoord_crash.gltf", "simple_skin/simple_skin.gltf",
      "textureTransform/TextureTransformTest.gltf"};
  for (const char* f : files) {
    try {
      load_sane(f);
    } catch (const SceneLoadError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(corpus(f) + ": ", 0), 0u) << e.what();
    }
  }
}

// ---- Files made here -----------------------------------------------------------------------

std::vector<uint8_t> triangle_bin(float x0) {
  std::vector<uint8_t> bin;
  const float p[9] = {x0, 0, 0, 1, 0, 0, 0, 1, 0};
  for (float f : p) testing::append(&bin, f);
  for (uint32_t i : {0u, 1u, 2u}) testing::append(&bin, i);
  return bin;
}

std::string triangle_json(const std::string& top, const std::string& accessor0_count = "3",
                          const std::string& node = R"({"mesh":0})") {
  return R"({"asset":{"version":"2.0"},"scenes":[{"nodes":[0]}],"nodes":[)" + node +
         R"(],"meshes":[{"primitives":[{"attributes":{"POSITION":0},"indices":1}]}],)"
         R"("buffers":[{"byteLength":48}],"bufferViews":[{"buffer":0,"byteLength":36},)"
         R"({"buffer":0,"byteOffset":36,"byteLength":12}],"accessors":[{"bufferView":0,)"
         R"("componentType":5126,"count":)" + accessor0_count +
         R"(,"type":"VEC3"},{"bufferView":1,"componentType":5125,"count":3,"type":"SCALAR"}])" +
         (top.empty() ? "" : "," + top) + "}";
}

LoadedScene load_bytes(const std::vector<uint8_t>& b, const LoadLimits& lim = {}) {
  return load_gltf_memory(b, "made.glb", ".", lim);
}

std::string refusal(const std::vector<uint8_t>& b, const LoadLimits& lim = {}) {
  try {
    load_bytes(b, lim);
  } catch (const SceneLoadError& e) {
    return e.what();
  }
  return "(loaded)";
}

TEST(GltfMade, TriangleLoadsNormalisedWithComputedNormals) {
  const LoadedScene s = load_bytes(make_glb(triangle_json(""), triangle_bin(0)));
  expect_sane(s);
  EXPECT_EQ(s.triangles(), 1u);
  // Computed face normal of a triangle in z = 0: +-z.
  EXPECT_NEAR(std::abs(s.vertices[0].normal[2]), 1.0f, 1e-5f);
}

TEST(GltfMade, NanPositionRefused) {
  const std::string m =
      refusal(make_glb(triangle_json(""), triangle_bin(std::nanf(""))));
  EXPECT_EQ(m.rfind("made.glb: ", 0), 0u) << m;
  EXPECT_NE(m.find("not finite"), std::string::npos) << m;
  EXPECT_NE(refusal(make_glb(triangle_json(""), triangle_bin(INFINITY))).find("not finite"),
            std::string::npos);
}

TEST(GltfMade, CountsBeyondTheBufferOrTheLimitsRefused) {
  EXPECT_NE(refusal(make_glb(triangle_json("", "4"), triangle_bin(0))).find("run past"),
            std::string::npos);
  const std::string huge = refusal(make_glb(triangle_json("", "4000000000"), triangle_bin(0)));
  EXPECT_EQ(huge.rfind("made.glb: ", 0), 0u) << huge;
  LoadLimits tight;
  tight.max_vertices = 2;
  EXPECT_NE(refusal(make_glb(triangle_json(""), triangle_bin(0)), tight).find("vertices"),
            std::string::npos);
}

TEST(GltfMade, UnsupportedRequiredExtensionRefused) {
  const std::string m = refusal(make_glb(
      triangle_json(R"("extensionsUsed":["EXT_meshopt_compression"],"extensionsRequired":["EXT_meshopt_compression"])"),
      triangle_bin(0)));
  EXPECT_NE(m.find("requires extension EXT_meshopt_compression"), std::string::npos) << m;
}

TEST(GltfMade, CycleRefused) {
  const std::string json =
      R"({"asset":{"version":"2.0"},"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0,"children":[1]},{"children":[0]}],)"
      R"("meshes":[{"primitives":[{"attributes":{"POSITION":0},"indices":1}]}],)"
      R"("buffers":[{"byteLength":48}],"bufferViews":[{"buffer":0,"byteLength":36},)"
      R"({"buffer":0,"byteOffset":36,"byteLength":12}],"accessors":[{"bufferView":0,)"
      R"("componentType":5126,"count":3,"type":"VEC3"},{"bufferView":1,"componentType":5125,"count":3,"type":"SCALAR"}]})";
  const std::string m = refusal(make_glb(json, triangle_bin(0)));
  EXPECT_EQ(m.rfind("made.glb: ", 0), 0u) << m;
}

TEST(GltfMade, PunctualLightAndCameraPlacedByTheirNodes) {
  const std::string extra =
      R"("extensionsUsed":["KHR_lights_punctual"],"extensions":{"KHR_lights_punctual":{"lights":)"
      R"([{"type":"point","color":[1,0.5,0.25],"intensity":10}]}},)"
      R"("cameras":[{"type":"perspective","perspective":{"yfov":0.6,"znear":0.1}}])";
  std::string json = triangle_json(extra);
  // Nodes: the mesh, a light 2 units above the origin, a camera at z = 4 looking down -z.
  json.replace(json.find(R"("scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}])"),
               std::string(R"("scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}])").size(),
               R"("scenes":[{"nodes":[0,1,2]}],"nodes":[{"mesh":0},)"
               R"({"translation":[0,2,0],"extensions":{"KHR_lights_punctual":{"light":0}}},)"
               R"({"camera":0,"translation":[0,0,4]}])");
  const LoadedScene s = load_bytes(make_glb(json, triangle_bin(0)));
  ASSERT_EQ(s.lights.size(), 1u);
  ASSERT_EQ(s.cameras.size(), 1u);
  EXPECT_EQ(s.lights[0].type, LightType::Point);
  // The triangle spans x 0..1, y 0..1: scale k = 5 / (0.5 sqrt 2); y 2 -> 2k; intensity x k^2.
  const float k = kSceneRadius / (0.5f * std::sqrt(2.0f));
  EXPECT_NEAR(s.scale, k, 1e-4f);
  EXPECT_NEAR(s.lights[0].position.y, 2.0f * k, 1e-3f);
  EXPECT_NEAR(s.lights[0].intensity, 10.0f * k * k, 1e-2f);
  EXPECT_NEAR(s.cameras[0].eye.z, 4.0f * k, 1e-3f);
  EXPECT_NEAR(s.cameras[0].forward.z, -1.0f, 1e-6f);
  EXPECT_NEAR(s.cameras[0].yfov, 0.6f, 1e-6f);
}

TEST(GltfMade, NonUniformNodeScaleKeepsNormalsPerpendicular) {
  // A triangle in the plane x + y = 1 (normal (1,1,0)/sqrt2) scaled by (2, 1, 1): the plane
  // becomes x/2 + y = 1, normal (1, 2, 0) / sqrt 5 (the inverse transpose, not the matrix).
  std::vector<uint8_t> bin;
  const float p[9] = {1, 0, 0, 0, 1, 0, 0.5f, 0.5f, 1};
  for (float f : p) testing::append(&bin, f);
  for (uint32_t i : {0u, 1u, 2u}) testing::append(&bin, i);
  const float n = 1.0f / std::sqrt(2.0f);
  for (int v = 0; v < 3; ++v)
    for (float f : {n, n, 0.0f}) testing::append(&bin, f);
  std::string json = triangle_json("", "3", R"({"mesh":0,"scale":[2,1,1]})");
  json.replace(json.find(R"({"POSITION":0})"), 14, R"({"POSITION":0,"NORMAL":2})");
  json.replace(json.find(R"("byteLength":48)"), 15, R"("byteLength":84)");
  json.replace(json.find(R"(,"byteLength":12}])"), 18,
               R"(,"byteLength":12},{"buffer":0,"byteOffset":48,"byteLength":36}])");
  json.replace(json.find(R"("type":"SCALAR"}])"), 17,
               R"("type":"SCALAR"},{"bufferView":2,"componentType":5126,"count":3,"type":"VEC3"}])");
  const LoadedScene s = load_bytes(make_glb(json, bin));
  const float r = 1.0f / std::sqrt(5.0f);
  EXPECT_NEAR(s.vertices[0].normal[0], r, 1e-5f);
  EXPECT_NEAR(s.vertices[0].normal[1], 2 * r, 1e-5f);
}

TEST(GltfMade, MillionTrianglesLoadUnderTwoSeconds) {
  const std::vector<uint8_t> glb = grid_glb(709);
  const auto t0 = std::chrono::steady_clock::now();
  const LoadedScene s = load_bytes(glb);
  const double s_taken = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(s.triangles(), 2u * 708 * 708);
  std::printf("1,002,528-triangle .glb (%zu bytes): loaded in %.3f s\n", glb.size(), s_taken);
#if defined(NDEBUG) && !defined(__SANITIZE_ADDRESS__)
  EXPECT_LT(s_taken, 2.0);
#endif
}

}  // namespace
}  // namespace demo
