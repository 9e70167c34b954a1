// Library instantiations of the sorts for std::uint32_t; one file per type so the
// slow nvcc compiles run in parallel. SCANDOF_INSTANTIATE_SORT is defined beside the templates.
#include "scandof/device/sort_impl.cuh"

namespace scandof {
SCANDOF_INSTANTIATE_SORT(std::uint32_t)
}  // namespace scandof
