// The "Primitives" panel's engine and the headless --primitives run: one library primitive (scan,
// stream compaction, radix sort) against its CUB equivalent on the same input, timed with CUDA
// events (warm-up, median of many runs) next to a cudaMemcpy D2D of the input, both results checked
// against the CPU reference. Host-only interface: the CUDA half lives in primitives/bench.cu
// (CUDA builds), the rest in primitives/host.cpp (every build; it stubs the GPU half without CUDA).
//
// Element type: uint32 everywhere (scan: wrapping Sum, exact, so the check is bitwise; compaction:
// LessThan<uint32> on uniform keys, threshold = selectivity * 2^32; sort: uint32 keys).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "scandof/compact.hpp"
#include "scandof/scan.hpp"
#include "scandof/sort.hpp"
#include "core/prim_request.hpp"

namespace demo {

const char* to_string(Primitive p);
const char* to_string(CompactMode m);
const char* to_string(Distribution d);

// Timing rule of every contender: untimed warm-up calls, then PrimRequest::reps timed ones.
constexpr int kPrimWarmups = 3;

// One contender's figures. Bytes are reads + writes the operation cannot avoid (scan: 2n x 4 B;
// select: n x 4 B read + kept x 4 B written; partition: 2n x 4 B; flagged adds n x 1 B of flags;
// sort: 2n x 4 B, i.e. the one-pass ideal, not the passes a radix sort really makes).
struct PrimTiming {
  double ms = 0;  // median
  double min_ms = 0;
  double gelem_s = 0, gb_s = 0;
  bool verified = false;
  std::string check;  // "OK" or what differed first
};

struct PrimResult {
  bool ran = false;  // false: `error` says why (no device, out of memory, bad size, ...)
  std::string error;
  std::string label;   // e.g. "scan single-pass (exclusive, uint32 sum)"
  std::string device;  // GPU name
  PrimRequest req;
  std::size_t n = 0;
  std::size_t selected = 0;  // compaction: the library's count
  double bytes = 0;          // counted bytes (see PrimTiming)
  int reps = 0;
  int input_copies = 1;  // inputs rotated so that small sizes do not run out of L2
  PrimTiming lib, cub;
  double memcpy_ms = 0, memcpy_gb_s = 0;  // cudaMemcpy D2D of the n-element input (2n x 4 B)
  double ratio = 0;                       // cub.ms / lib.ms (> 1: the library is faster)
  double gpu_wall_ms = 0, verify_wall_ms = 0;
  bool verified() const { return ran && lib.verified && cub.verified; }

  // Host copies kept between the GPU half and the (possibly asynchronous) CPU check; emptied by
  // verify_primitive.
  std::vector<std::uint32_t> input, lib_out, cub_out;
  std::size_t cub_selected = 0;
};

// Whether a CUDA device can run the primitives (false without CUDA; `why` says why). Never throws.
bool primitives_available(std::string* why = nullptr);
// The largest log2 size that fits in the free device memory with the inputs, two outputs and
// the scratch (queried now; 0 when unavailable), capped at 26 for the panel's slider.
int primitives_max_log2(int cap = 26);

// The GPU half: generates the input (host, seeded), uploads it, times the library call, the CUB
// call and cudaMemcpy, reads both outputs back into the result. Blocks for roughly
// (3 + reps) x (both calls) plus the transfers. Catches its own errors into result.error.
PrimResult run_primitive_gpu(const PrimRequest& req);
// The CPU half: the reference (scan_gold / std::copy_if / std::stable_partition /
// std::stable_sort) on the input, compared element by element with both outputs. No CUDA calls, so
// the panel runs it on a worker thread. Frees the host copies.
void verify_primitive(PrimResult* r);

// The headless table (one line per run, with a header) and the report's "primitives" array.
std::string primitives_table(const std::vector<PrimResult>& rs);
nlohmann::ordered_json primitives_json(const std::vector<PrimResult>& rs);
// The headless set: scan (every library algorithm), compaction (select, partition, flagged at 50%,
// select at 1% and 99%), sort (Lsd on all four distributions, Split on uniform).
std::vector<PrimRequest> headless_primitive_set(int log2_n);

}  // namespace demo
