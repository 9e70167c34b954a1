#include "command.hpp"

#include <algorithm>
#include <cerrno>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <ostream>

#include "scandof/scan.hpp"
#include "scandof/util/file_io.hpp"
#if SCANDOF_WITH_CUDA
#include "scandof/util/stream.hpp"
#endif

namespace scantool {

const char* const kErrorsHelp =
    "Errors and exit codes:\n"
    "  0  success (compare: the arrays match)\n"
    "  1  a failed run: a file that cannot be read or is not a supported .npy (truncated,\n"
    "     damaged, big-endian, Fortran order, unsupported dtype), an output that cannot be\n"
    "     written (missing folder, directory, full disk), a CUDA error, too little memory,\n"
    "     --verify or compare finding a difference\n"
    "  2  wrong arguments: unknown command or option, a missing file name, a number outside its\n"
    "     option's range (or NaN, inf, garbage), an output that names an input\n"
    "  Every message names the file or option at fault. Outputs are written to a temporary file\n"
    "  and renamed into place: a failed run leaves an existing output untouched.";

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

std::uint64_t parse_u64(const std::string& text, const std::string& what, std::uint64_t max) {
  const auto bad = [&] {
    return UsageError(what + " must be a non-negative integer" +
                      (max == UINT64_MAX ? std::string() : " up to " + std::to_string(max)) +
                      ", got '" + text + "'");
  };
  if (text.empty()) throw bad();
  const std::size_t caret = text.find('^');
  if (caret != std::string::npos) {  // "2^20": sizes are usually powers of two in this field
    const std::uint64_t base = parse_u64(text.substr(0, caret), what);
    const std::uint64_t exp = parse_u64(text.substr(caret + 1), what);
    std::uint64_t v = 1;
    for (std::uint64_t k = 0; k < exp && v != 0; ++k) {
      if (base != 0 && v > UINT64_MAX / base) throw UsageError(what + " '" + text + "' overflows");
      v *= base;
    }
    if (v > max) throw bad();
    return v;
  }
  for (char c : text)
    if (c < '0' || c > '9') throw bad();
  errno = 0;
  const unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
  if (errno == ERANGE) throw UsageError(what + " '" + text + "' is too large");
  if (v > max) throw bad();
  return static_cast<std::uint64_t>(v);
}

std::size_t parse_size(const std::string& text, const std::string& what) {
  return static_cast<std::size_t>(parse_u64(text, what, SIZE_MAX));
}

double parse_finite(const std::string& text, const std::string& what, double lo, double hi) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  // strtod also reads hexadecimal ("0x10") and skips leading blanks; an option value is neither.
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])) ||
      text.find_first_of("xX") != std::string::npos || end != text.c_str() + text.size() ||
      !std::isfinite(v) || (errno == ERANGE && std::fabs(v) > 1))
    throw UsageError(what + " must be a finite number, got '" + text + "'");
  if (v < lo || v > hi) {
    char range[96];
    std::snprintf(range, sizeof range, "[%.17g, %.17g]", lo, hi);
    throw UsageError(what + " must be in " + range + ", got '" + text + "'");
  }
  return v;
}

void RunOptions::finish() {
  if (!reps_text.empty()) reps = static_cast<int>(parse_u64(reps_text, "--reps", kMaxReps));
  if (reps < 1) throw UsageError("--reps must be at least 1, got '" + reps_text + "'");
}

void add_run_options(CLI::App& sub, RunOptions& o, const std::string& cpu_help,
                     const std::string& time_help, const std::string& verify_help) {
  sub.add_flag("--cpu", o.cpu, cpu_help);
  sub.add_flag("--time", o.time, time_help);
  sub.add_option("--reps", o.reps_text,
                 "timed repetitions for --time, 1 .. " + std::to_string(RunOptions::kMaxReps) +
                     "    (default: 20)")
      ->type_name("N");
  sub.add_flag("--verify", o.verify, verify_help);
}

void add_text_options(CLI::App& sub, std::initializer_list<TextOption> rows) {
  for (const TextOption& r : rows) sub.add_option(r.flag, *r.target, r.help)->type_name(r.type);
}

scandof::npy::Array load_1d(const std::string& path, const char* command) {
  scandof::npy::Array a = scandof::npy::load(path);
  if (a.ndim() != 1)
    throw std::runtime_error(path + ": " + command + " needs a 1-D array, this one has shape " +
                             scandof::npy::shape_string(a.shape) +
                             " (flatten it first, e.g. np.save(path, a.ravel()))");
  return a;
}

scandof::npy::Array load_companion(const std::string& path, scandof::npy::DType dtype,
                                   std::size_t count, const std::string& main_path,
                                   const char* what) {
  scandof::npy::Array a = scandof::npy::load(path);
  if (a.dtype != dtype || a.ndim() != 1 || a.count() != count)
    throw std::runtime_error(path + ": " + what + " must be 1-D " + scandof::npy::to_string(dtype) +
                             " with as many elements as " + main_path + " (" +
                             std::to_string(count) + "); this one is " +
                             scandof::npy::to_string(a.dtype) + " " +
                             scandof::npy::shape_string(a.shape));
  return a;
}

void check_outputs(const std::vector<std::string>& inputs,
                   const std::vector<std::pair<std::string, std::string>>& outputs) {
  namespace fs = std::filesystem;
  // The same file whatever the spelling: equivalent() for existing ones (links included), the
  // normalized absolute path for outputs that do not exist yet.
  const auto same = [](const std::string& a, const std::string& b) {
    std::error_code ec;
    if (fs::equivalent(a, b, ec) && !ec) return true;
    const fs::path pa = fs::weakly_canonical(a, ec);
    if (ec) return a == b;
    const fs::path pb = fs::weakly_canonical(b, ec);
    if (ec) return a == b;
    return pa == pb;
  };
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const auto& [opt, out] = outputs[i];
    if (out.empty()) continue;
    for (const auto& in : inputs)
      if (!in.empty() && same(in, out))
        throw UsageError(opt + " '" + out + "' is the input '" + in +
                         "'; write the result to another file");
    for (std::size_t j = 0; j < i; ++j)
      if (same(outputs[j].second, out))
        throw UsageError(opt + " '" + out + "' is also " + outputs[j].first +
                         "; give two different files");
  }
}

void save_all(const std::vector<NpyOut>& outs) {
  std::vector<scandof::util::FileWrite> writes;
  for (const auto& o : outs)
    writes.push_back({o.path, [&o](std::ostream& s) {
                        scandof::npy::save(s, o.dtype, o.shape, o.data, o.path);
                      }});
  scandof::util::write_files_atomic(writes);
}

bool use_gpu(bool cpu_requested, const char* cpu_what) {
  if (cpu_requested) return false;
  std::string why;
  if (scandof::cuda_device_available(&why)) return true;
  std::fprintf(stderr, "scantool: no CUDA device (%s); computed on the CPU %s\n", why.c_str(),
               cpu_what);
  return false;
}

#if SCANDOF_WITH_CUDA
std::string device_name() {
  return scandof::util::current_device().name;
}
#endif

}  // namespace scantool
