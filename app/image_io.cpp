#include "image_io.hpp"

#include <stb_image.h>
#include <stb_image_write.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

// Debian's libstb.so carries the stb implementations, so no STB_*_IMPLEMENTATION here.

namespace demo {

Image load_png(const std::string& path) {
  int w = 0, h = 0, n = 0;
  std::unique_ptr<stbi_uc, void (*)(void*)> px(stbi_load(path.c_str(), &w, &h, &n, 4),
                                               stbi_image_free);
  if (!px) {
    const char* why = stbi_failure_reason();
    throw std::runtime_error("cannot load image " + path + ": " + (why ? why : "unknown error"));
  }
  Image img;
  img.width = w;
  img.height = h;
  img.rgba.assign(px.get(), px.get() + static_cast<std::size_t>(w) * h * 4);
  return img;
}

void write_png_bottom_up(const std::string& path, int width, int height, const uint8_t* rgba) {
  // GL rows are bottom-up; the writer flips them into a top-down file.
  stbi_flip_vertically_on_write(1);
  int ok = stbi_write_png(path.c_str(), width, height, 4, rgba, width * 4);
  stbi_flip_vertically_on_write(0);
  if (!ok) throw std::runtime_error("cannot write PNG " + path);
}

namespace {
void write_npy_raw(const std::string& path, const std::vector<std::size_t>& shape,
                   const char* descr, const void* data, std::size_t elem) {
  std::string dims;
  std::size_t count = 1;
  for (std::size_t d : shape) {
    dims += std::to_string(d) + ", ";
    count *= d;
  }
  if (shape.size() > 1) dims.resize(dims.size() - 1);  // "(3, 4)" but "(3,)"
  std::string header =
      std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (" + dims + "), }";
  // Version 1.0: magic, version, 2-byte header length; total header padded to 64 bytes.
  std::size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "wb"), std::fclose);
  if (!f) throw std::runtime_error("cannot open " + path + " for writing");
  const unsigned char pre[8] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  uint16_t hl = static_cast<uint16_t>(header.size());
  unsigned char hlb[2] = {static_cast<unsigned char>(hl & 0xff),
                          static_cast<unsigned char>(hl >> 8)};
  bool ok = std::fwrite(pre, 1, 8, f.get()) == 8 && std::fwrite(hlb, 1, 2, f.get()) == 2 &&
            std::fwrite(header.data(), 1, header.size(), f.get()) == header.size() &&
            std::fwrite(data, elem, count, f.get()) == count;
  if (!ok) throw std::runtime_error("short write to " + path);
}
}  // namespace

void write_npy(const std::string& path, const std::vector<std::size_t>& shape,
               const uint32_t* data) {
  write_npy_raw(path, shape, "<u4", data, 4);
}
void write_npy(const std::string& path, const std::vector<std::size_t>& shape, const float* data) {
  write_npy_raw(path, shape, "<f4", data, 4);
}

}  // namespace demo
