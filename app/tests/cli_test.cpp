// The command line's error paths that tests/demo.cmake's demo_cli does not reach (that test runs
// the program; these call parse_cli directly): malformed --size forms, numbers out of range for
// flags the script does not try, names the script does not try, and what a good line sets.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli_test_util.hpp"
#include "run/cli.hpp"

namespace demo {
namespace {

using cli_test::parse;

class CliRefuses : public ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(CliRefuses, WithExitStatus2) {
  EXPECT_EQ(parse(GetParam()), kExitBadArguments);
}

INSTANTIATE_TEST_SUITE_P(
    SizeForms, CliRefuses,
    ::testing::Values(std::vector<std::string>{"--headless", "--size", "640"},
                      std::vector<std::string>{"--headless", "--size", "x480"},
                      std::vector<std::string>{"--headless", "--size", "640x480x2"},
                      std::vector<std::string>{"--headless", "--size", "-640x480"},
                      std::vector<std::string>{"--headless", "--size", "640x-480"},
                      std::vector<std::string>{"--headless", "--size", "16385x16"},
                      std::vector<std::string>{"--headless", "--size", "16x16385"},
                      std::vector<std::string>{"--headless", "--size", "640X480"},
                      std::vector<std::string>{"--headless", "--size", "6e2x480"},
                      std::vector<std::string>{"--headless", "--size", "640.5x480"},
                      std::vector<std::string>{"--headless", "--size", ""}));

INSTANTIATE_TEST_SUITE_P(
    OutOfRange, CliRefuses,
    ::testing::Values(std::vector<std::string>{"--headless", "--frames", "-3"},
                      std::vector<std::string>{"--headless", "--frames", "1.5"},
                      std::vector<std::string>{"--headless", "--focus", "0"},
                      std::vector<std::string>{"--headless", "--aperture", "-1"},
                      std::vector<std::string>{"--headless", "--max-radius", "inf"},
                      std::vector<std::string>{"--headless", "--max-radius", "-0.5"},
                      std::vector<std::string>{"--headless", "--anisotropy", "nan"},
                      std::vector<std::string>{"--headless", "--tess", "0"},
                      std::vector<std::string>{"--headless", "--msaa", "17"},
                      std::vector<std::string>{"--headless", "--layers", "9"},
                      std::vector<std::string>{"--headless", "--disc-k", "0"},
                      std::vector<std::string>{"--headless", "--reference", "65537"},
                      std::vector<std::string>{"--headless", "--focus-teapot", "5"},
                      std::vector<std::string>{"--headless", "--focus-teapot", "-1"},
                      std::vector<std::string>{"--headless", "--focus-speed", "0"},
                      std::vector<std::string>{"--headless", "--focal-length", "0"},
                      std::vector<std::string>{"--headless", "--f-number", "-2"},
                      std::vector<std::string>{"--headless", "--sensor-width", "nan"},
                      std::vector<std::string>{"--headless", "--prim-size", "2^9"},
                      std::vector<std::string>{"--headless", "--prim-size", "2^31"},
                      std::vector<std::string>{"--headless", "--prim-size", "3000"},
                      std::vector<std::string>{"--headless", "--prim-size", "-16"},
                      std::vector<std::string>{"--headless", "--prim-size", "2^x"}));

INSTANTIATE_TEST_SUITE_P(
    UnknownNames, CliRefuses,
    ::testing::Values(std::vector<std::string>{"--headless", "--backend", "vulkan"},
                      std::vector<std::string>{"--headless", "--dof-pass", "vertex"},
                      std::vector<std::string>{"--headless", "--format", "u16"},
                      std::vector<std::string>{"--headless", "--view", "DOF"},
                      std::vector<std::string>{"--headless", "--size"}));

// Flags a window run would ignore without a word (no --frames: the window never ends).
INSTANTIATE_TEST_SUITE_P(
    Conflicting, CliRefuses,
    ::testing::Values(std::vector<std::string>{"--exit", "--screenshot", "x.png"},
                      std::vector<std::string>{"--frames", "3", "--report", "x.json"},
                      std::vector<std::string>{"--screenshot", "x.png", "--no-vsync"}));

TEST(Cli, GoodLineSetsOptions) {
  Options o;
  ASSERT_EQ(parse({"--headless", "--size", "16384x1", "--prim-size", "65536", "--backend", "gl",
                   "--dof-pass", "fragment"},
                  &o),
            -1);
  EXPECT_EQ(o.width, 16384);
  EXPECT_EQ(o.height, 1);
  EXPECT_EQ(o.prim_log2, 16);
  EXPECT_EQ(o.frames, 60);  // headless default
  EXPECT_EQ(o.settings.backend, SatBackend::Gl);
  EXPECT_EQ(o.settings.dof_pass, DofPass::Fragment);
}

TEST(Cli, PrimSizeForms) {
  for (const char* v : {"16", "2^16", "65536"}) {
    Options o;
    ASSERT_EQ(parse({"--headless", "--prim-size", v}, &o), -1) << v;
    EXPECT_EQ(o.prim_log2, 16) << v;
  }
}

TEST(Cli, ViewPresetStillsTheSceneAndKeepsAnExplicitFocus) {
  Options o;
  ASSERT_EQ(parse({"--headless", "--view-preset", "near-blur"}, &o), -1);
  EXPECT_FALSE(o.settings.animate);
  EXPECT_EQ(o.settings.focus_distance, 30.0f);
  Options f;
  ASSERT_EQ(parse({"--headless", "--view-preset", "focus8", "--focus", "3"}, &f), -1);
  EXPECT_EQ(f.settings.focus_distance, 3.0f);
  Options h;
  ASSERT_EQ(parse({"--headless", "--view-preset", "highlights"}, &h), -1);
  EXPECT_FALSE(h.settings.animate);
  EXPECT_EQ(h.settings.focus_distance, 12.0f);
  EXPECT_EQ(h.settings.aperture, 20.0f);
  EXPECT_EQ(h.settings.pipeline, Pipeline::Hdr);
}

TEST(Cli, WindowRunWithFramesMayExitAndScreenshot) {
  Options o;
  ASSERT_EQ(parse({"--frames", "3", "--exit", "--screenshot", "x.png"}, &o), -1);
  EXPECT_FALSE(o.headless);
  EXPECT_EQ(o.frames, 3);
}

TEST(Cli, HelpExitsZero) {
  testing::internal::CaptureStdout();
  EXPECT_EQ(parse({"--help"}), 0);
  EXPECT_NE(testing::internal::GetCapturedStdout().find("Errors and exit codes"),
            std::string::npos);
}

}  // namespace
}  // namespace demo
