// satbench: GPU Gems 3 Table 39-1 (summed-area table of an RGB8 image, per stage) redone on today's
// GPU, for every ScanAlgorithm through the paper's pipeline and for the fused path, uint32 and
// float tables, beside cudaMemcpy D2D floors of the same byte counts.
//
//   satbench [--out results/sat] [--quick] [--sizes 512x512,1024x1024,1920x1080,4096x2160]
//            [--pixels rgba8,rgba16f]
//
// --pixels picks the input: RGBA8 (the default, the paper's RGB8 image) and/or RGBA16F, an HDR
// frame of 4 halves a pixel (random radiance up to 100, the demo's fixed point hdr_fixed_point(24,
// 100) for uint32 tables), each with its rows; RGBA16F adds memcpy floors of its own bytes (8 read
// + 12 or 16 written a pixel) so the HDR build is quoted beside RGBA8 from one run.
//
// Timings per configuration, both medians of CUDA-event times after warm-up:
//   stages: build(timed=true) one at a time, stage events inside (a synchronize between builds);
//   total:  the untimed build enqueued back to back (what a frame loop pays), bracketed by events.
//   stream: the fused methods: 200 builds back to back in one event pair, per build (glsatbench's
//           "stream" statistic, for a like-with-like GL against CUDA ratio).
//   graph:  fused and fused-resident only: builds over the rotated sets captured once into a CUDA
//           graph and replayed, per build; the same kernels without a stream launch per kernel.
// Input images and output tables rotate over several sets unless one build moves twice the L2
// (bench/rotation.hpp), so no stage is timed from a cache the previous repetition warmed; the
// memcpy floors rotate the same way.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "bench_util.hpp"
#include "scandof/cuda_check.hpp"
#include "scandof/hdr.hpp"
#include "scandof/util/file_io.hpp"
#include "scandof/util/sizes.hpp"
#include "scandof/sat.hpp"
#include "scandof/scan.hpp"

namespace {

using namespace scandof;
using namespace scandof::bench;

struct Size {
  int w, h;
};

// The first cells of a CSV row (device, width, height) and the JSON record they start.
std::vector<std::string> size_cells(const std::string& device, Size s) {
  return {device, std::to_string(s.w), std::to_string(s.h)};
}
bench::Json size_record(Size s) {
  bench::Json rec;
  rec["width"] = s.w;
  rec["height"] = s.h;
  return rec;
}

// Table 39-1 (GeForce 8800 GTX, float planes, 3 channels): (de)interleave, transpose, 6 scans,
// total.
struct PaperRow {
  double interleave, transpose, scans, total;
};
const std::map<std::pair<int, int>, PaperRow> kPaper = {{{512, 512}, {0.44, 0.23, 0.97, 1.64}},
                                                        {{1024, 1024}, {0.96, 0.84, 1.70, 3.50}}};

struct Result {
  Size size;
  std::string pixels, format, method, algo;
  double deinterleave = 0, row_scan = 0, transpose = 0, column_scan = 0, transpose_back = 0;
  double stages_total = 0;  // median of the timed builds' totals
  double total = 0;         // median of untimed back-to-back builds
  double graph = 0;         // median per build of graph replays (0: not measured)
  double stream = 0;        // per build of kStreamBuilds back to back in one event pair (0: not)
  double bytes = 0;         // DRAM-level bytes the method moves (read + written)
  int reps = 0;
};

std::vector<Size> parse_sizes(const std::string& s) {
  std::vector<Size> out;
  for (const auto& z : scandof::util::parse_sizes(s)) out.push_back({z.w, z.h});
  return out;
}

// Bytes moved per build at 3 channels of 4 bytes, pixels of `in` bytes (4 RGBA8, 8 RGBA16F): the
// paper's pipeline reads the pixels once, then every stage reads and writes the whole table
// (4 passes over it); two-pass fused: rows pass reads the pixels and writes the table, the column
// pass reads and writes it; tiled fused: the pixels are read twice and the table written once
// (small per-tile arrays not counted).
double paper_bytes(double px, int in) {
  return px * (in + 12) + 4 * px * 24;
}
double two_pass_bytes(double px, int in) {
  return px * (in + 12) + px * 24;
}
double tiled_bytes(double px, int in, int table_bytes_per_px) {
  return px * (2 * in + table_bytes_per_px);
}
// The one-pass fused path reads the pixels once.
double one_pass_bytes(double px, int in, int table_bytes_per_px) {
  return px * (in + table_bytes_per_px);
}

// Builds (or copies) per captured graph: a whole number of rotations, at least 16.
int graph_calls(std::size_t sets) {
  const int n = static_cast<int>(std::max<std::size_t>(sets, 1));
  return n * ((16 + n - 1) / n);
}

// glsatbench's "stream" statistic for the CUDA side: this many builds enqueued back to back
// between one event pair, divided by the count (glsatbench's --reps default), so a GL stream mean
// is set beside a CUDA stream mean and a GL single-build median beside a CUDA per-call median.
constexpr int kStreamBuilds = 200;

}  // namespace

int main(int argc, char** argv) try {
  scandof::provenance::set_command_line(argc, argv);
  std::string out_dir = "results/sat";
  std::string sizes_arg = "512x512,1024x1024,1920x1080,4096x2160";
  bool quick = false;
  std::string pixels_arg = "rgba8";
  CLI::App app(
      "satbench: GPU Gems 3 Table 39-1 (summed-area table of an RGB8 image, per stage) on today's "
      "GPU, for every scan variant through the paper's pipeline and for the fused paths, uint32 "
      "and float tables, beside cudaMemcpy D2D floors; writes RESULTS.md, satbench.csv and "
      "satbench.json into --out.",
      "satbench");
  app.option_defaults()->always_capture_default();
  app.add_option("--out", out_dir, "folder for RESULTS.md, satbench.csv, satbench.json")
      ->type_name("DIR");
  app.add_option("--sizes", sizes_arg, "image sizes, comma-separated")
      ->type_name("WxH,...")
      ->check(CLI::Validator(
          [](std::string& v) -> std::string {
            try {
              parse_sizes(v);
              return {};
            } catch (const std::exception& e) {
              return e.what();
            }
          },
          ""));
  app.add_flag("--quick", quick, "fewer repetitions (smoke runs)");
  app.add_option("--pixels", pixels_arg,
                 "input pixels, comma-separated: rgba8 (the RGB8 image), rgba16f (an HDR frame of "
                 "halves, fixed point hdr_fixed_point(24, 100))")
      ->type_name("rgba8,rgba16f")
      ->check(CLI::Validator(
          [](std::string& v) -> std::string {
            std::stringstream ss(v);
            std::string item;
            while (std::getline(ss, item, ','))
              if (item != "rgba8" && item != "rgba16f") return "unknown pixels '" + item + "'";
            return {};
          },
          ""));
  if (const auto rc = bench::parse_command_line(app, argc, argv)) return *rc;
  const std::vector<Size> sizes = parse_sizes(sizes_arg);
  std::vector<SatPixels> pixel_kinds;
  {
    std::stringstream ss(pixels_arg);
    std::string item;
    while (std::getline(ss, item, ','))
      pixel_kinds.push_back(item == "rgba16f" ? SatPixels::Rgba16F : SatPixels::Rgba8);
  }
  const bool with_hdr =
      std::find(pixel_kinds.begin(), pixel_kinds.end(), SatPixels::Rgba16F) != pixel_kinds.end();
  // The demo's encoding: its default max radius (24) and radiance up to 100.
  const SatFixedPoint hdr_fixed = hdr_fixed_point(24.0f, 100.0f);
  util::make_output_folder(out_dir);  // before the run, not after it
  const DeviceInfo dev = util::current_device();
  std::printf("satbench on %s (sm_%d%d, %d SMs, L2 %.0f MB), CUDA runtime %s driver %s\n",
              dev.name.c_str(), dev.cc_major, dev.cc_minor, dev.sm_count, dev.l2_bytes / 1e6,
              util::cuda_version_string(dev.runtime_version).c_str(),
              util::cuda_version_string(dev.driver_version).c_str());

  util::Stream stream;
  EventTimer timer(stream);
  TimingOptions opt;
  opt.warmup = 5;
  opt.min_reps = quick ? 20 : 100;
  opt.min_total_ms = quick ? 10 : 40;
  const int stage_reps = quick ? 20 : 100;

  std::vector<Result> results;
  struct Floor {
    Size size;
    double copy16_ms, copy40_ms, copy16_graph_ms;
    // RGBA16F's (with --pixels rgba16f): 20 B/px (8 read + 12 planar) and 24 B/px (8 + 16
    // interleaved), per call and replayed; 0 where not measured.
    double copy20_ms = 0, copy20_graph_ms = 0, copy24_ms = 0, copy24_graph_ms = 0;
  };
  std::vector<Floor> floors;
  SatBuilder builder;
  for (const Size sz : sizes) {
    const std::size_t px = static_cast<std::size_t>(sz.w) * sz.h;
    // Sized for the larger pixels when RGBA16F is timed: one set of buffers serves both.
    const std::size_t in_bytes = px * (with_hdr ? 8 : 4),
                      table = SatBuilder::table_bytes(sz.w, sz.h, 3, SatLayout::Interleaved);
    // A set = image + table, the least a build moves (the paper path's scratch, one per builder,
    // only adds traffic between two uses of a set).
    const std::size_t sets =
        std::min<std::size_t>(rotation_sets(in_bytes + table, dev.l2_bytes), 32);
    std::vector<DeviceBuffer<uint32_t>> imgs(sets), outs(sets);
    // RGBA8: random bytes. RGBA16F: radiance log-uniform over [2^-12, 100] as halves (no clamps:
    // the common frame), two halves to a word.
    std::vector<uint32_t> host(in_bytes / 4);
    SatPixels loaded = SatPixels::Rgba8;
    bool filled = false;
    auto fill = [&](SatPixels kind) {
      if (kind == SatPixels::Rgba8) {
        for (std::size_t i = 0; i < px; ++i) host[i] = static_cast<uint32_t>(util::hash_at(7, i));
      } else {
        for (std::size_t i = 0; i < 4 * px; i += 2) {
          uint32_t pair = 0;
          for (std::size_t j = 0; j < 2; ++j) {
            const double u = static_cast<double>(util::hash_at(11, i + j) >> 11) * 0x1.0p-53;
            const float v = static_cast<float>(std::exp2(-12.0 + (12.0 + std::log2(100.0)) * u));
            pair |= static_cast<uint32_t>(float_to_half(v)) << (16 * j);
          }
          host[i / 2] = pair;
        }
      }
      for (std::size_t s = 0; s < sets; ++s) {
        imgs[s].resize(in_bytes / 4);
        outs[s].resize(table / 4);
        CUDA_CHECK(cudaMemcpy(imgs[s].get(), host.data(), px * (kind == SatPixels::Rgba8 ? 4 : 8),
                              cudaMemcpyHostToDevice));
      }
      loaded = kind;
      filled = true;
    };
    auto input = [&](std::size_t s) {
      SatInput in;
      in.pixels = imgs[s].get();
      in.pitch_bytes = static_cast<std::size_t>(sz.w) * (loaded == SatPixels::Rgba8 ? 4 : 8);
      in.width = sz.w;
      in.height = sz.h;
      in.format = loaded;
      in.fixed = hdr_fixed;
      return in;
    };

    // Floors: cudaMemcpy D2D moving 16 B/pixel (an ideal one-pass SAT: 4 read + 12 written) and
    // 40 B/pixel (the fused two-pass traffic).
    // Each rotates through enough source/destination pairs that no copy reads from a warm L2.
    {
      // Per call and (graph) replayed from a graph, from the same buffers.
      auto floor_ms = [&](std::size_t bytes, bool graph) {
        const std::size_t pairs = std::min<std::size_t>(rotation_sets(2 * bytes, dev.l2_bytes), 32);
        DeviceBuffer<unsigned char> a(pairs * bytes), b(pairs * bytes);
        auto copy = [&](int rep) {
          const std::size_t k = static_cast<std::size_t>(rep) % pairs;
          memcpy_d2d(b.get() + k * bytes, a.get() + k * bytes, bytes, stream);
        };
        return std::make_pair(
            timer.measure(copy, opt).median_ms,
            graph ? timer.measure_graph(copy, graph_calls(pairs), opt).median_ms : 0.0);
      };
      const auto f16 = floor_ms(px * 8, true);
      Floor f{sz, f16.first, floor_ms(px * 20, false).first, f16.second};
      if (with_hdr) {
        std::tie(f.copy20_ms, f.copy20_graph_ms) = floor_ms(px * 10, true);
        std::tie(f.copy24_ms, f.copy24_graph_ms) = floor_ms(px * 12, true);
      }
      floors.push_back(f);
    }

    for (const SatPixels pixels : pixel_kinds)
    for (SatFormat format : {SatFormat::F32, SatFormat::U32}) {
      if (!filled || loaded != pixels) fill(pixels);
      struct Config {
        SatMethod method;
        ScanAlgorithm algo;
        SatLayout layout;
      };
      std::vector<Config> configs;
      for (ScanAlgorithm a : all_scan_algorithms())
        configs.push_back({SatMethod::Paper, a, SatLayout::Planar});
      configs.push_back({SatMethod::FusedTwoPass, ScanAlgorithm::Cub, SatLayout::Planar});
      // The tiled paths also as the demo builds them: 4 words per pixel (the DoF pass's tables).
      for (SatMethod m : {SatMethod::Fused, SatMethod::FusedOnePass, SatMethod::FusedResident})
        for (SatLayout l : {SatLayout::Planar, SatLayout::Interleaved})
          configs.push_back({m, ScanAlgorithm::Cub, l});
      for (const auto& config : configs) {
        const SatMethod method = config.method;
        const ScanAlgorithm algo = config.algo;
        const SatLayout layout = config.layout;
        const bool il = layout == SatLayout::Interleaved;
        Result r;
        r.size = sz;
        r.pixels = to_string(pixels);
        r.format = to_string(format);
        r.method = std::string(to_string(method)) + (il ? " interleaved" : "");
        r.algo = method != SatMethod::Paper ? "-" : to_string(algo);
        const int table_px = il ? 16 : 12;
        // The resident method reads the pixels once, as the one-pass kernel does.
        const bool one_read =
            method == SatMethod::FusedOnePass || method == SatMethod::FusedResident;
        const int in_px = pixels == SatPixels::Rgba8 ? 4 : 8;
        // HDR float tables: the tiled methods take the two-pass kernels (sums in float).
        const bool two_pass = method == SatMethod::FusedTwoPass ||
                              (pixels == SatPixels::Rgba16F && format == SatFormat::F32 &&
                               method != SatMethod::Paper);
        r.bytes = method == SatMethod::Paper ? paper_bytes(px, in_px)
                  : two_pass                 ? two_pass_bytes(px, in_px)
                  : one_read                 ? one_pass_bytes(px, in_px, table_px)
                                             : tiled_bytes(px, in_px, table_px);
        auto build = [&](std::size_t k, bool timed) {
          builder.build(input(k), outs[k].get(), format, method, algo, stream, timed, 3, layout);
        };
        // Warm-up also sizes the builder's scratch outside the timed region.
        for (int i = 0; i < 3; ++i) build(i % sets, false);
        std::vector<double> d, rs, t, cs, tb, tot;
        for (int i = 0; i < stage_reps; ++i) {
          build(i % sets, true);
          const SatStageTimes st = builder.stage_times();
          d.push_back(st.deinterleave_ms);
          rs.push_back(st.row_scan_ms);
          t.push_back(st.transpose_ms);
          cs.push_back(st.column_scan_ms);
          tb.push_back(st.transpose_back_ms);
          tot.push_back(st.total_ms);
        }
        r.deinterleave = util::median(d);
        r.row_scan = util::median(rs);
        r.transpose = util::median(t);
        r.column_scan = util::median(cs);
        r.transpose_back = util::median(tb);
        r.stages_total = util::median(tot);
        const Stats s = timer.measure(
            [&](int rep) {
              const std::size_t k = static_cast<std::size_t>(rep) % sets;
              build(k, false);
            },
            opt);
        r.total = s.median_ms;
        r.reps = s.reps;
        // (fused-one-pass keeps host state per build, its look-back epoch: it cannot replay.)
        if (method != SatMethod::Paper) {
          TimingOptions sopt = opt;
          sopt.min_total_ms = 0;
          r.stream = timer
                         .measure(
                             [&](int rep) {
                               for (int i = 0; i < kStreamBuilds; ++i)
                                 build(static_cast<std::size_t>(rep * kStreamBuilds + i) % sets,
                                       false);
                             },
                             sopt)
                         .median_ms /
                     kStreamBuilds;
        }
        if (method == SatMethod::Fused || method == SatMethod::FusedResident)
          r.graph =
              timer
                  .measure_graph([&](int k) { build(static_cast<std::size_t>(k) % sets, false); },
                                 graph_calls(sets), opt)
                  .median_ms;
        results.push_back(r);
      }
    }
  }
  stream.sync();

  // Console and Markdown.
  Table con({"size", "pixels", "fmt", "method", "algo", "deint", "row", "transp", "col", "transp2",
             "stages", "total", "stream", "graph", "GB/s"});
  auto graph_cell = [](const Result& r) { return r.graph > 0 ? fmt("%.4f", r.graph) : "-"; };
  auto stream_cell = [](const Result& r) { return r.stream > 0 ? fmt("%.4f", r.stream) : "-"; };
  std::ostringstream md;
  md << "# Summed-area tables: Table 39-1 redone\n\n"
     << "Device: " << dev.name << " (sm_" << dev.cc_major << dev.cc_minor << ", " << dev.sm_count
     << " SMs), CUDA runtime " << util::cuda_version_string(dev.runtime_version) << ", driver "
     << util::cuda_version_string(dev.driver_version) << ", " << utc_now_iso() << ". `satbench`"
     << (quick ? " --quick" : "") << ".\n\n"
     << "RGB8 image (RGBA8 in memory) -> 3 summed-area tables. Times in ms, medians of CUDA-event "
        "times after warm-up. Stage columns come from builds with stage events (`timed`), "
        "`total` from untimed builds enqueued back to back; inputs and outputs rotate through "
        "several sets unless one build moves twice the L2 (the memcpy floors too). `paper` = "
        "de-interleave, row scans, transpose, row "
        "scans, transpose back, with the named block scan on the rows; `fused-two-pass` = row "
        "scans straight from the pixels, then an in-place column scan; `fused` = reduce-then-scan "
        "over 128x32 tiles (pixels read twice, table written once); `fused-one-pass` = the same "
        "tiles in one kernel with a 2D decoupled look-back (pixels read once); `fused-resident` = "
        "`fused`'s three phases in one cooperative kernel with grid barriers, pixels kept in "
        "shared memory between reduce and scan (pixels read once where they fit); `interleaved` = "
        "4 words per pixel (16 B), the layout the demo's DoF pass reads. GB/s = DRAM-level bytes "
        "the method moves (read + written) / total. `graph replay` (fused, fused-resident) = the "
        "same builds captured once into a CUDA graph and replayed, per build: the kernels without "
        "a stream launch each (about a microsecond of GPU time per kernel). `stream` (the fused "
        "methods) = 200 builds enqueued back to back between one event pair, per build (median "
        "of several such): the statistic glsatbench's `stream` column gives for GL, so the two "
        "are compared like with like; `total (per call)` is the statistic of glsatbench's "
        "single-build median.\n\n"
     << "`rgba16f` rows (with `--pixels rgba16f`): an HDR frame of 4 halves a pixel (8 B), "
        "radiance "
        "up to 100 in the fixed point hdr_fixed_point(24, 100) for u32 tables (exact), summed in "
        "float for f32 tables (the tiled methods then run the two-pass kernels).\n\n"
     << "| size | pixels | format | method | scan | de-interleave | transposes (both) | scans "
        "(rows "
        "+ cols) | total (stages) | total (per call) | stream | graph replay | GB/s |\n"
     << "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const Result& r : results) {
    const std::string size = std::to_string(r.size.w) + "x" + std::to_string(r.size.h);
    con.add({size, r.pixels, r.format, r.method, r.algo, fmt("%.4f", r.deinterleave),
             fmt("%.4f", r.row_scan), fmt("%.4f", r.transpose), fmt("%.4f", r.column_scan),
             fmt("%.4f", r.transpose_back), fmt("%.4f", r.stages_total), fmt("%.4f", r.total),
             stream_cell(r), graph_cell(r), fmt("%.0f", gb_per_s(r.bytes, r.total))});
    md << "| " << size << " | " << r.pixels << " | " << r.format << " | " << r.method << " | "
       << r.algo << " | " << fmt("%.4f", r.deinterleave) << " | "
       << fmt("%.4f", r.transpose + r.transpose_back) << " | "
       << fmt("%.4f", r.row_scan + r.column_scan) << " | " << fmt("%.4f", r.stages_total) << " | **"
       << fmt("%.4f", r.total) << "** | " << stream_cell(r) << " | " << graph_cell(r) << " | "
       << fmt("%.0f", gb_per_s(r.bytes, r.total)) << " |\n";
    const auto p = kPaper.find({r.size.w, r.size.h});
    if (p != kPaper.end() && r.pixels == "rgba8" && r.format == "f32" && r.method == "paper" &&
        r.algo == "optimized")
      md << "| " << size << " | rgb8 | f32 | *GPU Gems 3, 8800 GTX* | *paper* | *"
         << fmt("%.2f", p->second.interleave) << "* (with interleave) | *"
         << fmt("%.2f", p->second.transpose) << "* | *" << fmt("%.2f", p->second.scans) << "* | *"
         << fmt("%.2f", p->second.total) << "* | | | | |\n";
  }
  con.print();
  md << "\ncudaMemcpy D2D floors (same run): an ideal single-pass SAT moves 16 B/pixel (4 read + "
        "12 written), the fused two-pass path 40 B/pixel (intermediate round trip included).\n\n"
     << "| size | memcpy 16 B/px ms | memcpy 16 B/px ms, graph replay | memcpy 40 B/px ms |\n"
     << "|---|---|---|---|\n";
  for (const Floor& f : floors) {
    std::printf("floor %dx%d: memcpy 16 B/px %.4f ms (graph replay %.4f), 40 B/px %.4f ms\n",
                f.size.w, f.size.h, f.copy16_ms, f.copy16_graph_ms, f.copy40_ms);
    md << "| " << f.size.w << "x" << f.size.h << " | " << fmt("%.4f", f.copy16_ms) << " | "
       << fmt("%.4f", f.copy16_graph_ms) << " | " << fmt("%.4f", f.copy40_ms) << " |\n";
  }
  if (with_hdr) {
    md << "\nRGBA16F floors (same run): the bytes an ideal single pass over an HDR frame moves, "
          "8 B/pixel read + the table written: 20 B/pixel (3 planes), 24 B/pixel (interleaved).\n\n"
       << "| size | memcpy 20 B/px ms | replayed | memcpy 24 B/px ms | replayed |\n"
       << "|---|---|---|---|---|\n";
    for (const Floor& f : floors) {
      std::printf("floor %dx%d rgba16f: memcpy 20 B/px %.4f ms (graph replay %.4f), 24 B/px %.4f "
                  "ms (graph replay %.4f)\n",
                  f.size.w, f.size.h, f.copy20_ms, f.copy20_graph_ms, f.copy24_ms,
                  f.copy24_graph_ms);
      md << "| " << f.size.w << "x" << f.size.h << " | " << fmt("%.4f", f.copy20_ms) << " | "
         << fmt("%.4f", f.copy20_graph_ms) << " | " << fmt("%.4f", f.copy24_ms) << " | "
         << fmt("%.4f", f.copy24_graph_ms) << " |\n";
    }
  }
  util::write_text_file(out_dir + "/RESULTS.md", md.str());

  bench::Csv csv({"device", "width", "height", "pixels", "format", "method", "scan",
                  "deinterleave_ms", "row_scan_ms", "transpose_ms", "column_scan_ms",
                  "transpose_back_ms", "stages_total_ms", "total_ms", "stream_ms", "graph_ms",
                  "bytes", "reps"});
  bench::Json doc;
  doc["device"] = dev.name;
  doc["runtime"] = util::cuda_version_string(dev.runtime_version);
  doc["driver"] = util::cuda_version_string(dev.driver_version);
  doc["when"] = utc_now_iso();
  doc["record"] = provenance::record(dev.name);
  doc["results"] = bench::Json::array();
  doc["memcpy_floors"] = bench::Json::array();
  for (const Result& r : results) {
    // One list of (name, stage time) feeds both the CSV cells and the JSON record.
    const std::pair<const char*, double> stages[] = {{"deinterleave_ms", r.deinterleave},
                                                     {"row_scan_ms", r.row_scan},
                                                     {"transpose_ms", r.transpose},
                                                     {"column_scan_ms", r.column_scan},
                                                     {"transpose_back_ms", r.transpose_back},
                                                     {"stages_total_ms", r.stages_total},
                                                     {"total_ms", r.total},
                                                     {"stream_ms", r.stream},
                                                     {"graph_ms", r.graph}};
    std::vector<std::string> cells = size_cells(dev.name, r.size);
    cells.insert(cells.end(), {r.pixels, r.format, r.method, r.algo});
    bench::Json rec = size_record(r.size);
    rec["pixels"] = r.pixels;
    rec["format"] = r.format;
    rec["method"] = r.method;
    rec["scan"] = r.algo;
    for (const auto& st : stages) {
      cells.push_back(fmt("%.5f", st.second));
      rec[st.first] = st.second;
    }
    cells.push_back(fmt("%.0f", r.bytes));
    cells.push_back(std::to_string(r.reps));
    rec["bytes"] = r.bytes;
    rec["reps"] = r.reps;
    csv.row(cells);
    doc["results"].push_back(rec);
  }
  for (const Floor& f : floors) {
    const double px = static_cast<double>(f.size.w) * f.size.h;
    struct Copy {
      int bytes_per_px;
      double ms, graph_ms;  // graph 0: not measured
    };
    std::vector<Copy> copies = {{16, f.copy16_ms, f.copy16_graph_ms}, {40, f.copy40_ms, 0}};
    if (with_hdr) {
      copies.push_back({20, f.copy20_ms, f.copy20_graph_ms});
      copies.push_back({24, f.copy24_ms, f.copy24_graph_ms});
    }
    bench::Json rec = size_record(f.size);
    for (const Copy& c : copies) {
      std::vector<std::string> cells = size_cells(dev.name, f.size);
      cells.insert(cells.end(),
                   {"-", "-", "memcpy" + std::to_string(c.bytes_per_px) + "B", "-", "", "", "", "",
                    "", "", fmt("%.5f", c.ms), "", c.graph_ms > 0 ? fmt("%.5f", c.graph_ms) : "",
                    fmt("%.0f", c.bytes_per_px * px), ""});
      csv.row(cells);
      const std::string key = "memcpy_" + std::to_string(c.bytes_per_px) + "B_per_px_";
      rec[key + "ms"] = c.ms;
      if (c.graph_ms > 0) rec[key + "graph_ms"] = c.graph_ms;
    }
    doc["memcpy_floors"].push_back(rec);
  }
  csv.save(out_dir + "/satbench.csv");
  bench::write_json(out_dir + "/satbench.json", doc);
  std::printf("wrote %s/RESULTS.md, satbench.csv, satbench.json\n", out_dir.c_str());
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "satbench: %s\n", e.what());
  return 1;
}
