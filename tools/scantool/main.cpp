// scantool: runs the scandof primitives on the user's own .npy files. main() builds the CLI11
// command line from the registered subcommands (cmd_*.cpp), runs the one given and turns every
// exception into a message and an exit code: a CLI user should never see a stack trace or an
// abort.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>
#include <map>
#include <memory>
#include <sstream>
#include <new>
#include <string>
#include <vector>

#include "command.hpp"
#include "scandof/cuda_check.hpp"
#include "scandof/npy.hpp"
#include "scandof/scan.hpp"
#if SCANDOF_WITH_CUDA
#include "scandof/util/stream.hpp"
#endif

#ifndef SCANTOOL_VERSION
#define SCANTOOL_VERSION "unknown"
#endif

namespace {

std::string version_text() {
  std::string s =
      std::string("scantool ") + SCANTOOL_VERSION + " (scandof " + SCANTOOL_VERSION + ")\n";
#if SCANDOF_WITH_CUDA
  using scandof::util::cuda_version_string;
  int runtime = 0, driver = 0;
  // Version queries need no device; a failure only means "unknown", not an error worth exiting on.
  if (cudaRuntimeGetVersion(&runtime) != cudaSuccess) runtime = 0;
  if (cudaDriverGetVersion(&driver) != cudaSuccess) driver = 0;
  s += "built with CUDA " + cuda_version_string(CUDART_VERSION) + "; runtime " +
       cuda_version_string(runtime) + "; driver supports " +
       (driver ? cuda_version_string(driver) : std::string("none (no NVIDIA driver)")) + "\n";
  std::string why;
  if (scandof::cuda_device_available(&why))
    s += "device: " + scantool::device_name();
  else
    s += "device: none (" + why + "); commands compute on the CPU";
#else
  s += "built without CUDA: every command computes on the CPU";
#endif
  return s;
}

// The usage line of a subcommand ("Usage: scantool scan [OPTIONS] IN.npy OUT.npy"), for errors:
// the whole help would bury the message.
std::string usage_line(CLI::App* sub) {
  const std::string help = sub->get_parent() ? sub->help("scantool") : sub->help();
  const auto start = help.find("Usage:");
  if (start == std::string::npos) return "";
  return help.substr(start, help.find('\n', start) - start);
}

// The top-level help lists each command by its one-line summary; a subcommand's description is
// the paragraph its own --help starts with.
class SummaryFormatter : public CLI::Formatter {
 public:
  std::map<const CLI::App*, std::string> summaries;
  std::string make_subcommand(const CLI::App* sub) const override {
    std::stringstream out;
    const auto it = summaries.find(sub);
    CLI::detail::format_help(out, sub->get_display_name(true),
                             it == summaries.end() ? sub->get_description() : it->second,
                             get_column_width());
    return out.str();
  }
  std::string make_description(const CLI::App* app) const override {
    const std::string d = CLI::Formatter::make_description(app);
    return d.empty() ? d : d + "\n";
  }
};

int run(int argc, char** argv) {
  CLI::App app(
      "Runs the scandof GPU primitives (GPU Gems 3, ch. 39) on .npy files.\n"
      "Without a CUDA device the CPU reference computes the result instead.",
      "scantool");
  auto formatter = std::make_shared<SummaryFormatter>();
  formatter->column_width(24);
  app.formatter(formatter);
  app.set_version_flag("-V,--version", version_text,
                       "print the version, CUDA and device, and exit");
  app.footer(std::string("Run 'scantool COMMAND --help' for a command's options.\n\n") +
             scantool::kErrorsHelp);
  std::map<std::string, std::function<int()>> runners;
  std::map<std::string, CLI::App*> subs;
  for (const auto* c : scantool::commands()) {
    CLI::App* sub = app.add_subcommand(c->name, c->summary);
    formatter->summaries[sub] = c->summary;
    runners[c->name] = c->setup(*sub);
    subs[c->name] = sub;
  }

  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::fputs(app.help().c_str(), stderr);
    return scantool::kExitUsage;
  }
  // "scantool help [COMMAND]" as an alias of --help.
  if (args[0] == "help") {
    args.erase(args.begin());
    args.push_back("--help");
  }
  if (args[0].empty() || args[0][0] != '-') {
    if (!subs.count(args[0])) {
      std::fprintf(stderr, "scantool: unknown command '%s'\n\n%s", args[0].c_str(),
                   app.help().c_str());
      return scantool::kExitUsage;
    }
  }
  CLI::App* given = nullptr;
  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 pops from the back
    app.parse(reversed);
    for (auto& [name, sub] : subs)
      if (sub->parsed()) given = sub;
    if (!given) {
      std::fprintf(stderr, "scantool: a command is required\n\n%s", app.help().c_str());
      return scantool::kExitUsage;
    }
    return runners[given->get_name()]();
  } catch (const CLI::CallForHelp&) {
    for (auto& [name, sub] : subs)
      if (sub->parsed()) given = sub;
    std::fputs(given ? given->help("scantool").c_str() : app.help().c_str(), stdout);
    return scantool::kExitOk;
  } catch (const CLI::CallForVersion& e) {
    std::printf("%s\n", e.what());
    return scantool::kExitOk;
  } catch (const CLI::ParseError& e) {
    for (auto& [name, sub] : subs)
      if (sub->parsed()) given = sub;
    if (given)
      std::fprintf(stderr, "scantool %s: %s\n%s\nRun 'scantool %s --help' for the options.\n",
                   given->get_name().c_str(), e.what(), usage_line(given).c_str(),
                   given->get_name().c_str());
    else
      std::fprintf(stderr, "scantool: %s\n%s\nRun 'scantool --help' for the commands.\n", e.what(),
                   usage_line(&app).c_str());
    return scantool::kExitUsage;
  } catch (const scantool::UsageError& e) {
    std::fprintf(stderr, "scantool %s: %s\n%s\nRun 'scantool %s --help' for the options.\n",
                 given->get_name().c_str(), e.what(), usage_line(given).c_str(),
                 given->get_name().c_str());
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
