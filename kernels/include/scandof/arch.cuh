// Per-architecture launch bounds, written once for every kernel that asks for a residency.
//
// __launch_bounds__(threads, min_blocks) makes ptxas cap registers so that min_blocks blocks of
// `threads` fit on one SM. The kernels' min-blocks values are tuned on the H100, which holds 2048
// threads per SM; Turing (sm_75) holds 1024. Asked for more threads than the SM holds, ptxas
// warns ("Value of threads per SM ... is out of range. .minnctapersm will be ignored") and drops
// the register cap altogether. Every kernel with a min-blocks argument passes it through
// min_blocks_per_sm, which caps it at what the architecture of the device pass holds: sm_75 gets
// the most blocks that fit there (so still a register cap), and sm_80/86/89/90 keep the tuned
// value, since no kernel asks for more than 1536 threads per SM.
#pragma once

namespace scandof {
namespace arch {

// Resident threads per SM of the architecture the device pass compiles for (CUDA C++
// Programming Guide, technical specifications per compute capability). The host pass, which
// ignores launch bounds, sees 2048.
constexpr int max_threads_per_sm() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
  return 1024;
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 || \
                                 __CUDA_ARCH__ == 890 || __CUDA_ARCH__ == 1200)
  return 1536;
#else
  return 2048;
#endif
}
static_assert(max_threads_per_sm() >= 1024, "a block of 1024 threads fits every SM");

// The min-blocks argument of __launch_bounds__(threads, min_blocks_per_sm(threads, blocks)):
// `blocks` where threads * blocks fit one SM of this architecture, else as many as fit.
constexpr int min_blocks_per_sm(int threads, int blocks) {
  return threads * blocks <= max_threads_per_sm() ? blocks : max_threads_per_sm() / threads;
}
static_assert(min_blocks_per_sm(1024, 1) == 1 && min_blocks_per_sm(256, 4) == 4,
              "residencies every architecture holds pass unchanged");

}  // namespace arch
}  // namespace scandof
