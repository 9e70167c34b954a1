// The lens reference the DoF methods are scored against (results/dof/README.md): Haeberli &
// Akeley's accumulation buffer. The scene pass draws the frame N times through the Fibonacci
// points of dof::lens_sample on a lens of radius L = dof::lens_radius(A, z_f, f_px) (f_px from the
// camera's vertical field of view), each into a frame of the sharp frame's format (RGBA16F linear
// radiance in the HDR pipeline, RGBA8 in the LDR one) added into an RGBA32F target by
// shaders/accum.comp (a compute pass: the additive-blend fragment pass it
// replaced cost more than the scene on the H100); the mean is read back. Kept until the camera,
// time, lens or scene change (key()). Also the "reference" and "error" debug views over the DoF
// output (show_view) and the error heat map with its legend (error_map).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/camera.hpp"
#include "core/settings.hpp"
#include "passes/frame_targets.hpp"
#include "passes/scene_pass.hpp"
#include "scandof/gl/util.hpp"
#include "scandof/tonemap.hpp"

namespace demo {

// L for this camera and lens (scene units): the lens the reference samples.
float lens_radius(const Camera& cam, int frame_height, const Settings& s);

// Heat map of the per-pixel RMS difference of `image` from `reference` (both RGB float in [0, 1],
// bottom-up: display images), full scale `scale`, with its legend framed in the bottom-left
// corner; RGBA8. All black when the sizes differ.
std::vector<uint8_t> error_map(const std::vector<float>& image, const std::vector<float>& reference,
                               int width, int height, float scale);

class LensReference {
 public:
  explicit LensReference(const std::string& resources);

  // What the reference depends on: frame size, camera, animation time, lens, scene detail, and
  // what the scene pass draws (ScenePass::scene_id: the teapots or a loaded scene).
  static std::vector<float> key(const FrameTargets& t, const Camera& cam, float time_s,
                                const Settings& s, const ScenePass& scene);
  bool current(const std::vector<float>& key) const { return !rgb_.empty() && key_ == key; }
  // Renders it (glFinish'd, timed) unless the one kept has this key; says so on stderr.
  void ensure(const FrameTargets& t, ScenePass& scene, const Camera& cam, float time_s,
              const Settings& s);
  // The frame targets changed size: the reference's own targets follow on its next use.
  void drop_targets();

  // RGB float, bottom-up: radiance (HDR) or display colours in [0, 1] (LDR).
  const std::vector<float>& rgb() const { return rgb_; }
  bool hdr() const { return hdr_; }
  // What a person sees, RGBA8: LDR the mean itself; HDR the radiance through `tone` (give it the
  // frame's own exposure, auto_exposure off, so the method and the reference are mapped alike).
  std::vector<uint8_t> display(const scandof::ToneMapSettings& tone) const;
  float ms() const { return ms_; }                // host wall time of the last render
  float render_ms() const { return render_ms_; }  // of which the GL work (the rest: read back)

  // The debug views, nothing for other views or before a reference exists. Before the tone-map
  // pass: the reference (View::Reference) into the DoF output (radiance in HDR, tone mapped like
  // the frame). After it: the error map of the display image against the reference's display
  // image through `tone` (View::Error) into the display.
  void show_before_tonemap(View v, FrameTargets& t) const;
  void show_after_tonemap(View v, FrameTargets& t, float error_scale,
                          const scandof::ToneMapSettings& tone) const;

 private:
  std::vector<float> render(const FrameTargets& t, ScenePass& scene, const Camera& cam,
                            float time_s, const Settings& s);
  gl::GlProgram accum_prog_, accum_ms_prog_;
  gl::GlTexture color_, depth_, accum_;  // made on first use, at the frame's size and MSAA
  gl::GlFramebuffer fbo_;
  int samples_ = 1;  // MSAA samples of color_ / depth_
  std::vector<float> rgb_, key_;
  bool hdr_ = false;
  GLenum format_ = GL_RGBA8;  // of color_
  std::vector<uint8_t> view_rgba8_;  // the reference view's upload (LDR)
  std::vector<float> view_f32_;      // the same in HDR: RGBA float radiance
  float ms_ = 0, render_ms_ = 0;
};

}  // namespace demo
