// GPU half of the primitives benchmark: the library's primitive and its CUB twin on the same
// input, on a private stream, timed with CUDA events. Compiled only in CUDA builds (nvcc is needed
// for CUB's templates); everything the UI sees goes through primitives/bench.hpp.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <cub/device/device_partition.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <functional>
#include <stdexcept>
#include <vector>

#include "primitives/bench.hpp"
#include "primitives/internal.hpp"
#include "scandof/compact.hpp"
#include "scandof/cuda_check.hpp"
#include "scandof/scan.hpp"
#include "scandof/sort.hpp"
#include "scandof/util/device_buffer.hpp"
#include "scandof/util/event_timer.hpp"
#include "scandof/util/stats.hpp"
#include "scandof/util/stream.hpp"

namespace demo {
namespace {

using Key = std::uint32_t;

// Bytes as the unit: the buffers hold keys, flags and CUB/library scratch alike.
using Bytes = scandof::util::DeviceBuffer<unsigned char>;
template <class T>
T* as(const Bytes& b) {
  return reinterpret_cast<T*>(b.get());
}

// Median and minimum of `reps` timed calls after kPrimWarmups untimed ones; call(k) uses input
// copy k (rotated). Each call is bracketed by its own event pair; one synchronize at the end.
void measure(scandof::util::EventTimer& timer, int reps, int copies,
             const std::function<void(int)>& call, double* median_ms, double* min_ms) {
  const std::vector<double> t =
      timer.samples([&](int rep) { call(rep % copies); }, reps, kPrimWarmups);
  const scandof::util::Stats st = scandof::util::summarize(t);
  *median_ms = st.median_ms;
  if (min_ms) *min_ms = st.min_ms;
}

// Device bytes per key of a run: input, two outputs, flags, and both scratch areas (sorts' are
// the largest, up to about two key arrays each); plus the rotated input copies of small sizes.
constexpr std::size_t kBytesPerKeyEstimate = 32;
constexpr std::size_t kRotateBytes = 150u << 20;

// What the library's call and CUB's share: the request, its size and stream, the rotated input
// copies (with their flags for flagged compaction), the two selected counts and the predicate.
struct Operands {
  const PrimRequest& req;
  std::size_t n;
  int n_int;  // CUB's item count; log2_n <= 30
  cudaStream_t s;
  scandof::CompactOptions copt;
  scandof::LessThan<Key> pred;
  std::vector<Bytes> ins, flags;
  std::uint64_t* d_lib_count = nullptr;
  std::uint64_t* d_cub_count = nullptr;
};

// The input into `copies` device copies and, for flagged compaction, each copy's flags (key <
// threshold) beside it.
void upload_inputs(Operands* op, const std::vector<Key>& input, int copies, bool flagged) {
  const std::size_t n = op->n, in_bytes = n * sizeof(Key);
  const cudaStream_t s = op->s;
  for (int c = 0; c < copies; ++c) op->ins.emplace_back(in_bytes);
  CUDA_CHECK(cudaMemcpyAsync(op->ins[0].get(), input.data(), in_bytes, cudaMemcpyHostToDevice, s));
  for (int c = 1; c < copies; ++c)
    CUDA_CHECK(cudaMemcpyAsync(op->ins[c].get(), op->ins[0].get(), in_bytes,
                               cudaMemcpyDeviceToDevice, s));
  if (flagged) {
    std::vector<std::uint8_t> h(n);
    for (std::size_t i = 0; i < n; ++i) h[i] = input[i] < op->pred.threshold ? 1 : 0;
    for (int c = 0; c < copies; ++c) {
      op->flags.emplace_back(n);
      CUDA_CHECK(cudaMemcpyAsync(op->flags[c].get(), h.data(), n, cudaMemcpyHostToDevice, s));
    }
    CUDA_CHECK(cudaStreamSynchronize(s));  // h goes out of scope
  }
}

// Scratch bytes of the library's call and of CUB's (CUB's asked with a null scratch pointer). The
// library's and CUB's own argument checks run on the first (warm-up) call.
void scratch_sizes(const Operands& op, Key* cub_out, std::size_t* lib_ws, std::size_t* cub_ws) {
  const PrimRequest& req = op.req;
  // Key*, not const Key* as in the timed calls: CUB instantiates its kernels per iterator type, so
  // this query's type decides which (never launched) instantiations the object holds.
  Key* in = as<Key>(op.ins[0]);
  switch (req.primitive) {
    case Primitive::Scan:
      *lib_ws = scandof::scan_workspace_bytes<Key, scandof::Sum>(req.scan_variant, op.n);
      CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, *cub_ws, in, cub_out, op.n_int, op.s));
      break;
    case Primitive::Compact:
      *lib_ws = scandof::compact_workspace_bytes<Key>(op.n, op.copt);
      if (req.compact_mode == CompactMode::Select)
        CUDA_CHECK(cub::DeviceSelect::If(nullptr, *cub_ws, in, cub_out, op.d_cub_count, op.n_int,
                                         op.pred, op.s));
      else if (req.compact_mode == CompactMode::Partition)
        CUDA_CHECK(cub::DevicePartition::If(nullptr, *cub_ws, in, cub_out, op.d_cub_count,
                                            op.n_int, op.pred, op.s));
      else
        CUDA_CHECK(cub::DeviceSelect::Flagged(nullptr, *cub_ws, in, as<std::uint8_t>(op.flags[0]),
                                              cub_out, op.d_cub_count, op.n_int, op.s));
      break;
    case Primitive::Sort:
      *lib_ws = scandof::sort_keys_workspace_bytes<Key>(req.sort_algo, op.n);
      // num_items as size_t: CUB's faster call for uint32 keys (its `int` instantiation took
      // 6.40 against 5.55 ms at 2^28 on the H100, results/sort/README.md).
      CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, *cub_ws, in, cub_out, op.n, 0, 32, op.s));
      break;
  }
}

// The library's primitive on input copy c into out.
void lib_call(const Operands& op, int c, Key* out, void* tmp, std::size_t ws) {
  const PrimRequest& req = op.req;
  const Key* in = as<Key>(op.ins[c]);
  switch (req.primitive) {
    case Primitive::Scan:
      scandof::scan<Key, scandof::Sum>(req.scan_variant, scandof::ScanKind::Exclusive, in, out,
                                       op.n, scandof::Sum{}, Key(0), tmp, ws, op.s);
      break;
    case Primitive::Compact:
      if (req.compact_mode == CompactMode::Select)
        scandof::compact_if<Key, scandof::LessThan<Key>>(in, out, op.d_lib_count, op.n, op.pred,
                                                         tmp, ws, op.s, op.copt);
      else if (req.compact_mode == CompactMode::Partition)
        scandof::partition_if<Key, scandof::LessThan<Key>>(in, out, op.d_lib_count, op.n, op.pred,
                                                           tmp, ws, op.s, op.copt);
      else
        scandof::compact_flagged<Key>(in, as<std::uint8_t>(op.flags[c]), out, op.d_lib_count,
                                      op.n, tmp, ws, op.s, op.copt);
      break;
    case Primitive::Sort:
      scandof::sort_keys<Key>(req.sort_algo, in, out, op.n, tmp, ws, op.s);
      break;
  }
}

// CUB's twin of lib_call.
void cub_call(const Operands& op, int c, Key* out, void* tmp, std::size_t ws) {
  const PrimRequest& req = op.req;
  const Key* in = as<Key>(op.ins[c]);
  const int n_int = op.n_int;
  const cudaStream_t s = op.s;
  std::size_t b = ws;
  switch (req.primitive) {
    case Primitive::Scan:
      CUDA_CHECK(cub::DeviceScan::ExclusiveSum(tmp, b, in, out, n_int, s));
      break;
    case Primitive::Compact:
      if (req.compact_mode == CompactMode::Select)
        CUDA_CHECK(cub::DeviceSelect::If(tmp, b, in, out, op.d_cub_count, n_int, op.pred, s));
      else if (req.compact_mode == CompactMode::Partition)
        CUDA_CHECK(cub::DevicePartition::If(tmp, b, in, out, op.d_cub_count, n_int, op.pred, s));
      else
        CUDA_CHECK(cub::DeviceSelect::Flagged(tmp, b, in, as<std::uint8_t>(op.flags[c]), out,
                                              op.d_cub_count, n_int, s));
      break;
    case Primitive::Sort:
      CUDA_CHECK(cub::DeviceRadixSort::SortKeys(tmp, b, in, out, op.n, 0, 32, s));
      break;
  }
  CUDA_CHECK_LAUNCH();
}

// Counted bytes: what the operation must read and write at least once.
double counted_bytes(const PrimRequest& req, std::size_t n, std::size_t selected, bool flagged) {
  const double kb = sizeof(Key);
  switch (req.primitive) {
    case Primitive::Scan:
    case Primitive::Sort:
      return 2.0 * n * kb;
    case Primitive::Compact:
      if (req.compact_mode == CompactMode::Partition) return 2.0 * n * kb;
      return n * kb + static_cast<double>(selected) * kb + (flagged ? n : 0);
  }
  return 0;
}

// Elements and counted bytes per second of a timing.
void rates(PrimTiming* t, std::size_t n, double bytes) {
  if (t->ms <= 0) return;
  t->gelem_s = n / (t->ms * 1e6);
  t->gb_s = bytes / (t->ms * 1e6);
}

// The timed part of a run, then the checked one: outputs poisoned first, so an element nobody
// wrote cannot pass; both outputs and the selected counts into *r.
void time_and_check(Operands& op, PrimResult* r) {
  const PrimRequest& req = op.req;
  const std::size_t n = op.n, in_bytes = n * sizeof(Key);
  const cudaStream_t s = op.s;
  Bytes lib_out(in_bytes), cub_out(in_bytes), counts(2 * sizeof(std::uint64_t));
  op.d_lib_count = as<std::uint64_t>(counts);
  op.d_cub_count = op.d_lib_count + 1;
  std::size_t lib_ws = 0, cub_ws = 0;
  scratch_sizes(op, as<Key>(cub_out), &lib_ws, &cub_ws);
  Bytes lib_tmp(std::max<std::size_t>(lib_ws, 1)), cub_tmp(std::max<std::size_t>(cub_ws, 1));
  scandof::clear_workspace(lib_tmp.get(), lib_ws, op.s);  // the look-back scan's state starts zero

  auto lib = [&](int c) { lib_call(op, c, as<Key>(lib_out), lib_tmp.get(), lib_ws); };
  auto cub = [&](int c) { cub_call(op, c, as<Key>(cub_out), cub_tmp.get(), cub_ws); };
  auto copy = [&](int c) {
    CUDA_CHECK(
        cudaMemcpyAsync(lib_out.get(), op.ins[c].get(), in_bytes, cudaMemcpyDeviceToDevice, s));
  };
  const int copies = static_cast<int>(op.ins.size());
  scandof::util::EventTimer timer(s);
  measure(timer, req.reps, copies, copy, &r->memcpy_ms, nullptr);
  measure(timer, req.reps, copies, lib, &r->lib.ms, &r->lib.min_ms);
  measure(timer, req.reps, copies, cub, &r->cub.ms, &r->cub.min_ms);

  CUDA_CHECK(cudaMemsetAsync(lib_out.get(), 0xA5, in_bytes, s));
  CUDA_CHECK(cudaMemsetAsync(cub_out.get(), 0x5A, in_bytes, s));
  CUDA_CHECK(cudaMemsetAsync(counts.get(), 0xFF, counts.bytes(), s));
  lib(0);
  cub(0);
  std::uint64_t hc[2] = {0, 0};
  CUDA_CHECK(cudaMemcpyAsync(hc, counts.get(), sizeof hc, cudaMemcpyDeviceToHost, s));
  r->lib_out.resize(n);
  r->cub_out.resize(n);
  CUDA_CHECK(
      cudaMemcpyAsync(r->lib_out.data(), lib_out.get(), in_bytes, cudaMemcpyDeviceToHost, s));
  CUDA_CHECK(
      cudaMemcpyAsync(r->cub_out.data(), cub_out.get(), in_bytes, cudaMemcpyDeviceToHost, s));
  CUDA_CHECK(cudaStreamSynchronize(s));
  if (req.primitive == Primitive::Compact) {
    r->selected = static_cast<std::size_t>(hc[0]);
    r->cub_selected = static_cast<std::size_t>(hc[1]);
  }
}

}  // namespace

bool primitives_available(std::string* why) {
  return scandof::cuda_device_available(why);
}

int primitives_max_log2(int cap) {
  if (!scandof::cuda_device_available()) return 0;
  std::size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
    cudaGetLastError();  // clear the error the failed query left, so later calls do not see it
    return 0;
  }
  // Leave a quarter of the free memory to the renderer and the SAT stage.
  int best = 0;
  for (int k = 10; k <= cap; ++k)
    if ((std::size_t(1) << k) * kBytesPerKeyEstimate + kRotateBytes <= free_b / 4 * 3) best = k;
  return best;
}

PrimResult run_primitive_gpu(const PrimRequest& req_in) {
  PrimResult r;
  r.req = req_in;
  const PrimRequest& req = r.req;
  r.label = prim_detail::label_of(req);
  const auto t0 = std::chrono::steady_clock::now();
  try {
    std::string why;
    if (!scandof::cuda_device_available(&why)) throw std::runtime_error("no CUDA device: " + why);
    if (req.log2_n < 1 || req.log2_n > 30) throw std::invalid_argument("size must be 2^1 .. 2^30");
    if (req.reps < 1) throw std::invalid_argument("reps must be >= 1");
    r.device = scandof::util::current_device().name;
    const std::size_t n = std::size_t(1) << req.log2_n;
    const std::size_t in_bytes = n * sizeof(Key);
    r.n = n;
    r.reps = req.reps;
    r.input = prim_detail::make_input(req, n);

    // Rotate input copies until they span ~3x the H100's 50 MB L2, so small sizes are timed from
    // DRAM like large ones; at most 8 copies (2^22 keys: 8 x 16 MiB).
    const int copies =
        static_cast<int>(std::clamp<std::size_t>((kRotateBytes + in_bytes - 1) / in_bytes, 1, 8));
    r.input_copies = copies;
    const bool flagged =
        req.primitive == Primitive::Compact && req.compact_mode == CompactMode::Flagged;

    scandof::util::Stream stream;
    Operands op{req,
                n,
                static_cast<int>(n),
                stream.get(),
                {req.compact_algo, scandof::ScanAlgorithm::Optimized},
                {prim_detail::compact_threshold(req.selectivity_pct)},
                {},
                {}};
    upload_inputs(&op, r.input, copies, flagged);
    time_and_check(op, &r);

    r.bytes = counted_bytes(req, n, r.selected, flagged);
    rates(&r.lib, n, r.bytes);
    rates(&r.cub, n, r.bytes);
    r.memcpy_gb_s = r.memcpy_ms > 0 ? 2.0 * in_bytes / (r.memcpy_ms * 1e6) : 0;
    r.ratio = r.lib.ms > 0 ? r.cub.ms / r.lib.ms : 0;
    r.ran = true;
  } catch (const std::exception& e) {
    r.ran = false;
    r.error = e.what();
    std::vector<std::uint32_t>().swap(r.input);
    std::vector<std::uint32_t>().swap(r.lib_out);
    std::vector<std::uint32_t>().swap(r.cub_out);
    cudaGetLastError();  // a failed allocation leaves its error behind; the demo goes on
  }
  r.gpu_wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace demo
