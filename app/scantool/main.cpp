// scantool: runs the scandof primitives on the user's own .npy files. main() only dispatches to
// the registered subcommands (cmd_*.cpp) and turns every exception into a message and an exit
// code: a CLI user should never see a stack trace or an abort.
#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "command.hpp"
#include "gpu_util.hpp"
#include "scandof/cuda_check.hpp"
#include "scandof/npy.hpp"
#include "scandof/scan.hpp"

#ifndef SCANTOOL_VERSION
#define SCANTOOL_VERSION "unknown"
#endif

namespace {

void print_main_usage(std::FILE* to) {
  std::fprintf(to,
               "Usage: scantool COMMAND [OPTIONS] ...\n"
               "       scantool COMMAND --help\n"
               "       scantool --help | --version\n\n"
               "Runs the scandof GPU primitives (GPU Gems 3, ch. 39) on .npy files.\n"
               "Without a CUDA device the CPU reference computes the result instead.\n\n"
               "Commands:\n");
  for (const auto* c : scantool::commands())
    std::fprintf(to, "  %-10s %s\n", c->name.c_str(), c->summary.c_str());
  std::fprintf(to,
               "\nExit status: 0 success, 1 failed run (bad file, CUDA error), 2 wrong "
               "arguments.\n");
}

void print_version() {
  std::printf("scantool %s (scandof %s)\n", SCANTOOL_VERSION, SCANTOOL_VERSION);
#if SCANDOF_WITH_CUDA
  int runtime = 0, driver = 0;
  // Version queries need no device; a failure only means "unknown", not an error worth exiting on.
  if (cudaRuntimeGetVersion(&runtime) != cudaSuccess) runtime = 0;
  if (cudaDriverGetVersion(&driver) != cudaSuccess) driver = 0;
  std::printf(
      "built with CUDA %d.%d; runtime %d.%d; driver supports %s\n", CUDART_VERSION / 1000,
      (CUDART_VERSION % 1000) / 10, runtime / 1000, (runtime % 1000) / 10,
      driver ? (std::to_string(driver / 1000) + "." + std::to_string((driver % 1000) / 10)).c_str()
             : "none (no NVIDIA driver)");
  std::string why;
  if (scandof::cuda_device_available(&why)) {
    std::printf("device: %s\n", scantool::current_device_name().c_str());
  } else {
    std::printf("device: none (%s); commands compute on the CPU\n", why.c_str());
  }
#else
  std::printf("built without CUDA: every command computes on the CPU\n");
#endif
}

int run(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    print_main_usage(stderr);
    return scantool::kExitUsage;
  }
  const std::string& first = args[0];
  if (first == "--help" || first == "-h" || first == "help") {
    if (first == "help" && args.size() > 1) {
      if (const auto* c = scantool::find_command(args[1])) {
        std::fputs(c->usage.c_str(), stdout);
        return scantool::kExitOk;
      }
      std::fprintf(stderr, "scantool: unknown command '%s'\n\n", args[1].c_str());
      print_main_usage(stderr);
      return scantool::kExitUsage;
    }
    print_main_usage(stdout);
    return scantool::kExitOk;
  }
  if (first == "--version" || first == "-V") {
    print_version();
    return scantool::kExitOk;
  }
  const scantool::Command* cmd = scantool::find_command(first);
  if (!cmd) {
    std::fprintf(stderr, "scantool: unknown %s '%s'\n\n",
                 first.rfind("-", 0) == 0 ? "option" : "command", first.c_str());
    print_main_usage(stderr);
    return scantool::kExitUsage;
  }
  std::vector<std::string> rest(args.begin() + 1, args.end());
  for (const auto& a : rest) {
    if (a == "--") break;
    if (a == "--help" || a == "-h") {
      std::fputs(cmd->usage.c_str(), stdout);
      return scantool::kExitOk;
    }
  }
  try {
    return cmd->run(rest);
  } catch (const scantool::UsageError& e) {
    // The synopsis line and a pointer to the full text: the whole help would bury the message.
    const std::string synopsis = cmd->usage.substr(0, cmd->usage.find('\n'));
    std::fprintf(stderr, "scantool %s: %s\n%s\nRun 'scantool %s --help' for the options.\n",
                 cmd->name.c_str(), e.what(), synopsis.c_str(), cmd->name.c_str());
    return scantool::kExitUsage;
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const scandof::npy::Error& e) {
    std::fprintf(stderr, "scantool: error: %s\n", e.what());
  } catch (const scandof::CudaError& e) {
    std::fprintf(stderr, "scantool: CUDA error: %s\n", e.what());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "scantool: error: out of host memory\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "scantool: error: %s\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "scantool: error: unknown exception\n");
  }
  return scantool::kExitFailure;
}
