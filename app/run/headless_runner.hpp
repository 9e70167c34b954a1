// --headless: an EGL context without a window system. Renders warm-up frames, then the measured
// frames of each run (every variant with --all-variants, then the chosen one), then writes what the
// flags ask for: --out, --out-frame, --dump-sat, --verify, --report, --compare, --screenshot-ui
// (the panels drawn with Dear ImGui's OpenGL3 renderer alone), and runs --primitives first.
#pragma once

#include <string>

#include "run/cli.hpp"

namespace demo {

// Returns the exit status: 1 if verification or a primitive's check failed, else 0.
int run_headless(const Options& o, const std::string& resources);

}  // namespace demo
