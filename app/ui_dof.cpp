#include "ui_dof.hpp"

#include <imgui.h>

#include <cmath>
#include <string>

#include "app.hpp"
#include "renderer.hpp"
#include "scandof/dof.hpp"
#include "scandof/image_metrics.hpp"

namespace demo {

namespace {

using scandof::dof::Method;
using scandof::dof::Shape;

void hint(const char* text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

// The heat map's legend: a bar of heat_color from 0 to the full scale, labelled.
void legend(float scale) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x * 0.6f, h = 10.0f;
  constexpr int kSteps = 32;
  for (int i = 0; i < kSteps; ++i) {
    float r, g, b;
    scandof::metrics::heat_color((i + 0.5f) / kSteps, &r, &g, &b);
    dl->AddRectFilled(ImVec2(p.x + w * i / kSteps, p.y),
                      ImVec2(p.x + w * (i + 1) / kSteps, p.y + h),
                      ImGui::ColorConvertFloat4ToU32(ImVec4(r, g, b, 1.0f)));
  }
  ImGui::Dummy(ImVec2(w, h));
  ImGui::TextDisabled("0 .. %.3g RMS error per pixel (= %.1f / 255)", scale, scale * 255.0f);
}

}  // namespace

void draw_dof_panel(App& app, Requests* req) {
  Settings& s = app.settings;
  if (!ImGui::CollapsingHeader("Depth-of-field method", ImGuiTreeNodeFlags_DefaultOpen)) return;
  int m = static_cast<int>(s.dof_method);
  ImGui::RadioButton("gather", &m, static_cast<int>(Method::Gather));
  ImGui::SameLine();
  ImGui::RadioButton("spread", &m, static_cast<int>(Method::Spread));
  ImGui::SameLine();
  ImGui::RadioButton("layered", &m, static_cast<int>(Method::Layered));
  hint(
      "gather: each pixel averages its own circle of confusion (the paper's). spread: each pixel "
      "spreads its colour over its circle (Kosloff, Tao & Barsky 2009), so a blurred foreground "
      "covers what is behind it. layered: spread per depth layer, composited front to back.");
  s.dof_method = static_cast<Method>(m);
  int sh = static_cast<int>(s.dof_shape);
  ImGui::RadioButton("box", &sh, static_cast<int>(Shape::Box));
  ImGui::SameLine();
  ImGui::RadioButton("octagon", &sh, static_cast<int>(Shape::Octagon));
  ImGui::SameLine();
  ImGui::RadioButton("disc", &sh, static_cast<int>(Shape::Disc));
  s.dof_shape = static_cast<Shape>(sh);
  if (s.dof_shape == Shape::Disc)
    ImGui::SliderInt("disc boxes k", &s.disc_boxes, 1, scandof::dof::kMaxDiscBoxes);
  if (s.dof_method == Method::Layered) {
    ImGui::SliderInt("layers K", &s.layers, 2, scandof::dof::kMaxLayers);
    hint(
        "K = 3 keeps an object in focus in a middle layer of its own; with K = 2 it shares the "
        "far layer with the background, which then spreads over it.");
  }
  // Where it runs.
  const bool frag = fragment_can_draw(s);
  if (s.physical) ImGui::TextDisabled("aperture from the physical camera below");
  if (!app.dof_message().empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.55f, 0.2f, 1.0f));
    ImGui::TextWrapped("%s (%.1f ms)", app.dof_message().c_str(), app.last().dof_ms);
    ImGui::PopStyleColor();
  } else if (app.last().dof_pass == DofPass::Compute)
    ImGui::TextDisabled("runs on the GPU (scandof::DofGpu), %.3f ms", app.last().dof_ms);
  else
    ImGui::TextDisabled("fragment pass (shaders/dof.frag), %.3f ms", app.last().dof_ms);
  if (!frag) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::TextWrapped("The fragment pass (shaders/dof.frag) draws gather/box only.");
    ImGui::PopStyleColor();
  }

  // The reference and the numbers.
  if (ImGui::Button("Compare with reference")) req->compare_reference = true;
  ImGui::SameLine();
  ImGui::SetNextItemWidth(90);
  ImGui::InputInt("lens samples", &s.reference_samples, 16, 64);
  if (s.reference_samples < 1) s.reference_samples = 1;
  if (s.reference_samples > 4096) s.reference_samples = 4096;
  ImGui::Checkbox("clamp lens shift at max radius", &s.reference_clamp);
  hint(
      "A real lens has no largest blur radius; the methods clamp theirs at max radius. Clamped "
      "(default), the reference's lens shifts stop there too, so the error shows the method's "
      "artefacts, not the clamp.");
  const QualityResult& q = app.quality();
  if (q.valid) {
    ImGui::Text("%s vs reference (%d lens samples, %.0f ms%s):", q.method.c_str(),
                q.reference_samples, q.reference_ms, app.reference_current() ? "" : ", stale");
    if (ImGui::BeginTable("quality", 3, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit)) {
      ImGui::TableSetupColumn("");
      ImGui::TableSetupColumn("whole frame");
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
    ImGui::TextDisabled("edge band: %zu px within %.1f px of a depth edge; lens radius %.3g m",
                        q.q.edge_pixels, q.edge_radius, q.lens_radius);
    ImGui::TextDisabled("SSIM window: Gaussian 11x11, sigma 1.5, on luma");
  } else {
    ImGui::TextDisabled("lens radius %.3g m (L = A z_f / f_px)", app.lens_radius());
  }
  if (s.view == View::Error) {
    ImGui::SliderFloat("error full scale", &s.error_scale, 0.01f, 0.5f, "%.3f",
                       ImGuiSliderFlags_Logarithmic);
    legend(s.error_scale);
  }
  if ((s.view == View::Reference || s.view == View::Error) && app.reference().empty())
    ImGui::TextColored(ImVec4(1.0f, 0.55f, 0.2f, 1.0f),
                       "no reference yet: press \"Compare with reference\"");

  // The camera a photographer expects.
  ImGui::Separator();
  ImGui::TextUnformatted("Camera");
  ImGui::Checkbox("physical camera", &s.physical);
  hint(
      "Scene unit = 1 metre. Aperture A = f^2 / (2 N (z_f - f)) x width_px / sensor width "
      "(scandof::dof::physical_aperture_px); the focal length also sets the field of view.");
  if (s.physical) {
    ImGui::SliderFloat("focal length mm", &s.lens.focal_length_mm, 14.0f, 300.0f, "%.0f",
                       ImGuiSliderFlags_Logarithmic);
    ImGui::SliderFloat("f-number", &s.lens.f_number, 0.95f, 22.0f, "f/%.1f",
                       ImGuiSliderFlags_Logarithmic);
    ImGui::SliderFloat("sensor width mm", &s.lens.sensor_width_mm, 6.0f, 54.0f, "%.1f");
    ImGui::Text("focus %.2f m -> radius at infinity %.2f px", s.focus_distance, s.aperture);
  }
  const char* af[] = {"off", "point under the cursor", "image centre", "follow a teapot"};
  int a = static_cast<int>(s.autofocus);
  if (ImGui::Combo("autofocus", &a, af, kNumAutofocus)) s.autofocus = static_cast<Autofocus>(a);
  if (s.autofocus == Autofocus::Teapot) {
    const char* pots[] = {"red (near)", "gold", "blue", "green", "white (far)"};
    static_assert(sizeof pots / sizeof *pots == kNumTeapots);
    ImGui::Combo("teapot", &s.autofocus_teapot, pots, kNumTeapots);
  }
  if (s.autofocus != Autofocus::Off)
    ImGui::SliderFloat("focus pull speed", &s.focus_speed, 0.5f, 30.0f, "%.1f /s",
                       ImGuiSliderFlags_Logarithmic);

  ImGui::Separator();
  ImGui::TextUnformatted("Sharp frame");
  const float amax = app.renderer.max_anisotropy();
  if (amax > 1.0f)
    ImGui::SliderFloat("anisotropic filtering", &s.anisotropy, 1.0f, amax, "%.0fx");
  else
    ImGui::TextDisabled("anisotropic filtering not available (mipmaps only)");
  const char* ms[] = {"off", "2x", "4x", "8x"};
  int mi = s.msaa >= 8 ? 3 : s.msaa >= 4 ? 2 : s.msaa >= 2 ? 1 : 0;
  if (ImGui::Combo("MSAA", &mi, ms, 4)) s.msaa = 1 << mi;
  hint(
      "Resolved before the SAT (shaders/resolve.frag): colour = mean of the samples, view z = "
      "the nearest sample's (a mean depth would lie between surfaces).");
}

}  // namespace demo
