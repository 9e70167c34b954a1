#include "diagnostics/image_diff.hpp"

#include <algorithm>
#include <cstdlib>

namespace demo {

ImageDiff diff_images(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b,
                      int tolerance) {
  ImageDiff d;
  d.count = std::min(a.size(), b.size());
  double sum = 0;
  for (std::size_t i = 0; i < d.count; ++i) {
    const int x = std::abs(int(a[i]) - int(b[i]));
    d.max = std::max(d.max, x);
    sum += x;
    if (x > tolerance) ++d.over;
  }
  d.mean = d.count ? sum / d.count : 0.0;
  return d;
}

}  // namespace demo
