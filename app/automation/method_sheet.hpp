// --method-images DIR and --method-sheet FILE.png of a headless --all-methods / --quality run: each
// scored method's image beside its error map against the lens reference, as files and as one
// downscaled sheet headed by the sharp frame and the reference (results/dof/README.md's figures).
// --method-gold adds what tests/check_dof_report.py holds each image against: the CPU gold method
// (scandof::dof::render) of the same read-back sharp frame and view z, and the view z itself.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "diagnostics/quality.hpp"

namespace demo {

class App;

// --method-sheet: every image of a --all-methods run on one PNG, small enough to come back from a
// GPU machine (the tiles: sharp, reference, then each method beside its error map, two per row,
// each the frame box-filtered down by the integer factor that makes it at most kSheetTileW wide).
constexpr int kSheetTileW = 480;
struct SheetTiles {
  int w = 0, h = 0, factor = 1;             // the frame size and the reduction
  std::vector<std::vector<uint8_t>> tiles;  // RGBA8, (w / factor) x (h / factor), bottom-up

  // Adds the frame (RGBA8, w x h, bottom-up) box-filtered down to a tile.
  void add(const uint8_t* rgba);
  // Two tiles per row, top row first in the picture.
  void write(const std::string& path) const;
};

class MethodImages {
 public:
  // Empty strings: that output is not wanted. gold (--method-gold): in the folder also each
  // method's CPU gold image of the same frame (METHOD_gold.npy) and the view z (depth.npy).
  MethodImages(const std::string& images_dir, const std::string& sheet_path, int width, int height,
               bool gold = false);
  bool wanted() const { return !dir_.empty() || !sheet_path_.empty(); }
  // The frame just scored (compare_with_reference, diagnostics/frame_checks.hpp): its output and error map, once per
  // method (the chosen run repeats one of --all-methods).
  void add(const App& app, const QualityResult& q);
  // After the last run: the sheet (sharp frame and reference first) and, in the folder, the
  // sharp frame and the reference. Nothing before a reference was scored.
  void finish(App& app);

 private:
  std::string dir_, sheet_path_;
  int width_, height_;
  bool gold_;
  std::vector<std::string> methods_;           // in sheet order
  SheetTiles tiles_;                 // output, error map, output, ...
};

}  // namespace demo
