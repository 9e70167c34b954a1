// The second depth layer: the scene drawn once more into targets of its own, keeping, at each
// pixel whose first (visible) surface lies in front of the focal plane, only the nearest surface
// that lies in a later circle-of-confusion layer than it (shaders/peel.glsl; ScenePass::draw_peel). Its colour (the frame's format:
// radiance in HDR) and view z (0 where nothing lies behind) are what the two-layer depth of field
// (scandof::dof::layered_two, DofGpu with DofFrame::rgba2) spreads behind the near field, so the
// band behind a blurred foreground object shows what is really there (scandof/dof.hpp, "Two depth
// layers"). Runs only while the settings ask for it (two_layer(Settings)); its targets exist only
// then, so the default frame costs nothing more. Its GL timer spans clears and draw.
#pragma once

#include <string>
#include <vector>

#include "core/camera.hpp"
#include "passes/frame_targets.hpp"
#include "passes/scene_pass.hpp"
#include "scandof/dof.hpp"
#include "scandof/gl/util.hpp"

namespace demo {

class PeelPass {
 public:
  explicit PeelPass(const std::string& resources) : res_(resources) {}
  // Creates (on) or drops (off) the targets at the frame's size and format; resize() and
  // set_hdr() of the frame call this again.
  void configure(bool on, int width, int height, bool hdr);
  bool active() const { return fbo_.get() != 0; }
  // Clears colour and view z to 0 (no surface) and depth, then draws the scene's second layer
  // against `t`'s view z with the lens and layers of `p`. active() must hold.
  // cut (oracle_score, diagnostics/frame_checks.hpp): every surface beyond the near field instead, the first layer
  // ignored: the frame as it would be without its near field.
  void render(const FrameTargets& t, ScenePass& scene, const Camera& cam, float time_s,
              const scandof::dof::Params& p, bool cut = false);
  GLuint color() const { return color_.get(); }
  GLuint viewz() const { return viewz_.get(); }
  float ms() const { return active() ? timer_.ms() : 0.0f; }
  // Read-backs for the CPU gold method (bottom-up, as FrameTargets').
  std::vector<float> read_viewz() const;
  std::vector<float> read_rgba_f32() const;
  std::vector<uint8_t> read_rgba() const;

 private:
  std::string res_;  // folder holding shaders/
  int width_ = 0, height_ = 0;
  bool hdr_ = false;
  gl::GlProgram clear_prog_;  // shaders/clear_scene.comp for the frame's format
  gl::GlTexture color_, viewz_, depth_;
  gl::GlFramebuffer fbo_;
  gl::GlTimer timer_;
};

}  // namespace demo
