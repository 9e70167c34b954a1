// The command line's tests (cli_test.cpp, cli_flags_test.cpp, soak_options_test.cpp) call
// parse_cli (run/cli.hpp) the way main does: a program name, then the arguments.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "run/cli.hpp"

namespace demo::cli_test {

// parse_cli on "scandof <args...>" into *o (a scratch Options when null); the exit status it asks
// for, or -1 to go on.
inline int parse(std::vector<std::string> args, Options* o = nullptr) {
  args.insert(args.begin(), "scandof");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  Options local;
  return parse_cli(static_cast<int>(argv.size()), argv.data(), o ? o : &local).value_or(-1);
}

// parse() with what it prints (a refusal's message, the usage) swallowed.
inline int parse_quiet(std::vector<std::string> args, Options* o = nullptr) {
  ::testing::internal::CaptureStderr();
  ::testing::internal::CaptureStdout();
  const int rc = parse(std::move(args), o);
  ::testing::internal::GetCapturedStdout();
  ::testing::internal::GetCapturedStderr();
  return rc;
}

}  // namespace demo::cli_test
