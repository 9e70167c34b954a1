#include "automation/screenshot_path.hpp"

#include <cstdio>
#include <filesystem>

namespace demo {

std::string next_screenshot_path(const std::string& dir, int* counter) {
  namespace fs = std::filesystem;
  const fs::path base = fs::absolute(dir.empty() ? fs::current_path() : fs::path(dir));
  for (;; ++*counter) {
    char name[32];
    std::snprintf(name, sizeof name, "scandof-%03d.png", *counter);
    const fs::path p = base / name;
    if (!fs::exists(p)) {
      ++*counter;
      return p.lexically_normal().string();
    }
  }
}

}  // namespace demo
