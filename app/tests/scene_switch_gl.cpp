// Scenes switched on a running App with a GL context (EGL surfaceless; llvmpipe in CI), as the
// window's Scene field and drag and drop do (they set Settings::scene_file): a glTF file replaces
// the teapots, a file that cannot be read leaves the scene, its path, camera and image as they
// were and says why, the file's camera moves the view, the lens reference follows the scene, and
// the teapots come back. Built by tests/demo_gltf.cmake from the demo's own sources.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "diagnostics/frame_checks.hpp"
#include "app_suite_gl.hpp"
#include "frame/app.hpp"
#include "run/resources.hpp"
#include "scandof/gl/context.hpp"

namespace demo {
namespace {

constexpr int kW = 160, kH = 90;

std::string corpus(const std::string& rel) { return std::string(SCANDOF_GLTF_CORPUS) + "/" + rel; }

class SceneSwitch : public AppSuite<SceneSwitch> {
 protected:
  static void SetUpTestSuite() {
    Settings s = suite_settings();
    s.reference_samples = 4;
    start(s, kW, kH);
  }
  static std::vector<uint8_t> frames() {
    for (int i = 0; i < 3; ++i) app_->frame(kW, kH, 1.0f / 60.0f);
    return app_->targets().read_rgba(app_->targets().display());
  }
};

TEST_F(SceneSwitch, LoadRefuseKeepCameraReferenceAndBack) {
  const float focus0 = app_->settings().focus_distance;
  const std::vector<uint8_t> teapots = frames();
  EXPECT_EQ(app_->scene_model(), nullptr);

  const std::string box = corpus("BoxTextured-glTF-Binary/BoxTextured.glb");
  app_->settings().scene_file = box;
  const std::vector<uint8_t> box_img = frames();
  ASSERT_NE(app_->scene_model(), nullptr);
  EXPECT_EQ(app_->scene_model()->triangles(), 12u);
  EXPECT_FALSE(app_->scene_error());
  EXPECT_NE(box_img, teapots);
  std::string msg;
  EXPECT_TRUE(verify(*app_, &msg)) << msg;

  // The reference of the box scene, then a refused file: nothing changes, the reason is kept.
  compare_with_reference(*app_);
  EXPECT_TRUE(reference_current(*app_));
  const std::string bad = corpus("IndexOutOfRange/IndexOutOfRange.gltf");
  app_->settings().scene_file = bad;
  const std::vector<uint8_t> after_bad = frames();
  EXPECT_TRUE(app_->scene_error());
  EXPECT_NE(app_->scene_message().find(bad + ": "), std::string::npos) << app_->scene_message();
  EXPECT_EQ(app_->settings().scene_file, box);
  ASSERT_NE(app_->scene_model(), nullptr);
  EXPECT_EQ(app_->scene_model()->triangles(), 12u);
  EXPECT_EQ(after_bad, box_img);
  EXPECT_TRUE(reference_current(*app_));

  // Another file, then its own camera: the view moves, the reference is stale.
  app_->settings().scene_file = corpus("2CylinderEngine-glTF-Binary/2CylinderEngine.glb");
  const std::vector<uint8_t> framed = frames();
  EXPECT_FALSE(app_->scene_error());
  EXPECT_FALSE(reference_current(*app_));
  ASSERT_EQ(app_->scene_model()->cameras().size(), 1u);
  app_->settings().scene_camera = 0;
  EXPECT_NE(frames(), framed);

  // Back to the teapots (the Teapots button): the start view, the same image at the same focus.
  app_->settings().scene_file.clear();
  app_->settings().scene_camera = -1;
  frames();
  EXPECT_EQ(app_->scene_model(), nullptr);
  app_->settings().focus_distance = focus0;
  EXPECT_EQ(frames(), teapots);
}

}  // namespace
}  // namespace demo
