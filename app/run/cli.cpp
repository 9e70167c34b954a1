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

}  // namespace

std::optional<int> parse_cli(int argc, char** argv, Options* out) {
  Options o;
  Settings& s = o.settings;
  CLI::App app(
      "Teapots with summed-area-table depth of field (GPU Gems 3, ch. 39). Opens a window unless\n"
      "--headless is given.",
      "scandof");
  app.get_formatter()->column_width(24);

  app.add_flag("--headless", o.headless,
               "render through EGL without a window (no X server needed)");
  app.add_option_function<std::string>(
         "--size",
         [&](const std::string& v) {
           const std::size_t x = v.find('x');
           if (x == std::string::npos)
             throw CLI::ValidationError("--size", "wants WxH, got '" + v + "'");
           o.width = static_cast<int>(cli_int("--size", v.substr(0, x), 1, 16384));
           o.height = static_cast<int>(cli_int("--size", v.substr(x + 1), 1, 16384));
         },
         "frame size (default 1280x720)")
      ->type_name("WxH");
  app.add_option_function<std::string>(
         "--frames",
         [&](const std::string& v) {
           o.frames = cli_int("--frames", v, 1, std::numeric_limits<std::int64_t>::max());
         },
         "frames to render (headless default 60; window: with --exit)")
      ->type_name("N");
  app.add_flag("--exit", o.exit_after, "window: exit after --frames frames");
  app.add_option_function<std::string>(
         "--focus",
         [&](const std::string& v) { s.focus_distance = checked_float("--focus", v, 0.0f, true); },
         "focal distance in scene units (default 20)")
      ->type_name("D");
  app.add_option_function<std::string>(
         "--aperture",
         [&](const std::string& v) { s.aperture = checked_float("--aperture", v, 0, false); },
         "blur radius in pixels of a point at infinity (default 12)")
      ->type_name("A");
  app.add_option_function<std::string>(
         "--max-radius",
         [&](const std::string& v) { s.max_radius = checked_float("--max-radius", v, 0, false); },
         "largest blur radius in pixels (default 24)")
      ->type_name("R");
  // Names parsed by the library's parsers (kernels/src/scan_names.cpp), which name the choices.
  auto named = [&](const std::string& flag, auto* target, auto parse, const std::string& help) {
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
  };
  // An enum flag whose names are to_string's of the values 0 .. count - 1; `names` lists them in
  // the error.
  auto choice = [&](const std::string& flag, auto* target, int count, const std::string& names,
                    const std::string& help) {
    using E = std::remove_pointer_t<decltype(target)>;
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
  };
  named("--variant", &s.variant, scandof::parse_scan_algorithm,
        "naive|work-efficient|conflict-free|optimized|warp-shuffle|\n"
        "single-pass|cub (default work-efficient)")
      ->type_name("NAME");
  named("--method", &s.method, scandof::parse_sat_method,
        "SAT pipeline: paper|fused|fused-two-pass|fused-one-pass|fused-resident (default paper)")
      ->type_name("NAME");
  named("--format", &s.format, scandof::parse_sat_format, "SAT element type (default u32, exact)")
      ->type_name("u32|f32");
  choice("--view", &s.view, kNumViews, "dof, sharp, coc, sat, split, reference or error",
         "dof|sharp|coc|sat|split|reference|error (default dof)")
      ->type_name("NAME");
  choice("--dof-pass", &s.dof_pass, kNumDofPasses, "fragment or compute",
         "where the blur runs: compute (CUDA kernel; the default, and the fragment\n"
         "shader where CUDA is not in use) or fragment (shaders/dof.frag)")
      ->type_name("NAME");
  choice("--backend", &s.backend, kNumSatBackends, "auto, cuda, gl or cpu",
         "who builds the SATs: auto (CUDA if a device is usable, else GL compute,\n"
         "else the CPU; the default), cuda, gl (GL 4.3 compute shaders) or cpu")
      ->type_name("NAME");
  app.add_flag_callback(
      "--cpu", [&] { s.backend = SatBackend::Cpu; }, "the same as --backend cpu");
  choice("--pipeline", &s.pipeline, kNumPipelines, "hdr or ldr",
         "hdr (linear radiance, exact fixed-point tables, exposure and a tone\n"
         "mapper; the default) or ldr (the paper's RGBA8 frame and tables)")
      ->type_name("NAME");
  app.add_flag_callback(
      "--ldr", [&] { s.pipeline = Pipeline::Ldr; }, "the same as --pipeline ldr");
  app.add_option_function<std::string>(
         "--exposure",
         [&](const std::string& v) {
           const float ev = checked_float("--exposure", v, -20.0f, false);
           if (ev > 20.0f)
             throw CLI::ValidationError("--exposure", "must be in -20..20, got '" + v + "'");
           s.exposure_ev = ev;
         },
         "HDR: exposure in EV (radiance x 2^EV), or the compensation added to\n"
         "auto exposure (default 0)")
      ->type_name("EV");
  app.add_option_function<std::string>(
         "--auto-exposure",
         [&](const std::string& v) {
           if (v != "on" && v != "off")
             throw CLI::ValidationError("--auto-exposure", "on or off, got '" + v + "'");
           s.auto_exposure = v == "on";
         },
         "HDR: meter the frame's log-average luminance to middle grey (default on)")
      ->type_name("on|off");
  named("--tonemap", &s.tone_mapper, scandof::parse_tone_mapper,
        "HDR tone mapper: aces (default), agx, reinhard")
      ->type_name("NAME");
  app.add_option_function<std::string>(
         "--highlight",
         [&](const std::string& v) {
           s.highlight = checked_float("--highlight", v, 0.0f, false);
         },
         "HDR highlight intensity: the bulbs' radiance and the specular gain (default 4)")
      ->type_name("K");
  app.add_option_function<std::string>(
         "--hdr-limit",
         [&](const std::string& v) {
           s.hdr_limit = checked_float("--hdr-limit", v, 0.0f, true);
         },
         "HDR: the largest radiance the exact tables keep; brighter values clamp\n"
         "and are counted (default 128; the fraction bits follow from it and --max-radius)")
      ->type_name("L");
  app.add_option_function<std::string>(
         "--dof",
         [&](const std::string& v) {
           if (!scandof::dof::parse_method(v, &s.dof_method))
             throw CLI::ValidationError(
                 "--dof", "gather, spread, layered, engine or hybrid, got '" + v + "'");
         },
         "depth-of-field method: gather (the paper's and the default), spread\n"
         "(rectangle spreading), layered (spread per depth layer), engine (near/far\n"
         "half-resolution ring gathers, as game engines), hybrid (SAT gather + engine near field)")
      ->type_name("NAME");
  app.add_option_function<std::string>(
         "--shape",
         [&](const std::string& v) {
           if (!scandof::dof::parse_shape(v, &s.dof_shape))
             throw CLI::ValidationError("--shape", "box, octagon or disc, got '" + v + "'");
         },
         "kernel shape: box (the paper's), octagon (default), disc")
      ->type_name("NAME");
  app.add_option_function<std::string>(
         "--disc-k",
         [&](const std::string& v) {
           s.disc_boxes =
               static_cast<int>(cli_int("--disc-k", v, 1, scandof::dof::kMaxDiscBoxes));
         },
         "boxes stacked into the disc shape, 1..8 (default 4)")
      ->type_name("K");
  app.add_option_function<std::string>(
         "--dof-rings",
         [&](const std::string& v) {
           s.dof_rings = static_cast<int>(cli_int("--dof-rings", v, 1, scandof::dof::kMaxRings));
         },
         "sample rings of --dof engine / hybrid's gathers, 1..8 (default 3: 49 samples)")
      ->type_name("N");
  app.add_option_function<std::string>(
         "--dof-radius-offset",
         [&](const std::string& v) {
           const float f = checked_float("--dof-radius-offset", v, 0.0f, false);
           if (f > 1.0f) throw CLI::ValidationError("--dof-radius-offset", "0..1, got '" + v + "'");
           s.dof_radius_offset = f;
         },
         "pixels off the CoC radius before the kernel shape, 0..1 (default 0.5: the\n"
         "shapes get the lens disc's area; 0 is the paper's)")
      ->type_name("PX");
  app.add_option_function<std::string>(
         "--dof-blades",
         [&](const std::string& v) {
           const int n = static_cast<int>(cli_int("--dof-blades", v, 0, scandof::dof::kMaxBlades));
           if (n != 0 && n < scandof::dof::kMinBlades)
             throw CLI::ValidationError("--dof-blades", "0 or 5..8, got '" + v + "'");
           s.dof_blades = n;
         },
         "aperture blades: 0 (default) a round aperture, 5..8 that polygon as the\n"
         "kernel (gather and hybrid; the lens reference samples the same polygon)")
      ->type_name("N");
  app.add_option_function<std::string>(
         "--dof-bokeh",
         [&](const std::string& v) {
           s.dof_bokeh = checked_float("--dof-bokeh", v, 0.0f, false);
         },
         "bokeh from highlights: radiance above T (per channel) spreads over its own\n"
         "shape, the rest is gathered; 0 (default) = off. HDR gather, U32 tables,\n"
         "round aperture (on the GL backend drawn by the CPU gold method)")
      ->type_name("T");
  app.add_option_function<std::string>(
         "--dof-blade-rotation",
         [&](const std::string& v) {
           s.dof_blade_rotation = checked_float("--dof-blade-rotation", v, -360.0f, false);
           if (s.dof_blade_rotation > 360.0f)
             throw CLI::ValidationError("--dof-blade-rotation", "-360..360, got '" + v + "'");
         },
         "the blade polygon's turn in degrees, -360..360 (default 0: a vertex straight up)")
      ->type_name("DEG");
  app.add_option_function<std::string>(
         "--layers",
         [&](const std::string& v) {
           s.layers = static_cast<int>(cli_int("--layers", v, 2, scandof::dof::kMaxLayers));
         },
         "depth layers of --dof layered, 2..8 (default 3)")
      ->type_name("K");
  app.add_option_function<std::string>(
         "--dof-layers",
         [&](const std::string& v) {
           s.dof_layers = static_cast<int>(cli_int("--dof-layers", v, 1, 2));
         },
         "rendered depth layers for --dof layered: 1 (default) or 2 (a second\n"
         "layer, what lies behind the near field, spread behind it)")
      ->type_name("N");
  app.add_flag("--dof-oracle", s.dof_oracle,
               "with --dof layered and --quality (HDR): also score the near field over\n"
               "the lens reference of the scene without its near field (the best a\n"
               "second layer could give; stderr)");
  app.add_option_function<std::string>(
         "--reference",
         [&](const std::string& v) {
           s.reference_samples = static_cast<int>(cli_int("--reference", v, 1, 65536));
           o.quality = true;
         },
         "lens samples of the reference (default 256); headless: score the\n"
         "run against it (quality in --report)")
      ->type_name("N");
  app.add_flag("--quality", o.quality,
               "headless: score the run against the lens reference (--report)");
  app.add_flag_callback(
      "--reference-unclamped", [&] { s.reference_clamp = false; },
      "the reference's lens is not clamped at --max-radius (a real lens)");
  app.add_option("--out-reference", o.out_reference, "the lens reference of the last frame")
      ->type_name("FILE.png");
  app.add_flag("--all-methods", o.all_methods,
               "headless: run every method x shape, each timed and scored against\n"
               "the reference (into --report)");
  app.add_option("--method-images", o.method_images,
                 "headless: write sharp, reference, each method and its error map\n"
                 "as PNGs into DIR (with --all-methods or --quality)")
      ->type_name("DIR");
  app.add_option("--method-sheet", o.method_sheet,
                 "headless: the same images on one PNG (sharp, reference, then each\n"
                 "method beside its error map; tiles at most 480 px wide)")
      ->type_name("FILE.png");
  app.add_flag("--method-gold", o.method_gold,
               "with --method-images: also each method's CPU gold image of the same\n"
               "frame (METHOD_gold.npy) and the view z (depth.npy), for tests");
  app.add_option("--view-preset", o.view_preset,
                 "default (the start focus) | near-blur (focus 30, red teapot blurred\n"
                 "in front) | focus8: the results/dof views; still scene | highlights:\n"
                 "focus 12, aperture 20, the wall's bulbs far behind and one in front | wall\n"
                 "(headless): square to the back wall, one depth (20), focus 10")
      ->check(CLI::IsMember({"default", "near-blur", "focus8", "highlights", "wall"}))
      ->type_name("NAME");
  app.add_flag("--physical", s.physical,
               "physical camera: aperture and field of view from --focal-length,\n"
               "--f-number, --sensor-width; focus in metres (scene unit = 1 m)");
  app.add_option_function<std::string>(
         "--focal-length",
         [&](const std::string& v) {
           s.lens.focal_length_mm = checked_float("--focal-length", v, 0, true);
         },
         "physical camera: focal length in mm (default 50)")
      ->type_name("MM");
  app.add_option_function<std::string>(
         "--f-number",
         [&](const std::string& v) { s.lens.f_number = checked_float("--f-number", v, 0, true); },
         "physical camera: f-number (default 2)")
      ->type_name("N");
  app.add_option_function<std::string>(
         "--sensor-width",
         [&](const std::string& v) {
           s.lens.sensor_width_mm = checked_float("--sensor-width", v, 0, true);
         },
         "physical camera: sensor width in mm (default 36)")
      ->type_name("MM");
  app.add_option_function<std::string>(
         "--autofocus",
         [&](const std::string& v) {
           for (int k = 0; k < kNumAutofocus; ++k) {
             if (v == to_string(static_cast<Autofocus>(k))) {
               s.autofocus = static_cast<Autofocus>(k);
               return;
             }
           }
           throw CLI::ValidationError("--autofocus",
                                      "off, cursor, centre or teapot, got '" + v + "'");
         },
         "off (default) | cursor | centre | teapot (see --focus-teapot)")
      ->type_name("MODE");
  app.add_option_function<std::string>(
         "--focus-teapot",
         [&](const std::string& v) {
           s.autofocus_teapot = static_cast<int>(cli_int("--focus-teapot", v, 0, 4));
         },
         "autofocus teapot: 0 (red, near) .. 4 (white, far)")
      ->type_name("I");
  app.add_option_function<std::string>(
         "--focus-speed",
         [&](const std::string& v) { s.focus_speed = checked_float("--focus-speed", v, 0, true); },
         "focus pull rate per second, in dioptres (default 4)")
      ->type_name("R");
  app.add_option_function<std::string>(
         "--anisotropy",
         [&](const std::string& v) { s.anisotropy = checked_float("--anisotropy", v, 1, false); },
         "anisotropic filtering of the textures (default 16, clamped to the\n"
         "GPU's limit; 1 = off)")
      ->type_name("X");
  app.add_option_function<std::string>(
         "--scene-shading",
         [&](const std::string& v) {
           for (SceneShading m :
                {SceneShading::Auto, SceneShading::Deferred, SceneShading::Forward})
             if (v == to_string(m)) {
               s.scene_shading = m;
               return;
             }
           throw CLI::ValidationError("--scene-shading",
                                      "auto, deferred or forward, got '" + v + "'");
         },
         "floor and wall shaded after rasterisation by a compute pass\n"
         "(deferred) or in the fragment shader (forward); auto (the\n"
         "default): deferred on a GPU, forward on a software rasterizer\n"
         "and with MSAA")
      ->type_name("NAME");
  app.add_option_function<std::string>(
         "--msaa",
         [&](const std::string& v) { s.msaa = static_cast<int>(cli_int("--msaa", v, 1, 16)); },
         "scene samples per pixel, resolved before the SAT (default 1 = off)")
      ->type_name("N");
  app.add_flag_callback(
      "--no-animate", [&] { s.animate = false; }, "still scene (deterministic frames)");
  app.add_flag_callback(
      "--no-vsync", [&] { s.vsync = false; }, "window: do not wait for vertical sync");
  app.add_option_function<std::string>(
         "--tess",
         [&](const std::string& v) {
           s.tessellation = static_cast<int>(cli_int("--tess", v, 1, 64));
         },
         "teapot patch subdivisions (default 10)")
      ->type_name("N");
  app.add_option("--scene", s.scene_file,
                 "a glTF 2.0 scene (.gltf or .glb) in place of the teapots, framed by the\n"
                 "camera, focus on its centre; a file that cannot be read: exit 1")
      ->type_name("FILE");
  app.add_option_function<std::string>(
         "--scene-camera",
         [&](const std::string& v) {
           s.scene_camera = static_cast<int>(cli_int("--scene-camera", v, -1, 1 << 16));
         },
         "with --scene: the file's camera N (0-based); -1 (default) frames the bounds")
      ->type_name("N");
  app.add_option("--camera-path", s.camera_path,
                 "play a camera-and-focus path (JSON keys of eye, target, focus, aperture),\n"
                 "one step of 1/fps per frame from its start (window and headless)")
      ->type_name("FILE.json");
  app.add_option("--record", s.record_dir,
                 "write every frame as DIR/frame_NNNNN.png (NNNNN: the camera path's step,\n"
                 "else the frame count; headless: the warm-up frames too), or into FILE.mp4\n"
                 "(H.264 through FFmpeg, at the path's fps)")
      ->type_name("DIR|FILE.mp4");
  app.add_option("--record-path", s.record_path_file,
                 "window: K appends the current view to FILE as the camera path's next key")
      ->type_name("FILE.json");
  app.add_option("--out", o.out, "headless: screenshot of the last frame")->type_name("FILE.png");
  app.add_option("--out-frame", o.out_frame,
                 "headless: the sharp frame the last SAT was built from (HDR: tone mapped\n"
                 "as the frame was)")
      ->type_name("FILE.png");
  app.add_option("--screenshot", o.screenshot,
                 "window: screenshot after the last frame (needs --frames)")
      ->type_name("FILE.png");
  app.add_option("--screenshot-ui", o.screenshot_ui,
                 "the frame with the UI panels over it (headless too)")
      ->type_name("FILE");
  app.add_option("--report", o.report,
                 "per-stage timings (medians over frames), device and renderer")
      ->type_name("FILE.json");
  app.add_flag("--all-variants", o.all_variants,
               "time every scan variant (and the fused path) into the report");
  app.add_option("--dump-sat", o.dump_sat, "the last frame's SAT, shape (3, H, W), row 0 = bottom")
      ->type_name("FILE.npy");
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
         [&](const std::string& v) {
           o.prim_log2 = parse_prim_size(v);
           s.primitives.log2_n = o.prim_log2;
         },
         "elements for --primitives: 2^K as K, 2^K, or a power of two\n"
         "(default 22, i.e. 4194304)")
      ->type_name("N");
  app.add_option("--screenshot-dir", o.screenshot_dir,
                 "window: folder for F12 / P screenshots (default: the working directory)")
      ->type_name("DIR");
  app.add_flag("--ui-selftest", o.ui_selftest,
               "window: expand every panel section, scroll through the panels and check\n"
               "that every control was visible; exit 1 if one was not (tests)");
  add_soak_flags(app, &o.soak);  // --soak, --soak-*, --inject-fault (automation/soak_options.*)
  app.add_option("--resources", o.resources,
                 "folder with shaders/ and assets/ (default: next to the binary)")
      ->type_name("DIR");

  app.footer(
      "Errors and exit codes:\n"
      "  0  success\n"
      "  1  a failed run: a check failed (--verify, a primitive against the CPU reference), a\n"
      "     file could not be read or written (full disk, missing folder, a directory; outputs\n"
      "     are written to a temporary file and renamed, so an old file is never left half\n"
      "     written), a GL/CUDA error, or a frame size beyond the GL implementation's limits\n"
      "     (the message names the limit)\n"
      "  2  wrong arguments: an unknown flag, a number out of its range, NaN, inf or garbage\n"
      "     (--frames 0, --size 4294967360x64, --focus nan), or a flag that would be ignored\n"
      "     (window mode: --report, or --exit/--screenshot without --frames)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);  // prints help (rc 0) or the error (stderr)
    return rc == 0 ? 0 : kExitBadArguments;
  }
  if (o.headless && o.frames < 0) o.frames = 60;
  if (app.count("--focus")) s.scene_focus = false;  // a loaded scene keeps the focus asked for
  if (o.headless && !s.record_path_file.empty())
    return std::optional<int>(
        (std::fprintf(stderr, "scandof: --record-path records keys from the window (drop --headless)\n"),
         kExitBadArguments));
  if (app.count("--scene-camera") && s.scene_file.empty())
    return std::optional<int>(
        (std::fprintf(stderr, "scandof: --scene-camera picks a camera of --scene FILE\n"),
         kExitBadArguments));
  if (!o.view_preset.empty()) {
    // The three views of results/dof: the default camera, a still scene, and a focal distance
    // (unless --focus says otherwise).
    s.animate = false;
    if (app.count("--focus") == 0)
      s.focus_distance = o.view_preset == "near-blur" ? 30.0f
                         : o.view_preset == "focus8"  ? 8.0f
                         : o.view_preset == "highlights" ? 12.0f
                         : o.view_preset == "wall"    ? 10.0f
                                                      : Settings{}.focus_distance;
    // The highlights view opens the lens to 20 px: the wall's bulbs become discs of about 14 px.
    if (o.view_preset == "highlights" && app.count("--aperture") == 0) s.aperture = 20.0f;
  }
  // Flags that would be ignored without a word are refused instead: a scripted run that asked for
  // an output and silently got none would pass for a success.
  auto refuse = [&](const std::string& why) {
    std::fprintf(stderr, "scandof: %s\n", why.c_str());
    return std::optional<int>(kExitBadArguments);
  };
  if (!o.headless && o.frames < 0 && (o.exit_after || !o.screenshot.empty()))
    return refuse(
        "--exit and --screenshot in window mode need --frames N (else the window never "
        "ends; a person takes screenshots with F12)");
  if (const std::string why = finish_soak_options(&o.soak); !why.empty()) return refuse(why);
  if (!o.headless && !o.report.empty() && !o.soak.on)
    return refuse("--report is written by headless runs and soaks only (add --headless or --soak)");
  if (!o.headless && o.view_preset == "wall")
    return refuse("--view-preset wall places the camera of headless runs only (add --headless)");
  if (o.method_gold && o.method_images.empty())
    return refuse("--method-gold writes into the --method-images folder (add --method-images DIR)");
  *out = o;
  return std::nullopt;
}

}  // namespace demo
