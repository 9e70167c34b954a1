// Mouse and keyboard of the window, read through Dear ImGui's IO (so the panels get first pick):
// drags and the wheel move the camera; a click, F12/P and Esc become Requests; H and Space flip
// settings. Window mode only.
#pragma once

#include "camera.hpp"
#include "requests.hpp"
#include "settings.hpp"

namespace demo {

// fb_* / win_*: framebuffer and window sizes (they differ on high-DPI screens).
void handle_camera_input(Camera* camera, Settings* settings, Requests* req, int fb_width,
                         int fb_height, int win_width, int win_height);

}  // namespace demo
