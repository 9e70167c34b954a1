// The one image diff (diagnostics/image_diff.hpp) --verify's DoF and scene-shading checks share,
// and the screenshot naming helper (automation/screenshot_path.hpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>
#include <vector>

#include "automation/screenshot_path.hpp"
#include "diagnostics/image_diff.hpp"

namespace demo {
namespace {

TEST(ImageDiff, MaxMeanAndCountOverTolerance) {
  const std::vector<uint8_t> a = {0, 10, 200, 255, 7, 7};
  const std::vector<uint8_t> b = {0, 12, 195, 250, 7, 8};
  const ImageDiff d = diff_images(a, b, 2);
  EXPECT_EQ(d.max, 5);
  EXPECT_DOUBLE_EQ(d.mean, (0 + 2 + 5 + 5 + 0 + 1) / 6.0);
  EXPECT_EQ(d.over, 2u);  // 5 and 5; 2 is not over a tolerance of 2
  EXPECT_EQ(d.count, 6u);
  EXPECT_DOUBLE_EQ(d.fraction_over(), 2.0 / 6.0);
}

TEST(ImageDiff, IdenticalAndEmpty) {
  const std::vector<uint8_t> a(64, 77);
  const ImageDiff same = diff_images(a, a, 0);
  EXPECT_EQ(same.max, 0);
  EXPECT_EQ(same.over, 0u);
  const ImageDiff none = diff_images({}, {}, 1);
  EXPECT_EQ(none.count, 0u);
  EXPECT_EQ(none.mean, 0.0);
  EXPECT_EQ(none.fraction_over(), 0.0);
}

TEST(ScreenshotPath, NextFreeNumberAbsolute) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("scandof_shots_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "scandof-000.png") << "x";
  std::ofstream(dir / "scandof-002.png") << "x";
  int n = 0;
  const std::string first = next_screenshot_path(dir.string(), &n);
  EXPECT_EQ(fs::path(first), dir / "scandof-001.png");
  EXPECT_TRUE(fs::path(first).is_absolute());
  EXPECT_EQ(n, 2);
  EXPECT_EQ(fs::path(next_screenshot_path(dir.string(), &n)), dir / "scandof-003.png");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace demo
