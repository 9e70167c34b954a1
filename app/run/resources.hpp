// Where the shaders/ and assets/ folders are: --resources DIR, else next to the executable (copied
// there at build time, so a build folder can be carried to another machine), else the source tree.
#pragma once

#include <string>

namespace demo {

// Throws std::runtime_error naming the places it looked.
std::string find_resources(const std::string& flag);

}  // namespace demo
