// Tuning and verification harness for the single-pass decoupled look-back scan
// (kernels/include/scandof/device/single_pass.cuh). It calls the detail:: functions directly, so it
// does not depend on the library's dispatch.
//
//   tune_single_pass [--check] [--small] [--no-big] [--bench] [--tune] [--reps N] [--max-log2 L]
//                    [--spin NS]
//     --check   correctness sweep: awkward sizes x {int32, uint32, int64, float, double, Affine}
//               x {exclusive, inclusive} x {out of place, in place, misaligned}, each run twice on
//               one workspace (re-initialisation), plus one uint32 scan past 2^31 elements
//               (--no-big skips it; --small also stops the sweep at 65537 for the sanitizers)
//     --bench   int32 and float, exclusive and inclusive, n = 2^10 .. 2^28: single-pass, CUB
//               (ExclusiveSum/InclusiveSum and the generic Exclusive/InclusiveScan with our Sum),
//               cudaMemcpy D2D; every single-pass result checked against the CPU reference
//     --tune    block shape / items-per-thread / spin sweep for int32 exclusive
//   No mode flag: --check --bench.
//
// Timing: CUDA events on one stream, 10 warm-up calls, median of --reps (default 100, at least 50)
// calls, each call timed alone (start event, the call's launches, stop event, wait), so host launch
// cost counts as it does for an application that waits for the result. "queued" is the mean of the
// same calls issued back to back (launch overhead hidden). Inputs rotate over enough buffer sets to
// exceed 3x the 50 MB L2. Bytes = 2 * n * sizeof(T) (read + write).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include "bench_util.hpp"
#include "scandof/cuda_check.hpp"
#include "scandof/device/single_pass.cuh"
#include "scandof/ops.hpp"
#include "scandof/scan.hpp"
#include "scandof/scan_gold.hpp"

namespace sp = scandof::detail::single_pass;
using scandof::Affine;
using scandof::ComposeAffine;
using scandof::ScanKind;

namespace {

constexpr std::size_t kL2Bytes = 50u << 20;

// ---- small utilities ---------------------------------------------------------------------------

using scandof::util::DeviceBuffer;

// Seeded random inputs, never all zeros.
template <class T>
T make_value(std::uint64_t seed, std::size_t i) {
  const std::uint64_t r = scandof::util::mix64(seed ^ (i * 0x100000001b3ull));
  if constexpr (std::is_same_v<T, int32_t>)
    return int32_t(r % 9) - 4;  // |prefix| < 2^31 up to 2^28 items
  else if constexpr (std::is_same_v<T, uint32_t>)
    return uint32_t(r);  // wraps: exact modulo 2^32
  else if constexpr (std::is_same_v<T, int64_t>)
    return int64_t(r >> 20) - (int64_t(1) << 43);
  else if constexpr (std::is_same_v<T, float>)
    return float(r >> 40) * 0x1p-24f;  // [0, 1)
  else if constexpr (std::is_same_v<T, double>)
    return double(r >> 11) * 0x1p-53;
  else
    return Affine{uint32_t(r) | 1u, uint32_t(r >> 32)};
}

template <class T>
std::vector<T> make_input(std::size_t n, std::uint64_t seed) {
  std::vector<T> h(n);
  scandof::util::parallel_for(n, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) h[i] = make_value<T>(seed, i);
  });
  return h;
}

template <class T>
const char* tname() {
  if constexpr (std::is_same_v<T, Affine>)
    return "affine";
  else
    return scandof::bench::type_name<T>();
}
const char* kind_name(ScanKind k) {
  return k == ScanKind::Exclusive ? "excl" : "incl";
}

// ---- checking ----------------------------------------------------------------------------------

// Returns the number of mismatches and prints the first few. Floats are compared against an fp64
// reference with a relative bound; everything else must match exactly.
template <class T, class Op>
std::size_t verify(ScanKind kind, const std::vector<T>& in, const std::vector<T>& got, Op op,
                   T identity, const char* what) {
  const std::size_t n = in.size();
  std::size_t bad = 0, first = n;
  if constexpr (std::is_floating_point<T>::value) {
    std::vector<double> ref(n);
    std::vector<double> ind(in.begin(), in.end());
    scandof::scan_gold(kind, ind.data(), ref.data(), n, op, double(identity));
    const double rel = std::is_same<T, float>::value ? 1e-4 : 1e-11;
    for (std::size_t i = 0; i < n; ++i) {
      const double d = std::fabs(double(got[i]) - ref[i]);
      if (!(d <= rel * std::fabs(ref[i]) + rel)) {
        if (bad < 3)
          std::printf("    MISMATCH %s at %zu: got %.9g want %.9g\n", what, i, double(got[i]),
                      ref[i]);
        ++bad;
        first = std::min(first, i);
      }
    }
  } else {
    std::vector<T> ref(n);
    scandof::scan_gold_parallel(kind, in.data(), ref.data(), n, op, identity);
    std::atomic<std::size_t> nbad{0}, first_bad{n};
    scandof::util::parallel_for(n, [&](std::size_t b, std::size_t e) {
      std::size_t local = 0, local_first = n;
      for (std::size_t i = b; i < e; ++i)
        if (std::memcmp(&got[i], &ref[i], sizeof(T)) != 0) {
          if (local++ == 0) local_first = i;
        }
      nbad += local;
      std::size_t cur = first_bad.load();
      while (local_first < cur && !first_bad.compare_exchange_weak(cur, local_first)) {
      }
    });
    bad = nbad;
    first = first_bad;
    if (bad) std::printf("    MISMATCH %s: %zu bad, first at %zu\n", what, bad, first);
  }
  return bad;
}

// ---- timing ------------------------------------------------------------------------------------

struct Timing {
  double median_us = 0;  // each call alone, launches included
  double queued_us = 0;  // calls back to back
};

// Not util::EventTimer's rule on purpose: each call is timed alone and waited for, so the launch
// cost counts as it does for an application that waits for the result; "queued" adds the
// back-to-back mean that EventTimer-style runs see.
class Timer {
 public:
  explicit Timer(cudaStream_t s) : s_(s) {}
  Timing measure(const std::function<void(int)>& call, int reps) {
    for (int i = 0; i < 10; ++i) call(i);
    CUDA_CHECK(cudaStreamSynchronize(s_));
    std::vector<double> t(reps);
    for (int i = 0; i < reps; ++i) {
      a_.record(s_);
      call(i);
      b_.record(s_);
      t[i] = b_.since(a_) * 1e3;
    }
    Timing r;
    r.median_us = scandof::util::median(std::move(t));
    a_.record(s_);
    for (int i = 0; i < reps; ++i) call(i);
    b_.record(s_);
    r.queued_us = b_.since(a_) * 1e3 / reps;
    return r;
  }

 private:
  cudaStream_t s_;
  scandof::util::Event a_, b_;
};

// Buffer sets to rotate so that the working set exceeds 3x L2 (capped).
int rotation_sets(std::size_t bytes_per_set) {
  const std::size_t want = (3 * kL2Bytes + bytes_per_set - 1) / bytes_per_set;
  return int(std::max<std::size_t>(1, std::min<std::size_t>(want, 256)));
}

struct Options {
  bool check = false, small = false, big = true, bench = false, tune = false, pacing = false;
  int reps = 100, max_log2 = 28;
  std::string tune_what;  // --tune's part: shapes, run-to-run, small (empty: all)
  bool delays_set = false;  // --first/--spin given: override the policy's look-back pacing
  sp::LookbackDelays delays;
};

// ---- correctness sweep -------------------------------------------------------------------------

template <class T, class Op>
std::size_t check_one(cudaStream_t s, std::size_t n, Op op, ScanKind kind, int mode,
                      std::uint64_t seed) {
  // mode 0: out of place, 1: in place, 2: both pointers off 16-byte alignment (scalar path)
  const T identity = scandof::identity_of<Op, T>();
  const std::vector<T> in = make_input<T>(n, seed);
  const std::size_t off = mode == 2 ? 1 : 0;
  DeviceBuffer<T> din(n + off), dout(mode == 1 ? 0 : n + off);
  T* pin = din.get() ? din.get() + off : nullptr;
  T* pout = mode == 1 ? pin : (dout.get() ? dout.get() + off : nullptr);
  const std::size_t wsb = scandof::detail::single_pass_workspace_bytes<T, Op>(n);
  DeviceBuffer<unsigned char> ws(wsb);
  scandof::clear_workspace(ws.get(), wsb);  // the look-back state starts zero
  std::vector<T> got(n);
  std::size_t bad = 0;
  char what[160];
  for (int rep = 0; rep < 2; ++rep) {  // the second run reuses the workspace
    if (n) {
      CUDA_CHECK(cudaMemcpyAsync(pin, in.data(), n * sizeof(T), cudaMemcpyHostToDevice, s));
      if (mode != 1) CUDA_CHECK(cudaMemsetAsync(pout, 0xA5, n * sizeof(T), s));
    }
    scandof::detail::single_pass_scan<T, Op>(kind, pin, pout, n, op, identity, ws.get(), wsb, s);
    CUDA_CHECK(cudaStreamSynchronize(s));
    if (n) CUDA_CHECK(cudaMemcpy(got.data(), pout, n * sizeof(T), cudaMemcpyDeviceToHost));
    std::snprintf(what, sizeof what, "%s %s %s n=%zu run %d", tname<T>(), kind_name(kind),
                  mode == 0   ? "out-of-place"
                  : mode == 1 ? "in-place"
                              : "misaligned",
                  n, rep);
    bad += verify(kind, in, got, op, identity, what);
  }
  return bad;
}

template <class T, class Op>
std::size_t check_type(cudaStream_t s, const std::vector<std::size_t>& sizes, Op op) {
  std::size_t bad = 0, cases = 0;
  for (std::size_t n : sizes)
    for (ScanKind kind : {ScanKind::Exclusive, ScanKind::Inclusive})
      for (int mode = 0; mode < 3; ++mode) {
        bad += check_one<T, Op>(s, n, op, kind, mode, 1234567 + n * 7 + mode);
        ++cases;
      }
  std::printf("check %-7s %-14s %3zu cases x 2 runs: %s\n", tname<T>(), typeid(Op).name(), cases,
              bad ? "FAILED" : "ok");
  return bad;
}

std::size_t run_checks(cudaStream_t s, const Options& o) {
  // Tile edges of the default policies: 8192 items (4-byte T), 4096 (8-byte T).
  std::vector<std::size_t> sizes = {0,    1,    2,    31,   33,    1023,  1025,  4095, 4096,
                                    4097, 8191, 8192, 8193, 16385, 65535, 65536, 65537};
  if (!o.small) {
    sizes.push_back((1u << 20) + 7);
    sizes.push_back((1u << 22) + 4097);
  }
  std::size_t bad = 0;
  bad += check_type<int32_t>(s, sizes, scandof::Sum{});
  bad += check_type<int32_t>(s, sizes, scandof::Max{});
  bad += check_type<uint32_t>(s, sizes, scandof::Sum{});
  bad += check_type<int64_t>(s, sizes, scandof::Sum{});
  bad += check_type<int64_t>(s, sizes, scandof::Min{});
  bad += check_type<float>(s, sizes, scandof::Sum{});
  bad += check_type<double>(s, sizes, scandof::Sum{});
  bad += check_type<Affine>(s, sizes, ComposeAffine{});

  if (o.big && !o.small) {
    // Past 2^31 elements: 64-bit indexing. ~8.6 GB in + 8.6 GB out on the device.
    const std::size_t n = (std::size_t(1) << 31) + 12345;
    std::printf("check uint32 n=%zu (past 2^31): ", n);
    std::fflush(stdout);
    const std::vector<uint32_t> in = make_input<uint32_t>(n, 99);
    DeviceBuffer<uint32_t> din(n), dout(n);
    const std::size_t wsb = scandof::detail::single_pass_workspace_bytes<uint32_t, scandof::Sum>(n);
    DeviceBuffer<unsigned char> ws(wsb);
    scandof::clear_workspace(ws.get(), wsb);  // the look-back state starts zero
    std::vector<uint32_t> got(n);
    std::size_t b = 0;
    CUDA_CHECK(cudaMemcpy(din.get(), in.data(), n * 4, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(dout.get(), 0xA5, n * 4));
    scandof::detail::single_pass_scan<uint32_t, scandof::Sum>(
        ScanKind::Exclusive, din.get(), dout.get(), n, scandof::Sum{}, 0u, ws.get(), wsb, s);
    CUDA_CHECK(cudaStreamSynchronize(s));
    CUDA_CHECK(cudaMemcpy(got.data(), dout.get(), n * 4, cudaMemcpyDeviceToHost));
    b += verify(ScanKind::Exclusive, in, got, scandof::Sum{}, 0u, "uint32 excl big");
    // Inclusive, in place, on the input buffer.
    scandof::detail::single_pass_scan<uint32_t, scandof::Sum>(
        ScanKind::Inclusive, din.get(), din.get(), n, scandof::Sum{}, 0u, ws.get(), wsb, s);
    CUDA_CHECK(cudaStreamSynchronize(s));
    CUDA_CHECK(cudaMemcpy(got.data(), din.get(), n * 4, cudaMemcpyDeviceToHost));
    b += verify(ScanKind::Inclusive, in, got, scandof::Sum{}, 0u, "uint32 incl in-place big");
    std::printf("%s\n", b ? "FAILED" : "ok (exclusive out of place, inclusive in place)");
    bad += b;
  }
  return bad;
}

// ---- benchmark ---------------------------------------------------------------------------------

// Policy P with its look-back pacing set at run time (--first/--spin, the sweep's rows): the same
// kernel as P's, every grid paced alike.
template <class P>
struct Paced : P {
  static inline sp::LookbackDelays delays;
  static sp::LookbackDelays delays_for(std::size_t, double, bool) { return delays; }
};

// Runs one single-pass configuration; `d` overrides the policy's look-back pacing when non-null.
template <class P, class T>
void run_single_pass(cudaStream_t s, ScanKind kind, const T* in, T* out, std::size_t n, void* ws,
                     std::size_t wsb, const sp::LookbackDelays* d) {
  if (d) {
    Paced<P>::delays = *d;
    sp::scan_with_policy<Paced<P>>(kind, in, out, n, scandof::Sum{}, T(0), ws, wsb, s);
  } else {
    sp::scan_with_policy<P>(kind, in, out, n, scandof::Sum{}, T(0), ws, wsb, s);
  }
}

// Times one single-pass configuration at size n (input rotated).
template <class P, class T>
Timing time_single_pass(Timer& timer, cudaStream_t s, ScanKind kind, std::vector<T*>& ins,
                        std::vector<T*>& outs, std::size_t n, void* ws, std::size_t wsb, int reps,
                        const sp::LookbackDelays* d) {
  const int sets = int(ins.size());
  return timer.measure(
      [&](int i) { run_single_pass<P, T>(s, kind, ins[i % sets], outs[i % sets], n, ws, wsb, d); },
      reps);
}

// One seeded input of n elements copied into enough buffer sets to exceed 3x L2, with as many
// output buffers.
template <class T>
struct RotatedInput {
  std::size_t n;
  std::vector<DeviceBuffer<T>> bin, bout;
  std::vector<T*> ins, outs;
  std::vector<T> h;
  RotatedInput(std::size_t n_, std::uint64_t seed) : n(n_), h(make_input<T>(n_, seed)) {
    const int sets = rotation_sets(2 * n * sizeof(T));
    for (int k = 0; k < sets; ++k) {
      bin.emplace_back(n);
      bout.emplace_back(n);
      ins.push_back(bin.back().get());
      outs.push_back(bout.back().get());
      CUDA_CHECK(cudaMemcpy(ins.back(), h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
    }
  }
};

// The default policy's pacing on this device, as the library derives it for a large grid.
template <class T>
sp::LookbackDelays default_delays() {
  using P = sp::DefaultPolicy<T>;
  auto k = sp::scan_kernel<T, scandof::Sum, P::BLOCK_THREADS, P::ITEMS_PER_THREAD, P::MIN_BLOCKS,
                           true, 0, P::LOAD_HINT, P::STORE_HINT, false>;
  const int blocks = scandof::detail::lookback::resident_blocks_per_sm(k, P::BLOCK_THREADS);
  const auto rate = scandof::detail::lookback::device_rate();
  const double wave = scandof::detail::lookback::wave_ns(
      2 * sizeof(T) * P::BLOCK_THREADS * P::ITEMS_PER_THREAD, blocks, rate);
  std::printf("pacing of %s: %d SMs x %d blocks of %d B per wave at %.0f GB/s peak: wave %.0f ns\n",
              tname<T>(), rate.sms, blocks, int(2 * sizeof(T) * P::BLOCK_THREADS * P::ITEMS_PER_THREAD),
              rate.bytes_per_ns, wave);
  return P::delays_for(~std::size_t(0), wave, false);
}

template <class T>
std::size_t bench_type(cudaStream_t s, const Options& o) {
  using P = sp::DefaultPolicy<T>;
  const sp::LookbackDelays* delays = o.delays_set ? &o.delays : nullptr;
  std::size_t bad = 0;
  Timer timer(s);
  for (ScanKind kind : {ScanKind::Exclusive, ScanKind::Inclusive}) {
    const sp::LookbackDelays big = delays ? *delays : default_delays<T>();
    std::printf(
        "\n%s %s scan, Sum; single-pass %dx%d, look-back pacing %u/%u ns%s; times in us "
        "(median of %d), GB/s = 2n*%zu B / time\n",
        tname<T>(), kind == ScanKind::Exclusive ? "exclusive" : "inclusive", P::BLOCK_THREADS,
        P::ITEMS_PER_THREAD, big.first_ns, big.spin_ns, delays ? "" : " (derived, from 500 tiles)", o.reps,
        sizeof(T));
    std::printf("%10s %4s | %8s %7s | %8s %7s | %8s | %6s | %8s %7s | %6s | %8s %8s\n", "n", "sets",
                "sp us", "GB/s", "cub us", "GB/s", "cubgen", "cub/sp", "memcpy", "GB/s", "%cpy",
                "sp q.us", "cub q.us");
    for (int lg : {10, 12, 14, 16, 20, 24, 26, 28}) {
      if (lg > o.max_log2) continue;
      const std::size_t n = std::size_t(1) << lg;
      const std::size_t bytes = 2 * n * sizeof(T);
      RotatedInput<T> data(n, 777 + lg);
      std::vector<T*>&ins = data.ins, &outs = data.outs;
      const std::vector<T>& h = data.h;
      const int sets = int(ins.size());
      const std::size_t wsb = sp::workspace_bytes<T, P>(n);
      DeviceBuffer<unsigned char> ws(wsb);
      scandof::clear_workspace(ws.get(), wsb);  // the look-back state starts zero

      // Correctness of the measured configuration, on poisoned output.
      {
        CUDA_CHECK(cudaMemset(outs[0], 0xA5, n * sizeof(T)));
        run_single_pass<P, T>(s, kind, ins[0], outs[0], n, ws.get(), wsb, delays);
        CUDA_CHECK(cudaStreamSynchronize(s));
        std::vector<T> got(n);
        CUDA_CHECK(cudaMemcpy(got.data(), outs[0], n * sizeof(T), cudaMemcpyDeviceToHost));
        char what[96];
        std::snprintf(what, sizeof what, "bench %s %s n=2^%d", tname<T>(), kind_name(kind), lg);
        bad += verify(kind, h, got, scandof::Sum{}, T(0), what);
      }

      // CUB scratch: the largest of the variants timed.
      std::size_t cub_bytes = 0, tmp = 0;
      CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, tmp, ins[0], outs[0], n, s));
      cub_bytes = std::max(cub_bytes, tmp);
      CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, tmp, ins[0], outs[0], n, s));
      cub_bytes = std::max(cub_bytes, tmp);
      CUDA_CHECK(cub::DeviceScan::ExclusiveScan(nullptr, tmp, ins[0], outs[0], scandof::Sum{}, T(0),
                                                n, s));
      cub_bytes = std::max(cub_bytes, tmp);
      CUDA_CHECK(
          cub::DeviceScan::InclusiveScan(nullptr, tmp, ins[0], outs[0], scandof::Sum{}, n, s));
      cub_bytes = std::max(cub_bytes, tmp);
      DeviceBuffer<unsigned char> cub_ws(cub_bytes);

      const Timing t_sp =
          time_single_pass<P, T>(timer, s, kind, ins, outs, n, ws.get(), wsb, o.reps, delays);
      const Timing t_cub = timer.measure(
          [&](int i) {
            std::size_t b = cub_bytes;
            if (kind == ScanKind::Exclusive)
              CUDA_CHECK(cub::DeviceScan::ExclusiveSum(cub_ws.get(), b, ins[i % sets],
                                                       outs[i % sets], n, s));
            else
              CUDA_CHECK(cub::DeviceScan::InclusiveSum(cub_ws.get(), b, ins[i % sets],
                                                       outs[i % sets], n, s));
          },
          o.reps);
      const Timing t_gen = timer.measure(
          [&](int i) {
            std::size_t b = cub_bytes;
            if (kind == ScanKind::Exclusive)
              CUDA_CHECK(cub::DeviceScan::ExclusiveScan(
                  cub_ws.get(), b, ins[i % sets], outs[i % sets], scandof::Sum{}, T(0), n, s));
            else
              CUDA_CHECK(cub::DeviceScan::InclusiveScan(cub_ws.get(), b, ins[i % sets],
                                                        outs[i % sets], scandof::Sum{}, n, s));
          },
          o.reps);
      const Timing t_cpy = timer.measure(
          [&](int i) {
            CUDA_CHECK(cudaMemcpyAsync(outs[i % sets], ins[i % sets], n * sizeof(T),
                                       cudaMemcpyDeviceToDevice, s));
          },
          o.reps);
      auto gbs = [&](double us) { return double(bytes) / (us * 1e3); };
      std::printf(
          "%10zu %4d | %8.2f %7.0f | %8.2f %7.0f | %8.2f | %6.3f | %8.2f %7.0f | %5.1f%% | %8.2f "
          "%8.2f\n",
          n, sets, t_sp.median_us, gbs(t_sp.median_us), t_cub.median_us, gbs(t_cub.median_us),
          t_gen.median_us, t_cub.median_us / t_sp.median_us, t_cpy.median_us, gbs(t_cpy.median_us),
          100.0 * t_cpy.median_us / t_sp.median_us, t_sp.queued_us, t_cub.queued_us);
      std::fflush(stdout);
    }
  }
  return bad;
}

// ---- tuning sweep ------------------------------------------------------------------------------

template <class P, class T>
void tune_row(Timer& timer, cudaStream_t s, RotatedInput<T>& td, int reps, sp::LookbackDelays d,
              std::size_t& bad) {
  const std::size_t n = td.n;
  const std::size_t wsb = sp::workspace_bytes<T, P>(n);
  DeviceBuffer<unsigned char> ws(wsb);
  scandof::clear_workspace(ws.get(), wsb);  // the look-back state starts zero
  CUDA_CHECK(cudaMemset(td.outs[0], 0xA5, n * sizeof(T)));
  run_single_pass<P, T>(s, ScanKind::Exclusive, td.ins[0], td.outs[0], n, ws.get(), wsb, &d);
  CUDA_CHECK(cudaStreamSynchronize(s));
  std::vector<T> got(n);
  CUDA_CHECK(cudaMemcpy(got.data(), td.outs[0], n * sizeof(T), cudaMemcpyDeviceToHost));
  bad += verify(ScanKind::Exclusive, td.h, got, scandof::Sum{}, T(0), "tune");
  const Timing t = time_single_pass<P, T>(timer, s, ScanKind::Exclusive, td.ins, td.outs, n,
                                          ws.get(), wsb, reps, &d);
  std::printf("  %4dx%-3d minb %2d first %4u spin %4u: %9.2f us %7.0f GB/s  (queued %9.2f us)\n",
              P::BLOCK_THREADS, P::ITEMS_PER_THREAD, P::MIN_BLOCKS, d.first_ns, d.spin_ns,
              t.median_us, 2.0 * sizeof(T) * n / (t.median_us * 1e3), t.queued_us);
  std::fflush(stdout);
}

template <class T>
void tune_cub_row(Timer& timer, cudaStream_t s, RotatedInput<T>& td, int reps) {
  std::size_t bytes = 0;
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, td.ins[0], td.outs[0], td.n, s));
  DeviceBuffer<unsigned char> ws(bytes);
  const int sets = int(td.ins.size());
  const Timing t = timer.measure(
      [&](int i) {
        std::size_t b = bytes;
        CUDA_CHECK(cub::DeviceScan::ExclusiveSum(ws.get(), b, td.ins[i % sets], td.outs[i % sets],
                                                 td.n, s));
      },
      reps);
  std::printf(
      "  cub ExclusiveSum                : %9.2f us %7.0f GB/s  (queued %9.2f us)\n",
      t.median_us, 2.0 * sizeof(T) * td.n / (t.median_us * 1e3), t.queued_us);
}

template <class T>
void tune_memcpy_row(Timer& timer, cudaStream_t s, RotatedInput<T>& td, int reps) {
  const int sets = int(td.ins.size());
  const Timing t = timer.measure(
      [&](int i) {
        CUDA_CHECK(cudaMemcpyAsync(td.outs[i % sets], td.ins[i % sets], td.n * sizeof(T),
                                   cudaMemcpyDeviceToDevice, s));
      },
      reps);
  std::printf("  cudaMemcpy D2D                  : %9.2f us %7.0f GB/s\n", t.median_us,
              2.0 * sizeof(T) * td.n / (t.median_us * 1e3));
}

// Resident blocks per SM of P's aligned kernel for T (the occupancy calculator's answer).
template <class P, class T>
int resident_per_sm(bool run_to_run = false) {
  constexpr int kG = sp::exact_in_any_grouping<T>() ? 0 : P::RUN_TO_RUN_GROUP;
  int blocks = 0;
  auto k = run_to_run ? sp::scan_kernel<T, scandof::Sum, P::BLOCK_THREADS, P::ITEMS_PER_THREAD,
                                        P::MIN_BLOCKS, true, kG, P::LOAD_HINT, P::STORE_HINT, false>
                      : sp::scan_kernel<T, scandof::Sum, P::BLOCK_THREADS, P::ITEMS_PER_THREAD,
                                        P::MIN_BLOCKS, true, 0, P::LOAD_HINT, P::STORE_HINT, false>;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, P::BLOCK_THREADS, 0));
  return blocks;
}

// The pacing grid: every (first, spin) pair at the default shape, beside CUB and cudaMemcpy of
// the same bytes in the same process, so a device's best pacing is read off one table.
template <class T, class P>
void tune_pacing(Timer& timer, cudaStream_t s, int lg, int reps, std::size_t& bad) {
  RotatedInput<T> td(std::size_t(1) << lg, 4242 + lg);
  std::printf("\ntune %s exclusive n=2^%d (%zu sets), pacing grid\n", tname<T>(), lg,
              td.ins.size());
  tune_cub_row(timer, s, td, reps);
  tune_memcpy_row(timer, s, td, reps);
  for (unsigned first : {0u, 750u, 1500u, 2250u, 3000u, 4000u})
    for (unsigned spin : {0u, 200u, 400u, 648u, 1000u})
      tune_row<P>(timer, s, td, reps, sp::LookbackDelays{first, spin}, bad);
}

template <class P>
void shape_row(Timer& timer, cudaStream_t s, RotatedInput<int32_t>& td, int reps,
               sp::LookbackDelays d, std::size_t& bad) {
  std::printf("  hints load %d store %d, %d blocks/SM:", P::LOAD_HINT, P::STORE_HINT,
              resident_per_sm<P, int32_t>());
  tune_row<P>(timer, s, td, reps, d, bad);
}

// Shapes and cache hints at one pacing.
void tune_shapes(Timer& timer, cudaStream_t s, int lg, int reps, sp::LookbackDelays d,
                 std::size_t& bad) {
  RotatedInput<int32_t> td(std::size_t(1) << lg, 4343 + lg);
  std::printf("\ntune int32 exclusive n=2^%d (%zu sets), shapes and cache hints\n", lg,
              td.ins.size());
  tune_cub_row(timer, s, td, reps);
  tune_memcpy_row(timer, s, td, reps);
  shape_row<sp::Policy<256, 32>>(timer, s, td, reps, d, bad);
  shape_row<sp::Policy<256, 32, 1, 0, 0, 500, 64, 0, 0, 1, 0>>(timer, s, td, reps, d, bad);
  shape_row<sp::Policy<256, 32, 1, 0, 0, 500, 64, 0, 0, 0, 1>>(timer, s, td, reps, d, bad);
  shape_row<sp::Policy<256, 32, 1, 0, 0, 500, 64, 0, 0, 1, 1>>(timer, s, td, reps, d, bad);
  shape_row<sp::Policy<256, 32, 1, 0, 0, 500, 64, 0, 0, 2, 0>>(timer, s, td, reps, d, bad);
  shape_row<sp::Policy<256, 32, 1, 0, 0, 500, 64, 0, 0, 2, 1>>(timer, s, td, reps, d, bad);
  shape_row<sp::Policy<256, 16, 6>>(timer, s, td, reps, d, bad);
  shape_row<sp::Policy<256, 16, 6, 0, 0, 500, 64, 0, 0, 2, 1>>(timer, s, td, reps, d, bad);
  shape_row<sp::Policy<256, 24, 4>>(timer, s, td, reps, d, bad);
  shape_row<sp::Policy<128, 32, 6>>(timer, s, td, reps, d, bad);
  shape_row<sp::Policy<512, 16, 2>>(timer, s, td, reps, d, bad);
  shape_row<sp::Policy<512, 32, 1>>(timer, s, td, reps, d, bad);
}

// The run-to-run look-back against the default one, float sums, for a few group sizes.
template <class P>
void r2r_row(Timer& timer, cudaStream_t s, RotatedInput<float>& td, int reps, bool r2r,
             sp::LookbackDelays d) {
  Paced<P>::delays = d;
  const std::size_t n = td.n, wsb = sp::workspace_bytes<float, P>(n);
  DeviceBuffer<unsigned char> ws(wsb);
  scandof::clear_workspace(ws.get(), wsb);
  const int sets = int(td.ins.size());
  const Timing t = timer.measure(
      [&](int i) {
        sp::scan_with_policy<Paced<P>>(ScanKind::Exclusive, td.ins[i % sets], td.outs[i % sets],
                                       n, scandof::Sum{}, 0.f, ws.get(), wsb, s, r2r);
      },
      reps);
  std::printf("  float %-13s group %4d, %d blocks/SM: %9.2f us %7.0f GB/s\n",
              r2r ? "run-to-run" : "not-guaranteed", P::RUN_TO_RUN_GROUP,
              resident_per_sm<P, float>(r2r), t.median_us, 8.0 * n / (t.median_us * 1e3));
  std::fflush(stdout);
}

void tune_run_to_run(Timer& timer, cudaStream_t s, int lg, int reps) {
  RotatedInput<float> td(std::size_t(1) << lg, 4444 + lg);
  std::printf("\ntune float exclusive n=2^%d (%zu sets), run-to-run look-back\n", lg,
              td.ins.size());
  tune_memcpy_row(timer, s, td, reps);
  for (sp::LookbackDelays d : {sp::LookbackDelays{3593, 575}, sp::LookbackDelays{1500, 200},
                               sp::LookbackDelays{1000, 100}}) {
    std::printf(" pacing %u/%u ns\n", d.first_ns, d.spin_ns);
    r2r_row<sp::Policy<256, 32>>(timer, s, td, reps, false, d);
    r2r_row<sp::Policy<256, 32, 1, 0, 0, 500, 32>>(timer, s, td, reps, true, d);
    r2r_row<sp::Policy<256, 32, 1, 0, 0, 500, 64>>(timer, s, td, reps, true, d);
    r2r_row<sp::Policy<256, 32, 1, 0, 0, 500, 128>>(timer, s, td, reps, true, d);
  }
}

// Small inputs: one to eight tiles of the default shape, against smaller tiles (more blocks, each
// with less to load), all unpaced as the library runs them below 500 tiles.
template <class P>
void small_row(Timer& timer, cudaStream_t s, RotatedInput<int32_t>& td, int reps,
               std::size_t& bad) {
  std::printf("  tile %5d:", P::BLOCK_THREADS * P::ITEMS_PER_THREAD);
  tune_row<P>(timer, s, td, reps, sp::LookbackDelays{}, bad);
}

void tune_small(Timer& timer, cudaStream_t s, int reps, std::size_t& bad) {
  for (int lg : {10, 12, 13, 14, 15, 16, 17}) {
    RotatedInput<int32_t> td(std::size_t(1) << lg, 4545 + lg);
    std::printf("\ntune int32 exclusive n=2^%d (%zu sets), small-input shapes\n", lg,
                td.ins.size());
    tune_cub_row(timer, s, td, reps);
    tune_memcpy_row(timer, s, td, reps);
    small_row<sp::Policy<256, 32>>(timer, s, td, reps, bad);
    small_row<sp::Policy<256, 16>>(timer, s, td, reps, bad);
    small_row<sp::Policy<256, 8>>(timer, s, td, reps, bad);
    small_row<sp::Policy<128, 16>>(timer, s, td, reps, bad);
    small_row<sp::Policy<512, 8>>(timer, s, td, reps, bad);
    small_row<sp::Policy<1024, 8>>(timer, s, td, reps, bad);
  }
}

std::size_t run_tune(cudaStream_t s, const Options& o) {
  std::size_t bad = 0;
  Timer timer(s);
  const sp::LookbackDelays d = o.delays_set ? o.delays : sp::LookbackDelays{2250, 400};
  if (o.tune_what.empty() || o.tune_what == "shapes")
    for (int lg : {24, 26, 28})
      if (lg <= o.max_log2) tune_shapes(timer, s, lg, o.reps, d, bad);
  if (o.tune_what.empty() || o.tune_what == "run-to-run")
    for (int lg : {24, 26, 28})
      if (lg <= o.max_log2) tune_run_to_run(timer, s, lg, o.reps);
  if (o.tune_what.empty() || o.tune_what == "small") tune_small(timer, s, o.reps, bad);
  return bad;
}

// --pacing: the pacing grid.
std::size_t run_pacing(cudaStream_t s, const Options& o) {
  std::size_t bad = 0;
  Timer timer(s);
  for (int lg : {24, 26, 28}) {
    if (lg > o.max_log2) continue;
    tune_pacing<int32_t, sp::Policy<256, 32>>(timer, s, lg, o.reps, bad);
  }
  if (26 <= o.max_log2) tune_pacing<double, sp::Policy<256, 16, 4>>(timer, s, 26, o.reps, bad);
  return bad;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  bool no_big = false;
  CLI::App app(
      "tune_single_pass: tuning and verification harness for the single-pass decoupled look-back "
      "scan (calls the detail:: functions directly). No mode flag: --check --bench.",
      "tune_single_pass");
  app.option_defaults()->always_capture_default();
  app.add_flag("--check", o.check,
               "correctness sweep: awkward sizes x {int32, uint32, int64, float, double, Affine} x "
               "{exclusive, inclusive} x {out of place, in place, misaligned}, each run twice on "
               "one workspace, plus one uint32 scan past 2^31 elements");
  app.add_flag("--small", o.small, "stop the check sweep at 65537 (for the sanitizers)");
  app.add_flag("--no-big", no_big, "skip the scan past 2^31 elements");
  app.add_flag("--bench", o.bench,
               "int32 and float, exclusive and inclusive, n = 2^10 .. 2^28: single-pass, CUB "
               "(Sum and generic scan), cudaMemcpy D2D; every single-pass result checked");
  app.add_flag("--tune", o.tune,
               "block shape / items-per-thread / spin sweep for int32 exclusive (and double)");
  app.add_option("--tune-part", o.tune_what, "only this part of --tune")
      ->check(CLI::IsMember({"shapes", "run-to-run", "small"}));
  app.add_flag("--pacing", o.pacing, "look-back pacing grid (first x spin) for int32 and double");
  app.add_option("--reps", o.reps, "timed calls per point (at least 50)")
      ->check(CLI::Range(1, 1000000));
  app.add_option("--max-log2", o.max_log2, "largest n = 2^L of --bench and --tune")
      ->check(CLI::Range(0, 40));
  auto* first = app.add_option("--first", o.delays.first_ns,
                               "look-back pacing: first wait in ns (overrides the policy's)")
                    ->check(CLI::Range(0u, 1000000u));
  auto* spin = app.add_option("--spin", o.delays.spin_ns,
                              "look-back pacing: spin wait in ns (overrides the policy's)")
                   ->check(CLI::Range(0u, 1000000u));
  if (const auto rc = scandof::bench::parse_command_line(app, argc, argv)) return *rc;
  o.big = !no_big;
  o.reps = std::max(50, o.reps);
  o.delays_set = first->count() + spin->count() > 0;
  if (!o.check && !o.bench && !o.tune && !o.pacing) o.check = o.bench = true;
  try {
    const scandof::util::DeviceInfo dev = scandof::util::current_device();
    std::printf("device: %s, %d SMs, L2 %zu MB\n", dev.name.c_str(), dev.sm_count,
                dev.l2_bytes >> 20);
    scandof::util::Stream s;
    std::size_t bad = 0;
    if (o.check) bad += run_checks(s, o);
    if (o.tune) bad += run_tune(s, o);
    if (o.pacing) bad += run_pacing(s, o);
    if (o.bench) {
      bad += bench_type<int32_t>(s, o);
      bad += bench_type<float>(s, o);
    }
    std::printf("\n%s\n", bad ? "SOME CHECKS FAILED" : "all checks passed");
    return bad ? 1 : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
