// Explicit instantiations of compaction and partition for int64_t (one file per type so the
// library's CUDA sources compile in parallel).
#include "scandof/device/compact_impl.cuh"

namespace scandof {
SCANDOF_INSTANTIATE_COMPACT(int64_t)
}  // namespace scandof
