#include "run/resources.hpp"

#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stdexcept>

namespace demo {

namespace {
bool is_dir(const std::string& p) {
  struct stat st {};
  return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}
bool holds_resources(const std::string& dir) {
  return is_dir(dir + "/shaders") && is_dir(dir + "/assets");
}
}  // namespace

std::string find_resources(const std::string& flag) {
  if (!flag.empty()) {
    if (!holds_resources(flag))
      throw std::runtime_error("--resources " + flag + ": no shaders/ and assets/ there");
    return flag;
  }
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n > 0) {
    const std::string exe(buf, static_cast<std::size_t>(n));
    const std::string dir = exe.substr(0, exe.rfind('/'));
    if (holds_resources(dir)) return dir;
    // An installed demo (cmake --install, the scandof .deb): <prefix>/bin/scandof with its
    // resources in <prefix>/share/scandof (cmake/install.cmake).
    const std::string installed = dir + "/../share/scandof";
    if (holds_resources(installed)) return installed;
  }
  const std::string src = SCANDOF_SOURCE_DIR;
  if (holds_resources(src)) return src;
  throw std::runtime_error(
      "cannot find shaders/ and assets/ next to the executable, in ../share/scandof or in " + src +
      " (pass --resources DIR)");
}

}  // namespace demo
