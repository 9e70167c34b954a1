// Window mode: a GLFW window with Dear ImGui, following Dear ImGui's GLFW + OpenGL3 example loop.
// Per frame: poll events, camera input (ui/camera_input.*), panels (ui/panels.*), App::frame,
// the frame's Requests (App::carry_out), present, panels on top, swap. What scripted runs ask
// (--frames/--exit/--screenshot, --exercise-resize, --ui-selftest, --soak, the end-of-run
// outputs) is automation/'s, called at RunScript's fixed points (automation/run_script.hpp).
#pragma once

#include <string>

#include "run/cli.hpp"

namespace demo {

// Returns the exit status: 1 if --verify or --ui-selftest failed, else 0.
int run_window(const Options& o, const std::string& resources);

}  // namespace demo
