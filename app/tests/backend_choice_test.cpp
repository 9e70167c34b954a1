// The SAT backend choice (core/backend_choice.hpp) over every combination of request x CUDA
// (built, usable, the GL context's devices, an earlier interop failure) x window or headless x
// renderer x GL compute, against the rules spelled out once more here; and named cases of the
// machines users meet (a hybrid-graphics laptop, a remote desktop, two GPUs, no GPU).
#include <gtest/gtest.h>

#include <string>

#include "core/backend_choice.hpp"

namespace demo {
namespace {

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(BackendChoice, EveryCombination) {
  int n = 0;
  for (int req = 0; req < kNumSatBackends; ++req)
    for (int built = 0; built < 2; ++built)
      for (int usable = 0; usable < 2; ++usable)
        for (int shares = 0; shares < 3; ++shares)  // no device, device 0, device 1
          for (int failed = 0; failed < 2; ++failed)
            for (int window = 0; window < 2; ++window)
              for (int software = 0; software < 2; ++software)
                for (int glc = 0; glc < 2; ++glc)
                  for (int one = 0; one < 2; ++one) {
                    BackendFacts f;
                    f.requested = static_cast<SatBackend>(req);
                    f.cuda_built = built;
                    f.cuda_usable = built && usable;
                    f.cuda_missing = "cudaGetDeviceCount: no CUDA-capable device is detected";
                    if (shares) f.gl_cuda_devices = {shares - 1};
                    else f.gl_cuda_query = "cudaGLGetDevices: no CUDA device";
                    f.cuda_name = "GPU " + std::to_string(shares - 1);
                    if (failed) f.interop_failed = "cudaGraphicsGLRegisterImage: unknown error";
                    f.window = window;
                    f.renderer = software ? "llvmpipe (LLVM 15.0.6, 256 bits)" : "Radeon RX 7600";
                    f.software = software;
                    f.gl_compute = glc;
                    f.gl_missing = "GL 4.3 compute shaders: the context is 3.3";
                    f.gl_one_pass = one;
                    const BackendChoice c = choose_backend(f);
                    SCOPED_TRACE(c.line);
                    // The oracle: CUDA where it can share and was not ruled out; else GL compute
                    // unless asked for the CPU, missing, or auto on a software rasterizer; else
                    // the CPU.
                    const SatBackend r = f.requested;
                    const bool cuda_ok = built && usable && shares && !failed;
                    const bool want_cuda = r == SatBackend::Auto || r == SatBackend::Cuda;
                    const bool gl_ok = r != SatBackend::Cpu && glc && (r == SatBackend::Gl || !software);
                    const SatBackend want = want_cuda && cuda_ok ? SatBackend::Cuda
                                            : gl_ok              ? SatBackend::Gl
                                                                 : SatBackend::Cpu;
                    ASSERT_EQ(c.kind, want);
                    EXPECT_EQ(c.cuda_device, want == SatBackend::Cuda ? shares - 1 : -1);
                    // Headless runs refuse a CUDA request that cannot run; windows fall back.
                    EXPECT_EQ(c.refused, r == SatBackend::Cuda && !cuda_ok && !window);
                    EXPECT_EQ(c.no_cuda.empty(), cuda_ok);
                    // The hint only where it helps: a usable device, a window elsewhere.
                    EXPECT_EQ(!c.hint.empty(), window && built && usable && !shares && !failed);
                    // The line names what runs, the report's prefixes (tests/check_demo_report.py).
                    const char* prefix = want == SatBackend::Cuda ? "CUDA on "
                                         : want == SatBackend::Gl ? "GL compute on "
                                                                  : "CPU fallback";
                    EXPECT_EQ(c.line.rfind(prefix, 0), 0u);
                    // ... and why the GPU backend of the request does not run.
                    if (want != SatBackend::Cuda && want_cuda) {
                      if (!built) EXPECT_TRUE(has(c.line, "built without CUDA"));
                      else if (failed) EXPECT_TRUE(has(c.line, "interop failed earlier"));
                      else if (!usable) EXPECT_TRUE(has(c.line, "no usable CUDA device"));
                      else EXPECT_TRUE(has(c.line, "is not on a CUDA device"));
                    }
                    if (r == SatBackend::Cuda && want != SatBackend::Cuda)
                      EXPECT_TRUE(has(c.line, "CUDA was asked for"));
                    if (want == SatBackend::Cpu && r != SatBackend::Cpu)
                      EXPECT_TRUE(has(c.line, software && r != SatBackend::Gl ? "software rasterizer"
                                                                             : "no GL compute"));
                    if (want == SatBackend::Gl) EXPECT_EQ(has(c.line, "one pass"), one == 1);
                    ++n;
                  }
  EXPECT_EQ(n, 4 * 2 * 2 * 3 * 2 * 2 * 2 * 2 * 2);
}

// A laptop with hybrid graphics, the desktop on the integrated GPU (Mesa), the NVIDIA GPU free
// for CUDA: the default launch runs GL compute, says why and how to get CUDA.
TEST(BackendChoice, HybridLaptopDefault) {
  BackendFacts f;
  f.cuda_usable = true;
  f.gl_cuda_query = "cudaGLGetDevices: no CUDA-capable device is detected";
  f.renderer = "Mesa Intel(R) Graphics (ADL GT2)";
  f.gl_compute = true;
  const BackendChoice c = choose_backend(f);
  EXPECT_EQ(c.kind, SatBackend::Gl);
  EXPECT_EQ(c.line,
            "GL compute on Mesa Intel(R) Graphics (ADL GT2) (the GL context (Mesa Intel(R) "
            "Graphics (ADL GT2)) is not on a CUDA device, so CUDA cannot share its frame "
            "(cudaGLGetDevices: no CUDA-capable device is detected))");
  EXPECT_TRUE(has(c.hint, "__NV_PRIME_RENDER_OFFLOAD=1 __GLX_VENDOR_LIBRARY_NAME=nvidia"));
  EXPECT_FALSE(c.refused);
}

// A remote desktop or Xvfb: Mesa's llvmpipe beside a CUDA device. Auto takes the CPU (faster
// than GL compute on a software rasterizer); --backend cuda falls back in the window and is
// refused headless.
TEST(BackendChoice, SoftwareWindowBesideCuda) {
  BackendFacts f;
  f.cuda_usable = true;
  f.renderer = "llvmpipe (LLVM 15.0.6, 256 bits)";
  f.software = true;
  f.gl_compute = true;
  BackendChoice c = choose_backend(f);
  EXPECT_EQ(c.kind, SatBackend::Cpu);
  EXPECT_TRUE(has(c.line, "is not on a CUDA device"));
  EXPECT_TRUE(has(c.line, "software rasterizer"));
  f.requested = SatBackend::Cuda;
  c = choose_backend(f);
  EXPECT_EQ(c.kind, SatBackend::Cpu);
  EXPECT_FALSE(c.refused);
  EXPECT_TRUE(has(c.line, "CUDA was asked for, but the GL context"));
  f.window = false;
  EXPECT_TRUE(choose_backend(f).refused);
  f.requested = SatBackend::Gl;
  f.window = true;
  c = choose_backend(f);
  EXPECT_EQ(c.kind, SatBackend::Gl);
  EXPECT_EQ(c.line, "GL compute on llvmpipe (LLVM 15.0.6, 256 bits)");
}

// Two GPUs, the context on the second: CUDA runs there, not on device 0 by habit.
TEST(BackendChoice, ContextOnSecondGpu) {
  BackendFacts f;
  f.cuda_usable = true;
  f.gl_cuda_devices = {1};
  f.cuda_name = "NVIDIA RTX A4000";
  const BackendChoice c = choose_backend(f);
  EXPECT_EQ(c.kind, SatBackend::Cuda);
  EXPECT_EQ(c.cuda_device, 1);
  EXPECT_EQ(c.line, "CUDA on NVIDIA RTX A4000 (device 1, the GL context's)");
  EXPECT_TRUE(c.hint.empty());
}

// After a CUDA-GL call failed mid-run, asking for CUDA again (the UI's combo, a soak's switch)
// keeps the fallback for the rest of the run.
TEST(BackendChoice, InteropFailureSticks) {
  BackendFacts f;  // as the stage gathers them then: CUDA not queried again
  f.cuda_usable = false;
  f.interop_failed = "injected (--inject-fault interop-register@120)";
  f.renderer = "NVIDIA H200/PCIe/SSE2";
  f.gl_compute = true;
  f.gl_one_pass = true;
  f.requested = SatBackend::Cuda;
  const BackendChoice c = choose_backend(f);
  EXPECT_EQ(c.kind, SatBackend::Gl);
  EXPECT_TRUE(has(c.line, "CUDA-GL interop failed earlier in this run (injected"));
  EXPECT_TRUE(c.hint.empty());
}

TEST(BackendChoice, NoGpuAtAll) {
  BackendFacts f;
  f.cuda_missing = "no CUDA device found";
  f.renderer = "llvmpipe (LLVM 15.0.6, 256 bits)";
  f.software = true;
  f.gl_compute = true;
  const BackendChoice c = choose_backend(f);
  EXPECT_EQ(c.kind, SatBackend::Cpu);
  EXPECT_EQ(c.line,
            "CPU fallback: no usable CUDA device (no CUDA device found); GL compute skipped on a "
            "software rasterizer (llvmpipe (LLVM 15.0.6, 256 bits); --backend gl forces it)");
  EXPECT_TRUE(c.hint.empty());
}

}  // namespace
}  // namespace demo
