// Every value a user can adjust, in one place. Widgets and the command line edit a Settings; once
// per frame App compares it with last frame's copy to decide what to rebuild (targets, shaders, SAT
// format, SAT backend), so no widget ever touches GL or CUDA state directly. One-shot actions
// (screenshot, "time every variant", ...) are Requests (requests.hpp), not settings.
#pragma once

#include <string>

#include "core/prim_request.hpp"
#include "scandof/dof.hpp"
#include "scandof/hdr.hpp"
#include "scandof/sat.hpp"
#include "scandof/tonemap.hpp"
#include "scandof/scan.hpp"
#include "shared.h"

namespace demo {

// Debug views of the DoF pass; the values are the shader's VIEW_* ids (shaders/shared.h).
enum class View : int {
  DepthOfField = VIEW_DOF,
  Sharp = VIEW_SHARP,
  CircleOfConfusion = VIEW_COC,
  Sat = VIEW_SAT,
  Split = VIEW_SPLIT,
  Reference = VIEW_REFERENCE,  // the lens reference (after "Compare with reference")
  Error = VIEW_ERROR,          // heat map of |method - reference| per pixel
};
constexpr int kNumViews = NUM_VIEWS;
const char* to_string(View v);  // the CLI's names: dof, sharp, coc, sat, split, reference, error

// Who builds the summed-area tables. Auto: CUDA when a device is usable, else GL compute shaders
// when the context offers GL 4.3 compute (every AMD/Intel/Mesa GPU), else the CPU (read back,
// sat_gold, upload). The window and the report say which was chosen and why.
enum class SatBackend : int { Auto = 0, Cuda = 1, Gl = 2, Cpu = 3 };
constexpr int kNumSatBackends = 4;
const char* to_string(SatBackend b);  // the CLI's names: auto, cuda, gl, cpu

// Where the depth-of-field blur runs: the full-screen fragment shader (shaders/dof.frag, any GL
// 4.5 GPU, the CPU fallback too) or a CUDA kernel writing the output texture through interop
// (kernels/src/dof.cu; about 90x faster on an H100, whose fragment shading is slow). Debug views
// other than DepthOfField always use the fragment shader.
enum class DofPass : int { Fragment = 0, Compute = 1 };
constexpr int kNumDofPasses = 2;
const char* to_string(DofPass p);  // the CLI's names: fragment, compute

// Where the sharp frame's floor and wall are shaded. Deferred: marked by scene.frag, shaded by a
// compute pass (shaders/shade_planes.comp), which moves their anisotropic texture fetches off the
// few graphics units of an H100. Forward: in scene.frag. Auto: deferred on a GPU, forward on a
// software rasterizer, where llvmpipe's anisotropic textureGrad in a compute shader costs seconds
// a frame (320x240: 2.5 s against 1 ms forward). MSAA frames always shade forward.
enum class SceneShading : int { Auto = 0, Deferred = 1, Forward = 2 };
const char* to_string(SceneShading m);  // the CLI's names: auto, deferred, forward

// Autofocus: where the focal distance is pulled to each frame (smoothly, at focus_speed).
enum class Autofocus : int { Off = 0, Cursor = 1, Centre = 2, Teapot = 3 };
constexpr int kNumAutofocus = 4;
const char* to_string(Autofocus a);  // off, cursor, centre, teapot

// The frame's pipeline. Hdr (the default): the scene renders linear radiance into RGBA16F (bulbs and
// glints brighter than 1), the SATs hold it in exact fixed point (scandof/hdr.hpp), the DoF pass
// blurs radiance, and exposure plus a tone mapper make the 8-bit image, as engines do. Ldr: the
// paper's pipeline, kept for comparison: an RGBA8 frame of display colours, 8-bit tables, no bulbs.
enum class Pipeline : int { Hdr = 0, Ldr = 1 };
constexpr int kNumPipelines = 2;
const char* to_string(Pipeline p);  // the CLI's names: hdr, ldr

// A photographer's camera (Settings::physical). Scene unit = 1 metre: the teapots are about 0.5 m
// tall at this scale, the wall 36 m from the default eye. Focal length also sets the field of view
// (the sensor's height is sensor_width * H / W), so the lens and the picture agree.
struct PhysicalCamera {
  float focal_length_mm = 50.0f;
  float f_number = 2.0f;
  float sensor_width_mm = 36.0f;  // full frame
  bool operator==(const PhysicalCamera& o) const {
    return focal_length_mm == o.focal_length_mm && f_number == o.f_number &&
           sensor_width_mm == o.sensor_width_mm;
  }
};

struct Settings {
  // Lens (thin-lens model; distances in scene units along the view axis).
  float focus_distance = 20.0f;  // the blue teapot's depth in the start view (Camera)
  float aperture = 12.0f;  // CoC radius in pixels of a point at infinity (lens constant folded in)
  float max_radius = 24.0f;  // largest blur radius in pixels
  // SAT construction. `variant` is the scan variant of the paper pipeline (library type
  // ScanAlgorithm); the UI, the CLI (--variant) and the report all call it "variant".
  scandof::ScanAlgorithm variant = scandof::ScanAlgorithm::WorkEfficient;
  scandof::SatMethod method = scandof::SatMethod::Paper;
  scandof::SatFormat format = scandof::SatFormat::U32;
  SatBackend backend = SatBackend::Auto;
  DofPass dof_pass = DofPass::Compute;  // the fragment pass where compute cannot run (CPU path)
  // Depth-of-field method and kernel shape (scandof/dof.hpp). The GL passes draw gather with every
  // shape (round apertures); every other choice runs scandof::DofGpu on the CUDA path, or the CPU
  // gold implementation (dof::render) on a read-back frame where the GPU cannot do it (yet).
  // Default gather/octagon with the radius offset and the bokeh from highlights (dof_bokeh below):
  // the best method of <= 0.3 ms at 1080p within the frame budgets, drawn natively by both GPU
  // backends (results/dof/bokeh/README.md); --dof gather --shape box --dof-radius-offset 0
  // --dof-bokeh 0 is the paper's.
  scandof::dof::Method dof_method = scandof::dof::Method::Gather;
  scandof::dof::Shape dof_shape = scandof::dof::Shape::Octagon;
  int disc_boxes = 4;  // k of the disc shape, 1..8
  int layers = 3;      // K of layered, 2..8; 3 keeps an in-focus object out of the far layer
  // Depth layers the scene renders for the DoF: 1 (the frame alone) or 2 (the second depth layer
  // of passes/peel_pass.*, what lies behind the near field, spread by layered: two_layer() below).
  int dof_layers = 1;
  // --dof-oracle (headless scoring): after each layered score, also the score of the near field
  // over the lens's own image of what lies behind it (oracle_score, diagnostics/frame_checks.hpp; stderr).
  bool dof_oracle = false;
  int dof_rings = 3;   // rings of engine/hybrid's half-resolution gathers, 1..8 (1 + 4N(N+1) samples)
  // dof::Params::radius_offset: 0.5 (the default) = shapes of the lens's area, 0 = the paper's.
  float dof_radius_offset = DOF_DEFAULT_RADIUS_OFFSET;
  // Aperture blades: 0 = round (the shape), 5..8 = that polygon turned by dof_blade_rotation
  // degrees (gather and hybrid; dof::Params::blades).
  int dof_blades = 0;
  float dof_blade_rotation = 0.0f;
  // Bokeh from highlights (dof::Params::bokeh_threshold): radiance above this, per channel, is
  // spread over its own shape and the rest gathered; 0 = off. HDR gather with U32 tables and a
  // round aperture only (bokeh_threshold() below); every GPU pass draws it (DofGpu, and
  // shaders/bokeh_*.comp after the GL passes). On by default at 1 (about 1 % of the pixels of
  // the teapot scene): with the gather/octagon above it is the best image of <= 0.3 ms at 1080p
  // within both frame budgets (results/dof/bokeh/README.md).
  float dof_bokeh = 1.0f;
  // The lens reference (accumulation over lens samples) for "Compare with reference".
  int reference_samples = 256;
  bool reference_clamp = true;  // lens shifts clamped at max_radius, as the CoC of the methods
  float error_scale = 0.1f;     // "error" view: the heat map's full scale (RMS, [0, 1] units)
  // Camera: physical mode (aperture from focal length, f-number, sensor; focus in metres).
  bool physical = false;
  PhysicalCamera lens;
  Autofocus autofocus = Autofocus::Off;
  int autofocus_teapot = 0;  // 0 = the near red one .. 4 = the far white one
  float focus_speed = 4.0f;  // focus pull rate (1/s) in dioptres: 63 % of the way in 1/speed s
  // The sharp frame: anisotropic filtering of the floor and wall textures (1 = off; clamped to the
  // GPU's limit) and MSAA resolved before the SAT (1 = off).
  float anisotropy = 16.0f;
  int msaa = 1;
  // Floor and wall shaded by a compute pass after rasterisation (shaders/shade_planes.comp; the
  // same image within rounding, 0.25 ms less of a 1080p frame on the H100) or in scene.frag.
  SceneShading scene_shading = SceneShading::Auto;
  // HDR: the pipeline, the exposure (EV: radiance x 2^EV before the tone mapper; with auto exposure
  // the compensation added to the metered EV), the tone mapper, the highlight intensity (the bulbs'
  // radiance and the specular gain) and the largest radiance the exact tables keep (the fixed
  // point's limit: hdr_fixed_point; brighter values clamp and are counted).
  Pipeline pipeline = Pipeline::Hdr;
  float exposure_ev = 0.0f;
  bool auto_exposure = true;
  scandof::ToneMapper tone_mapper = scandof::ToneMapper::Aces;
  float highlight = 4.0f;
  float hdr_limit = 128.0f;
  // Scene and presentation.
  View view = View::DepthOfField;
  float split = 0.5f;     // split view: fraction of the width that shows the sharp image
  int tessellation = 10;  // teapot patch subdivisions per side
  bool animate = true;
  bool vsync = true;
  bool show_ui = true;       // H: the panels
  bool show_overlay = true;  // T: the timing heads-up overlay on the scene
  bool show_help = false;    // F1: keys and mouse
  // The Primitives window (library vs CUB on one primitive). Part of operator== like everything
  // else; changing it rebuilds nothing.
  bool show_primitives = false;
  PrimRequest primitives;
  // What the scene pass draws: the teapots (empty) or a glTF 2.0 file (.gltf / .glb,
  // scene/gltf_loader.*). App loads it when it changes; a file it cannot read leaves the previous
  // scene and path in place (window) or stops the run (headless, exit 1). scene_camera: -1 frames
  // the scene's bounds, 0.. picks one of the file's cameras. scene_focus: a load also puts the
  // focus on the scene (off when --focus was given).
  std::string scene_file;
  int scene_camera = -1;
  bool scene_focus = true;
  // A camera-and-focus path (scene/camera_path.*): camera_path plays FILE from its start, one path
  // step (1 / its fps) per frame, the animation, focus pull and exposure stepped alike, so a
  // frame shows the same image in every run; record_dir writes every frame as
  // DIR/frame_NNNNN.png (NNNNN: the path step, else the frame count); record_path_file: the
  // window's K appends the current view to FILE as the path's next key (2 s after the last).
  std::string camera_path, record_dir, record_path_file;

  bool operator==(const Settings& o) const;
  bool operator!=(const Settings& o) const { return !(*this == o); }
};

// What a change of Settings since last frame asks the frame to rebuild (App::apply_settings). Every
// other field is read afresh each frame and rebuilds nothing.
struct SettingsChange {
  bool sat_format = false;     // the DoF programs' SAT_FLOAT define; the float error is stale
  bool tessellation = false;   // the teapot mesh
  bool anisotropy = false;     // the floor and wall textures' filtering
  bool msaa = false;           // the multisample targets
  bool scene_shading = false;  // forward or deferred planes
  bool backend = false;        // a new SAT stage (buffer, CUDA registrations); comparison stale
  bool pipeline = false;  // target formats, the HDR programs, the SAT stage's registrations
  bool scene = false;     // scene_file or scene_camera: load the file, place the camera
  bool any() const {
    return sat_format || tessellation || anisotropy || msaa || scene_shading || backend ||
           pipeline || scene;
  }
};
SettingsChange changes(const Settings& was, const Settings& now);

// The lens and method parameters of scandof::dof (aperture, focus, max radius, shape, k, K).
scandof::dof::Params dof_params(const Settings& s);
inline bool hdr(const Settings& s) { return s.pipeline == Pipeline::Hdr; }
// The frame renders the second depth layer and layered spreads it (scandof::dof::layered_two):
// only --dof layered with --dof-layers 2 (the sidebar's "second depth layer") needs it.
inline bool two_layer(const Settings& s) {
  return s.dof_layers == 2 && s.dof_method == scandof::dof::Method::Layered;
}
// The fixed point of the HDR frame for this max radius and limit (scandof/hdr.hpp).
inline scandof::SatFixedPoint fixed_point(const Settings& s) {
  return scandof::hdr_fixed_point(s.max_radius, s.hdr_limit);
}
// The bokeh threshold in effect: s.dof_bokeh where the split applies (the HDR gather from U32
// tables with a round aperture, a max radius whose sums the spreading holds), else 0: past
// kSpreadMaxRadius the gather runs alone rather than being refused.
inline float bokeh_threshold(const Settings& s) {
  return hdr(s) && s.dof_method == scandof::dof::Method::Gather && s.dof_blades == 0 &&
                 s.format == scandof::SatFormat::U32 &&
                 s.max_radius <= scandof::dof::kSpreadMaxRadius
             ? s.dof_bokeh
             : 0.0f;
}
// The encoding the tables are built with: the frame's fixed point, clamped at the bokeh
// threshold while the split is on (dof::bokeh_base), so that the gather reads the base alone.
inline scandof::SatFixedPoint table_fixed_point(const Settings& s) {
  return scandof::dof::bokeh_base(fixed_point(s), bokeh_threshold(s));
}
// Table units to colour for the DoF passes: 1/255 (LDR), 2^-F (HDR uint32), 1 (HDR float).
float table_value_scale(const Settings& s);
// Whether the GL passes (shaders/dof.frag, dof.comp) can draw this method: gather with any shape
// and radius offset, a round aperture (no blades).
inline bool fragment_can_draw(const Settings& s) {
  return s.dof_method == scandof::dof::Method::Gather && s.dof_blades == 0;
}

}  // namespace demo
