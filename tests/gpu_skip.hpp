// The one way a GPU test steps aside where there is no CUDA device. Without a device it skips with
// the reason, so a CI machine without a GPU still runs the host tests; CTest lists such cases as
// "Skipped", and scripts/test.sh prints ran / skipped / failed apart. With SCANDOF_REQUIRE_GPU=1 in
// the environment (the GPU machine's scripts/gpu/validate.sh sets it) the same case fails instead,
// so a machine whose driver is broken cannot pass the GPU suites by skipping them.
#pragma once

#include <cstdlib>
#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "scandof/scan.hpp"

namespace scandof::test {
inline bool gpu_required() {
  const char* e = std::getenv("SCANDOF_REQUIRE_GPU");
  return e && std::strcmp(e, "0") != 0 && *e;
}
}  // namespace scandof::test

// Use at the top of every test that needs a CUDA device (a void test body: FAIL() returns).
#define SCANDOF_SKIP_WITHOUT_GPU()                                                             \
  do {                                                                                         \
    std::string scandof_why_;                                                                  \
    if (!::scandof::cuda_device_available(&scandof_why_)) {                                    \
      if (::scandof::test::gpu_required())                                                     \
        FAIL() << "SCANDOF_REQUIRE_GPU is set but no CUDA device is usable: " << scandof_why_; \
      GTEST_SKIP() << "GPU test skipped: " << scandof_why_;                                    \
    }                                                                                          \
  } while (0)
