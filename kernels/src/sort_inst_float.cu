// Explicit instantiations of the sorts for float keys (and float keys with uint32 values); one file
// per key type so the library's CUDA sources compile in parallel.
#include "scandof/device/sort_impl.cuh"

namespace scandof {
template std::size_t sort_keys_workspace_bytes<float>(SortAlgorithm, std::size_t);
template std::size_t sort_pairs_workspace_bytes<float, SCANDOF_SORT_VALUE>(SortAlgorithm,
                                                                           std::size_t);
template void sort_keys<float>(SortAlgorithm, const float*, float*, std::size_t, void*, std::size_t,
                               cudaStream_t, int, int);
template void sort_pairs<float, SCANDOF_SORT_VALUE>(SortAlgorithm, const float*, float*,
                                                    const SCANDOF_SORT_VALUE*, SCANDOF_SORT_VALUE*,
                                                    std::size_t, void*, std::size_t, cudaStream_t,
                                                    int, int);
template void sort_keys<float>(SortAlgorithm, const float*, float*, std::size_t, ScanWorkspace&,
                               cudaStream_t, int, int);
template void sort_pairs<float, SCANDOF_SORT_VALUE>(SortAlgorithm, const float*, float*,
                                                    const SCANDOF_SORT_VALUE*, SCANDOF_SORT_VALUE*,
                                                    std::size_t, ScanWorkspace&, cudaStream_t, int,
                                                    int);
}  // namespace scandof
