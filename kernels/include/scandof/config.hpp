// Macros shared by host-only and CUDA translation units.
#pragma once

#if defined(__CUDACC__)
#define SCANDOF_HD __host__ __device__ __forceinline__
#else
#define SCANDOF_HD inline
#endif
