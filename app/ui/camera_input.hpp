// Mouse and keyboard of the window. The mouse is read through Dear ImGui's IO (so the panels get
// first pick): drags and the wheel move the camera, a click becomes a focus Request. Keys arrive as
// events from the GLFW key callback (window_loop.cpp queues them), never as polled state, so a tap
// shorter than a frame is not lost at low frame rates; each press flips a setting or adds a
// Request. Window mode only.
#pragma once

#include <vector>

#include "core/camera.hpp"
#include "core/requests.hpp"
#include "core/settings.hpp"

namespace demo {

// One line per key for the help overlay (F1) and the README: {"key", "what it does"}.
struct KeyHelp {
  const char* key;
  const char* what;
};
const std::vector<KeyHelp>& key_help();
const std::vector<KeyHelp>& mouse_help();

// fb_* / win_*: framebuffer and window sizes (they differ on high-DPI screens). `keys`: the GLFW
// key codes pressed since the last call (repeats excluded), oldest first.
void handle_camera_input(Camera* camera, Settings* settings, Requests* req,
                         const std::vector<int>& keys, int fb_width, int fb_height, int win_width,
                         int win_height);

}  // namespace demo
