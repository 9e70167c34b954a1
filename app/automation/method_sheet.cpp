#include "automation/method_sheet.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "diagnostics/frame_checks.hpp"
#include "frame/app.hpp"
#include "passes/image_io.hpp"
#include "scandof/dof.hpp"
#include "scandof/image_metrics.hpp"
#include "scandof/npy.hpp"
#include "scandof/tonemap.hpp"
#include "scandof/util/file_io.hpp"

namespace demo {

namespace {
// float32 .npy of `shape`, row 0 = the bottom row (GL order, as --dump-sat), written atomically.
void save_f32(const std::string& path, const std::vector<float>& v,
              const std::vector<std::size_t>& shape) {
  scandof::util::write_file_atomic(path, [&](std::ostream& o) {
    scandof::npy::save(o, scandof::npy::DType::Float32, shape, v.data(), path);
  });
}

// The CPU gold method of the frame just drawn (gold_dof_rgb, passes/cpu_dof_pass.hpp: the run's settings, the sharp
// frame and view z read back from the same targets the pass that drew the image read, and the
// second depth layer where the frame has one): whichever pass drew the image (GL compute, GL
// fragment, CUDA, the CPU fallback), it must equal this within 1/255. RGB float32, shape (h, w, 3).
// In the HDR pipeline the gold blurs the frame's radiance and goes through the tone mapping the
// frame had (`tone`), so it compares with the displayed image like the LDR gold.
// HDR: also the radiance itself, the gold's (BASE_gold_radiance.npy, RGB) and the drawn output's
// (BASE_radiance.npy, RGBA), which tests/check_dof_report.py --radiance compares: the tone map
// and its 8-bit rounding (one level off in about 2 % of values between the GPU pass and the CPU)
// would hide a difference of the DoF pass itself.
void write_gold(const App& app, const std::string& base, const scandof::ToneMapSettings& tone) {
  const int w = app.width(), h = app.height();
  const auto uh = static_cast<std::size_t>(h), uw = static_cast<std::size_t>(w);
  std::vector<float> rgb = gold_dof_rgb(app.targets(), app.peel(), app.settings());
  if (app.targets().hdr()) {
    save_f32(base + "_gold_radiance.npy", rgb, {uh, uw, 3});
    save_f32(base + "_radiance.npy", app.targets().read_rgba_f32(app.targets().output()),
             {uh, uw, 4});
    std::vector<uint8_t> px(static_cast<std::size_t>(w) * h * 4);
    scandof::tone_map(rgb.data(), 3, w, h, tone, px.data());
    scandof::metrics::rgba8_to_rgb(px.data(), w, h, rgb.data());
  }
  save_f32(base + "_gold.npy", rgb, {uh, uw, 3});
}

// The tone mapping of a scored frame: its mapper, the EV it was exposed with, no metering.
scandof::ToneMapSettings tone_of(const App& app, const QualityResult& q) {
  scandof::ToneMapSettings t;
  t.mapper = app.settings().tone_mapper;
  t.exposure_ev = q.exposure_ev;
  return t;
}

// The sharp frame as shown: RGBA8 as it is, or the radiance tone mapped like the scored frames.
std::vector<uint8_t> sharp_display(const App& app, const QualityResult& q) {
  if (!app.targets().hdr()) return app.targets().read_rgba(app.targets().color());
  const std::vector<float> r = app.targets().read_rgba_f32(app.targets().color());
  std::vector<uint8_t> px(r.size());
  scandof::tone_map(r.data(), 4, app.width(), app.height(), tone_of(app, q), px.data());
  return px;
}
}  // namespace

void SheetTiles::add(const uint8_t* rgba) {
  factor = (w + kSheetTileW - 1) / kSheetTileW;
  const int tw = w / factor, th = h / factor, n = factor * factor;
  std::vector<uint8_t> t(static_cast<std::size_t>(tw) * th * 4);
  for (int y = 0; y < th; ++y)
    for (int x = 0; x < tw; ++x)
      for (int c = 0; c < 4; ++c) {
        int sum = 0;
        for (int dy = 0; dy < factor; ++dy)
          for (int dx = 0; dx < factor; ++dx)
            sum +=
                rgba[((static_cast<std::size_t>(y) * factor + dy) * w + x * factor + dx) * 4 + c];
        t[(static_cast<std::size_t>(y) * tw + x) * 4 + c] = static_cast<uint8_t>((sum + n / 2) / n);
      }
  tiles.push_back(std::move(t));
}

void SheetTiles::write(const std::string& path) const {
  const int tw = w / factor, th = h / factor, rows = (static_cast<int>(tiles.size()) + 1) / 2;
  const int sw = 2 * tw, sh = rows * th;
  std::vector<uint8_t> sheet(static_cast<std::size_t>(sw) * sh * 4, 0);
  for (std::size_t i = 0; i < tiles.size(); ++i) {
    const int col = static_cast<int>(i % 2), row = static_cast<int>(i / 2);
    // Bottom-up sheet: tile row 0 of the picture's top tile row sits at sheet row sh - th.
    const int y0 = sh - (row + 1) * th;
    for (int y = 0; y < th; ++y)
      std::copy_n(&tiles[i][static_cast<std::size_t>(y) * tw * 4], tw * 4,
                  &sheet[(static_cast<std::size_t>(y0 + y) * sw + col * tw) * 4]);
  }
  write_png_bottom_up(path, sw, sh, sheet.data());
  std::fprintf(stderr, "[scandof] method sheet written: %s (%zu tiles of %dx%d)\n", path.c_str(),
               tiles.size(), tw, th);
}

MethodImages::MethodImages(const std::string& images_dir, const std::string& sheet_path, int width,
                           int height, bool gold)
    : dir_(images_dir), sheet_path_(sheet_path), width_(width), height_(height), gold_(gold) {
  tiles_.w = width;
  tiles_.h = height;
  if (!dir_.empty()) std::filesystem::create_directories(dir_);
}

void MethodImages::add(const App& app, const QualityResult& q) {
  if (!wanted()) return;
  if (std::find(methods_.begin(), methods_.end(), q.method) != methods_.end()) return;
  methods_.push_back(q.method);
  const int w = app.width(), h = app.height();
  const std::vector<uint8_t> px = app.targets().read_rgba(app.targets().display());
  std::vector<float> rgb(static_cast<std::size_t>(w) * h * 3);
  scandof::metrics::rgba8_to_rgb(px.data(), w, h, rgb.data());
  const std::vector<uint8_t> err = error_map(app, rgb);
  if (!dir_.empty()) {
    std::string base = dir_ + "/" + q.method;
    for (char& c : base)
      if (c == '/' && &c > &base[dir_.size()]) c = '_';
    write_png_bottom_up(base + ".png", w, h, px.data());
    write_png_bottom_up(base + "_error.png", w, h, err.data());
    if (gold_) write_gold(app, base, tone_of(app, q));
  }
  if (!sheet_path_.empty()) {
    tiles_.add(px.data());
    tiles_.add(err.data());
  }
}

void MethodImages::finish(App& app) {
  if (!app.measured().quality.valid) return;
  const std::vector<uint8_t> sharp = sharp_display(app, app.measured().quality);
  if (!sheet_path_.empty()) {
    // Sharp frame and reference first: they head the sheet.
    SheetTiles sheet;
    sheet.w = width_;
    sheet.h = height_;
    sheet.add(sharp.data());
    std::vector<uint8_t> ref(app.measured().reference_display.size() / 3 * 4);
    scandof::metrics::rgb_to_rgba8(app.measured().reference_display.data(), width_, height_, ref.data());
    sheet.add(ref.data());
    for (auto& t : tiles_.tiles) sheet.tiles.push_back(std::move(t));
    sheet.write(sheet_path_);
  }
  if (!dir_.empty()) {
    write_png_bottom_up(dir_ + "/sharp.png", app.width(), app.height(), sharp.data());
    write_reference_png(app, dir_ + "/reference.png");
    if (gold_) {
      const auto h = static_cast<std::size_t>(app.height()), w = static_cast<std::size_t>(app.width());
      save_f32(dir_ + "/depth.npy", app.targets().read_viewz(), {h, w});
      // HDR: the sharp frame's radiance (RGBA) and the lens reference's (RGB), so that a method
      // can be tried on the same frame outside the demo.
      if (app.targets().hdr()) {
        save_f32(dir_ + "/sharp_radiance.npy", app.targets().read_rgba_f32(app.targets().color()),
                 {h, w, 4});
        save_f32(dir_ + "/reference_radiance.npy", app.parts().reference.rgb(), {h, w, 3});
      }
    }
  }
}

}  // namespace demo
