// The subcommand registry of scantool. Each subcommand lives in its own cmd_*.cpp and registers
// itself with a file-scope `Registrar`; CMake globs the folder, so adding `compact`, `sort` or
// `sat` means adding one file, not editing main.cpp.
#pragma once

#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace scantool {

// Exit codes: scripts can tell bad usage from a failed run.
constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

// Wrong arguments: main prints the message and the command's usage, exits with kExitUsage.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Command {
  std::string name;
  std::string summary;  // one line for `scantool --help`
  std::string usage;    // the full text for `scantool NAME --help`
  // Gets the arguments after the command name ("--help" is handled before). Returns the exit
  // code; throws UsageError for bad arguments, anything else derived from std::exception for a
  // failed run.
  std::function<int(const std::vector<std::string>&)> run;
};

// Commands sorted by name.
std::vector<const Command*> commands();
const Command* find_command(const std::string& name);

struct Registrar {
  explicit Registrar(Command c);
};

// --- argument parsing shared by the commands ------------------------------------------------

struct OptionSpec {
  std::string name;  // with the dashes: "--algo"
  bool takes_value = false;
};

struct ParsedArgs {
  std::map<std::string, std::string> options;  // flags map to ""
  std::vector<std::string> positional;

  bool has(const std::string& name) const { return options.count(name) != 0; }
  std::string get(const std::string& name, const std::string& fallback) const {
    auto it = options.find(name);
    return it == options.end() ? fallback : it->second;
  }
};

// Accepts "--opt value", "--opt=value", flags, and "--" ending the options. Throws UsageError for
// an unknown option, a missing value or a value given to a flag.
ParsedArgs parse_args(const std::vector<std::string>& args, const std::vector<OptionSpec>& specs);

// Non-negative integers: "1000", "1000000", "2^20". Throws UsageError naming `what`.
std::size_t parse_size(const std::string& text, const std::string& what);
std::uint64_t parse_u64(const std::string& text, const std::string& what);
double parse_double(const std::string& text, const std::string& what);

// Whether a subcommand runs on the GPU: false when --cpu was given or no usable CUDA device is
// present; the latter is said on stderr as "scantool: no CUDA device (<why>); computed on the CPU
// <cpu_what>", so every subcommand reports its fallback the same way.
bool use_gpu(bool cpu_requested, const char* cpu_what);

}  // namespace scantool
