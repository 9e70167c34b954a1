#include "ui.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "app.hpp"
#include "ui_dof.hpp"

namespace demo {

namespace {

void stage_row(const char* name, float ms, const char* note = nullptr) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(name);
  ImGui::TableNextColumn();
  ImGui::Text("%8.3f", ms);
  if (note) {
    ImGui::TableNextColumn();
    ImGui::TextDisabled("%s", note);
  }
}

void timings_table(const App& app) {
  const FrameTimes& t = app.last();
  bool cuda = app.sat->using_cuda();
  if (ImGui::BeginTable("stages", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableSetupColumn("stage");
    ImGui::TableSetupColumn("ms");
    ImGui::TableSetupColumn("timer");
    ImGui::TableHeadersRow();
    stage_row("scene (GL)", t.scene_ms, "GL query");
    if (cuda) {
      stage_row("map", t.sat.map_ms, "host");
      stage_row("de-interleave", t.sat.deinterleave_ms, "CUDA event");
      stage_row("row scan", t.sat.row_scan_ms, "CUDA event");
      stage_row("transpose", t.sat.transpose_ms, "CUDA event");
      stage_row("column scan", t.sat.column_scan_ms, "CUDA event");
      stage_row("transpose back", t.sat.transpose_back_ms, "CUDA event");
      stage_row("SAT total", t.sat.build_ms, "CUDA event");
      stage_row("unmap", t.sat.unmap_ms, "host");
    } else {
      stage_row("read back", t.sat.readback_ms, "host");
      stage_row("CPU SAT", t.sat.cpu_build_ms, "host");
      stage_row("upload", t.sat.upload_ms, "host");
    }
    stage_row("depth of field (GL)", t.dof_ms, "GL query");
    stage_row("frame (CPU)", t.frame_cpu_ms, "host");
    ImGui::EndTable();
  }
}

void history_plot(const App& app) {
  const auto& h = app.history();
  if (h.empty()) return;
  std::vector<float> scene, satv, dof;
  for (const auto& f : h) {
    scene.push_back(f.scene_ms);
    satv.push_back(f.sat.build_ms);
    dof.push_back(f.dof_ms);
  }
  auto plot = [](const char* label, const std::vector<float>& v) {
    float mx = *std::max_element(v.begin(), v.end());
    char overlay[64];
    std::snprintf(overlay, sizeof overlay, "%s: %.3f ms (max %.3f)", label, v.back(), mx);
    ImGui::PlotLines("##h", v.data(), static_cast<int>(v.size()), 0, overlay, 0.0f,
                     std::max(mx * 1.2f, 0.01f), ImVec2(ImGui::GetContentRegionAvail().x, 42));
  };
  ImGui::PushID("scene");
  plot("scene", scene);
  ImGui::PopID();
  ImGui::PushID("sat");
  plot("SAT build", satv);
  ImGui::PopID();
  ImGui::PushID("dof");
  plot("DoF", dof);
  ImGui::PopID();
}

void comparison_panel(const App& app, Requests* req) {
  if (ImGui::Button("Time every variant on this frame")) req->compare_variants = true;
  ImGui::SameLine();
  ImGui::TextDisabled("(%d builds each, medians)", kCompareReps);
  if (app.comparison().empty()) return;
  float worst = 0;
  for (const auto& v : app.comparison()) worst = std::max(worst, v.median.build_ms);
  if (ImGui::BeginTable(
          "cmp", 7,
          ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit)) {
    for (const char* h : {"variant", "de-int.", "rows", "transp.", "columns", "back", "total ms"})
      ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (const auto& v : app.comparison()) {
      const SatTimes& m = v.median;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(v.name.c_str());
      for (float x : {m.deinterleave_ms, m.row_scan_ms, m.transpose_ms, m.column_scan_ms,
                      m.transpose_back_ms}) {
        ImGui::TableNextColumn();
        ImGui::Text("%.3f", x);
      }
      ImGui::TableNextColumn();
      ImGui::Text("%.3f", m.build_ms);
    }
    ImGui::EndTable();
  }
  // Bars: one per variant, scaled to the slowest, so naive vs work-efficient reads at a glance.
  for (const auto& v : app.comparison()) {
    char label[96];
    std::snprintf(label, sizeof label, "%s  %.3f ms", v.name.c_str(), v.median.build_ms);
    ImGui::ProgressBar(worst > 0 ? v.median.build_ms / worst : 0.0f, ImVec2(-1, 0), label);
  }
}

}  // namespace

void draw_ui(App& app, const UiInfo& info, Requests* req) {
  Settings& s = app.settings;
  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(460, std::max(200.0f, ImGui::GetIO().DisplaySize.y - 20)),
                           ImGuiCond_FirstUseEver);
  ImGui::Begin("scandof: SAT depth of field");
  ImGui::PushItemWidth(-130);  // room for the labels
  if (app.sat->using_cuda()) {
    ImGui::TextColored(ImVec4(0.5f, 1.0f, 0.5f, 1.0f), "%s", app.sat->backend().c_str());
  } else {
    ImGui::TextColored(ImVec4(1.0f, 0.55f, 0.2f, 1.0f), "%s", app.sat->backend().c_str());
    ImGui::TextWrapped(
        "The SATs are built on the CPU from a read-back frame: scan variants and "
        "GPU timings do not apply.");
  }
  ImGui::TextDisabled("%s", info.gl_renderer.c_str());
  ImGui::Text("%.1f fps, %dx%d", info.fps, app.renderer.width(), app.renderer.height());

  if (ImGui::CollapsingHeader("Lens", ImGuiTreeNodeFlags_DefaultOpen)) {
    ImGui::SliderFloat("focal distance", &s.focus_distance, 0.5f, 60.0f, "%.2f",
                       ImGuiSliderFlags_Logarithmic);
    ImGui::SliderFloat("aperture (px)", &s.aperture, 0.0f, 48.0f, "%.1f");
    ImGui::SliderFloat("max radius (px)", &s.max_radius, 0.0f, 64.0f, "%.1f");
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::TextWrapped(
        "Click the scene to focus there. Left drag: orbit, right/middle drag: pan, wheel: zoom. "
        "Aperture: blur radius of a point at infinity.");
    ImGui::PopStyleColor();
  }
  draw_dof_panel(app, req);  // ui_dof.cpp: method, reference, camera, sharp frame
  if (ImGui::CollapsingHeader("Summed-area tables", ImGuiTreeNodeFlags_DefaultOpen)) {
    int v = static_cast<int>(s.variant);
    const char* names[scandof::kNumScanAlgorithms];
    for (int i = 0; i < scandof::kNumScanAlgorithms; ++i)
      names[i] = scandof::to_string(static_cast<scandof::ScanAlgorithm>(i));
    if (ImGui::Combo("scan variant", &v, names, scandof::kNumScanAlgorithms))
      s.variant = static_cast<scandof::ScanAlgorithm>(v);
    using scandof::SatFormat;
    using scandof::SatMethod;
    int m = static_cast<int>(s.method);
    ImGui::RadioButton("paper pipeline", &m, static_cast<int>(SatMethod::Paper));
    ImGui::SameLine();
    ImGui::RadioButton("fused (fastest)", &m, static_cast<int>(SatMethod::Fused));
    ImGui::SameLine();
    ImGui::RadioButton("fused two-pass", &m, static_cast<int>(SatMethod::FusedTwoPass));
    s.method = static_cast<SatMethod>(m);
    int f = static_cast<int>(s.format);
    ImGui::RadioButton("uint32 (exact)", &f, static_cast<int>(SatFormat::U32));
    ImGui::SameLine();
    ImGui::RadioButton("float32", &f, static_cast<int>(SatFormat::F32));
    s.format = static_cast<SatFormat>(f);
    if (ImGui::Button("Measure float32 error")) req->measure_float_error = true;
    ImGui::SameLine();
    if (app.float_error() >= 0)
      ImGui::Text("max |float - exact| box average: %.4g (of 255)", app.float_error());
    else
      ImGui::TextDisabled("not measured");
#if SCANDOF_WITH_CUDA
    ImGui::Checkbox("force CPU fallback", &s.force_cpu);
#endif
  }
  if (ImGui::CollapsingHeader("View", ImGuiTreeNodeFlags_DefaultOpen)) {
    const char* views[] = {
        "depth of field",        "sharp",          "circle of confusion", "SAT (normalised)",
        "split sharp | blurred", "lens reference", "error vs reference"};
    static_assert(sizeof views / sizeof *views == kNumViews);
    int vw = static_cast<int>(s.view);
    if (ImGui::Combo("debug view", &vw, views, kNumViews)) s.view = static_cast<View>(vw);
    if (s.view == View::Split) ImGui::SliderFloat("split", &s.split, 0.0f, 1.0f);
    ImGui::SliderInt("tessellation", &s.tessellation, 1, 32);
    ImGui::Checkbox("animate", &s.animate);
    ImGui::SameLine();
    ImGui::Checkbox("vsync", &s.vsync);
    ImGui::SameLine();
    if (ImGui::Button("Screenshot (F12)")) req->screenshot = true;
  }
  if (ImGui::CollapsingHeader("Timings", ImGuiTreeNodeFlags_DefaultOpen)) {
    timings_table(app);
    history_plot(app);
  }
  if (!app.comparison().empty()) ImGui::SetNextItemOpen(true, ImGuiCond_Once);
  if (ImGui::CollapsingHeader("Compare variants")) comparison_panel(app, req);
  ImGui::Checkbox("Primitives window (scan, compaction, sort vs CUB)", &s.show_primitives);
  ImGui::PopItemWidth();
  ImGui::End();
  app.primitives.draw(&s.primitives, &s.show_primitives, req);
}

}  // namespace demo
