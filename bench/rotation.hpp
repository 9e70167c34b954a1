// Buffer rotation for the benchmarks (CUDA-free, so glsatbench shares it with the .cu benches).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace scandof {
namespace bench {

// How many input/output sets to cycle through so that, between two uses of one set, the other sets
// have pushed at least `sweep_factor` x L2 of traffic through the cache: otherwise small sizes are
// timed from L2 and look faster than they run in a real pipeline. One set only when a set's own
// traffic is that large: a set merely larger than L2 is not enough (a 1080p SAT build moves 33 MB,
// so with one set part of its 8 MB input was still in L2 at the next build: the H100 timed the
// fused build at 0.0218 ms so, and at 0.0249 ms rotated through three sets). The caller keeps
// memory bounded: the sets together stay near sweep_factor x L2 (~100 MB on H100).
inline std::size_t rotation_sets(std::size_t set_bytes, std::size_t l2_bytes,
                                 double sweep_factor = 2.0, std::size_t max_sets = 4096) {
  if (set_bytes == 0 || static_cast<double>(set_bytes) >= sweep_factor * l2_bytes) return 1;
  const double want = std::ceil(sweep_factor * static_cast<double>(l2_bytes) / set_bytes);
  return static_cast<std::size_t>(std::max(1.0, std::min<double>(want, max_sets)));
}

}  // namespace bench
}  // namespace scandof
