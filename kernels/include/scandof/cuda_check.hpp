// One error-check path for the whole project. Library code throws scandof::CudaError (naming the
// failed expression, file and line); executables catch it at the top, print it and exit non-zero.
#pragma once

#include <stdexcept>
#include <string>

#if __has_include(<cuda_runtime_api.h>)
#include <cuda_runtime_api.h>
#define SCANDOF_HAVE_CUDA_HEADERS 1
#endif

namespace scandof {

class CudaError : public std::runtime_error {
 public:
  CudaError(int code, const std::string& what) : std::runtime_error(what), code_(code) {}
  int code() const noexcept { return code_; }

 private:
  int code_;
};

#ifdef SCANDOF_HAVE_CUDA_HEADERS
[[noreturn]] inline void throw_cuda_error(cudaError_t err, const char* expr, const char* file,
                                          int line) {
  throw CudaError(static_cast<int>(err), std::string(file) + ":" + std::to_string(line) + ": " +
                                             expr + " failed: " + cudaGetErrorName(err) + " (" +
                                             cudaGetErrorString(err) + ")");
}
#endif

}  // namespace scandof

#ifdef SCANDOF_HAVE_CUDA_HEADERS
// Evaluates a CUDA runtime call once; on failure throws scandof::CudaError.
#define CUDA_CHECK(expr)                                                    \
  do {                                                                      \
    cudaError_t scandof_err_ = (expr);                                      \
    if (scandof_err_ != cudaSuccess)                                        \
      ::scandof::throw_cuda_error(scandof_err_, #expr, __FILE__, __LINE__); \
  } while (0)

// After a kernel launch: catches bad launch configurations at once (not asynchronous faults).
#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())
#endif
