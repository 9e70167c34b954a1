// What a run of `scandof` was asked for on its command line (run/cli.* parses it): plain data that
// both runners and the automation layer read, so it lives in core/, below all of them.
#pragma once

#include <cstdint>
#include <string>

#include "core/settings.hpp"
#include "core/soak_options.hpp"

namespace demo {

struct Options {
  bool headless = false;
  int width = 1280, height = 720;
  std::int64_t frames = -1;  // window: run until closed (or N frames with --exit); headless: 60
  bool exit_after = false;
  std::string out;             // headless screenshot (PNG) of the last frame
  std::string out_frame;       // headless: the rendered frame the SAT is built from (sharp, PNG)
  std::string screenshot;      // window: screenshot after the last frame (with --frames/--exit)
  std::string screenshot_ui;   // the whole frame, panels included, after the last frame
  std::string report;          // JSON timing report
  std::string dump_sat;        // .npy of the last frame's SAT
  std::string resources;       // folder holding shaders/ and assets/
  std::string screenshot_dir;  // window: where F12 / P write scandof-NNN.png (default: cwd)
  bool ui_selftest = false;    // window: expand every section, scroll, check every control shows
  bool verify = false;
  bool compare = false;          // run the all-variants comparison (window: after the first frame)
  bool exercise_resize = false;  // window: resize, minimize and restore while running (tests)
  bool all_variants = false;
  // Headless: run the primitives set (scan, compaction, sort vs CUB) once at 2^prim_log2 elements,
  // print the table, add it to the report. Window: open the Primitives window and run it once.
  bool primitives = false;
  int prim_log2 = 22;
  // Depth of field against the lens reference (headless): quality = score the chosen run (and
  // every --all-methods run) against the reference; method_images = write each method's image and
  // error map there (results/dof).
  bool quality = false;
  bool all_methods = false;
  std::string out_reference;  // the reference as PNG (headless and window)
  std::string method_images;  // folder
  std::string method_sheet;   // one PNG of every image, downscaled (GPU machines return few files)
  // With method_images: also each method's CPU gold image of the same frame and the view z as
  // .npy (tests/check_dof_report.py); off by default, since at 1080p they are 25 MB a method.
  bool method_gold = false;
  // default | near-blur | focus8 (sets focus, stills the scene) | wall (headless: the camera square
  // to the back wall, which then fills the frame at one depth: the lens reference's analytic check)
  std::string view_preset;
  SoakOptions soak;  // --soak, --soak-frames, --inject-fault ... (automation/soak.*)
  Settings settings;
};

}  // namespace demo
