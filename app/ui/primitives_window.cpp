#include "ui/primitives_window.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>

#include "scandof/scan.hpp"
#include "ui/panels.hpp"

namespace demo {

namespace {

void row(const char* name, double ms, double gelem, double gbs, const char* check, bool ok) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(name);
  ImGui::TableNextColumn();
  ImGui::Text("%.4f", ms);
  ImGui::TableNextColumn();
  if (gelem > 0)
    ImGui::Text("%.2f", gelem);
  else
    ImGui::TextDisabled("-");
  ImGui::TableNextColumn();
  ImGui::Text("%.1f", gbs);
  ImGui::TableNextColumn();
  if (check == nullptr)
    ImGui::TextDisabled("-");
  else if (*check == 0)
    ImGui::TextDisabled("checking...");
  else if (ok)
    ImGui::TextColored(ImVec4(0.5f, 1.0f, 0.5f, 1.0f), "verified");
  else
    ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.3f, 1.0f), "WRONG");  // details below the table
}

void results_table(const PrimResult& r) {
  if (!r.ran) {
    ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.3f, 1.0f), "not run: %s", r.error.c_str());
    return;
  }
  ImGui::Text("%s, n = 2^%d = %zu on %s", r.label.c_str(), r.req.log2_n, r.n, r.device.c_str());
  if (ImGui::BeginTable(
          "prim_results", 5,
          ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit)) {
    for (const char* h : {"", "median ms", "Gelem/s", "GB/s", "result"}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    row("library", r.lib.ms, r.lib.gelem_s, r.lib.gb_s, r.lib.check.c_str(), r.lib.verified);
    row("CUB", r.cub.ms, r.cub.gelem_s, r.cub.gb_s, r.cub.check.c_str(), r.cub.verified);
    row("memcpy D2D", r.memcpy_ms, 0, r.memcpy_gb_s, nullptr, true);
    ImGui::EndTable();
  }
  for (const auto* t : {&r.lib, &r.cub})
    if (!t->check.empty() && !t->verified)
      ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.3f, 1.0f), "%s: %s", t == &r.lib ? "library" : "CUB",
                         t->check.c_str());
  const ImVec4 col = r.ratio >= 1.0 ? ImVec4(0.5f, 1.0f, 0.5f, 1.0f) : ImVec4(1.0f, 0.8f, 0.3f, 1);
  ImGui::TextColored(col, "CUB / library: %.2fx (%s)", r.ratio,
                     r.ratio >= 1.0 ? "library faster" : "CUB faster");
  if (r.req.primitive == Primitive::Compact)
    ImGui::Text("kept %zu of %zu (%.1f%%)", r.selected, r.n, 100.0 * r.selected / r.n);
  ImGui::TextDisabled(
      "medians of %d runs after %d warm-ups; %d rotated input copies; GPU part "
      "%.0f ms, CPU check %.0f ms",
      r.reps, kPrimWarmups, r.input_copies, r.gpu_wall_ms, r.verify_wall_ms);
}

// Tooltip with the reason when the controls are disabled.
bool g_available = true;
void tip(const char* text) {
  std::string t = text;
  if (!g_available) t += "\n\nDisabled: needs a CUDA device.";
  ui_tip(t.c_str());
}

float g_placed_w = -1, g_placed_h = -1;  // the display size the window was last placed for

}  // namespace

void primitives_window(const PrimitivesRun& run, PrimRequest* req, bool* open, Requests* out) {
  if (!*open) return;
  const bool available = run.available();
  const int max_log2 = run.max_log2();
  g_available = available;
  const ImGuiIO& io = ImGui::GetIO();
  // Beside the sidebar, anchored at the bottom (the timing overlay owns the top right); placed
  // again whenever the display size changes, so a resize never leaves it clipped.
  if (g_placed_w != io.DisplaySize.x || g_placed_h != io.DisplaySize.y) {
    float sx = 0, sy = 0, sw = 0, sh = 0;
    ui_sidebar_rect(&sx, &sy, &sw, &sh);
    ImGui::SetNextWindowPos(ImVec2(sx + sw + 8.0f, io.DisplaySize.y - 8.0f), ImGuiCond_Always,
                            ImVec2(0.0f, 1.0f));
    g_placed_w = io.DisplaySize.x;
    g_placed_h = io.DisplaySize.y;
  }
  // Auto-sized to its contents (the results add rows); wrapped text wraps at a fixed width so
  // the width does not feed back into itself.
  if (!ImGui::Begin("Primitives", open, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::End();
    return;
  }
  // Narrower on small displays (the window sits right of a 250 px sidebar at 900 px).
  const float wrap = std::clamp(io.DisplaySize.x - 300.0f, 300.0f, 460.0f);
  ImGui::PushItemWidth(wrap - 140.0f);
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
  if (!available) {
    ImGui::TextColored(ImVec4(1.0f, 0.55f, 0.2f, 1.0f),
                       "Needs a CUDA device: the controls below are disabled.");
    ImGui::TextDisabled("%s", run.why_not().c_str());
  }
  ImGui::BeginDisabled(!available || run.busy());
  int p = static_cast<int>(req->primitive);
  const char* prims[] = {"scan", "stream compaction", "radix sort"};
  if (ImGui::Combo("primitive", &p, prims, kNumPrimitives))
    req->primitive = static_cast<Primitive>(p);
  tip("Which primitive to time: scan, stream compaction or radix sort, each against its CUB twin.");
  switch (req->primitive) {
    case Primitive::Scan: {
      const char* names[scandof::kNumScanAlgorithms];
      for (int i = 0; i < scandof::kNumScanAlgorithms; ++i)
        names[i] = scandof::to_string(static_cast<scandof::ScanAlgorithm>(i));
      names[static_cast<int>(scandof::ScanAlgorithm::Cub)] = "cub (via library)";
      int v = static_cast<int>(req->scan_variant);
      if (ImGui::Combo("variant", &v, names, scandof::kNumScanAlgorithms))
        req->scan_variant = static_cast<scandof::ScanAlgorithm>(v);
      tip("The library scan variant (CUB: the library calling CUB).");
      ImGui::TextDisabled("exclusive sum of uniform random uint32");
      break;
    }
    case Primitive::Compact: {
      const char* algos[] = {"paper (flags + scan)", "reduce-then-scan", "single-pass"};
      static_assert(sizeof algos / sizeof *algos == scandof::kNumCompactAlgorithms);
      int a = static_cast<int>(req->compact_algo);
      if (ImGui::Combo("algorithm", &a, algos, scandof::kNumCompactAlgorithms))
        req->compact_algo = static_cast<scandof::CompactAlgorithm>(a);
      tip("The library compaction algorithm.");
      int m = static_cast<int>(req->compact_mode);
      const char* modes[] = {"select (compact_if)", "partition (partition_if)",
                             "flagged (compact_flagged)"};
      if (ImGui::Combo("operation", &m, modes, kNumCompactModes))
        req->compact_mode = static_cast<CompactMode>(m);
      tip("select keeps the chosen items, partition also keeps the rest behind them, flagged "
          "selects by a flag array.");
      ImGui::Text("selectivity");
      for (int pct : {1, 50, 99}) {
        ImGui::SameLine();
        char lbl[16];
        std::snprintf(lbl, sizeof lbl, "%d%%", pct);
        ImGui::RadioButton(lbl, &req->selectivity_pct, pct);
        tip("Percentage of items selected.");
      }
      break;
    }
    case Primitive::Sort: {
      const char* algos[] = {"split (chapter: 1 bit/pass + bitonic merge)", "lsd (8-bit digits)"};
      static_assert(sizeof algos / sizeof *algos == scandof::kNumSortAlgorithms);
      int a = static_cast<int>(req->sort_algo);
      if (ImGui::Combo("algorithm", &a, algos, scandof::kNumSortAlgorithms))
        req->sort_algo = static_cast<scandof::SortAlgorithm>(a);
      tip("The library radix sort: the chapter split sort or an 8-bit LSD sort.");
      int d = static_cast<int>(req->distribution);
      const char* dists[] = {"uniform random", "all equal", "few distinct (16)", "already sorted"};
      if (ImGui::Combo("keys", &d, dists, kNumDistributions))
        req->distribution = static_cast<Distribution>(d);
      tip("Distribution of the uint32 keys.");
      break;
    }
  }
  // Without a device nothing runs: keep the request's size rather than clamping it to 2^10.
  const int hi = available ? std::max(10, max_log2) : 26;
  req->log2_n = std::min(std::max(req->log2_n, 10), hi);
  ImGui::SliderInt("size (log2)", &req->log2_n, 10, hi, "2^%d", ImGuiSliderFlags_AlwaysClamp);
  tip("Number of uint32 elements, 2^K (capped by free device memory).");
  ImGui::SameLine();
  ImGui::TextDisabled("%zu", std::size_t(1) << req->log2_n);
  ImGui::SliderInt("timed runs", &req->reps, 5, 100, "%d", ImGuiSliderFlags_AlwaysClamp);
  tip("Timed runs per call (median shown), after 3 warm-ups.");
  if (available)
    ImGui::TextDisabled("largest size that fits the free device memory: 2^%d", max_log2);
  if (ImGui::Button("Run")) out->run_primitives = true;
  tip("Time library, CUB and a memcpy D2D on the same input, then check both against the CPU "
      "reference.");
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (run.running())
    ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "running...");
  else if (run.verifying())
    ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "checking against the CPU reference...");
  else
    ImGui::TextDisabled("library vs CUB on the same input");
  if (run.has_result()) {
    ImGui::Separator();
    results_table(run.result());
  }
  ImGui::PopTextWrapPos();
  ImGui::PopItemWidth();
  ImGui::End();
}

}  // namespace demo
