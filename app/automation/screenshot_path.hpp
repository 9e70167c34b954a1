// The one naming helper of the window's screenshots (P, F12, the button): scandof-NNN.png.
#pragma once

#include <string>

namespace demo {

// The next free scandof-NNN.png in `dir` (empty: the working directory), as an absolute path;
// *counter starts the search and ends past the number taken, so a session never overwrites one
// of its own or an earlier session's screenshots.
std::string next_screenshot_path(const std::string& dir, int* counter);

}  // namespace demo
