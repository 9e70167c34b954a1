#include "core/backend_choice.hpp"

namespace demo {

const char* const kPrimeOffloadHint =
    "on hybrid-graphics Linux, `__NV_PRIME_RENDER_OFFLOAD=1 __GLX_VENDOR_LIBRARY_NAME=nvidia "
    "scandof` renders the window on the NVIDIA GPU, where CUDA can share it";

namespace {
// A usable CUDA device, but the GL context renders elsewhere.
bool context_elsewhere(const BackendFacts& f) {
  return f.cuda_built && f.interop_failed.empty() && f.cuda_usable && f.gl_cuda_devices.empty();
}

// Why CUDA cannot run here (empty: it can).
std::string why_no_cuda(const BackendFacts& f) {
  if (!f.cuda_built) return "built without CUDA";
  // Before the device: after a failure the stage does not query CUDA again.
  if (!f.interop_failed.empty())
    return "CUDA-GL interop failed earlier in this run (" + f.interop_failed + ")";
  if (!f.cuda_usable) return "no usable CUDA device (" + f.cuda_missing + ")";
  if (context_elsewhere(f))
    return "the GL context (" + f.renderer + ") is not on a CUDA device, so CUDA cannot share " +
           "its frame" + (f.gl_cuda_query.empty() ? "" : " (" + f.gl_cuda_query + ")");
  return {};
}
}  // namespace

BackendChoice choose_backend(const BackendFacts& f) {
  BackendChoice c;
  const std::string no_cuda = why_no_cuda(f);
  c.no_cuda = no_cuda;
  // A CUDA device that the context is not on: the one case a user can change by how they start
  // the program (a window only: headless EGL picks its device itself).
  if (f.window && context_elsewhere(f)) c.hint = kPrimeOffloadHint;
  const bool cuda_asked = f.requested == SatBackend::Cuda;
  if ((f.requested == SatBackend::Auto || cuda_asked) && no_cuda.empty()) {
    c.kind = SatBackend::Cuda;
    c.cuda_device = f.gl_cuda_devices.front();
    c.line = "CUDA on " + f.cuda_name + " (device " + std::to_string(c.cuda_device) +
             ", the GL context's)";
    return c;
  }
  if (cuda_asked && !f.window) c.refused = true;
  // Why the GPU backend asked for (or auto's first choice) does not run, said beside what does.
  std::string why;
  if (cuda_asked) why = "CUDA was asked for, but " + no_cuda;
  else if (f.requested == SatBackend::Auto) why = no_cuda;

  std::string no_gl;
  // A software rasterizer offers GL compute, but there the CPU path builds faster: auto (and a
  // CUDA request falling back) skips it; --backend gl forces it.
  const bool skip_software = f.requested != SatBackend::Gl && f.software;
  if (f.requested != SatBackend::Cpu) {
    if (skip_software)
      no_gl = "GL compute skipped on a software rasterizer (" + f.renderer +
              "; --backend gl forces it)";
    else if (!f.gl_compute)
      no_gl = "no GL compute: " + f.gl_missing;
  }
  if (f.requested != SatBackend::Cpu && no_gl.empty()) {
    c.kind = SatBackend::Gl;
    c.line = "GL compute on " + f.renderer + (why.empty() ? "" : " (" + why + ")") +
             (f.gl_one_pass ? "; fused SAT in one pass" : "");
    return c;
  }
  c.kind = SatBackend::Cpu;
  if (f.requested == SatBackend::Cpu) {
    c.line = "CPU fallback (asked for with --backend cpu / the UI)";
    return c;
  }
  c.line = "CPU fallback: " + (why.empty() ? std::string() : why + "; ") + no_gl;
  return c;
}

}  // namespace demo
