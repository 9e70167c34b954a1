// Library instantiations of compaction for uint32_t; one file per type so the
// slow nvcc compiles run in parallel. SCANDOF_INSTANTIATE_COMPACT is defined beside the templates.
#include "scandof/device/compact_impl.cuh"

namespace scandof {
SCANDOF_INSTANTIATE_COMPACT(uint32_t)
}  // namespace scandof
