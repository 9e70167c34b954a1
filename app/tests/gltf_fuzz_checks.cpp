// Fuzzing the glTF loader's entry point (load_gltf_memory): truncations, byte flips, and bytes
// overwritten with digits and JSON punctuation, of a real .glb (with a PNG texture) and of a
// .gltf with an embedded buffer, 3000 variants from a fixed seed. Each must either load a sane
// scene or throw SceneLoadError naming the file; anything else (a crash, another exception, a
// hang) fails. Run under the sanitizers too (ctest -L sanitize). About 5 s in Release here.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "gltf_test_util.hpp"
#include "scene/gltf_loader.hpp"

namespace demo {
namespace {

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

// Loads or is refused properly; returns whether it loaded.
bool survives(const std::vector<uint8_t>& bytes, const std::string& base_dir, int variant) {
  const std::string name = "fuzz-" + std::to_string(variant);
  LoadLimits lim;
  lim.max_vertices = 1u << 20;  // a flipped count asks for at most this much
  lim.max_indices = 3u << 20;
  lim.max_texture_bytes = 64u << 20;
  try {
    const LoadedScene s = load_gltf_memory(bytes, name, base_dir, lim);
    EXPECT_GT(s.triangles(), 0u) << name;
    for (uint32_t i : s.indices)
      if (i >= s.vertices.size()) {
        ADD_FAILURE() << name << ": index out of range after load";
        break;
      }
    for (const MeshVertex& v : s.vertices)
      if (!std::isfinite(v.pos[0]) || !std::isfinite(v.pos[1]) || !std::isfinite(v.pos[2])) {
        ADD_FAILURE() << name << ": non-finite position after load";
        break;
      }
    return true;
  } catch (const SceneLoadError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(name + ": ", 0), 0u) << e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << name << ": unexpected exception " << e.what();
  }
  return false;
}

void fuzz(const std::vector<uint8_t>& seed, const std::string& base_dir, uint32_t rng_seed,
          int variants) {
  ASSERT_FALSE(seed.empty());
  ASSERT_TRUE(survives(seed, base_dir, -1)) << "the unmodified file must load";
  std::mt19937 rng(rng_seed);
  const char punct[] = "0123456789-.eE{}[],:\"";
  int loaded = 0;
  for (int v = 0; v < variants; ++v) {
    std::vector<uint8_t> b = seed;
    switch (v % 3) {
      case 0:  // truncation
        b.resize(rng() % b.size());
        break;
      case 1: {  // 1..8 random byte flips
        const int n = 1 + static_cast<int>(rng() % 8);
        for (int k = 0; k < n; ++k) b[rng() % b.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
        break;
      }
      default: {  // a byte overwritten with a digit or JSON punctuation, mostly in the JSON part
        const std::size_t json_end = std::min<std::size_t>(b.size(), 2048);
        const int n = 1 + static_cast<int>(rng() % 3);
        for (int k = 0; k < n; ++k) b[rng() % json_end] = punct[rng() % (sizeof punct - 1)];
        break;
      }
    }
    loaded += survives(b, base_dir, v);
  }
  std::printf("%d of %d variants loaded, the rest refused\n", loaded, variants);
}

TEST(GltfFuzz, BinaryWithTexture) {
  const std::string dir = testing::corpus_dir();
  if (dir.empty()) GTEST_SKIP() << "assimp-testmodels not installed (scripts/setup.sh)";
  const std::string d = dir + "/BoxTextured-glTF-Binary";
  fuzz(read_file(d + "/BoxTextured.glb"), d, 20261126u, 1500);
}

TEST(GltfFuzz, JsonWithEmbeddedBuffer) {
  const std::string dir = testing::corpus_dir();
  if (dir.empty()) GTEST_SKIP() << "assimp-testmodels not installed (scripts/setup.sh)";
  const std::string d = dir + "/BoxTextured-glTF-Embedded";
  fuzz(read_file(d + "/BoxTextured.gltf"), d, 7u, 1000);
}

TEST(GltfFuzz, MadeGrid) {
  fuzz(testing::grid_glb(12), ".", 12345u, 500);
}

}  // namespace
}  // namespace demo
