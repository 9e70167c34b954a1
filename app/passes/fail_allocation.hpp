// --inject-fault alloc@resize (core/faults.hpp): the allocation a resize makes fails as a real one
// would, so the rollback that follows is the one a user's out-of-memory resize takes.
#pragma once

namespace demo {

// On a usable CUDA device a real cudaMalloc of 2^50 bytes is made and fails through the project's
// CUDA_CHECK (scandof::CudaError, cudaErrorMemoryAllocation; the error is not sticky and is
// cleared); elsewhere a host allocation failure (std::bad_alloc) is thrown. Never returns.
[[noreturn]] void fail_allocation();

}  // namespace demo
