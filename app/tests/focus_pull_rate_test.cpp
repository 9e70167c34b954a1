// The focus pull (core/focus_pull.hpp) as a user sees it over many frames: it moves towards its
// target from either side, never past it, gets there, and, as the header promises (exponential
// approach in dioptres at `speed` per second), the focus after one second is the same at 24, 60 or
// 240 frames per second or with uneven frame times. The single-step arithmetic is
// focus_pull_test.cpp's.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/focus_pull.hpp"

namespace demo {
namespace {

float pull_for(float from, float to, float speed, const std::vector<float>& steps) {
  float f = from;
  for (float dt : steps) f = pull_focus(f, to, speed, dt);
  return f;
}

std::vector<float> even(int fps, float seconds) {
  return std::vector<float>(static_cast<std::size_t>(std::lround(fps * seconds)), 1.0f / fps);
}

TEST(FocusPullOverFrames, MovesTowardsTheTargetFromEitherSide) {
  for (auto [from, to] : {std::pair{20.0f, 2.0f}, std::pair{2.0f, 20.0f}, std::pair{0.3f, 300.0f},
                          std::pair{300.0f, 0.3f}}) {
    float f = from;
    for (int i = 0; i < 120; ++i) {
      const float next = pull_focus(f, to, 4.0f, 1.0f / 60.0f);
      // Strictly closer while far off, and on the same side: no overshoot.
      if (std::fabs(f - to) > 1e-3f * to) {
        EXPECT_LT(std::fabs(next - to), std::fabs(f - to)) << from << "->" << to << " frame " << i;
      }
      EXPECT_EQ(next >= to, from >= to) << from << "->" << to << " frame " << i;
      f = next;
    }
  }
}

TEST(FocusPullOverFrames, ReachesTheTarget) {
  // After 3 s at speed 4 the gap in dioptres is e^-12 (6e-6) of the start's: within a millimetre
  // of a target 2 m away, within 2 cm of one 36 m away (a dioptre gap is a distance gap / z^2).
  for (auto [from, to] : {std::pair{20.0f, 2.0f}, std::pair{2.0f, 20.0f}, std::pair{0.5f, 36.0f}}) {
    const float f = pull_for(from, to, 4.0f, even(60, 3.0f));
    const float gap0 = std::fabs(1.0f / from - 1.0f / to);
    EXPECT_LE(std::fabs(1.0f / f - 1.0f / to), 1e-5f * gap0 + 1e-7f) << from << "->" << to;
  }
  EXPECT_NEAR(pull_for(20.0f, 2.0f, 4.0f, even(60, 3.0f)), 2.0f, 1e-3f);
  // A target already reached stays put.
  EXPECT_EQ(pull_for(5.0f, 5.0f, 4.0f, even(60, 1.0f)), 5.0f);
}

TEST(FocusPullOverFrames, FrameRateIndependent) {
  const float speed = 3.0f;
  for (auto [from, to] : {std::pair{20.0f, 2.0f}, std::pair{1.0f, 40.0f}}) {
    const float one_step = pull_focus(from, to, speed, 1.0f);
    for (int fps : {24, 30, 60, 144, 240}) {
      const float f = pull_for(from, to, speed, even(fps, 1.0f));
      EXPECT_NEAR(1.0f / f, 1.0f / one_step, 5e-5f) << fps << " fps, " << from << "->" << to;
    }
    // Uneven frame times that add up to one second.
    const std::vector<float> ragged = {0.005f, 0.1f, 0.045f, 0.25f, 0.016f, 0.084f, 0.5f};
    EXPECT_NEAR(1.0f / pull_for(from, to, speed, ragged), 1.0f / one_step, 5e-5f);
    // And the closed form: 1 - e^-speed of the dioptre gap covered after one second.
    const float covered = (1.0f / one_step - 1.0f / from) / (1.0f / to - 1.0f / from);
    EXPECT_NEAR(covered, 1.0f - std::exp(-speed), 1e-5f);
  }
}

TEST(FocusPullOverFrames, SpeedScalesTime) {
  // Twice the speed for half the time is the same pull.
  EXPECT_NEAR(pull_for(10.0f, 1.0f, 8.0f, even(60, 0.5f)), pull_for(10.0f, 1.0f, 4.0f, even(60, 1.0f)),
              1e-4f);
}

TEST(FocusPullOverFrames, PausedFramesHoldTheFocus) {
  // dt = 0 (a paused or re-rendered frame, App::frame(..., 0)) leaves it exactly where it was.
  float f = pull_for(20.0f, 2.0f, 4.0f, even(60, 0.25f));
  const float held = f;
  for (int i = 0; i < 10; ++i) f = pull_focus(f, 2.0f, 4.0f, 0.0f);
  EXPECT_EQ(f, held);
}

}  // namespace
}  // namespace demo
