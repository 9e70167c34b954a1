// Command-line options of `scandof` (window by default, --headless for EGL batch runs), parsed by
// CLI11: help text, errors and value ranges come from it.
#pragma once

#include <optional>

#include "core/run_options.hpp"

namespace demo {

constexpr int kExitBadArguments = 2;

// Parses argv into *o. Returns an exit status when the program should stop now: 0 after --help
// (printed), kExitBadArguments after a bad argument (CLI11's message printed on stderr).
std::optional<int> parse_cli(int argc, char** argv, Options* o);

}  // namespace demo
