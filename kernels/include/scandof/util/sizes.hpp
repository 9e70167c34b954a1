// "WxH" image sizes as the programs' command lines take them (--size 1920x1080, --sizes
// 512x512,1920x1080): one parser, so every program refuses the same garbage the same way.
#pragma once

#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace scandof {
namespace util {

struct ImageSize {
  int w = 0, h = 0;
};

// Throws std::invalid_argument naming the text unless it is WxH with 1 <= W, H <= max_side.
inline ImageSize parse_size(const std::string& text, int max_side = 1 << 20) {
  ImageSize z;
  char tail = 0;
  if (std::sscanf(text.c_str(), "%dx%d%c", &z.w, &z.h, &tail) != 2 || z.w <= 0 || z.h <= 0 ||
      z.w > max_side || z.h > max_side)
    throw std::invalid_argument("bad size '" + text + "' (want WxH, 1.." +
                                std::to_string(max_side) + " each)");
  return z;
}

// A comma-separated list of sizes.
inline std::vector<ImageSize> parse_sizes(const std::string& text, int max_side = 1 << 20) {
  std::vector<ImageSize> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(parse_size(item, max_side));
  return out;
}

}  // namespace util
}  // namespace scandof
