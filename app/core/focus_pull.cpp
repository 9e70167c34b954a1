#include "core/focus_pull.hpp"

#include <algorithm>
#include <cmath>

namespace demo {

float pull_focus(float current, float target, float speed, float dt_s) {
  if (!(target > 0) || !(dt_s > 0)) return current;
  const float k = 1.0f - std::exp(-speed * dt_s);
  const float inv = 1.0f / current + k * (1.0f / target - 1.0f / current);
  return std::max(kMinFocusDistance, 1.0f / inv);
}

}  // namespace demo
