// The headless JSON report (--report): device, renderer, settings, verification, float error, the
// primitives table, the soak's samples and verdict (--soak) and, per measured run, the median of every stage over its frames. Written with
// nlohmann-json through scandof::util::write_file_atomic (every write checked).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "diagnostics/soak_series.hpp"
#include "frame/app.hpp"
#include "primitives/bench.hpp"

namespace demo {
namespace gl = scandof::gl;

// One measured run (a variant or a SAT method): stage name -> median ms, in report order.
struct RunMedians {
  std::string variant;  // the report's "variant" field: a scan variant or a SAT method's name
  int frames = 0;
  std::string dof_pass;  // "compute", "fragment" or "cpu": which DoF pass the frames ran
  std::vector<std::pair<std::string, float>> stages;
  std::string dof;          // "gather/box" etc.: the depth-of-field method and shape
  float dof_ms = 0;         // median of FrameTimes::dof_ms (the pass that ran)
  std::string dof_message;  // why the method did not run where asked (CPU fallback), if so
  QualityResult quality;    // against the lens reference, when asked (valid)
};

// Medians of the stages a run has: CUDA stages with a device, CPU-fallback stages without.
RunMedians run_medians(const std::string& variant, const std::vector<FrameTimes>& frames,
                       bool cuda);

struct ReportInput {
  const App* app = nullptr;
  std::string gl;  // gl::gl_description()
  long long frames = 0;
  std::vector<RunMedians> runs;
  int verify_ok = -1;  // -1: not verified
  std::string verify_message;
  const std::vector<PrimResult>* primitives = nullptr;
  std::string reference_png;  // --out-reference, when written
  const SoakReport* soak = nullptr;  // --soak / --soak-frames: the soak's summary and samples
};

// Throws std::runtime_error naming the path when it cannot be written.
void write_report(const std::string& path, const ReportInput& in);

}  // namespace demo
