// The autofocus pull (core/focus_pull.hpp): even in dioptres, converging, ignoring bad targets.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/focus_pull.hpp"

namespace demo {
namespace {

TEST(FocusPull, EvenInDioptres) {
  // One step from 1 m towards 2 m covers the same dioptre fraction as one from 2 m towards
  // infinity-like 1000 m does of its gap: the step moves 1/distance, not distance, linearly.
  const float speed = 4, dt = 0.05f;
  const float k = 1.0f - std::exp(-speed * dt);
  const float a = pull_focus(1.0f, 2.0f, speed, dt);
  EXPECT_NEAR(1.0f / a, 1.0f + k * (0.5f - 1.0f), 1e-5f);
  const float b = pull_focus(2.0f, 1000.0f, speed, dt);
  EXPECT_NEAR(1.0f / b, 0.5f + k * (0.001f - 0.5f), 1e-5f);
  // Two half steps equal one whole step (exponential approach in dioptres).
  const float half = pull_focus(pull_focus(3.0f, 12.0f, speed, dt / 2), 12.0f, speed, dt / 2);
  EXPECT_NEAR(half, pull_focus(3.0f, 12.0f, speed, dt), 1e-4f);
}

TEST(FocusPull, ConvergesWithoutOvershoot) {
  for (float target : {0.5f, 8.0f, 60.0f}) {
    float f = 20.0f;
    float gap = std::fabs(1.0f / f - 1.0f / target);
    for (int i = 0; i < 600; ++i) {
      f = pull_focus(f, target, 4.0f, 1.0f / 60.0f);
      const float g = std::fabs(1.0f / f - 1.0f / target);
      EXPECT_LE(g, gap + 1e-7f);
      gap = g;
    }
    EXPECT_NEAR(f, target, target * 1e-3f);
  }
  // 63 % of the way (in dioptres) in 1/speed seconds.
  const float f = pull_focus(10.0f, 5.0f, 2.0f, 0.5f);
  EXPECT_NEAR((1.0f / f - 0.1f) / (0.2f - 0.1f), 1.0f - std::exp(-1.0f), 1e-5f);
}

TEST(FocusPull, IgnoresBadTargetsAndSteps) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (float target : {-1.0f, 0.0f, nan})
    EXPECT_EQ(pull_focus(7.0f, target, 4.0f, 0.1f), 7.0f) << target;
  for (float dt : {0.0f, -0.1f, nan}) EXPECT_EQ(pull_focus(7.0f, 3.0f, 4.0f, dt), 7.0f) << dt;
}

TEST(FocusPull, ClampsAtTheNearestFocus) {
  EXPECT_EQ(pull_focus(0.06f, 0.001f, 100.0f, 1.0f), kMinFocusDistance);
}

}  // namespace
}  // namespace demo
