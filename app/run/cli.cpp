#include "run/cli.hpp"

#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdio>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace demo {

namespace {

// A finite float >= lo (> lo when open_lo). CLI11's Range lets NaN through, since every comparison
// with NaN is false, and accepts "inf": hence this check.
float checked_float(const std::string& flag, const std::string& v, float lo, bool open_lo) {
  std::size_t used = 0;
  float f = 0;
  try {
    f = std::stof(v, &used);
  } catch (const std::exception&) {
    throw CLI::ValidationError(flag, "not a number: '" + v + "'");
  }
  if (used != v.size()) throw CLI::ValidationError(flag, "not a number: '" + v + "'");
  if (!std::isfinite(f) || f < lo || (open_lo && f == lo))
    throw CLI::ValidationError(
        flag, "must be a finite number " + std::string(open_lo ? ">" : ">=") + " " +
                  std::to_string(static_cast<int>(lo)) + ", got '" + v + "'");
  return f;
}

// The command line's integers: text that holds no integer says so, a bad one names the range.
long long cli_int(const std::string& flag, const std::string& v, long long lo, long long hi) {
  return checked_int(flag, v, lo, hi, NotAnInteger::Say);
}

// 2^K as "K", "2^K" or the power of two itself; K in 10..30.
int parse_prim_size(const std::string& v) {
  const std::string flag = "--prim-size";
  int k = -1;
  if (v.rfind("2^", 0) == 0) {
    k = static_cast<int>(cli_int(flag, v.substr(2), 0, 63));
  } else {
    std::size_t used = 0;
    unsigned long long x = 0;
    try {
      x = std::stoull(v, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (v.empty() || v[0] == '-' || used != v.size())
      throw CLI::ValidationError(flag, "not a size: '" + v + "'");
    if (x <= 40) {
      k = static_cast<int>(x);
    } else if ((x & (x - 1)) == 0) {
      for (k = 0; (1ull << k) != x; ++k) {
      }
    } else {
      throw CLI::ValidationError(flag, v + " is not a power of two");
    }
  }
  if (k < 10 || k > 30) throw CLI::ValidationError(flag, "size must be 2^10 .. 2^30");
  return k;
}

// The kinds of value flag, one call a flag: each callback converts and checks its value and throws
// CLI::ValidationError, which CLI11 prints as "FLAG: message" (exit status kExitBadArguments).
struct Flags {
  CLI::App& app;

  // A finite float >= lo (> lo when open_lo).
  CLI::Option* real(const std::string& flag, float* target, float lo, bool open_lo,
                    const std::string& help) {
    return app.add_option_function<std::string>(
        flag,
        [flag, target, lo, open_lo](const std::string& v) {
          *target = checked_float(flag, v, lo, open_lo);
        },
        help);
  }
  // A finite float in [lo, hi]; above hi the error is "<range>, got 'V'".
  CLI::Option* real_in(const std::string& flag, float* target, float lo, float hi,
                       const std::string& range, const std::string& help) {
    return app.add_option_function<std::string>(
        flag,
        [flag, target, lo, hi, range](const std::string& v) {
          const float f = checked_float(flag, v, lo, false);
          if (f > hi) throw CLI::ValidationError(flag, range + ", got '" + v + "'");
          *target = f;
        },
        help);
  }
  // Plain text options (paths, mostly), one row each, in --help's order.
  struct Text {
    const char* flag;
    std::string* target;
    const char* type;
    const char* help;
  };
  void texts(std::initializer_list<Text> rows) {
    for (const Text& r : rows) app.add_option(r.flag, *r.target, r.help)->type_name(r.type);
  }
  // An integer in [lo, hi].
  template <class T>
  CLI::Option* integer(const std::string& flag, T* target, long long lo, long long hi,
                       const std::string& help) {
    return app.add_option_function<std::string>(
        flag,
        [flag, target, lo, hi](const std::string& v) {
          *target = static_cast<T>(cli_int(flag, v, lo, hi));
        },
        help);
  }
  // A name parsed by one of the library's parsers (kernels/src/scan_names.cpp), which throw
  // std::invalid_argument naming the choices.
  template <class T, class Parse>
  CLI::Option* named(const std::string& flag, T* target, Parse parse, const std::string& help) {
    return app.add_option_function<std::string>(
        flag,
        [flag, target, parse](const std::string& v) {
          try {
            *target = parse(v);
          } catch (const std::invalid_argument& e) {
            throw CLI::ValidationError(flag, e.what());
          }
        },
        help);
  }
  // A name read by a bool parse(name, T*) (scandof::dof's); `names` lists the choices in the error.
  template <class T>
  CLI::Option* parsed(const std::string& flag, T* target,
                      bool (*parse)(const std::string&, T*), const std::string& names,
                      const std::string& help) {
    return app.add_option_function<std::string>(
        flag,
        [flag, target, parse, names](const std::string& v) {
          if (!parse(v, target)) throw CLI::ValidationError(flag, names + ", got '" + v + "'");
        },
        help);
  }
  // An enum whose names are to_string's of the values 0 .. count - 1; `names` lists them in the
  // error.
  template <class E>
  CLI::Option* choice(const std::string& flag, E* target, int count, const std::string& names,
                      const std::string& help) {
    return app.add_option_function<std::string>(
        flag,
        [flag, target, count, names](const std::string& v) {
          for (int k = 0; k < count; ++k) {
            if (v == to_string(static_cast<E>(k))) {
              *target = static_cast<E>(k);
              return;
            }
          }
          throw CLI::ValidationError(flag, names + ", got '" + v + "'");
        },
        help);
  }
  // A bare flag that stands for one value of a choice() flag (--cpu for --backend cpu); its help
  // names that spelling, so the two cannot drift apart.
  template <class E>
  void shorthand(const std::string& flag, E* target, E value, const std::string& of) {
    app.add_flag_callback(
        flag, [target, value] { *target = value; }, "the same as " + of + " " + to_string(value));
  }
};

// The run's shape: window or headless, size, frames, and the thin lens.
void add_frame_flags(Flags& f, Options& o) {
  Settings& s = o.settings;
  f.app.add_flag("--headless", o.headless,
                 "render through EGL without a window (no X server needed)");
  f.app.add_option_function<std::string>(
         "--size",
         [&o](const std::string& v) {
           const std::size_t x = v.find('x');
           if (x == std::string::npos)
             throw CLI::ValidationError("--size", "wants WxH, got '" + v + "'");
           o.width = static_cast<int>(cli_int("--size", v.substr(0, x), 1, 16384));
           o.height = static_cast<int>(cli_int("--size", v.substr(x + 1), 1, 16384));
         },
         "frame size (default 1280x720)")
      ->type_name("WxH");
  f.integer("--frames", &o.frames, 1, std::numeric_limits<std::int64_t>::max(),
            "frames to render (headless default 60; window: with --exit)")
      ->type_name("N");
  f.app.add_flag("--exit", o.exit_after, "window: exit after --frames frames");
  f.real("--focus", &s.focus_distance, 0.0f, true, "focal distance in scene units (default 20)")
      ->type_name("D");
  f.real("--aperture", &s.aperture, 0, false,
         "blur radius in pixels of a point at infinity (default 12)")
      ->type_name("A");
  f.real("--max-radius", &s.max_radius, 0, false, "largest blur radius in pixels (default 24)")
      ->type_name("R");
}

// Who builds the tables and how: scan variant, SAT method and format, view, backend, pipeline.
void add_sat_flags(Flags& f, Settings& s) {
  f.named("--variant", &s.variant, scandof::parse_scan_algorithm,
          "naive|work-efficient|conflict-free|optimized|warp-shuffle|\n"
          "single-pass|cub (default work-efficient)")
      ->type_name("NAME");
  f.named("--method", &s.method, scandof::parse_sat_method,
          "SAT pipeline: paper|fused|fused-two-pass|fused-one-pass|fused-resident (default paper)")
      ->type_name("NAME");
  f.named("--format", &s.format, scandof::parse_sat_format, "SAT element type (default u32, exact)")
      ->type_name("u32|f32");
  f.choice("--view", &s.view, kNumViews, "dof, sharp, coc, sat, split, reference or error",
           "dof|sharp|coc|sat|split|reference|error (default dof)")
      ->type_name("NAME");
  f.choice("--dof-pass", &s.dof_pass, kNumDofPasses, "fragment or compute",
           "where the blur runs: compute (CUDA kernel; the default, and the fragment\n"
           "shader where CUDA is not in use) or fragment (shaders/dof.frag)")
      ->type_name("NAME");
  f.choice("--backend", &s.backend, kNumSatBackends, "auto, cuda, gl or cpu",
           "who builds the SATs: auto (CUDA if a device is usable, else GL compute,\n"
           "else the CPU; the default), cuda, gl (GL 4.3 compute shaders) or cpu")
      ->type_name("NAME");
  f.shorthand("--cpu", &s.backend, SatBackend::Cpu, "--backend");
  f.choice("--pipeline", &s.pipeline, kNumPipelines, "hdr or ldr",
           "hdr (linear radiance, exact fixed-point tables, exposure and a tone\n"
           "mapper; the default) or ldr (the paper's RGBA8 frame and tables)")
      ->type_name("NAME");
  f.shorthand("--ldr", &s.pipeline, Pipeline::Ldr, "--pipeline");
}

// The HDR pipeline's exposure, tone mapper and range.
void add_hdr_flags(Flags& f, Settings& s) {
  f.real_in("--exposure", &s.exposure_ev, -20.0f, 20.0f, "must be in -20..20",
            "HDR: exposure in EV (radiance x 2^EV), or the compensation added to\n"
            "auto exposure (default 0)")
      ->type_name("EV");
  f.app.add_option_function<std::string>(
         "--auto-exposure",
         [&s](const std::string& v) {
           if (v != "on" && v != "off")
             throw CLI::ValidationError("--auto-exposure", "on or off, got '" + v + "'");
           s.auto_exposure = v == "on";
         },
         "HDR: meter the frame's log-average luminance to middle grey (default on)")
      ->type_name("on|off");
  f.named("--tonemap", &s.tone_mapper, scandof::parse_tone_mapper,
          "HDR tone mapper: aces (default), agx, reinhard")
      ->type_name("NAME");
  f.real("--highlight", &s.highlight, 0.0f, false,
         "HDR highlight intensity: the bulbs' radiance and the specular gain (default 4)")
      ->type_name("K");
  f.real("--hdr-limit", &s.hdr_limit, 0.0f, true,
         "HDR: the largest radiance the exact tables keep; brighter values clamp\n"
         "and are counted (default 128; the fraction bits follow from it and --max-radius)")
      ->type_name("L");
}

// The depth-of-field method, its kernel shape and the aperture.
void add_dof_flags(Flags& f, Settings& s) {
  f.parsed("--dof", &s.dof_method, scandof::dof::parse_method,
           "gather, spread, layered, engine or hybrid",
           "depth-of-field method: gather (the paper's and the default), spread\n"
           "(rectangle spreading), layered (spread per depth layer), engine (near/far\n"
           "half-resolution ring gathers, as game engines), hybrid (SAT gather + engine near field)")
      ->type_name("NAME");
  f.parsed("--shape", &s.dof_shape, scandof::dof::parse_shape, "box, octagon or disc",
           "kernel shape: box (the paper's), octagon (default), disc")
      ->type_name("NAME");
  f.integer("--disc-k", &s.disc_boxes, 1, scandof::dof::kMaxDiscBoxes,
            "boxes stacked into the disc shape, 1..8 (default 4)")
      ->type_name("K");
  f.integer("--dof-rings", &s.dof_rings, 1, scandof::dof::kMaxRings,
            "sample rings of --dof engine / hybrid's gathers, 1..8 (default 3: 49 samples)")
      ->type_name("N");
  f.real_in("--dof-radius-offset", &s.dof_radius_offset, 0.0f, 1.0f, "0..1",
            "pixels off the CoC radius before the kernel shape, 0..1 (default 0.5: the\n"
            "shapes get the lens disc's area; 0 is the paper's)")
      ->type_name("PX");
  f.app.add_option_function<std::string>(
         "--dof-blades",
         [&s](const std::string& v) {
           const int n = static_cast<int>(cli_int("--dof-blades", v, 0, scandof::dof::kMaxBlades));
           if (n != 0 && n < scandof::dof::kMinBlades)
             throw CLI::ValidationError("--dof-blades", "0 or 5..8, got '" + v + "'");
           s.dof_blades = n;
         },
         "aperture blades: 0 (default) a round aperture, 5..8 that polygon as the\n"
         "kernel (gather and hybrid; the lens reference samples the same polygon)")
      ->type_name("N");
  f.real("--dof-bokeh", &s.dof_bokeh, 0.0f, false,
         "bokeh from highlights: radiance above T (per channel) spreads over its own\n"
         "shape, the rest is gathered; 0 (default) = off. HDR gather, U32 tables,\n"
         "round aperture (on the GL backend drawn by the CPU gold method)")
      ->type_name("T");
  f.real_in("--dof-blade-rotation", &s.dof_blade_rotation, -360.0f, 360.0f, "-360..360",
            "the blade polygon's turn in degrees, -360..360 (default 0: a vertex straight up)")
      ->type_name("DEG");
  f.integer("--layers", &s.layers, 2, scandof::dof::kMaxLayers,
            "depth layers of --dof layered, 2..8 (default 3)")
      ->type_name("K");
  f.integer("--dof-layers", &s.dof_layers, 1, 2,
            "rendered depth layers for --dof layered: 1 (default) or 2 (a second\n"
            "layer, what lies behind the near field, spread behind it)")
      ->type_name("N");
  f.app.add_flag("--dof-oracle", s.dof_oracle,
                 "with --dof layered and --quality (HDR): also score the near field over\n"
                 "the lens reference of the scene without its near field (the best a\n"
                 "second layer could give; stderr)");
}

// The lens reference, the scores against it and the images of every method.
void add_reference_flags(Flags& f, Options& o) {
  Settings& s = o.settings;
  f.app.add_option_function<std::string>(
         "--reference",
         [&o](const std::string& v) {
           o.settings.reference_samples = static_cast<int>(cli_int("--reference", v, 1, 65536));
           o.quality = true;
         },
         "lens samples of the reference (default 256); headless: score the\n"
         "run against it (quality in --report)")
      ->type_name("N");
  f.app.add_flag("--quality", o.quality,
                 "headless: score the run against the lens reference (--report)");
  f.app.add_flag_callback(
      "--reference-unclamped", [&s] { s.reference_clamp = false; },
      "the reference's lens is not clamped at --max-radius (a real lens)");
  f.texts({{"--out-reference", &o.out_reference, "FILE.png",
            "the lens reference of the last frame"}});
  f.app.add_flag("--all-methods", o.all_methods,
                 "headless: run every method x shape, each timed and scored against\n"
                 "the reference (into --report)");
  f.texts({{"--method-images", &o.method_images, "DIR",
            "headless: write sharp, reference, each method and its error map\n"
            "as PNGs into DIR (with --all-methods or --quality)"},
           {"--method-sheet", &o.method_sheet, "FILE.png",
            "headless: the same images on one PNG (sharp, reference, then each\n"
            "method beside its error map; tiles at most 480 px wide)"}});
  f.app.add_flag("--method-gold", o.method_gold,
                 "with --method-images: also each method's CPU gold image of the same\n"
                 "frame (METHOD_gold.npy) and the view z (depth.npy), for tests");
  f.app.add_option("--view-preset", o.view_preset,
                   "default (the start focus) | near-blur (focus 30, red teapot blurred\n"
                   "in front) | focus8: the results/dof views; still scene | highlights:\n"
                   "focus 12, aperture 20, the wall's bulbs far behind and one in front | wall\n"
                   "(headless): square to the back wall, one depth (20), focus 10")
      ->check(CLI::IsMember({"default", "near-blur", "focus8", "highlights", "wall"}))
      ->type_name("NAME");
}

// The physical camera and the autofocus.
void add_camera_flags(Flags& f, Settings& s) {
  f.app.add_flag("--physical", s.physical,
                 "physical camera: aperture and field of view from --focal-length,\n"
                 "--f-number, --sensor-width; focus in metres (scene unit = 1 m)");
  f.real("--focal-length", &s.lens.focal_length_mm, 0, true,
         "physical camera: focal length in mm (default 50)")
      ->type_name("MM");
  f.real("--f-number", &s.lens.f_number, 0, true, "physical camera: f-number (default 2)")
      ->type_name("N");
  f.real("--sensor-width", &s.lens.sensor_width_mm, 0, true,
         "physical camera: sensor width in mm (default 36)")
      ->type_name("MM");
  f.choice("--autofocus", &s.autofocus, kNumAutofocus, "off, cursor, centre or teapot",
           "off (default) | cursor | centre | teapot (see --focus-teapot)")
      ->type_name("MODE");
  f.integer("--focus-teapot", &s.autofocus_teapot, 0, 4,
            "autofocus teapot: 0 (red, near) .. 4 (white, far)")
      ->type_name("I");
  f.real("--focus-speed", &s.focus_speed, 0, true,
         "focus pull rate per second, in dioptres (default 4)")
      ->type_name("R");
}

// The scene: textures, shading, samples, animation, tessellation, a glTF file, camera paths.
void add_scene_flags(Flags& f, Settings& s) {
  f.real("--anisotropy", &s.anisotropy, 1, false,
         "anisotropic filtering of the textures (default 16, clamped to the\n"
         "GPU's limit; 1 = off)")
      ->type_name("X");
  // SceneShading's values go from 0 to Forward.
  f.choice("--scene-shading", &s.scene_shading, static_cast<int>(SceneShading::Forward) + 1,
           "auto, deferred or forward",
           "floor and wall shaded after rasterisation by a compute pass\n"
           "(deferred) or in the fragment shader (forward); auto (the\n"
           "default): deferred on a GPU, forward on a software rasterizer\n"
           "and with MSAA")
      ->type_name("NAME");
  f.integer("--msaa", &s.msaa, 1, 16,
            "scene samples per pixel, resolved before the SAT (default 1 = off)")
      ->type_name("N");
  f.app.add_flag_callback(
      "--no-animate", [&s] { s.animate = false; }, "still scene (deterministic frames)");
  f.app.add_flag_callback(
      "--no-vsync", [&s] { s.vsync = false; }, "window: do not wait for vertical sync");
  f.integer("--tess", &s.tessellation, 1, 64, "teapot patch subdivisions (default 10)")
      ->type_name("N");
  f.texts({{"--scene", &s.scene_file, "FILE",
            "a glTF 2.0 scene (.gltf or .glb) in place of the teapots, framed by the\n"
            "camera, focus on its centre; a file that cannot be read: exit 1"}});
  f.integer("--scene-camera", &s.scene_camera, -1, 1 << 16,
            "with --scene: the file's camera N (0-based); -1 (default) frames the bounds")
      ->type_name("N");
  f.texts({{"--camera-path", &s.camera_path, "FILE.json",
            "play a camera-and-focus path (JSON keys of eye, target, focus, aperture),\n"
            "one step of 1/fps per frame from its start (window and headless)"},
           {"--record", &s.record_dir, "DIR|FILE.mp4",
            "write every frame as DIR/frame_NNNNN.png (NNNNN: the camera path's step,\n"
            "else the frame count; headless: the warm-up frames too), or into FILE.mp4\n"
            "(H.264 through FFmpeg, at the path's fps)"},
           {"--record-path", &s.record_path_file, "FILE.json",
            "window: K appends the current view to FILE as the camera path's next key"}});
}

// What a run writes and checks: screenshots, reports, dumps, comparisons, the primitives.
void add_output_flags(Flags& f, Options& o) {
  CLI::App& app = f.app;
  f.texts({{"--out", &o.out, "FILE.png", "headless: screenshot of the last frame"},
           {"--out-frame", &o.out_frame, "FILE.png",
            "headless: the sharp frame the last SAT was built from (HDR: tone mapped\n"
            "as the frame was)"},
           {"--screenshot", &o.screenshot, "FILE.png",
            "window: screenshot after the last frame (needs --frames)"},
           {"--screenshot-ui", &o.screenshot_ui, "FILE",
            "the frame with the UI panels over it (headless too)"},
           {"--report", &o.report, "FILE.json",
            "per-stage timings (medians over frames), device and renderer"}});
  app.add_flag("--all-variants", o.all_variants,
               "time every scan variant (and the fused path) into the report");
  f.texts({{"--dump-sat", &o.dump_sat, "FILE.npy",
            "the last frame's SAT, shape (3, H, W), row 0 = bottom"}});
  app.add_flag("--verify", o.verify,
               "compare the last frame's SAT with a CPU SAT; exit 1 on mismatch");
  app.add_flag("--compare", o.compare,
               "run the variant comparison (window: after the first frame)");
  app.add_flag("--exercise-resize", o.exercise_resize,
               "window: resize, minimize and restore during the run (tests)");
  app.add_flag("--primitives", o.primitives,
               "headless: time scan, compaction and sort against CUB, print a\n"
               "table (and add it to --report); window: open the Primitives panel");
  app.add_option_function<std::string>(
         "--prim-size",
         [&o](const std::string& v) {
           o.prim_log2 = parse_prim_size(v);
           o.settings.primitives.log2_n = o.prim_log2;
         },
         "elements for --primitives: 2^K as K, 2^K, or a power of two\n"
         "(default 22, i.e. 4194304)")
      ->type_name("N");
  f.texts({{"--screenshot-dir", &o.screenshot_dir, "DIR",
            "window: folder for F12 / P screenshots (default: the working directory)"}});
  app.add_flag("--ui-selftest", o.ui_selftest,
               "window: expand every panel section, scroll through the panels and check\n"
               "that every control was visible; exit 1 if one was not (tests)");
}

constexpr const char* kFooter =
    "Errors and exit codes:\n"
    "  0  success\n"
    "  1  a failed run: a check failed (--verify, a primitive against the CPU reference), a\n"
    "     file could not be read or written (full disk, missing folder, a directory; outputs\n"
    "     are written to a temporary file and renamed, so an old file is never left half\n"
    "     written), a GL/CUDA error, or a frame size beyond the GL implementation's limits\n"
    "     (the message names the limit)\n"
    "  2  wrong arguments: an unknown flag, a number out of its range, NaN, inf or garbage\n"
    "     (--frames 0, --size 4294967360x64, --focus nan), or a flag that would be ignored\n"
    "     (window mode: --report, or --exit/--screenshot without --frames)";

// After parsing: the defaults that depend on other flags, and the combinations refused. Returns
// kExitBadArguments (the message printed) or nothing when *o is ready.
std::optional<int> finish_options(const CLI::App& app, Options* o) {
  Settings& s = o->settings;
  if (o->headless && o->frames < 0) o->frames = 60;
  if (app.count("--focus")) s.scene_focus = false;  // a loaded scene keeps the focus asked for
  // Flags that would be ignored without a word are refused instead: a scripted run that asked for
  // an output and silently got none would pass for a success.
  auto refuse = [](const std::string& why) {
    std::fprintf(stderr, "scandof: %s\n", why.c_str());
    return std::optional<int>(kExitBadArguments);
  };
  if (o->headless && !s.record_path_file.empty())
    return refuse("--record-path records keys from the window (drop --headless)");
  if (app.count("--scene-camera") && s.scene_file.empty())
    return refuse("--scene-camera picks a camera of --scene FILE");
  if (!o->view_preset.empty()) {
    // The three views of results/dof: the default camera, a still scene, and a focal distance
    // (unless --focus says otherwise).
    s.animate = false;
    if (app.count("--focus") == 0)
      s.focus_distance = o->view_preset == "near-blur"    ? 30.0f
                         : o->view_preset == "focus8"     ? 8.0f
                         : o->view_preset == "highlights" ? 12.0f
                         : o->view_preset == "wall"       ? 10.0f
                                                          : Settings{}.focus_distance;
    // The highlights view opens the lens to 20 px: the wall's bulbs become discs of about 14 px.
    if (o->view_preset == "highlights" && app.count("--aperture") == 0) s.aperture = 20.0f;
  }
  if (!o->headless && o->frames < 0 && (o->exit_after || !o->screenshot.empty()))
    return refuse(
        "--exit and --screenshot in window mode need --frames N (else the window never "
        "ends; a person takes screenshots with F12)");
  if (const std::string why = finish_soak_options(&o->soak); !why.empty()) return refuse(why);
  if (!o->headless && !o->report.empty() && !o->soak.on)
    return refuse("--report is written by headless runs and soaks only (add --headless or --soak)");
  if (!o->headless && o->view_preset == "wall")
    return refuse("--view-preset wall places the camera of headless runs only (add --headless)");
  if (o->method_gold && o->method_images.empty())
    return refuse("--method-gold writes into the --method-images folder (add --method-images DIR)");
  return std::nullopt;
}

}  // namespace

std::optional<int> parse_cli(int argc, char** argv, Options* out) {
  Options o;
  CLI::App app(
      "Teapots with summed-area-table depth of field (GPU Gems 3, ch. 39). Opens a window unless\n"
      "--headless is given.",
      "scandof");
  app.get_formatter()->column_width(24);
  // The order of the calls is the order of --help.
  Flags flags{app};
  add_frame_flags(flags, o);
  add_sat_flags(flags, o.settings);
  add_hdr_flags(flags, o.settings);
  add_dof_flags(flags, o.settings);
  add_reference_flags(flags, o);
  add_camera_flags(flags, o.settings);
  add_scene_flags(flags, o.settings);
  add_output_flags(flags, o);
  add_soak_flags(app, &o.soak);  // --soak, --soak-*, --inject-fault (core/soak_options.*)
  app.add_option("--resources", o.resources,
                 "folder with shaders/ and assets/ (default: next to the binary)")
      ->type_name("DIR");
  app.footer(kFooter);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);  // prints help (rc 0) or the error (stderr)
    return rc == 0 ? 0 : kExitBadArguments;
  }
  if (const std::optional<int> rc = finish_options(app, &o)) return rc;
  *out = o;
  return std::nullopt;
}

}  // namespace demo
