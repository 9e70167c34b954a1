// Image and array files: PNG in (textures) and out (screenshots), NumPy .npy out (SAT dumps).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace demo {

struct Image {
  int width = 0, height = 0;
  std::vector<uint8_t> rgba;  // 4 bytes per pixel, first row = top of the file
};

// Loads a PNG (any channel count, expanded to RGBA8). Throws std::runtime_error naming the file
// and stb's reason when it is missing or corrupt.
Image load_png(const std::string& path);

// Writes RGBA8 rows given bottom-up (as GL reads them) as a top-down PNG. Throws on failure.
void write_png_bottom_up(const std::string& path, int width, int height, const uint8_t* rgba);

// Writes a C-order .npy array of shape `shape` with dtype '<u4' or '<f4'. Throws on failure.
void write_npy(const std::string& path, const std::vector<std::size_t>& shape,
               const uint32_t* data);
void write_npy(const std::string& path, const std::vector<std::size_t>& shape, const float* data);

}  // namespace demo
