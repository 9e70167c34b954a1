// The camera-and-focus path (scene/camera_path.*): keys through the curve, focus evenly in
// dioptres, the file written and read back unchanged, bad files refused naming the file.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "scene/camera_path.hpp"

namespace demo {
namespace {

CameraPath three_keys() {
  CameraPath p;
  p.fps = 24;
  CameraKey a, b, c;
  a.t = 0, a.eye = {0, 2, 10}, a.target = {0, 1, 0}, a.focus = 5, a.aperture = 4;
  b.t = 1.5, b.eye = {6, 3, 6}, b.target = {1, 1, 0}, b.focus = 20, b.aperture = 16;
  c.t = 4, c.eye = {9, 1.5, -2}, c.target = {2, 0.5, -1}, c.focus = 10, c.aperture = 8;
  p.keys = {a, b, c};
  return p;
}

TEST(CameraPath, PassesThroughItsKeysAndClampsOutside) {
  const CameraPath p = three_keys();
  for (const CameraKey& k : p.keys) {
    const CameraKey s = p.at(k.t);
    EXPECT_NEAR(glm::length(s.eye - k.eye), 0.0f, 1e-5f);
    EXPECT_NEAR(glm::length(s.target - k.target), 0.0f, 1e-5f);
    EXPECT_NEAR(s.focus, k.focus, 1e-4f);
    EXPECT_NEAR(s.aperture, k.aperture, 1e-5f);
  }
  EXPECT_EQ(p.at(-3).eye, p.keys.front().eye);
  EXPECT_EQ(p.at(99).eye, p.keys.back().eye);
  EXPECT_EQ(p.frames(), 97);  // 0 .. 4 s at 24 fps
}

TEST(CameraPath, FocusEvenInDioptresApertureLinear) {
  const CameraPath p = three_keys();
  const CameraKey m = p.at(0.75);  // halfway between 5 and 20: 1 / ((1/5 + 1/20) / 2) = 8
  EXPECT_NEAR(m.focus, 8.0f, 1e-4f);
  EXPECT_NEAR(m.aperture, 10.0f, 1e-5f);
}

TEST(CameraPath, SmoothThroughAMiddleKey) {
  // The curve's velocity is continuous at a key (Catmull-Rom): the step just before and just
  // after the middle key point the same way.
  const CameraPath p = three_keys();
  const double h = 1e-3;
  const glm::vec3 v0 = (p.at(1.5).eye - p.at(1.5 - h).eye) / float(h);
  const glm::vec3 v1 = (p.at(1.5 + h).eye - p.at(1.5).eye) / float(h);
  EXPECT_GT(glm::dot(glm::normalize(v0), glm::normalize(v1)), 0.999f);
}

TEST(CameraPath, WrittenAndReadBack) {
  const CameraPath p = three_keys();
  const std::string f = ::testing::TempDir() + "/camera_path_checks.json";
  save_camera_path(p, f);
  const CameraPath q = load_camera_path(f);
  ASSERT_EQ(q.keys.size(), p.keys.size());
  EXPECT_EQ(q.fps, p.fps);
  for (std::size_t i = 0; i < p.keys.size(); ++i) {
    EXPECT_EQ(q.keys[i].t, p.keys[i].t);
    EXPECT_EQ(q.keys[i].eye, p.keys[i].eye);
    EXPECT_EQ(q.keys[i].target, p.keys[i].target);
    EXPECT_EQ(q.keys[i].focus, p.keys[i].focus);
  }
  std::remove(f.c_str());
}

TEST(CameraPath, BadFilesRefusedNamingTheFile) {
  auto refusal = [](const std::string& json) {
    try {
      parse_camera_path(json, "p.json");
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  const std::string key = R"({"t":0,"eye":[0,1,5],"target":[0,0,0],"focus":5,"aperture":8})";
  EXPECT_EQ(refusal(R"({"keys":[)" + key + "]}"), "(accepted)");
  for (const std::string& bad :
       {std::string("{"), std::string("[]"), std::string(R"({"keys":[]})"),
        std::string(R"({"fps":0,"keys":[)") + key + "]}",
        std::string(R"({"keys":[{"t":0,"eye":[0,1],"target":[0,0,0],"focus":5,"aperture":8}]})"),
        std::string(R"({"keys":[{"t":0,"eye":[0,1,5],"target":[0,0,0],"focus":-5,"aperture":8}]})"),
        std::string(R"({"keys":[{"t":0,"eye":[0,0,0],"target":[0,0,0],"focus":5,"aperture":8}]})"),
        std::string(R"({"keys":[{"t":"0","eye":[0,1,5],"target":[0,0,0],"focus":5,"aperture":8}]})"),
        std::string(R"({"keys":[)") + key + "," + key + "]}"}) {
    const std::string m = refusal(bad);
    EXPECT_EQ(m.rfind("p.json: ", 0), 0u) << bad << " -> " << m;
  }
  try {
    load_camera_path("/nonexistent/path.json");
    ADD_FAILURE();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/path.json: cannot open"), std::string::npos);
  }
}

}  // namespace
}  // namespace demo
