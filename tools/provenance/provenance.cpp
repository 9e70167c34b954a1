#include "scandof/provenance.hpp"

#include <ctime>
#include <fstream>
#include <sstream>

namespace scandof {
namespace provenance {
namespace detail {
extern const char* const kCommit;  // provenance_git.cpp, written at build time
extern const bool kDirty;
}  // namespace detail

namespace {
std::string& command_line() {
  static std::string s;
  return s;
}
// POSIX shell quoting where a word needs it, so the recorded command runs as written.
std::string quoted(const std::string& w) {
  if (!w.empty() && w.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                         "0123456789_-+=.,/:@%^") == std::string::npos)
    return w;
  std::string q = "'";
  for (char c : w) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}
}  // namespace

void set_command_line(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) s += (i ? " " : "") + quoted(argv[i]);
  command_line() = s;
}

const char* commit() { return detail::kCommit; }
bool dirty() { return detail::kDirty; }
std::string command() { return command_line(); }

std::string date_utc() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string gpu_driver() {
  // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  <date>" (the open module says
  // "Open Kernel Module for x86_64  580.159.04"): the first word that reads as a version.
  std::ifstream f("/proc/driver/nvidia/version");
  std::string line;
  if (!std::getline(f, line)) return "none";
  std::istringstream words(line);
  std::string w;
  while (words >> w)
    if (w.size() > 2 && w[0] >= '0' && w[0] <= '9' && w.find('.') != std::string::npos) return w;
  return "unknown";
}

}  // namespace provenance
}  // namespace scandof
