// Which SAT backend a frame runs on, decided by one pure function of what the machine offers, so
// that the SAT stage (passes/sat_stage.*) runs what it names and the unit tests
// (app/tests/backend_choice_test.cpp) walk every combination without a GPU.
//
// CUDA runs only where it can share the GL context's textures: CUDA-GL interop registers a GL
// object only on a CUDA device that the context itself renders on. A CUDA device beside a GL
// context elsewhere (a hybrid-graphics laptop rendering the desktop on the integrated GPU, a
// remote desktop, Mesa's llvmpipe under Xvfb, an AMD or Intel display GPU beside an NVIDIA compute
// GPU) makes cudaGraphicsGLRegisterImage fail, so the device count alone decides nothing.
#pragma once

#include <string>
#include <vector>

#include "core/settings.hpp"

namespace demo {

// What the machine and the current GL context offer; the SAT stage gathers it.
struct BackendFacts {
  SatBackend requested = SatBackend::Auto;
  bool cuda_built = true;     // the build has the CUDA library
  bool cuda_usable = false;   // a CUDA device with kernel code for it (scandof::cuda_device_available)
  std::string cuda_missing;   // why not, when !cuda_usable
  // The CUDA devices the current GL context renders on: cudaGLGetDevices in a window, the EGL
  // device's EGL_CUDA_DEVICE_NV headless. Empty: the context is on no CUDA device.
  std::vector<int> gl_cuda_devices;
  std::string gl_cuda_query;  // what the query said when it named none
  std::string cuda_name;      // the name of gl_cuda_devices.front()
  // A CUDA-GL call (registration, map, the kernels inside the map) failed earlier in this run:
  // CUDA is not chosen again until the program restarts.
  std::string interop_failed;
  bool window = true;         // a window (GLX); false: headless EGL
  std::string renderer;       // GL_RENDERER
  bool software = false;      // a software rasterizer (llvmpipe, softpipe, SwiftShader)
  bool gl_compute = false;    // what the GL SAT backend needs is there (gl::query_gl_sat_support)
  std::string gl_missing;     // why not, when !gl_compute
  bool gl_one_pass = false;   // the GL backend builds the fused SAT in one pass
};

struct BackendChoice {
  SatBackend kind = SatBackend::Cpu;  // Cuda, Gl or Cpu
  int cuda_device = -1;               // the device to run on (kind == Cuda)
  std::string line;  // the backend line of the window, the log and the report: what runs and why
  // What a user can do to get CUDA, when a CUDA device is there but not under the context.
  std::string hint;
  std::string no_cuda;  // why CUDA does not run (empty when it does)
  // Headless --backend cuda where CUDA cannot run: a batch run measures what it names, so it is
  // refused (exit 2) rather than timed on another backend. The window falls back and says why.
  bool refused = false;
};

// The hint printed where a CUDA device exists but the window's GL runs elsewhere.
extern const char* const kPrimeOffloadHint;

BackendChoice choose_backend(const BackendFacts& f);

}  // namespace demo
