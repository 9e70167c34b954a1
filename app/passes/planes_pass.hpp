// The deferred planes pass: the floor and wall the scene pass only marked are shaded by a compute
// pass (shaders/shade_planes.comp) that recomputes their points from the pixel's ray. Their
// anisotropic texture fetches were 0.2 ms of the 1080p scene on the H100, whose graphics units are
// few (results/frame/README.md). Runs inside the scene pass's timer (between draw and end).
#pragma once

#include <string>

#include "core/camera.hpp"
#include "passes/frame_targets.hpp"
#include "scandof/gl/util.hpp"

namespace demo {

class PlanesPass {
 public:
  explicit PlanesPass(const std::string& resources);
  // Shades the marked floor and wall pixels of the frame's colour in place; with t.hdr() as linear
  // radiance with the specular gain `highlight` (the HDR program, built on first use).
  void shade(const FrameTargets& t, const Camera& cam, GLuint floor_texture, GLuint wall_texture,
             float highlight = 1.0f);

 private:
  std::string res_;
  gl::GlProgram prog_, hdr_prog_;
};

}  // namespace demo
