// Explicit instantiations of the sorts for std::uint32_t keys (and std::uint32_t keys with uint32
// values); one file per key type so the library's CUDA sources compile in parallel.
#include "scandof/device/sort_impl.cuh"

namespace scandof {
template std::size_t sort_keys_workspace_bytes<std::uint32_t>(SortAlgorithm, std::size_t);
template std::size_t sort_pairs_workspace_bytes<std::uint32_t, SCANDOF_SORT_VALUE>(SortAlgorithm,
                                                                                   std::size_t);
template void sort_keys<std::uint32_t>(SortAlgorithm, const std::uint32_t*, std::uint32_t*,
                                       std::size_t, void*, std::size_t, cudaStream_t, int, int);
template void sort_pairs<std::uint32_t, SCANDOF_SORT_VALUE>(SortAlgorithm, const std::uint32_t*,
                                                            std::uint32_t*,
                                                            const SCANDOF_SORT_VALUE*,
                                                            SCANDOF_SORT_VALUE*, std::size_t, void*,
                                                            std::size_t, cudaStream_t, int, int);
template void sort_keys<std::uint32_t>(SortAlgorithm, const std::uint32_t*, std::uint32_t*,
                                       std::size_t, ScanWorkspace&, cudaStream_t, int, int);
template void sort_pairs<std::uint32_t, SCANDOF_SORT_VALUE>(SortAlgorithm, const std::uint32_t*,
                                                            std::uint32_t*,
                                                            const SCANDOF_SORT_VALUE*,
                                                            SCANDOF_SORT_VALUE*, std::size_t,
                                                            ScanWorkspace&, cudaStream_t, int, int);
}  // namespace scandof
