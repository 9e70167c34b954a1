#include "ui/panels.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // GetCurrentWindow()->Name for --ui-selftest

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "diagnostics/frame_checks.hpp"
#include "frame/app.hpp"
#include "ui/camera_input.hpp"
#include "passes/sat_stage.hpp"
#include "ui/dof_panel.hpp"
#include "ui/primitives_window.hpp"

namespace demo {

namespace {

// The layout of the Panels object drawing now: Panels::draw puts it on ImGui's IO for the call,
// so ui_tip and ui_sidebar_rect, called from every panel file, find it without a global.
UiLayout& layout() { return *static_cast<UiLayout*>(ImGui::GetIO().UserData); }
bool checking() { return layout().check && layout().check->enabled; }

const ImVec4 kGood(0.5f, 1.0f, 0.5f, 1.0f), kWarn(1.0f, 0.55f, 0.2f, 1.0f);
const char* const kNeedsCuda =
    "Needs a CUDA device: the CPU fallback builds the tables with "
    "scandof::sat_gold, which has no scan variants or GPU stages.";

// Stage names, one per stage, the same in the table, the plot, the overlay and the frame budget.
constexpr const char* kScene = "scene (GL)";
constexpr const char* kSatBuild = "SAT build";
constexpr const char* kDof = "depth of field";

// Frame-budget colours (the stacked bar and its legend).
const ImU32 kBudgetCol[] = {IM_COL32(90, 160, 230, 255),  IM_COL32(200, 200, 90, 255),
                            IM_COL32(90, 210, 120, 255),  IM_COL32(230, 120, 80, 255),
                            IM_COL32(240, 200, 150, 255), IM_COL32(180, 120, 220, 255),
                            IM_COL32(90, 200, 200, 255), IM_COL32(110, 110, 110, 255)};

void stage_row(const char* name, float ms, const char* timer, const char* tip) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(name);
  if (tip && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip);
  ImGui::TableNextColumn();
  ImGui::Text("%8.3f", ms);
  ImGui::TableNextColumn();
  ImGui::TextDisabled("%s", timer);
}

// The frame budget from FrameTimes, with fallbacks while the lead's per-stage fields are zero.
constexpr int kBudgetParts = 7;  // named stages; "other" follows them
struct Budget {
  float part[kBudgetParts] = {};  // scene, interop, SAT, DoF, tone map, UI, second depth layer
  float frame = 0;     // the bar's full width
  const char* frame_name = "";
};
constexpr const char* kBudgetNames[] = {"scene", "interop", "SAT", "DoF", "tone map", "UI",
                                        "2nd layer", "other"};
static_assert(sizeof kBudgetNames / sizeof *kBudgetNames == kBudgetParts + 1, "one name each");
static_assert(sizeof kBudgetCol / sizeof *kBudgetCol == kBudgetParts + 1, "one colour each");

Budget budget(const App& app, const UiInfo& info) {
  const FrameTimes& t = app.last();
  const bool cuda = app.sat().using_cuda();
  Budget b;
  b.part[0] = t.scene_ms;
  b.part[1] = t.interop_ms > 0 ? t.interop_ms
              : cuda           ? t.sat.map_ms + t.sat.unmap_ms
                               : t.sat.readback_ms + t.sat.upload_ms;
  b.part[2] = t.sat_ms > 0 ? t.sat_ms : cuda ? t.sat.build_ms : t.sat.cpu_build_ms;
  b.part[3] = t.dof_ms;
  b.part[4] = t.tonemap_ms;
  b.part[5] = t.ui_ms > 0 ? t.ui_ms : info.ui_cpu_ms;
  b.part[6] = t.peel_ms;  // the second depth layer's pass (0 unless --dof-layers 2)
  float sum = 0;
  for (float x : b.part) sum += x;
  if (t.frame_gpu_ms > 0) {
    b.frame = t.frame_gpu_ms + b.part[5];
    b.frame_name = "GPU frame + UI";
  } else {
    b.frame = t.frame_cpu_ms + info.ui_cpu_ms;
    b.frame_name = "CPU frame + UI";
  }
  b.frame = std::max(b.frame, sum);
  return b;
}

// A stacked bar of the frame budget and a one-line legend under it.
void budget_bar(const App& app, const UiInfo& info, float width) {
  const Budget b = budget(app, info);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float h = ImGui::GetTextLineHeight();
  dl->AddRectFilled(p, ImVec2(p.x + width, p.y + h), IM_COL32(40, 40, 40, 255));
  float x = p.x;
  float parts[kBudgetParts + 1];
  float sum = 0;
  for (int i = 0; i < kBudgetParts; ++i) sum += parts[i] = b.part[i];
  parts[kBudgetParts] = std::max(0.0f, b.frame - sum);
  for (int i = 0; i <= kBudgetParts && b.frame > 0; ++i) {
    const float w = width * parts[i] / b.frame;
    if (w > 0.5f) dl->AddRectFilled(ImVec2(x, p.y), ImVec2(x + w, p.y + h), kBudgetCol[i]);
    x += w;
  }
  ImGui::Dummy(ImVec2(width, h));
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::Text("Frame budget: each stage's share of the %s (%.3f ms)", b.frame_name, b.frame);
    for (int i = 0; i <= kBudgetParts; ++i)
      ImGui::Text("  %-8s %8.3f ms  %5.1f %%", kBudgetNames[i], parts[i],
                  b.frame > 0 ? 100.0f * parts[i] / b.frame : 0.0f);
    ImGui::TextDisabled("other: what the frame spends outside the named stages");
    ImGui::EndTooltip();
  }
  // Legend: a swatch and the share of each stage, wrapped to the width.
  const float x0 = ImGui::GetCursorPosX();
  for (int i = 0; i <= kBudgetParts; ++i) {
    if ((i == 4 || i == 6) && parts[i] <= 0) continue;  // no tone map in LDR; no 2nd layer
    char lbl[48];
    std::snprintf(lbl, sizeof lbl, "%s %.0f%%", kBudgetNames[i],
                  b.frame > 0 ? 100.0f * parts[i] / b.frame : 0.0f);
    const float need = h * 0.8f + 4 + ImGui::CalcTextSize(lbl).x + 8;
    if (i > 0) {
      ImGui::SameLine(0, 8);
      if (ImGui::GetCursorPosX() - x0 + need > width) ImGui::NewLine();
    }
    const ImVec2 q = ImGui::GetCursorScreenPos();
    dl->AddRectFilled(ImVec2(q.x, q.y + h * 0.15f), ImVec2(q.x + h * 0.8f, q.y + h * 0.95f),
                      kBudgetCol[i]);
    ImGui::Dummy(ImVec2(h * 0.8f, h));
    ImGui::SameLine(0, 4);
    ImGui::TextUnformatted(lbl);
  }
}

void timings_table(const App& app, const UiInfo& info) {
  const FrameTimes& t = app.last();
  const bool cuda = app.sat().using_cuda();
  ImGui::TextDisabled("timer: GL = GL timer query, CUDA = CUDA events, host = CPU clock");
  ImGui::PushTextWrapPos(-1.0f);  // table cells never wrap
  if (ImGui::BeginTable("stages", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableSetupColumn("stage");
    ImGui::TableSetupColumn("ms");
    ImGui::TableSetupColumn("timer");
    ImGui::TableHeadersRow();
    stage_row(kScene, t.scene_ms, "GL", "Drawing the teapots, floor and wall into the FBO.");
    if (t.peel_ms > 0)
      stage_row("2nd depth layer", t.peel_ms, "GL",
                "The scene again, keeping what lies behind the first layer's CoC layer "
                "(--dof-layers 2).");
    if (cuda) {
      stage_row("map", t.sat.map_ms, "host", "cudaGraphicsMapResources (texture + buffer)");
      stage_row("  de-interleave", t.sat.deinterleave_ms, "CUDA", nullptr);
      stage_row("  row scan", t.sat.row_scan_ms, "CUDA", nullptr);
      stage_row("  transpose", t.sat.transpose_ms, "CUDA", nullptr);
      stage_row("  column scan", t.sat.column_scan_ms, "CUDA", nullptr);
      stage_row("  transpose back", t.sat.transpose_back_ms, "CUDA", nullptr);
      stage_row(kSatBuild, t.sat.build_ms, "CUDA",
                "The whole SAT build (the indented stages; fused methods have fewer).");
      stage_row("unmap", t.sat.unmap_ms, "host", "cudaGraphicsUnmapResources");
    } else {
      stage_row("read back", t.sat.readback_ms, "host", "glGetTextureImage of the frame");
      stage_row(kSatBuild, t.sat.cpu_build_ms, "host", "scandof::sat_gold on the CPU");
      stage_row("upload", t.sat.upload_ms, "host", "the tables into the GL buffer");
    }
    stage_row(kDof, t.dof_ms, "GL",
              ("The DoF pass (" + t.dof_pass_name() + ") reading the tables.").c_str());
    if (t.tonemap_ms > 0)
      stage_row("tone map", t.tonemap_ms, "GL",
                "HDR: the auto-exposure reduction and the tone map into the 8-bit image.");
    stage_row("App::frame (CPU)", t.frame_cpu_ms, "host",
              "CPU time of one App::frame call (the stages above are queued, not waited for).");
    if (t.frame_gpu_ms > 0)
      stage_row("frame (GPU)", t.frame_gpu_ms, "GL",
                "GPU time, scene start to the end of the DoF pass (HDR: of the tone map).");
    stage_row("UI (CPU)", info.ui_cpu_ms, "host", "Building and rendering the panels.");
    stage_row("between frames", info.frame_interval_ms, "host",
              "1000 / fps: App::frame + UI + swap (vsync waits here).");
    ImGui::EndTable();
  }
  ImGui::PopTextWrapPos();
}

void history_plot(const App& app) {
  const auto& h = app.history();
  if (h.empty()) return;
  const bool cuda = app.sat().kind() != SatBackend::Cpu;  // a GPU backend
  std::vector<float> scene, satv, dof;
  for (const auto& f : h) {
    scene.push_back(f.scene_ms);
    satv.push_back(cuda ? f.sat.build_ms : f.sat.cpu_build_ms);
    dof.push_back(f.dof_ms);
  }
  auto plot = [](const char* label, const std::vector<float>& v) {
    const float mx = *std::max_element(v.begin(), v.end());
    char overlay[64];
    std::snprintf(overlay, sizeof overlay, "%s %.3f ms", label, v.back());
    ImGui::PushID(label);
    ImGui::PlotLines("##h", v.data(), static_cast<int>(v.size()), 0, overlay, 0.0f,
                     std::max(mx * 1.2f, 0.01f), ImVec2(ImGui::GetContentRegionAvail().x, 36));
    ImGui::PopID();
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s over the last %zu frames (max %.3f ms), the same row as in the table",
                        label, v.size(), mx);
  };
  plot(kScene, scene);
  plot(kSatBuild, satv);
  plot(kDof, dof);
}

void comparison_panel(const App& app, Requests* req) {
  const bool cuda = app.sat().kind() != SatBackend::Cpu;  // a GPU backend
  ImGui::BeginDisabled(!cuda);
  if (ImGui::Button("Time every variant")) req->compare_variants = true;
  ImGui::EndDisabled();
  char tip[192];
  std::snprintf(tip, sizeof tip,
                "Builds the current frame's tables with every scan variant and SAT method, %d "
                "builds each (waited), and shows the median of each stage in ms.%s",
                kCompareReps, cuda ? "" : "\n\nDisabled: needs a CUDA device.");
  ui_tip(tip);
  if (app.measured().comparison.empty()) return;
  float worst = 0;
  for (const auto& v : app.measured().comparison) worst = std::max(worst, v.median.build_ms);
  ImGui::PushTextWrapPos(-1.0f);
  if (ImGui::BeginTable(
          "cmp", 3,
          ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit)) {
    for (const char* h : {"variant", "rows+cols", "SAT build"}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (const auto& v : app.measured().comparison) {
      const SatTimes& m = v.median;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(v.name.c_str());
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "de-interleave %.3f, row scan %.3f, transpose %.3f, column scan %.3f, "
            "transpose back %.3f ms",
            m.deinterleave_ms, m.row_scan_ms, m.transpose_ms, m.column_scan_ms,
            m.transpose_back_ms);
      ImGui::TableNextColumn();
      if (app.sat().kind() != SatBackend::Cpu)
        ImGui::Text("%.3f", m.row_scan_ms + m.column_scan_ms);
      else
        ImGui::TextDisabled("-");  // the CPU path has no separate scans
      ImGui::TableNextColumn();
      ImGui::Text("%.3f", m.build_ms);
    }
    ImGui::EndTable();
  }
  ImGui::PopTextWrapPos();
  // Bars: one per variant, scaled to the slowest, so naive vs work-efficient reads at a glance.
  for (const auto& v : app.measured().comparison) {
    char label[96];
    std::snprintf(label, sizeof label, "%s %.3f ms", v.name.c_str(), v.median.build_ms);
    ImGui::ProgressBar(worst > 0 ? v.median.build_ms / worst : 0.0f, ImVec2(-1, 0), label);
  }
}

bool header(const char* name, bool open_at_start, const char* tip) {
  if (checking()) ImGui::SetNextItemOpen(true, ImGuiCond_Always);
  const bool open =
      ImGui::CollapsingHeader(name, open_at_start ? ImGuiTreeNodeFlags_DefaultOpen : 0);
  ui_tip(tip);
  return open;
}

// The Scene section: a glTF file's path and Open (or drop a file on the window), back to the
// teapots, the file's cameras, and what the last load said (its error in red: the scene shown is
// still the previous one).
void scene_section(App& app) {
  Settings& s = app.settings();
  UiLayout& l = layout();
  if (!l.scene_path_set) {
    std::snprintf(l.scene_path, sizeof l.scene_path, "%s", s.scene_file.c_str());
    l.scene_path_set = true;
  }
  ImGui::InputText("glTF file", l.scene_path, sizeof l.scene_path);
  ui_tip("Path of a glTF 2.0 scene (.gltf or .glb); Open loads it in place of the teapots. "
         "Dropping a file on the window does the same.");
  if (ImGui::Button("Open")) s.scene_file = l.scene_path;
  ui_tip("Load the file: the camera frames it and the focus goes to its centre. A file that "
         "cannot be read leaves the current scene.");
  ImGui::SameLine();
  ImGui::BeginDisabled(s.scene_file.empty());
  if (ImGui::Button("Teapots")) {
    s.scene_file.clear();
    s.scene_camera = -1;
  }
  ImGui::EndDisabled();
  ui_tip("Back to the built-in teapot scene.");
  const MeshScene* m = app.scene_model();
  std::vector<std::string> names = {"framed on bounds"};
  if (m)
    for (const LoadedCamera& c : m->cameras()) names.push_back(c.name);
  int cam = std::clamp(s.scene_camera + 1, 0, static_cast<int>(names.size()) - 1);
  ImGui::BeginDisabled(names.size() < 2);
  if (ImGui::BeginCombo("camera", names[cam].c_str())) {
    for (int i = 0; i < static_cast<int>(names.size()); ++i)
      if (ImGui::Selectable(names[i].c_str(), i == cam)) s.scene_camera = i - 1;
    ImGui::EndCombo();
  }
  ImGui::EndDisabled();
  ui_tip("The file's perspective cameras, or a view framing the scene's bounds.");
  if (app.recorder().playing())
    ImGui::TextDisabled("camera path %s: step %lld", s.camera_path.c_str(), app.recorder().step());
  if (!s.record_path_file.empty())
    ImGui::TextDisabled("K adds this view to %s", s.record_path_file.c_str());
  if (!app.scene_message().empty()) {
    if (app.scene_error())
      ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", app.scene_message().c_str());
    else
      ImGui::TextDisabled("%s", app.scene_message().c_str());
  }
}

// The lines at the top: which backend builds the tables (and, on the CPU, what that leaves),
// the renderer, the frame rate, help and the overlay.
void status_lines(App& app, const UiInfo& info) {
  Settings& s = app.settings();
  const bool gpu = app.sat().kind() != SatBackend::Cpu;  // CUDA or GL compute: variants work
  if (gpu) {
    ImGui::TextColored(kGood, "%s", app.sat().backend().c_str());
  } else {
    // Said once, plainly: what works and what does not. The why (which can be long: no device,
    // no GL compute, a software rasterizer) in the tooltip, so the sidebar stays slim.
    const std::string& why = app.sat().backend();
    ImGui::TextColored(kWarn, "%s", why.substr(0, why.find(':')).c_str());
    ImGui::SameLine();
    ImGui::TextDisabled("(why?)");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", why.c_str());
    ImGui::TextWrapped(
        "Works: depth of field, focus, views, uint32/float32 tables. Needs a GPU backend "
        "(greyed out): scan variants, SAT methods, GPU stage timings, live variant bars; "
        "the Primitives window needs CUDA.");
  }
  if (!app.sat().hint().empty()) {
    ImGui::TextDisabled("CUDA is on another GPU (hover: how to use it)");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", app.sat().hint().c_str());
  }
  ImGui::TextDisabled("%s", info.gl_renderer.c_str());
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", info.gl_renderer.c_str());
  const float interval = info.frame_interval_ms > 0 ? info.frame_interval_ms
                         : info.fps > 0             ? 1000.0f / info.fps
                                                    : 0;
  ImGui::Text("%.1f fps = %.1f ms/frame, %dx%d", info.fps, interval, app.width(),
              app.height());
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Frames per second and its inverse, the time between frames (loop interval: "
        "App::frame + UI + swap; with vsync the swap waits for the display).");
  if (ImGui::SmallButton("? help (F1)")) s.show_help = !s.show_help;
  ui_tip("Keys and mouse (F1). Esc closes it.");
  ImGui::SameLine();
  ImGui::Checkbox("overlay (T)", &s.show_overlay);
  ui_tip(
      "The timing heads-up overlay at the top right: SAT stages, live variant bars and the "
      "frame budget.");
}

// Lens: focal distance, aperture, largest blur.
void lens_section(Settings& s) {
  ImGui::SliderFloat("focal dist.", &s.focus_distance, 0.5f, 100.0f, "%.2f units",
                     ImGuiSliderFlags_Logarithmic);
  ui_tip(
      "Distance in focus, in scene units along the view axis (a teapot is ~3 units wide; "
      "the back wall is ~30 units away at the start). Click the scene to focus on a point; "
      "the wheel zoom scales it with the camera distance.");
  ImGui::SliderFloat("aperture", &s.aperture, 0.0f, 48.0f, "%.1f px");
  ui_tip(
      "Blur radius in pixels of a point at infinity (the lens constant folded in); 0 = "
      "pinhole, everything sharp.");
  ImGui::SliderFloat("max radius", &s.max_radius, 0.0f, 64.0f, "%.1f px");
  ui_tip("Largest blur radius in pixels (the circle of confusion is clamped to it).");
}

// HDR and exposure: the pipeline, exposure, tone mapper, highlights and the exact tables' range.
void hdr_section(App& app) {
  Settings& s = app.settings();
  bool on = hdr(s);
  if (ImGui::Checkbox("HDR", &on)) s.pipeline = on ? Pipeline::Hdr : Pipeline::Ldr;
  ui_tip(
      "On: the scene renders linear radiance into RGBA16F (the bulbs and glints are far "
      "brighter than white), the tables hold it in exact fixed point, the blur works on "
      "radiance, then exposure and the tone mapper make the 8-bit image: highlights become "
      "bokeh.\nOff: LDR (paper), the chapter's RGBA8 frame and 8-bit tables, no bulbs.");
  ImGui::BeginDisabled(!on);
  ImGui::Checkbox("auto exposure", &s.auto_exposure);
  ui_tip("Meters the frame's log-average luminance to middle grey (0.18).");
  ImGui::SliderFloat(s.auto_exposure ? "compensation" : "exposure", &s.exposure_ev, -8.0f, 8.0f,
                     "%+.1f EV");
  ui_tip("Radiance x 2^EV before the tone mapper (with auto exposure: added to the metered EV).");
  if (on) ImGui::Text("exposure used %+.2f EV", app.exposure_ev());
  int tm = static_cast<int>(s.tone_mapper);
  const char* tms[] = {"ACES (fitted)", "AgX", "Reinhard"};
  static_assert(static_cast<int>(scandof::ToneMapper::Reinhard) == 2, "one name per mapper");
  if (ImGui::Combo("tone mapper", &tm, tms, 3))
    s.tone_mapper = static_cast<scandof::ToneMapper>(tm);
  ui_tip("The curve from radiance to the display's 8 bits (after exposure), then sRGB.");
  ImGui::SliderFloat("highlights", &s.highlight, 0.0f, 16.0f, "x%.1f");
  ui_tip("Highlight intensity: the bulbs' radiance and the specular gain.");
  ImGui::SliderFloat("table limit", &s.hdr_limit, 1.0f, 4096.0f, "%.0f",
                     ImGuiSliderFlags_Logarithmic);
  const scandof::SatFixedPoint fp = fixed_point(s);
  ui_tip(
      "The largest radiance the exact uint32 tables keep at this max radius: a box of the "
      "largest blur must sum below 2^32, so the limit and the fraction bits trade off. "
      "Brighter values clamp and are counted.");
  if (on && s.format == scandof::SatFormat::U32) {
    ImGui::Text("fixed point: %d fraction bits, limit %.1f", fp.frac_bits, fp.max_radiance());
    const uint64_t clamped = app.sat().clamped();
    if (bokeh_threshold(s) > 0.0f)  // the tables clamp at the bokeh threshold instead
      ImGui::Text("%llu pixels above the bokeh threshold", static_cast<unsigned long long>(clamped));
    else if (clamped > 0)
      ImGui::TextColored(kWarn, "%llu pixels clamped", static_cast<unsigned long long>(clamped));
    else
      ImGui::TextDisabled("no pixel clamped");
  }
  ImGui::EndDisabled();
}

// Summed-area tables: scan variant, SAT method, table format (and its measured error), backend.
void sat_section(App& app, Requests* req) {
  Settings& s = app.settings();
  const bool gpu = app.sat().kind() != SatBackend::Cpu;  // CUDA or GL compute: variants work
  int v = static_cast<int>(s.variant);
  const char* names[scandof::kNumScanAlgorithms];
  for (int i = 0; i < scandof::kNumScanAlgorithms; ++i)
    names[i] = scandof::to_string(static_cast<scandof::ScanAlgorithm>(i));
  ImGui::BeginDisabled(!gpu || s.method != scandof::SatMethod::Paper);
  if (ImGui::Combo("scan variant", &v, names, scandof::kNumScanAlgorithms))
    s.variant = static_cast<scandof::ScanAlgorithm>(v);
  ImGui::EndDisabled();
  ui_tip(!gpu ? "Scan variant of the paper pipeline's row and column scans.\n\nDisabled: "
                "needs a GPU backend (CUDA or GL compute)."
         : s.method != scandof::SatMethod::Paper
             ? "Scan variant of the paper pipeline.\n\nDisabled: the fused methods use their "
               "own scan; pick 'paper' to choose a variant."
             : "Scan variant of the paper pipeline's row and column scans (naive = the "
               "paper's O(n log n) scan, work-efficient = Blelloch, ... cub).");
  using scandof::SatFormat;
  using scandof::SatMethod;
  int m = static_cast<int>(s.method);
  const char* methods[] = {"paper (5 stages)", "fused (fastest)", "fused two-pass",
                           "fused one-pass (look-back)", "fused resident (one kernel)"};
  static_assert(sizeof methods / sizeof *methods == scandof::kNumSatMethods);
  ImGui::BeginDisabled(!gpu);
  if (ImGui::Combo("SAT method", &m, methods, scandof::kNumSatMethods))
    s.method = static_cast<SatMethod>(m);
  ImGui::EndDisabled();
  ui_tip(gpu ? "The SAT pipeline: the paper's five stages (de-interleave, row scan, transpose, "
               "column scan, transpose back), or fused kernels that scan rows "
               "and columns in fewer passes."
             : "The SAT pipeline.\n\nDisabled: needs a GPU backend (CUDA or GL compute).");
  int f = static_cast<int>(s.format);
  ImGui::RadioButton("uint32 (exact)", &f, static_cast<int>(SatFormat::U32));
  ui_tip("Integer tables: every box sum exact.");
  ImGui::SameLine();
  ImGui::RadioButton("float32", &f, static_cast<int>(SatFormat::F32));
  ui_tip("Float tables: large sums lose low bits; measure the error below.");
  s.format = static_cast<SatFormat>(f);
  if (ImGui::Button("Measure float32 error")) req->measure_float_error = true;
  ui_tip(
      "Largest error of float box averages against exact ones over random boxes, in "
      "8-bit colour levels (0..255).");
  if (app.measured().float_error >= 0)
    ImGui::TextWrapped(hdr(s) ? "max float error: %.4g (radiance)"
                              : "max float error: %.4g of 255 levels",
                       app.measured().float_error);
  else
    ImGui::TextDisabled("float error not measured");
  {
    const char* backends[] = {"auto", "CUDA", "GL compute", "CPU"};
    static_assert(sizeof backends / sizeof *backends == kNumSatBackends);
    int b = static_cast<int>(s.backend);
    if (ImGui::Combo("SAT backend", &b, backends, kNumSatBackends))
      s.backend = static_cast<SatBackend>(b);
    ui_tip(
        "Who builds the tables. auto: CUDA if a device is usable, else GL compute shaders, "
        "else the CPU (read back, build, upload: slow). The status line says which ran.");
  }
}

// View: debug view, tessellation, animation, vsync, screenshot.
void view_section(Settings& s, Requests* req) {
  const char* views[] = {
      "depth of field",        "sharp",          "circle of confusion", "SAT (normalised)",
      "split sharp | blurred", "lens reference", "error vs reference"};
  static_assert(sizeof views / sizeof *views == kNumViews);
  int vw = static_cast<int>(s.view);
  if (ImGui::Combo("debug view", &vw, views, kNumViews)) s.view = static_cast<View>(vw);
  ui_tip("What the DoF pass shows; a legend appears at the bottom of the scene.");
  if (s.view == View::Split || checking()) {
    ImGui::SliderFloat("split", &s.split, 0.0f, 1.0f, "%.2f of width");
    ui_tip("Split view: fraction of the width that shows the sharp frame.");
  }
  ImGui::SliderInt("tessellation", &s.tessellation, 1, 32, "%d per side");
  ui_tip("Subdivisions per side of each Bezier patch of the teapots.");
  ImGui::Checkbox("animate", &s.animate);
  ui_tip("Spin the teapots (Space).");
  ImGui::SameLine();
  ImGui::Checkbox("vsync", &s.vsync);
  ui_tip("Wait for the display's refresh (off: frame times show the real cost).");
  if (ImGui::Button("Screenshot (F12 / P)")) req->screenshot = true;
  ui_tip("Save the scene without panels as PNG (the path is shown in the window).");
}

// Timings: the last frame's stages, their history and the frame budget.
void timings_section(const App& app, const UiInfo& info) {
  timings_table(app, info);
  history_plot(app);
  ImGui::TextUnformatted("frame budget");
  budget_bar(app, info, ImGui::GetContentRegionAvail().x);
}

// The Primitives window's switch: CUDA only, though a window open already can still be closed.
void primitives_toggle(App& app) {
  Settings& s = app.settings();
  const bool cuda = app.sat().using_cuda();
  ImGui::BeginDisabled(!cuda && !s.show_primitives);
  ImGui::Checkbox("Primitives window", &s.show_primitives);
  ImGui::EndDisabled();
  ui_tip(cuda ? "Scan, stream compaction and radix sort of the library against CUB, timed."
              : "Scan, compaction and sort against CUB.\n\nDisabled: needs a CUDA device.");
}

void sidebar(App& app, const UiInfo& info, Requests* req) {
  Settings& s = app.settings();
  const ImGuiIO& io = ImGui::GetIO();
  // A slim column on the left: ~23% of the width (250..330 px), as tall as its content (capped at
  // the display, then it scrolls). Fixed place and size, re-laid on every resize.
  float& content_h = layout().sidebar_content_h;  // last frame's, to size this one
  const float w = std::clamp(io.DisplaySize.x * 0.23f, 250.0f, 330.0f);
  const float h = content_h > 0 ? std::min(io.DisplaySize.y, content_h) : io.DisplaySize.y;
  ImGui::SetNextWindowPos(ImVec2(0, 0), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(w, h), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.85f);
  const bool expanded = ImGui::Begin(
      "scandof  (F1: help, H: hide)", nullptr,
      ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoSavedSettings);
  layout().side_x = 0;
  layout().side_y = 0;
  layout().side_w = w;
  layout().side_h = expanded ? h : ImGui::GetWindowSize().y;
  if (!expanded) {
    ImGui::End();
    return;
  }
  if (checking()) {
    ImGui::SetScrollY(layout().check->sidebar_scroll);
    layout().check->sidebar_scroll_max = ImGui::GetScrollMaxY();
  }
  ImGui::PushItemWidth(-105);  // room for the labels
  const float wrap = ImGui::GetContentRegionAvail().x;
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
  status_lines(app, info);

  if (header("Lens", true, "Focal distance and blur (thin-lens model).")) lens_section(s);
  // Open at start in the HDR pipeline, where its controls act.
  if (header("HDR and exposure", hdr(s),
             "Linear radiance, exact fixed-point tables, exposure and a tone mapper; or the "
             "paper's 8-bit frame."))
    hdr_section(app);
  draw_dof_panel(app, req);  // ui/dof_panel.cpp: method, reference, camera, sharp frame
  if (header("Summed-area tables", true, "How the tables the blur reads are built."))
    sat_section(app, req);
  if (header("View", false, "Debug views, scene detail, animation, screenshot."))
    view_section(s, req);
  if (header("Scene", false, "Your own scene: a glTF 2.0 file in place of the teapots."))
    scene_section(app);
  if (header("Timings", false, "Per-stage times of the last frame, history, frame budget."))
    timings_section(app, info);
  if (!app.measured().comparison.empty()) ImGui::SetNextItemOpen(true, ImGuiCond_Once);
  if (header("Compare variants", false, "Every scan variant and SAT method on this frame."))
    comparison_panel(app, req);
  primitives_toggle(app);
  // A spare row under the last control: at the bottom of a scrolled sidebar ImGui's scroll range
  // (last frame's content height) came up a few pixels short and clipped it.
  ImGui::Dummy(ImVec2(0, ImGui::GetFrameHeight()));
  ImGui::PopTextWrapPos();
  ImGui::PopItemWidth();
  content_h = ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y;
  ImGui::End();
}

// The heads-up overlay at the top right: the SAT stages of the current configuration, the live
// naive / work-efficient / fastest bars and the frame budget.
void overlay(App& app, const UiInfo& info) {
  const ImGuiIO& io = ImGui::GetIO();
  const bool cuda = app.sat().kind() != SatBackend::Cpu;  // a GPU backend
  const Settings& s = app.settings();
  const float w = std::clamp(io.DisplaySize.x * 0.22f, 230.0f, 300.0f);
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - 8, 8), ImGuiCond_Always, ImVec2(1, 0));
  ImGui::SetNextWindowSize(ImVec2(w, 0), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.55f);
  ImGui::Begin("##overlay", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoInputs |
                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize);
  const FrameTimes& t = app.last();
  const float bw = ImGui::GetContentRegionAvail().x;
  if (cuda) {
    // On the GL backend the name of what actually ran: several library methods share a GL variant.
    const std::string what = app.sat().using_gl() ? "GL " + std::string(to_string(gl_variant_of(s)))
                             : s.method == scandof::SatMethod::Paper
                                 ? std::string(scandof::to_string(s.variant))
                                 : std::string(scandof::to_string(s.method));
    ImGui::Text("%s %.3f ms (%s)", kSatBuild, t.sat.build_ms, what.c_str());
    ImGui::TextDisabled("de-int %.3f rows %.3f tr %.3f", t.sat.deinterleave_ms, t.sat.row_scan_ms,
                        t.sat.transpose_ms);
    ImGui::TextDisabled("cols %.3f back %.3f", t.sat.column_scan_ms, t.sat.transpose_back_ms);
    // The bars: naive against work-efficient (and the current variant, and the fused path). Live
    // in the window (re-timed in rotation); headless --screenshot-ui shows the comparison's.
    std::vector<std::pair<std::string, float>> bars;
    const char* source = nullptr;
    if (info.live && !info.live->entries.empty()) {
      for (const auto& e : info.live->entries) bars.emplace_back(e.name, e.median_ms);
      source = "live";
    } else if (!app.measured().comparison.empty()) {
      const bool gl = app.sat().using_gl();
      for (const auto& v : app.measured().comparison) {
        const bool paper = v.method == scandof::SatMethod::Paper;
        if (gl) {
          // GL rows are GL variants (the library's optimized, single-pass and CUB scans and every
          // fused method run as "GL fused"): naive, work-efficient, the current one, fused.
          Settings vs = s;
          vs.variant = v.variant;
          vs.method = v.method;
          const gl::GlSatVariant g = gl_variant_of(vs);
          if (g == gl::GlSatVariant::Naive || g == gl::GlSatVariant::WorkEfficient ||
              g == gl_variant_of(s) || g == gl::GlSatVariant::Fused)
            bars.emplace_back(g == gl::GlSatVariant::Fused ? "GL fused (fastest)" : v.name,
                              v.median.build_ms);
        } else if ((paper && (v.variant == scandof::ScanAlgorithm::Naive ||
                              v.variant == scandof::ScanAlgorithm::WorkEfficient ||
                              (v.variant == s.variant && s.method == scandof::SatMethod::Paper))) ||
                   v.method == scandof::SatMethod::Fused) {
          bars.emplace_back(paper ? v.name : "fused (fastest)", v.median.build_ms);
        }
      }
      source = "comparison";
    }
    float worst = 0;
    for (const auto& b : bars) worst = std::max(worst, b.second);
    for (const auto& b : bars) {
      char lbl[80];
      std::snprintf(lbl, sizeof lbl, "%s %.3f ms", b.first.c_str(), b.second);
      ImGui::ProgressBar(worst > 0 ? b.second / worst : 0.0f, ImVec2(bw, 0), lbl);
    }
    if (source && info.live && !info.live->entries.empty())
      ImGui::TextDisabled("live: medians of %zu, cost %.2f ms per timed frame",
                          LiveCompare::kSamples, info.live->cost_ms);
    else if (source)
      ImGui::TextDisabled("SAT build, medians of %d (Time every variant)", kCompareReps);
  } else {
    ImGui::TextColored(kWarn, "CPU fallback");
    ImGui::Text("%s %.2f ms (CPU)", kSatBuild, t.sat.cpu_build_ms);
    ImGui::TextDisabled("read back %.2f, upload %.2f ms", t.sat.readback_ms, t.sat.upload_ms);
    ImGui::TextDisabled("variant bars need a CUDA device");
  }
  ImGui::Text("frame budget (%.1f fps)", info.fps);
  budget_bar(app, info, bw);
  layout().overlay_bottom = ImGui::GetWindowPos().y + ImGui::GetWindowSize().y;
  ImGui::End();
}

void help_window(Settings* s) {
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.92f);
  bool open = true;
  ImGui::Begin("Help: keys and mouse (F1 / Esc closes)", &open,
               ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove);
  for (const auto* list : {&mouse_help(), &key_help()}) {
    if (ImGui::BeginTable(list == &key_help() ? "keys" : "mouse", 2,
                          ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) {
      for (const KeyHelp& k : *list) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.4f, 1.0f), "%s", k.key);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(k.what);
      }
      ImGui::EndTable();
    }
    ImGui::Spacing();
  }
  ImGui::TextDisabled("Hover any control for what it does and its units.");
  ImGui::End();
  if (!open) s->show_help = false;
}

// A legend for the debug views at the right, under the timing overlay (the bottom belongs to the
// Primitives window and the toasts).
void view_legend(const Settings& s) {
  if (s.view == View::DepthOfField || s.view == View::Sharp) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - 8, layout().overlay_bottom + 8), ImGuiCond_Always,
                          ImVec2(1, 0));
  ImGui::SetNextWindowBgAlpha(0.6f);
  ImGui::Begin("##legend", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoInputs |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize |
                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float h = ImGui::GetTextLineHeight();
  auto gradient = [&](ImU32 hi, const char* lo_lbl, const char* hi_lbl) {
    ImGui::TextUnformatted(lo_lbl);
    ImGui::SameLine();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    dl->AddRectFilledMultiColor(p, ImVec2(p.x + 120, p.y + h), IM_COL32_BLACK, hi, hi,
                                IM_COL32_BLACK);
    ImGui::Dummy(ImVec2(120, h));
    ImGui::SameLine();
    ImGui::TextUnformatted(hi_lbl);
  };
  switch (s.view) {
    case View::CircleOfConfusion:
      ImGui::Text("Circle of confusion (radius / max radius %.0f px)", s.max_radius);
      gradient(IM_COL32(64, 140, 255, 255), "nearer than focus:  0", "max");
      gradient(IM_COL32(255, 153, 51, 255), "farther than focus: 0", "max");
      ImGui::TextDisabled("black = in focus (%.2f units)", s.focus_distance);
      break;
    case View::Sat:
      ImGui::TextUnformatted("SAT: each table / its total (R, G, B tables as colours)");
      gradient(IM_COL32_WHITE, "bottom-left 0", "1 top-right");
      ImGui::TextDisabled("a smooth ramp; a wrong table shows as a break");
      break;
    case View::Split:
      ImGui::Text("left %.0f%%: sharp frame | right: depth of field", 100 * s.split);
      break;
    case View::Reference:
      ImGui::TextUnformatted("Lens reference (\"Compare with reference\" renders it)");
      break;
    case View::Error:
      ImGui::TextUnformatted("|method - lens reference|, RMS per pixel");
      heat_legend(s.error_scale, 160.0f);  // ui/dof_panel.cpp
      break;
    default:
      break;
  }
  ImGui::End();
}

void toast(const UiInfo& info) {
  if (info.toast_left_s <= 0 || info.toast.empty()) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y - 12), ImGuiCond_Always,
                          ImVec2(0.5f, 1.0f));
  ImGui::SetNextWindowBgAlpha(0.8f * std::min(1.0f, info.toast_left_s));
  // Sized from the text, not auto-resized: an auto-resized window stays hidden on its first frame,
  // which at the CPU fallback's ~1 fps is a second of a toast lost.
  const ImVec2 pad = ImGui::GetStyle().WindowPadding;
  const float wrap = io.DisplaySize.x * 0.8f;
  const ImVec2 text = ImGui::CalcTextSize(info.toast.c_str(), nullptr, false, wrap);
  ImGui::SetNextWindowSize(ImVec2(text.x + 2 * pad.x + 2, text.y + 2 * pad.y), ImGuiCond_Always);
  ImGui::Begin("##toast", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoInputs |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                   ImGuiWindowFlags_NoNav);
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
  if (info.toast_error)
    ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.3f, 1.0f), "%s", info.toast.c_str());
  else
    ImGui::TextUnformatted(info.toast.c_str());
  ImGui::PopTextWrapPos();
  ImGui::End();
}

}  // namespace

void ui_tip(const char* text) {
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", text);
  if (!ImGui::GetIO().UserData || !checking()) return;
  // --ui-selftest: the control counts as reachable once it lies wholly inside its window's
  // visible area (below the title bar) and inside the display.
  const ImVec2 mn = ImGui::GetItemRectMin(), mx = ImGui::GetItemRectMax();
  const ImVec2 wp = ImGui::GetWindowPos(), ws = ImGui::GetWindowSize();
  const ImVec2 ds = ImGui::GetIO().DisplaySize;
  const float top = wp.y + ImGui::GetFrameHeight();
  const bool inside = mn.x >= wp.x - 1 && mx.x <= wp.x + ws.x + 1 && mn.y >= top - 1 &&
                      mx.y <= wp.y + ws.y + 1 && mn.x >= -1 && mn.y >= -1 && mx.x <= ds.x + 1 &&
                      mx.y <= ds.y + 1;
  const char* name = ImGui::GetCurrentWindow()->Name;
  const std::string key = std::string(name) + "/" + text;
  UiCheck::Item& it = layout().check->items[key];
  if (it.label.empty()) {
    it.window = name;
    std::string first = text;  // the tooltip's first line names the control in the report
    first = first.substr(0, first.find('\n'));
    it.label = first.size() > 60 ? first.substr(0, 57) + "..." : first;
  }
  it.reached = it.reached || inside;
}

void ui_sidebar_rect(float* x, float* y, float* w, float* h) {
  *x = layout().side_x;
  *y = layout().side_y;
  *w = layout().side_w;
  *h = layout().side_h;
}

void Panels::draw(App& app, const UiInfo& info, Requests* req) {
  layout_.check = info.check;
  ImGui::GetIO().UserData = &layout_;
  Settings& s = app.settings();
  const bool check = checking();
  if (s.show_ui || check) {
    sidebar(app, info, req);
  } else {
    layout().side_w = 0;
    // After H: a small hint how to get the panels back.
    ImGui::GetForegroundDrawList()->AddText(ImVec2(10, ImGui::GetIO().DisplaySize.y - 24),
                                            IM_COL32(255, 255, 255, 200),
                                            "H: show panels   F1: help");
  }
  layout().overlay_bottom = 0;
  if (s.show_overlay) overlay(app, info);
  if (s.show_ui || check) {
    view_legend(s);
    primitives_window(app.primitives(), &s.primitives, &s.show_primitives, req);
  }
  if (s.show_help) help_window(&s);
  toast(info);
  ImGui::GetIO().UserData = nullptr;
}

}  // namespace demo
