// --headless: an EGL context without a window system. The loop of each measured run: warm-up
// frames, then the measured frames, at most two in flight. Which runs (every variant with
// --all-variants, every method with --all-methods, then the chosen one) and what is written after
// (--out, --out-frame, --dump-sat, --verify, --report, --compare, --screenshot-ui; --primitives
// first) are automation/automation.*'s.
#pragma once

#include <string>

#include "run/cli.hpp"

namespace demo {

// Returns the exit status: 1 if verification or a primitive's check failed, else 0.
int run_headless(const Options& o, const std::string& resources);

}  // namespace demo
