// The one comparison of two 8-bit images the diagnostics make (--verify: the DoF passes against
// each other, the deferred planes against forward shading): largest difference, mean, and how
// many channel values differ by more than a tolerance.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace demo {

struct ImageDiff {
  int max = 0;             // largest |a - b| over every channel value
  double mean = 0;         // mean |a - b|
  std::size_t over = 0;    // channel values with |a - b| > tolerance
  std::size_t count = 0;   // channel values compared
  double fraction_over() const { return count ? static_cast<double>(over) / count : 0.0; }
};

// a and b of the same size (RGBA8 read-backs of one frame size).
ImageDiff diff_images(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, int tolerance);

}  // namespace demo
