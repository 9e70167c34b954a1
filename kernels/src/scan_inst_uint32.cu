// Library instantiations of scan() for element type uint32_t (the SCANDOF_FOR_EACH_BUILTIN_SCAN
// pairs of that type). One file per type so the slow nvcc compiles run in parallel.
#include "scandof/scan.cuh"

namespace scandof {
#define SCANDOF_PICK_int32_t(OP)
#define SCANDOF_PICK_uint32_t(OP) SCANDOF_INSTANTIATE_SCAN(uint32_t, OP)
#define SCANDOF_PICK_int64_t(OP)
#define SCANDOF_PICK_float(OP)
#define SCANDOF_PICK_double(OP)
// A pair of a type missing above fails to compile here: add its PICK line to every scan_inst file.
#define SCANDOF_PICK(T, OP) SCANDOF_PICK_##T(OP)
SCANDOF_FOR_EACH_BUILTIN_SCAN(SCANDOF_PICK)
}  // namespace scandof
