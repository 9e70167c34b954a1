// The present pass (window mode): the frame targets' output texture copied to the default
// framebuffer, scaled to its size; the panels are drawn over it afterwards (run/window_loop.cpp).
#pragma once

#include "passes/frame_targets.hpp"

namespace demo {

void present(const FrameTargets& t, int fb_width, int fb_height);

}  // namespace demo
