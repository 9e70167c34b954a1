// Explicit instantiations of compaction and partition for int32_t (one file per type so the
// library's CUDA sources compile in parallel).
#include "scandof/device/compact_impl.cuh"

namespace scandof {
#define SCANDOF_COMPACT_PRED(T, P)                                                                 \
  template void compact_if<T, P>(const T*, T*, std::uint64_t*, std::size_t, P, void*, std::size_t, \
                                 cudaStream_t, CompactOptions);                                    \
  template void partition_if<T, P>(const T*, T*, std::uint64_t*, std::size_t, P, void*,            \
                                   std::size_t, cudaStream_t, CompactOptions);                     \
  template std::size_t compact_if<T, P>(const T*, T*, std::size_t, P, ScanWorkspace&,              \
                                        cudaStream_t, CompactOptions);                             \
  template std::size_t partition_if<T, P>(const T*, T*, std::size_t, P, ScanWorkspace&,            \
                                          cudaStream_t, CompactOptions);
#define SCANDOF_COMPACT(T)                                                                         \
  template std::size_t compact_workspace_bytes<T>(std::size_t, CompactOptions);                    \
  template void compact_flagged<T>(const T*, const std::uint8_t*, T*, std::uint64_t*, std::size_t, \
                                   void*, std::size_t, cudaStream_t, CompactOptions);              \
  template void partition_flagged<T>(const T*, const std::uint8_t*, T*, std::uint64_t*,            \
                                     std::size_t, void*, std::size_t, cudaStream_t,                \
                                     CompactOptions);                                              \
  template std::size_t compact_flagged<T>(const T*, const std::uint8_t*, T*, std::size_t,          \
                                          ScanWorkspace&, cudaStream_t, CompactOptions);           \
  template std::size_t partition_flagged<T>(const T*, const std::uint8_t*, T*, std::size_t,        \
                                            ScanWorkspace&, cudaStream_t, CompactOptions);         \
  SCANDOF_COMPACT_PRED(T, LessThan<T>)                                                             \
  SCANDOF_COMPACT_PRED(T, NotEqualTo<T>)                                                           \
  SCANDOF_COMPACT_PRED(T, ValueTest<T>)
SCANDOF_COMPACT(int32_t)
}  // namespace scandof
