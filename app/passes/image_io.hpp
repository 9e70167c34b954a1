// PNG files: in (textures) and out (screenshots). SAT dumps use the library's npy writer.
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

// Writes RGBA8 rows given bottom-up (as GL reads them) as a top-down PNG, through
// scandof::util::write_file_atomic (every write checked). Throws naming the path on failure.
void write_png_bottom_up(const std::string& path, int width, int height, const uint8_t* rgba);

}  // namespace demo
