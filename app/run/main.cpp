// scandof: teapots, CUDA-GL interop and summed-area-table depth of field (GPU Gems 3, ch. 39).
// Parses the command line (cli.*), finds shaders/ and assets/ (resources.*), then runs the window
// loop (window_loop.*) or the headless runner (headless_runner.*). Exit status: 0 ok, 1 an error or
// a failed check, 2 bad arguments.
#include <cstdio>
#include <stdexcept>
#include <string>

#include "run/cli.hpp"
#include "run/headless_runner.hpp"
#include "run/resources.hpp"
#include "run/window_loop.hpp"

#if SCANDOF_WITH_CUDA
#include "scandof/cuda_check.hpp"
#endif

int main(int argc, char** argv) {
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
