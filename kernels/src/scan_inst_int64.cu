// Library instantiations of scan() for int64_t; one file per type so the
// slow nvcc compiles run in parallel. SCANDOF_INSTANTIATE_SCANS_OF is defined beside the templates.
#include "scandof/scan.cuh"

namespace scandof {
SCANDOF_INSTANTIATE_SCANS_OF(int64_t)
}  // namespace scandof
