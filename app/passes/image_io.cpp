#include "passes/image_io.hpp"

#include <stb_image.h>
#include <stb_image_write.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "scandof/util/file_io.hpp"

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
  // Encoded in memory first: stb's own file writer ignores fwrite and fclose errors.
  std::string png;
  auto append = [](void* ctx, void* data, int size) {
    static_cast<std::string*>(ctx)->append(static_cast<const char*>(data),
                                           static_cast<std::size_t>(size));
  };
  // GL rows are bottom-up; the writer flips them into a top-down file.
  stbi_flip_vertically_on_write(1);
  const int ok = stbi_write_png_to_func(append, &png, width, height, 4, rgba, width * 4);
  stbi_flip_vertically_on_write(0);
  if (!ok) throw std::runtime_error("cannot encode PNG " + path);
  scandof::util::write_text_file(path, png);
}

}  // namespace demo
