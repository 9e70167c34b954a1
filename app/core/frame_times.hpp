// What one frame took, stage by stage: the UI's timings and frame budget, the report's medians
// (diagnostics/report.*) and the history plots read it.
#pragma once

#include <chrono>
#include <string>

#include "core/dof_path.hpp"
#include "core/settings.hpp"

namespace demo {

// The SAT stage's share of a frame (passes/sat_stage.*): CUDA events, or host wall time where
// marked.
struct SatTimes {
  float map_ms = 0;      // cudaGraphicsMapResources (host wall time, all resources at once)
  float unmap_ms = 0;    // cudaGraphicsUnmapResources (host wall time)
  float map_gpu_ms = 0;  // same, as the stream sees it (CUDA events around the calls)
  float unmap_gpu_ms = 0;
  float deinterleave_ms = 0, row_scan_ms = 0, transpose_ms = 0, column_scan_ms = 0,
        transpose_back_ms = 0, build_ms = 0;               // SatBuilder stage events
  float readback_ms = 0, cpu_build_ms = 0, upload_ms = 0;  // CPU fallback (host wall time)
  float dof_compute_ms = 0;  // the CUDA DoF kernel (CUDA events), when the compute pass ran
};

// One frame's stage times in milliseconds (GL timestamp queries and CUDA events, both read without
// waiting, so they trail the frame by a few frames; CPU wall time where marked). The frame budget
// (UI bar, report) is scene + interop + SAT + DoF + UI; frame_gpu_ms spans scene start to DoF end
// on the GPU (a GL timestamp after the interop unmap, which GL orders after the CUDA work).
struct FrameTimes {
  float scene_ms = 0;      // GL: the teapot scene
  float peel_ms = 0;       // GL: the second depth layer (passes/peel_pass.*; 0 when off)
  float interop_ms = 0;    // CUDA stream: map + unmap (0 on the CPU path)
  float sat_ms = 0;        // SAT build: CUDA events, or readback + CPU + upload on the CPU path
  float dof_ms = 0;        // the DoF pass that ran: CUDA kernel (compute) or GL fragment pass
  float tonemap_ms = 0;    // GL: HDR exposure + tone map into the display image (0 in LDR)
  float ui_ms = 0;         // GL: the ImGui draw (window mode and --screenshot-ui)
  float frame_gpu_ms = 0;  // GL timestamps: scene start .. DoF end
  // GL timestamps: all of App::frame's GPU work, clears (and any wait on last frame's unmap)
  // included, to DoF end: what the frame interval is compared with.
  float frame_gpu_all_ms = 0;
  float frame_cpu_ms = 0;  // host wall time of App::frame
  float frame_interval_ms = 0;  // host wall time from this frame's start to the next one's (the
                                // frame rate's frame time: waits for the GPU included)
  // Which pass made this frame's blur (CpuGold: dof_ms = read back + method + upload).
  DofRoute dof_route = DofRoute::FragmentGl;
  SatTimes sat;
  // "fragment", "compute (CUDA)", "compute (GL)" or "cpu" (the CPU gold method of a method no
  // GPU pass here draws): the UI's and the report's name of the pass.
  std::string dof_pass_name() const { return to_string(dof_route); }
};

// Host wall time since t0, in milliseconds (the CPU-side stage and frame times).
inline float ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace demo
