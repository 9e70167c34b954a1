// scandof: teapots, CUDA-GL interop and summed-area-table depth of field (GPU Gems 3, ch. 39).
// Parses the command line (cli.*), finds shaders/ and assets/ (resources.*), then runs the window
// loop (window_loop.*) or the headless runner (headless_runner.*). Exit status: 0 ok, 1 an error or
// a failed check, 2 bad arguments.
#include <malloc.h>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "run/cli.hpp"
#include "run/headless_runner.hpp"
#include "run/resources.hpp"
#include "run/window_loop.hpp"
#include "scandof/provenance.hpp"

#if SCANDOF_WITH_CUDA
#include "scandof/cuda_check.hpp"
#endif

namespace {
// glibc raises its mmap threshold to the size of each large block freed (up to 32 MiB) and its trim
// threshold to twice that. After the first lens reference, frame-sized buffers (8-33 MB at 1080p)
// come from the arenas instead of their own mappings, and the arenas of the CPU references' worker
// threads (parallel_for starts a thread a core per call) keep their freed tops resident, since
// only the main arena is trimmed by malloc_trim: a 1080p soak on the H100 gained a fully resident
// 16 MiB arena every 30 s or so, for minutes (results/demo/soak). Fixed thresholds keep blocks of
// 1 MiB and more in mappings of their own, returned when freed, and arena tops trimmed past
// 128 KiB. Cost: a large block's pages are faulted in afresh at each allocation; the GPU backends'
// frame loop makes none once its targets exist (strace: no mmap from frame 20 to 60 of a 640x360
// GL-backend run), the CPU backend's four a frame.
void bound_heap_growth() {
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
  mallopt(M_TRIM_THRESHOLD, 128 << 10);
}
}  // namespace

int main(int argc, char** argv) {
  scandof::provenance::set_command_line(argc, argv);
  bound_heap_growth();
  try {
    demo::Options o;
    if (const auto rc = demo::parse_cli(argc, argv, &o)) return *rc;
    const std::string res = demo::find_resources(o.resources);
    return o.headless ? demo::run_headless(o, res) : demo::run_window(o, res);
#if SCANDOF_WITH_CUDA
  } catch (const scandof::CudaError& e) {
    std::fprintf(stderr, "scandof: CUDA error: %s\n", e.what());
    return 1;
#endif
  } catch (const std::exception& e) {
    std::fprintf(stderr, "scandof: error: %s\n", e.what());
    return 1;
  }
}
