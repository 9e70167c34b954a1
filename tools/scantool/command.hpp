// The subcommand registry of scantool and what the subcommands share. Each subcommand lives in
// its own cmd_*.cpp and registers itself with a file-scope `Registrar`; CMake globs the folder, so
// adding a subcommand means adding one file, not editing main.cpp. The command line itself is
// CLI11's: a subcommand declares its options on the CLI::App that main() hands it.
#pragma once

#include <CLI/CLI.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include "scandof/npy.hpp"

#if SCANDOF_WITH_CUDA
#include "scandof/util/event_timer.hpp"
#endif

namespace scantool {

// Exit codes: scripts can tell bad usage from a failed run.
constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

// The "Errors and exit codes" paragraph every --help ends with.
extern const char* const kErrorsHelp;

// Wrong arguments found after parsing (a value out of range, options that exclude each other):
// main prints the message and a pointer to --help, exits with kExitUsage. Anything else derived
// from std::exception is a failed run (kExitFailure).
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Command {
  std::string name;
  std::string summary;  // one line for `scantool --help`
  // Declares the subcommand's options, description and footer on `sub` (bound to state the
  // returned function owns) and returns what runs it once the command line parsed. The runner
  // returns the exit code or throws (UsageError, or any std::exception for a failed run).
  std::function<std::function<int()>(CLI::App& sub)> setup;
};

// Commands sorted by name.
std::vector<const Command*> commands();

struct Registrar {
  explicit Registrar(Command c);
};

// --- numbers from the command line -----------------------------------------------------------
// Options take their text and these parse it into the option's real range, so a value that would
// wrap (4294967304 as a 32-bit int), is not a number, or is NaN/inf where that makes no sense is
// refused with a message naming the option, instead of being narrowed silently. (CLI11's own
// conversions accept "-1" for unsigned and "010" as octal; hence the explicit parsing.)

// Non-negative integers: "1000", "2^20". Throws UsageError naming `what`, also above `max`.
std::uint64_t parse_u64(const std::string& text, const std::string& what,
                        std::uint64_t max = UINT64_MAX);
std::size_t parse_size(const std::string& text, const std::string& what);
// A finite number in [lo, hi] (NaN and infinities refused).
double parse_finite(const std::string& text, const std::string& what, double lo, double hi);

// --- options several subcommands share ---------------------------------------------------------

// --cpu, --time, --reps N (one rule everywhere: an integer in [1, kMaxReps]), --verify.
struct RunOptions {
  static constexpr std::uint64_t kMaxReps = 100000;
  bool cpu = false, time = false, verify = false;
  int reps = 20;
  std::string reps_text;
  // Parses --reps; call once the command line parsed.
  void finish();
};
void add_run_options(CLI::App& sub, RunOptions& o, const std::string& cpu_help,
                     const std::string& time_help, const std::string& verify_help);

// Options that keep their text for the parsers above, one row each, in --help's order; `type` is
// the placeholder --help shows for the value.
struct TextOption {
  const char* flag;
  std::string* target;
  const char* type;
  const char* help;
};
void add_text_options(CLI::App& sub, std::initializer_list<TextOption> rows);

// --- files -------------------------------------------------------------------------------------

// Loads a 1-D array for `command`; a wrong shape is a failed run naming the shape.
scandof::npy::Array load_1d(const std::string& path, const char* command);
// Loads an array that accompanies `main` (--flags, --values): it must be `dtype` with `count`
// elements.
scandof::npy::Array load_companion(const std::string& path, scandof::npy::DType dtype,
                                   std::size_t count, const std::string& main_path,
                                   const char* what);
// Refuses (UsageError) an output path that names one of the inputs (the same file, whatever the
// spelling) or another output: a run must never overwrite what it reads.
void check_outputs(const std::vector<std::string>& inputs,
                   const std::vector<std::pair<std::string, std::string>>& outputs);
// Writes arrays together: each into a temporary file beside its destination, renamed only once
// all of them were written, so a failure leaves every destination as it was.
struct NpyOut {
  std::string path;
  scandof::npy::DType dtype;
  std::vector<std::size_t> shape;
  const void* data;
};
void save_all(const std::vector<NpyOut>& outs);

// Whether a subcommand runs on the GPU: false when --cpu was given or no usable CUDA device is
// present; the latter is said on stderr as "scantool: no CUDA device (<why>); computed on the CPU
// <cpu_what>", so every subcommand reports its fallback the same way.
bool use_gpu(bool cpu_requested, const char* cpu_what);

#if SCANDOF_WITH_CUDA
// --time: `reps` calls of fn() on the default stream, each bracketed by events; the median in ms.
// The caller has run fn once already (the warm-up).
template <class Fn>
double median_gpu_ms(Fn&& fn, int reps, std::size_t* count = nullptr) {
  scandof::util::EventTimer timer(nullptr);
  std::vector<double> ms = timer.samples([&](int) { fn(); }, reps, /*warmup=*/0);
  if (count) *count = ms.size();
  return scandof::util::median(std::move(ms));
}
std::string device_name();
#endif

}  // namespace scantool
