// scandof_make_glb N FILE.glb: writes the wavy grid scene of gltf_test_util.hpp with an N x N
// vertex grid (2 (N-1)^2 triangles; N = 709: 1,002,528) for load and frame timings.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gltf_test_util.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: scandof_make_glb N FILE.glb\n");
    return 2;
  }
  const int n = std::atoi(argv[1]);
  if (n < 2 || n > 8192) {
    std::fprintf(stderr, "scandof_make_glb: N must be 2..8192\n");
    return 2;
  }
  const std::vector<uint8_t> b = demo::testing::grid_glb(n);
  std::FILE* f = std::fopen(argv[2], "wb");
  if (!f || std::fwrite(b.data(), 1, b.size(), f) != b.size() || std::fclose(f) != 0) {
    std::fprintf(stderr, "scandof_make_glb: cannot write %s\n", argv[2]);
    return 1;
  }
  std::printf("%s: %d triangles, %zu bytes\n", argv[2], 2 * (n - 1) * (n - 1), b.size());
  return 0;
}
