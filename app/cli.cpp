#include "cli.hpp"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "sat_stage.hpp"

namespace demo {

namespace {
float to_float(const std::string& opt, const std::string& v) {
  char* end = nullptr;
  float f = std::strtof(v.c_str(), &end);
  if (v.empty() || *end) throw std::invalid_argument(opt + ": not a number: '" + v + "'");
  return f;
}
int to_int(const std::string& opt, const std::string& v) {
  char* end = nullptr;
  long i = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end) throw std::invalid_argument(opt + ": not an integer: '" + v + "'");
  return static_cast<int>(i);
}
}  // namespace

void print_help(const char* argv0) {
  std::printf(
      "Usage: %s [options]\n"
      "Teapots with summed-area-table depth of field (GPU Gems 3, ch. 39). Opens a window unless\n"
      "--headless is given.\n\n"
      "  --headless            render through EGL without a window (no X server needed)\n"
      "  --size WxH            frame size (default 1280x720)\n"
      "  --frames N            frames to render (headless default 60; window: with --exit)\n"
      "  --exit                window: exit after --frames frames\n"
      "  --focus D             focal distance in scene units (default 15)\n"
      "  --aperture A          blur radius in pixels of a point at infinity (default 12)\n"
      "  --max-radius R        largest blur radius in pixels (default 24)\n"
      "  --variant NAME        naive|work-efficient|conflict-free|optimized|warp-shuffle|\n"
      "                        single-pass|cub (default work-efficient)\n"
      "  --method NAME         SAT pipeline: paper|fused|fused-two-pass (default paper)\n"
      "  --format u32|f32      SAT element type (default u32, exact)\n"
      "  --view NAME           dof|sharp|coc|sat|split (default dof)\n"
      "  --cpu                 use the CPU fallback even when a CUDA device is present\n"
      "  --no-animate          still scene (deterministic frames)\n"
      "  --no-vsync            window: do not wait for vertical sync\n"
      "  --tess N              teapot patch subdivisions (default 10)\n"
      "  --out FILE.png        headless: screenshot of the last frame\n"
      "  --out-frame FILE.png  headless: the sharp frame the last SAT was built from\n"
      "  --screenshot FILE.png window: screenshot after the last frame (needs --frames)\n"
      "  --screenshot-ui FILE the frame with the UI panels over it (headless too)\n"
      "  --report FILE.json    per-stage timings (medians over frames), device and renderer\n"
      "  --all-variants        time every scan variant (and the fused path) into the report\n"
      "  --dump-sat FILE.npy   the last frame's SAT, shape (3, H, W), row 0 = bottom\n"
      "  --verify              compare the last frame's SAT with a CPU SAT; exit 1 on mismatch\n"
      "  --compare             run the variant comparison (window: after the first frame)\n"
      "  --exercise-resize     window: resize, minimize and restore during the run (tests)\n"
      "  --primitives          headless: time scan, compaction and sort against CUB, print a\n"
      "                        table (and add it to --report); window: open the Primitives panel\n"
      "  --prim-size N         elements for --primitives: 2^K as K, 2^K, or a power of two\n"
      "                        (default 22, i.e. 4194304)\n"
      "  --resources DIR       folder with shaders/ and assets/ (default: next to the binary)\n"
      "  --help                this text\n",
      argv0);
}

Options parse_cli(int argc, char** argv) {
  Options o;
  bool frames_given = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
      return argv[++i];
    };
    Settings& s = o.settings;
    if (a == "--help" || a == "-h") {
      o.help = true;
    } else if (a == "--headless") {
      o.headless = true;
    } else if (a == "--size") {
      std::string v = value();
      std::size_t x = v.find('x');
      if (x == std::string::npos) throw std::invalid_argument("--size wants WxH, got '" + v + "'");
      o.width = to_int(a, v.substr(0, x));
      o.height = to_int(a, v.substr(x + 1));
      if (o.width < 1 || o.height < 1 || o.width > 16384 || o.height > 16384)
        throw std::invalid_argument("--size out of range: " + v);
    } else if (a == "--frames") {
      o.frames = to_int(a, value());
      frames_given = true;
      if (o.frames < 1) throw std::invalid_argument("--frames must be >= 1");
    } else if (a == "--exit") {
      o.exit_after = true;
    } else if (a == "--focus") {
      s.focus_distance = to_float(a, value());
      if (s.focus_distance <= 0) throw std::invalid_argument("--focus must be > 0");
    } else if (a == "--aperture") {
      s.aperture = to_float(a, value());
      if (s.aperture < 0) throw std::invalid_argument("--aperture must be >= 0");
    } else if (a == "--max-radius") {
      s.max_radius = to_float(a, value());
      if (s.max_radius < 0) throw std::invalid_argument("--max-radius must be >= 0");
    } else if (a == "--variant") {
      std::string v = value();
      if (!parse_variant(v, &s.variant))
        throw std::invalid_argument("--variant: unknown '" + v +
                                    "' (naive, work-efficient, conflict-free, optimized, "
                                    "warp-shuffle, single-pass, cub)");
    } else if (a == "--method") {
      std::string v = value();
      if (!parse_method(v, &s.method))
        throw std::invalid_argument(
            std::string("--method: ") +
            (num_sat_methods() > 2 ? "paper, fused or fused-two-pass" : "paper or fused") +
            ", got '" + v + "'");
    } else if (a == "--format") {
      std::string v = value();
      if (v == "u32")
        s.format = scandof::SatFormat::U32;
      else if (v == "f32")
        s.format = scandof::SatFormat::F32;
      else
        throw std::invalid_argument("--format: u32 or f32, got '" + v + "'");
    } else if (a == "--view") {
      std::string v = value();
      int k = 0;
      for (; k < kNumViews; ++k)
        if (v == to_string(static_cast<View>(k))) break;
      if (k == kNumViews) throw std::invalid_argument("--view: dof, sharp, coc, sat or split");
      s.view = static_cast<View>(k);
    } else if (a == "--cpu") {
      s.force_cpu = true;
    } else if (a == "--no-animate") {
      s.animate = false;
    } else if (a == "--no-vsync") {
      s.vsync = false;
    } else if (a == "--tess") {
      s.tessellation = to_int(a, value());
      if (s.tessellation < 1 || s.tessellation > 64) throw std::invalid_argument("--tess: 1..64");
    } else if (a == "--out") {
      o.out = value();
    } else if (a == "--screenshot") {
      o.screenshot = value();
    } else if (a == "--out-frame") {
      o.out_frame = value();
    } else if (a == "--screenshot-ui") {
      o.screenshot_ui = value();
    } else if (a == "--report") {
      o.report = value();
    } else if (a == "--dump-sat") {
      o.dump_sat = value();
    } else if (a == "--verify") {
      o.verify = true;
    } else if (a == "--compare") {
      o.compare = true;
    } else if (a == "--exercise-resize") {
      o.exercise_resize = true;
    } else if (a == "--all-variants") {
      o.all_variants = true;
    } else if (a == "--primitives") {
      o.primitives = true;
    } else if (a == "--prim-size") {
      std::string v = value();
      int k = -1;
      if (v.rfind("2^", 0) == 0) {
        k = to_int(a, v.substr(2));
      } else {
        char* end = nullptr;
        unsigned long long x = std::strtoull(v.c_str(), &end, 10);
        if (v.empty() || *end) throw std::invalid_argument(a + ": not a size: '" + v + "'");
        if (x <= 40) {
          k = static_cast<int>(x);
        } else if ((x & (x - 1)) == 0) {
          for (k = 0; (1ull << k) != x; ++k) {
          }
        } else {
          throw std::invalid_argument(a + ": " + v + " is not a power of two");
        }
      }
      if (k < 10 || k > 30) throw std::invalid_argument(a + ": size must be 2^10 .. 2^30");
      o.prim_log2 = k;
      o.settings.primitives.log2_n = k;
    } else if (a == "--resources") {
      o.resources = value();
    } else {
      throw std::invalid_argument("unknown option '" + a + "' (see --help)");
    }
  }
  if (o.headless && !frames_given) o.frames = 60;
  return o;
}

}  // namespace demo
