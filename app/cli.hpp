// Command-line options of `scandof` (window by default, --headless for EGL batch runs).
#pragma once

#include <string>

#include "settings.hpp"

namespace demo {

struct Options {
  bool headless = false;
  int width = 1280, height = 720;
  int frames = -1;  // window: run until closed (or N frames with --exit); headless: default 60
  bool exit_after = false;
  std::string out;            // headless screenshot (PNG) of the last frame
  std::string out_frame;      // headless: the rendered frame the SAT is built from (sharp, PNG)
  std::string screenshot;     // window: screenshot after the last frame (with --frames/--exit)
  std::string screenshot_ui;  // window: the whole window, panels included, after the last frame
  std::string report;         // JSON timing report
  std::string dump_sat;       // .npy of the last frame's SAT
  std::string resources;      // folder holding shaders/ and assets/
  bool verify = false;
  bool exercise_resize = false;
  bool compare = false;  // window: run the all-variants comparison after the first frame  //
                         // window: resize, minimize and restore while running (tests)
  bool all_variants = false;
  // Headless: run the primitives set (scan, compaction, sort vs CUB) once at 2^prim_log2 elements,
  // print the table, add it to the report. Window: open the Primitives window and run it once.
  bool primitives = false;
  int prim_log2 = 22;
  bool help = false;
  Settings settings;
};

// Throws std::invalid_argument with a message naming the bad option.
Options parse_cli(int argc, char** argv);
void print_help(const char* argv0);

}  // namespace demo
