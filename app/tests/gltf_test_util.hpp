// Helpers of the glTF loader's tests (tests/demo_gltf.cmake): .glb files made in memory, a grid
// scene of any triangle count (the 1-million-triangle load test and scandof_make_glb), and where
// Debian's assimp-testmodels corpus is.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace demo::testing {

// A binary glTF: header, the JSON chunk (space-padded) and the BIN chunk (zero-padded).
inline std::vector<uint8_t> make_glb(const std::string& json, const std::vector<uint8_t>& bin) {
  std::string j = json;
  while (j.size() % 4) j.push_back(' ');
  std::vector<uint8_t> b = bin;
  while (b.size() % 4) b.push_back(0);
  const uint32_t total = 12 + 8 + static_cast<uint32_t>(j.size()) +
                         (b.empty() ? 0 : 8 + static_cast<uint32_t>(b.size()));
  std::vector<uint8_t> out;
  auto u32 = [&](uint32_t v) {
    const uint8_t* p = reinterpret_cast<const uint8_t*>(&v);
    out.insert(out.end(), p, p + 4);
  };
  out.insert(out.end(), {'g', 'l', 'T', 'F'});
  u32(2);
  u32(total);
  u32(static_cast<uint32_t>(j.size()));
  out.insert(out.end(), {'J', 'S', 'O', 'N'});
  out.insert(out.end(), j.begin(), j.end());
  if (!b.empty()) {
    u32(static_cast<uint32_t>(b.size()));
    out.insert(out.end(), {'B', 'I', 'N', 0});
    out.insert(out.end(), b.begin(), b.end());
  }
  return out;
}

template <typename T>
void append(std::vector<uint8_t>* bin, const T& v) {
  const uint8_t* p = reinterpret_cast<const uint8_t*>(&v);
  bin->insert(bin->end(), p, p + sizeof(T));
}

// A wavy n x n grid (2 (n-1)^2 triangles: n = 709 gives 1,002,528), positions and normals as
// float, indices as uint32, one material; `extra_json` goes into the top-level object (lights,
// cameras, extensionsRequired ...). Vertex values are smooth, so DoF over it shows a gradient.
inline std::vector<uint8_t> grid_glb(int n, const std::string& extra_json = "") {
  std::vector<uint8_t> bin;
  const std::size_t nv = static_cast<std::size_t>(n) * n;
  bin.reserve(nv * 24 + static_cast<std::size_t>(n - 1) * (n - 1) * 24);
  float lo[3] = {1e30f, 1e30f, 1e30f}, hi[3] = {-1e30f, -1e30f, -1e30f};
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const float x = 20.0f * i / (n - 1) - 10.0f, z = 20.0f * j / (n - 1) - 10.0f;
      const float y = 0.8f * std::sin(0.9f * x) * std::cos(0.7f * z);
      const float p[3] = {x, y, z};
      for (int k = 0; k < 3; ++k) {
        lo[k] = std::min(lo[k], p[k]);
        hi[k] = std::max(hi[k], p[k]);
        append(&bin, p[k]);
      }
    }
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const float x = 20.0f * i / (n - 1) - 10.0f, z = 20.0f * j / (n - 1) - 10.0f;
      const float dx = 0.72f * std::cos(0.9f * x) * std::cos(0.7f * z),
                  dz = -0.56f * std::sin(0.9f * x) * std::sin(0.7f * z);
      const float len = std::sqrt(dx * dx + 1.0f + dz * dz);
      append(&bin, -dx / len);
      append(&bin, 1.0f / len);
      append(&bin, -dz / len);
    }
  const std::size_t ibase = bin.size();
  for (int j = 0; j + 1 < n; ++j)
    for (int i = 0; i + 1 < n; ++i) {
      const uint32_t k = static_cast<uint32_t>(j * n + i), up = static_cast<uint32_t>(n);
      for (uint32_t v : {k, k + up, k + 1, k + 1, k + up, k + up + 1}) append(&bin, v);
    }
  const std::size_t ni = (bin.size() - ibase) / 4;
  auto num = [](double v) { return std::to_string(v); };
  std::string json = R"({"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],)"
                     R"("nodes":[{"mesh":0}],"meshes":[{"primitives":[{"attributes":)"
                     R"({"POSITION":0,"NORMAL":1},"indices":2,"material":0}]}],)"
                     R"("materials":[{"pbrMetallicRoughness":{"baseColorFactor":[0.8,0.55,0.3,1],)"
                     R"("metallicFactor":0.1,"roughnessFactor":0.5}}],)";
  json += R"("buffers":[{"byteLength":)" + std::to_string(bin.size()) + "}],";
  json += R"("bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":)" + std::to_string(nv * 12) +
          R"(},{"buffer":0,"byteOffset":)" + std::to_string(nv * 12) + R"(,"byteLength":)" +
          std::to_string(nv * 12) + R"(},{"buffer":0,"byteOffset":)" + std::to_string(ibase) +
          R"(,"byteLength":)" + std::to_string(ni * 4) + "}],";
  json += R"("accessors":[{"bufferView":0,"componentType":5126,"count":)" + std::to_string(nv) +
          R"(,"type":"VEC3","min":[)" + num(lo[0]) + "," + num(lo[1]) + "," + num(lo[2]) +
          R"(],"max":[)" + num(hi[0]) + "," + num(hi[1]) + "," + num(hi[2]) + "]}," +
          R"({"bufferView":1,"componentType":5126,"count":)" + std::to_string(nv) +
          R"(,"type":"VEC3"},{"bufferView":2,"componentType":5125,"count":)" +
          std::to_string(ni) + R"(,"type":"SCALAR"}])";
  if (!extra_json.empty()) json += "," + extra_json;
  json += "}";
  return make_glb(json, bin);
}

inline std::string corpus_dir() {
#ifdef SCANDOF_GLTF_CORPUS
  return SCANDOF_GLTF_CORPUS;
#else
  return "";
#endif
}

}  // namespace demo::testing
