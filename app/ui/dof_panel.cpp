#include "ui/dof_panel.hpp"

#include <imgui.h>

#include <cmath>
#include <string>

#include "diagnostics/frame_checks.hpp"
#include "frame/app.hpp"
#include "passes/scene_layout.hpp"
#include "scandof/dof.hpp"
#include "scandof/image_metrics.hpp"
#include "ui/panels.hpp"

namespace demo {

namespace {

using scandof::dof::Method;
using scandof::dof::Shape;

const ImVec4 kWarnColour(1.0f, 0.55f, 0.2f, 1.0f);

void disabled_wrapped(const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
  ImGui::TextWrapped("%s", text);
  ImGui::PopStyleColor();
}

void quality_table(const QualityResult& q) {
  if (!ImGui::BeginTable("quality", 3, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit))
    return;
  ImGui::TableSetupColumn("");
  ImGui::TableSetupColumn("frame");
  ImGui::TableSetupColumn("edge band");
  ImGui::TableHeadersRow();
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted("PSNR dB");
  ImGui::TableNextColumn();
  ImGui::Text("%.2f", q.q.psnr_db);
  ImGui::TableNextColumn();
  ImGui::Text("%.2f", q.q.edge_psnr_db);
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted("SSIM");
  ImGui::TableNextColumn();
  ImGui::Text("%.4f", q.q.ssim);
  ImGui::TableNextColumn();
  ImGui::Text("%.4f", q.q.edge_ssim);
  ImGui::EndTable();
}

// The method, its kernel shape, the aperture blades and each method's own settings.
void method_controls(Settings& s) {
  const char* methods[] = {"gather", "spread", "layered", "engine", "hybrid"};
  int m = static_cast<int>(s.dof_method);
  if (ImGui::Combo("method", &m, methods, scandof::dof::kNumMethods))
    s.dof_method = static_cast<Method>(m);
  ui_tip(
      "gather: each pixel averages its own circle of confusion (the paper's).\n"
      "spread: each pixel spreads its colour over its circle (Kosloff, Tao & Barsky 2009), so a "
      "blurred foreground covers what lies behind it.\n"
      "layered: spread per depth layer, composited front to back.\n"
      "engine: a game engine's DoF: half-resolution near and far ring gathers, the near field's "
      "coverage over the rest (no table read).\n"
      "hybrid: the SAT gather of the shape with the engine's near field over it.");
  const char* shapes[] = {"box", "octagon", "disc"};
  int sh = static_cast<int>(s.dof_shape);
  if (ImGui::Combo("shape", &sh, shapes, 3)) s.dof_shape = static_cast<Shape>(sh);
  ui_tip(
      "Kernel shape: the paper's box; an octagon from two boxes; a disc from k stacked boxes. The "
      "lens is round, so the reference shows what the shape buys.");
  bool area = s.dof_radius_offset > 0.0f;
  if (ImGui::Checkbox("lens-area shapes", &area)) s.dof_radius_offset = area ? 0.5f : 0.0f;
  ui_tip(
      "Build each kernel shape at r - 1/2 (--dof-radius-offset 0.5, the default): a shape of "
      "radius r weighs 2r + 1 pixels across, the lens's disc 2r, so this gives it the lens's "
      "area. Off: the paper's convention (--dof-radius-offset 0).");
  ImGui::SliderInt("aperture blades", &s.dof_blades, 0, scandof::dof::kMaxBlades);
  if (s.dof_blades > 0 && s.dof_blades < scandof::dof::kMinBlades)
    s.dof_blades = scandof::dof::kMinBlades;  // 1..4 blades make no polygon: snap to 5
  ui_tip(
      "Aperture blades (--dof-blades): 0 = a round lens (the shape above), 5..8 = the regular "
      "polygon as the kernel, stacked boxes from the SAT (gather and hybrid; on the GL backend "
      "the CPU gold method draws it). The lens reference samples the same polygon.");
  if (s.dof_blades > 0) {
    ImGui::SliderFloat("blade rotation", &s.dof_blade_rotation, -180.0f, 180.0f, "%.0f deg");
    ui_tip("The polygon's turn (--dof-blade-rotation): 0 puts a vertex straight up.");
  }
  if (s.dof_method == Method::Gather && s.dof_blades == 0) {
    // Greyed where the split does not apply (LDR, float tables, a max radius past the spreading
    // limit): bokeh_threshold() is 0 there whatever the setting.
    Settings on = s;
    on.dof_bokeh = 1.0f;
    ImGui::BeginDisabled(bokeh_threshold(on) == 0.0f);
    bool bokeh = s.dof_bokeh > 0.0f;
    if (ImGui::Checkbox("bokeh from highlights", &bokeh)) s.dof_bokeh = bokeh ? 1.0f : 0.0f;
    if (bokeh)
      ImGui::SliderFloat("bokeh threshold", &s.dof_bokeh, 0.25f, 16.0f, "%.2f",
                         ImGuiSliderFlags_Logarithmic);
    ImGui::EndDisabled();
    ui_tip(
        "Radiance above the threshold (per channel) spreads over its own shape instead of being "
        "gathered (--dof-bokeh T, default 1): a bulb keeps its light in a disc, in front of the "
        "focus as behind it. HDR with uint32 tables; every GPU pass draws it.");
  }
  if (s.dof_shape == Shape::Disc) {
    ImGui::SliderInt("disc k", &s.disc_boxes, 1, scandof::dof::kMaxDiscBoxes);
    ui_tip("Boxes stacked into the disc (more: rounder, slower).");
  }
  if (s.dof_method == Method::Engine || s.dof_method == Method::Hybrid) {
    ImGui::SliderInt("rings", &s.dof_rings, 1, scandof::dof::kMaxRings);
    ui_tip("Sample rings of the half-resolution gathers: 1 + 4 N (N + 1) samples (3: 49).");
  }
  if (s.dof_method == Method::Layered) {
    ImGui::SliderInt("layers K", &s.layers, 2, scandof::dof::kMaxLayers);
    ui_tip(
        "Depth layers. K = 3 keeps an object in focus in a middle layer of its own; with K = 2 "
        "it shares the far layer with the background, which then spreads over it.");
    bool second = s.dof_layers == 2;
    if (ImGui::Checkbox("second depth layer", &second)) s.dof_layers = second ? 2 : 1;
    ui_tip(
        "--dof-layers 2: the scene is rendered once more, keeping what lies behind each pixel's "
        "CoC layer, and spread behind the near field, so the rim of a blurred foreground object "
        "shows what it hides (partial occlusion). Costs a scene pass (the 2nd layer row).");
  }
}

// Where the blur ran, and what the GL passes cannot draw.
void where_it_ran(const App& app) {
  const Settings& s = app.settings();
  if (!app.dof_message().empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kWarnColour);
    ImGui::TextWrapped("%s (%.1f ms)", app.dof_message().c_str(), app.last().dof_ms);
    ImGui::PopStyleColor();
  } else {
    ImGui::TextDisabled("%s pass, %.3f ms", app.last().dof_pass_name().c_str(), app.last().dof_ms);
  }
  if (!fragment_can_draw(s))
    disabled_wrapped("The GL passes (dof.frag/.comp) draw gather with round apertures only.");
  if (s.physical) ImGui::TextDisabled("aperture: from the physical camera");
}

// The lens reference and the numbers against it.
void reference_controls(App& app, Requests* req) {
  Settings& s = app.settings();
  if (ImGui::Button("Compare with reference")) req->compare_reference = true;
  ui_tip(
      "Render the lens reference (the scene through many points of a round lens, averaged) and "
      "score this method against it: PSNR and SSIM over the frame and over the edge band.");
  ImGui::InputInt("lens samples", &s.reference_samples, 16, 64);
  if (s.reference_samples < 1) s.reference_samples = 1;
  if (s.reference_samples > 4096) s.reference_samples = 4096;
  ui_tip("Lens points of the reference (Fibonacci spiral); 256 by default.");
  ImGui::Checkbox("clamp shift at max radius", &s.reference_clamp);
  ui_tip(
      "A real lens has no largest blur radius; the methods clamp theirs at max radius. Clamped "
      "(default), the reference's lens shifts stop there too, so the error shows the method's "
      "artefacts, not the clamp.");
  const QualityResult& q = app.measured().quality;
  if (q.valid) {
    ImGui::TextWrapped("%s vs reference (%d samples, %.0f ms%s):", q.method.c_str(),
                       q.reference_samples, q.reference_ms,
                       reference_current(app) ? "" : ", STALE: camera or lens moved");
    quality_table(q);
    ImGui::TextDisabled("edge band: %zu px within %.1f px", q.q.edge_pixels, q.edge_radius);
    ImGui::TextDisabled("SSIM: Gaussian 11x11, sigma 1.5, luma");
    ImGui::TextDisabled("lens radius %.3g units", q.lens_radius);
  } else {
    ImGui::TextDisabled("lens radius %.3g units (A z_f / f_px)", lens_radius(app));
  }
  if (s.view == View::Error) {
    ImGui::SliderFloat("error scale", &s.error_scale, 0.01f, 0.5f, "%.3f",
                       ImGuiSliderFlags_Logarithmic);
    ui_tip("Full scale of the error view's heat map (RMS difference per pixel, 1 = white).");
  }
  if ((s.view == View::Reference || s.view == View::Error) && app.measured().reference_display.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kWarnColour);
    ImGui::TextWrapped("No reference yet: press \"Compare with reference\".");
    ImGui::PopStyleColor();
  }
}

// The camera a photographer expects: a physical lens and the autofocus.
void camera_controls(Settings& s) {
  ImGui::Checkbox("physical camera", &s.physical);
  ui_tip(
      "Scene unit = 1 metre. Aperture A = f^2 / (2 N (z_f - f)) x width_px / sensor width "
      "(dof::physical_aperture_px); the focal length also sets the field of view.");
  if (s.physical) {
    ImGui::SliderFloat("focal length", &s.lens.focal_length_mm, 14.0f, 300.0f, "%.0f mm",
                       ImGuiSliderFlags_Logarithmic);
    ui_tip("Focal length in mm (sets the field of view with the sensor width).");
    ImGui::SliderFloat("f-number", &s.lens.f_number, 0.95f, 22.0f, "f/%.1f",
                       ImGuiSliderFlags_Logarithmic);
    ui_tip("Aperture diameter = focal length / f-number.");
    ImGui::SliderFloat("sensor", &s.lens.sensor_width_mm, 6.0f, 54.0f, "%.1f mm wide");
    ui_tip("Sensor width in mm (36 = full frame).");
    ImGui::TextWrapped("focus %.2f m: radius at infinity A = %.2f px", s.focus_distance,
                       s.aperture);
  }
  const char* af[] = {"off", "under the cursor", "image centre", "follow a teapot"};
  int a = static_cast<int>(s.autofocus);
  if (ImGui::Combo("autofocus", &a, af, kNumAutofocus)) s.autofocus = static_cast<Autofocus>(a);
  ui_tip(
      "Pull the focus to the point under the cursor, the image centre, or a teapot, smoothly "
      "(evenly in dioptres, as a focus ring turns).");
  if (s.autofocus == Autofocus::Teapot) {
    const char* pots[] = {"red (near)", "gold", "blue", "green", "white (far)"};
    static_assert(sizeof pots / sizeof *pots == kNumTeapots);
    ImGui::Combo("teapot", &s.autofocus_teapot, pots, kNumTeapots);
    ui_tip("The teapot autofocus follows.");
  }
  if (s.autofocus != Autofocus::Off) {
    ImGui::SliderFloat("pull speed", &s.focus_speed, 0.5f, 30.0f, "%.1f /s",
                       ImGuiSliderFlags_Logarithmic);
    ui_tip("Focus pull rate: 63 % of the way (in dioptres) in 1/speed seconds.");
  }
}

// The sharp frame: texture filtering, MSAA, where the floor and wall are shaded.
void sharp_frame_controls(App& app) {
  Settings& s = app.settings();
  const float amax = app.max_anisotropy();
  if (amax > 1.0f) {
    ImGui::SliderFloat("anisotropy", &s.anisotropy, 1.0f, amax, "%.0fx");
    ui_tip("Anisotropic filtering of the mipmapped floor and wall textures (1 = off).");
  } else {
    ImGui::TextDisabled("no anisotropic filtering (mipmaps only)");
  }
  const char* ms[] = {"off", "2x", "4x", "8x"};
  int mi = s.msaa >= 8 ? 3 : s.msaa >= 4 ? 2 : s.msaa >= 2 ? 1 : 0;
  if (ImGui::Combo("MSAA", &mi, ms, 4)) s.msaa = 1 << mi;
  ui_tip(
      "Multisampled scene, resolved before the SAT (shaders/resolve.frag): colour = mean of the "
      "samples, view z = the nearest sample's (a mean depth would lie between surfaces).");
  ImGui::BeginDisabled(s.msaa > 1);
  bool deferred = deferred_planes(s.scene_shading);
  if (ImGui::Checkbox("deferred floor & wall", &deferred))
    s.scene_shading = deferred ? SceneShading::Deferred : SceneShading::Forward;
  ImGui::EndDisabled();
  ui_tip(
      "Floor and wall shaded by a compute pass after rasterisation (shaders/shade_planes.comp) "
      "instead of the fragment shader: the same image within rounding. Their anisotropic texture "
      "fetches then run on every SM; on the H100, whose graphics units are few, the scene pass "
      "drops from 0.87 to about 0.63 ms at 1080p. Forward with MSAA and, unless ticked, on a "
      "software rasterizer (llvmpipe's anisotropic filtering there costs seconds a frame).");
}

}  // namespace

void heat_legend(float scale, float width) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float h = ImGui::GetTextLineHeight();
  constexpr int kSteps = 32;
  for (int i = 0; i < kSteps; ++i) {
    float r, g, b;
    scandof::metrics::heat_color((i + 0.5f) / kSteps, &r, &g, &b);
    dl->AddRectFilled(ImVec2(p.x + width * i / kSteps, p.y),
                      ImVec2(p.x + width * (i + 1) / kSteps, p.y + h),
                      ImGui::ColorConvertFloat4ToU32(ImVec4(r, g, b, 1.0f)));
  }
  ImGui::Dummy(ImVec2(width, h));
  ImGui::TextDisabled("0 .. %.3g RMS per pixel (%.1f / 255)", scale, scale * 255.0f);
}

void draw_dof_panel(App& app, Requests* req) {
  Settings& s = app.settings();
  // Collapsed at start (the sidebar leaves the scene in view) unless the command line chose a
  // method, a shape or a view of this section.
  if (!fragment_can_draw(s) || s.view == View::Reference || s.view == View::Error || s.physical)
    ImGui::SetNextItemOpen(true, ImGuiCond_Once);
  const bool open = ImGui::CollapsingHeader("Depth-of-field method");
  ui_tip("The blur method and its kernel shape, held against a lens reference.");
  if (!open) return;
  method_controls(s);
  where_it_ran(app);
  reference_controls(app, req);
  ImGui::Separator();
  camera_controls(s);
  ImGui::Separator();
  sharp_frame_controls(app);
}

}  // namespace demo
