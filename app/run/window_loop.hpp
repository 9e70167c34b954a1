// Window mode: a GLFW window with Dear ImGui, following Dear ImGui's GLFW + OpenGL3 example loop.
// Per frame: poll events, camera input (camera_input.*), panels (ui.*), App::frame, then the
// frame's Requests (App::carry_out), present, panels on top, swap. --frames/--exit/--screenshot
// make scripted runs (the CI test); --exercise-resize resizes and minimizes while running.
#pragma once

#include <string>

#include "run/cli.hpp"

namespace demo {

// Returns the exit status: 1 if --verify found a mismatch, else 0.
int run_window(const Options& o, const std::string& resources);

}  // namespace demo
