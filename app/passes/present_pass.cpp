#include "passes/present_pass.hpp"

namespace demo {

void present(const FrameTargets& t, int fb_width, int fb_height) {
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glBlitNamedFramebuffer(t.display_fbo(), 0, 0, 0, t.width(), t.height(), 0, 0, fb_width,
                         fb_height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
}

}  // namespace demo
