#include "command.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "scandof/scan.hpp"

namespace scantool {
namespace {

// Function-local so that registration from other translation units' static initializers is safe
// whatever order they run in.
std::vector<Command>& registry() {
  static std::vector<Command> r;
  return r;
}

}  // namespace

Registrar::Registrar(Command c) {
  registry().push_back(std::move(c));
}

std::vector<const Command*> commands() {
  std::vector<const Command*> out;
  for (const auto& c : registry()) out.push_back(&c);
  std::sort(out.begin(), out.end(),
            [](const Command* a, const Command* b) { return a->name < b->name; });
  return out;
}

const Command* find_command(const std::string& name) {
  for (const auto& c : registry())
    if (c.name == name) return &c;
  return nullptr;
}

ParsedArgs parse_args(const std::vector<std::string>& args, const std::vector<OptionSpec>& specs) {
  ParsedArgs out;
  bool options_done = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (options_done || a.size() < 2 || a[0] != '-') {
      out.positional.push_back(a);
      continue;
    }
    if (a == "--") {
      options_done = true;
      continue;
    }
    const std::size_t eq = a.find('=');
    const std::string name = a.substr(0, eq);
    auto spec = std::find_if(specs.begin(), specs.end(),
                             [&](const OptionSpec& s) { return s.name == name; });
    if (spec == specs.end()) throw UsageError("unknown option '" + name + "'");
    if (!spec->takes_value) {
      if (eq != std::string::npos) throw UsageError("option '" + name + "' takes no value");
      out.options[name] = "";
    } else if (eq != std::string::npos) {
      out.options[name] = a.substr(eq + 1);
    } else {
      if (i + 1 >= args.size()) throw UsageError("option '" + name + "' needs a value");
      out.options[name] = args[++i];
    }
  }
  return out;
}

std::uint64_t parse_u64(const std::string& text, const std::string& what) {
  const auto bad = [&] {
    return UsageError(what + " must be a non-negative integer, got '" + text + "'");
  };
  if (text.empty()) throw bad();
  const std::size_t caret = text.find('^');
  if (caret != std::string::npos) {  // "2^20": sizes are usually powers of two in this field
    const std::uint64_t base = parse_u64(text.substr(0, caret), what);
    const std::uint64_t exp = parse_u64(text.substr(caret + 1), what);
    std::uint64_t v = 1;
    for (std::uint64_t k = 0; k < exp; ++k) {
      if (base != 0 && v > UINT64_MAX / base) throw UsageError(what + " '" + text + "' overflows");
      v *= base;
    }
    return v;
  }
  for (char c : text)
    if (c < '0' || c > '9') throw bad();
  errno = 0;
  const unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
  if (errno == ERANGE) throw UsageError(what + " '" + text + "' is too large");
  return static_cast<std::uint64_t>(v);
}

std::size_t parse_size(const std::string& text, const std::string& what) {
  const std::uint64_t v = parse_u64(text, what);
  if (v > SIZE_MAX) throw UsageError(what + " '" + text + "' is too large");
  return static_cast<std::size_t>(v);
}

double parse_double(const std::string& text, const std::string& what) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(v))
    throw UsageError(what + " must be a finite number, got '" + text + "'");
  return v;
}

bool use_gpu(bool cpu_requested, const char* cpu_what) {
  if (cpu_requested) return false;
  std::string why;
  if (scandof::cuda_device_available(&why)) return true;
  std::fprintf(stderr, "scantool: no CUDA device (%s); computed on the CPU %s\n", why.c_str(),
               cpu_what);
  return false;
}

}  // namespace scantool
