// `scantool scan`: prefix scan of a 1-D .npy array on the GPU (any algorithm of the library), or
// on the CPU with the reference scan when there is no device or --cpu asks for it.
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "command.hpp"
#include "scandof/npy.hpp"
#include "scandof/scan.hpp"
#include "scandof/scan_gold.hpp"
#if SCANDOF_WITH_CUDA
#include "scandof/util/device_buffer.hpp"
#include "scandof/util/stream.hpp"
#endif

namespace scantool {
namespace {

struct Options {
  scandof::ScanAlgorithm algo = scandof::ScanAlgorithm::SinglePass;
  scandof::ScanKind kind = scandof::ScanKind::Exclusive;
  scandof::OpKind op = scandof::OpKind::Sum;
  scandof::Determinism determinism = scandof::Determinism::NotGuaranteed;
  RunOptions run;
  // As given on the command line, parsed by parse_options().
  std::string algo_name, op_name = "sum", in_path, out_path;
  bool inclusive = false, exclusive = false, deterministic = false;
};

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// The CPU path. A signed integer sum runs on the unsigned type of the same width: identical bits
// (two's complement wrap-around, as numpy and the GPU produce) without signed-overflow UB.
template <class T, class Op>
void scan_on_cpu(const Options& o, const T* in, T* out, std::size_t n) {
  if constexpr (std::is_same_v<Op, scandof::Sum> && std::is_integral_v<T> && std::is_signed_v<T>) {
    using U = std::make_unsigned_t<T>;
    scandof::scan_gold(o.kind, reinterpret_cast<const U*>(in), reinterpret_cast<U*>(out), n,
                       scandof::Sum{}, U(0));
  } else {
    scandof::scan_gold(o.kind, in, out, n, Op{}, scandof::identity_of<Op, T>());
  }
}

#if SCANDOF_WITH_CUDA
template <class T, class Op>
void scan_on_gpu(const Options& o, const T* in, T* out, std::size_t n) {
  if (n == 0) {  // nothing to launch; an empty array is still written
    if (o.run.time) std::printf("scantool: empty array, nothing to time\n");
    return;
  }
  CUDA_CHECK(cudaFree(nullptr));  // context creation, kept out of the end-to-end time
  const auto t0 = Clock::now();
  scandof::util::Event e_start, e_up, e_scan, e_down;
  scandof::util::DeviceBuffer<T> d_in(n), d_out(n);
  scandof::ScanWorkspace ws;
  ws.reserve(scandof::scan_workspace_bytes<T, Op>(o.algo, n));
  e_start.record();
  CUDA_CHECK(cudaMemcpy(d_in.get(), in, n * sizeof(T), cudaMemcpyHostToDevice));
  e_up.record();
  scandof::scan(o.algo, o.kind, d_in.get(), d_out.get(), n, Op{}, ws, 0, o.determinism);
  e_scan.record();
  CUDA_CHECK(cudaMemcpy(out, d_out.get(), n * sizeof(T), cudaMemcpyDeviceToHost));
  e_down.record();
  CUDA_CHECK(cudaDeviceSynchronize());  // surfaces asynchronous kernel faults here, not later
  const double end_to_end = ms_since(t0);
  if (!o.run.time) return;

  // The first scan above was the warm-up (lazy module loading, first-touch of the workspace).
  // in and out are distinct buffers, so repeating the scan rewrites the same result.
  std::size_t reps = 0;
  const double kernel =
      median_gpu_ms(
          [&] {
            scandof::scan(o.algo, o.kind, d_in.get(), d_out.get(), n, Op{}, ws, 0, o.determinism);
          },
          o.run.reps, &reps);
  CUDA_CHECK(cudaGetLastError());
  const double bytes = 2.0 * static_cast<double>(n) * sizeof(T);  // read n + write n
  std::printf("scantool: %s %s %s of %zu %s on %s%s\n", scandof::to_string(o.algo),
              scandof::to_string(o.kind), scandof::to_string(o.op), n,
              scandof::npy::to_string(scandof::npy::dtype_of<T>()), device_name().c_str(),
              o.deterministic ? ", run-to-run deterministic" : "");
  std::printf(
      "  kernel:     %.4f ms median of %zu (after warm-up)  %.1f GB/s read+write, %.2f Gelem/s\n",
      kernel, reps, kernel > 0 ? bytes / kernel * 1e-6 : 0.0,
      kernel > 0 ? static_cast<double>(n) / kernel * 1e-6 : 0.0);
  std::printf(
      "  end-to-end: %.4f ms  (allocate + upload %.4f + first scan %.4f + download %.4f ms)\n",
      end_to_end, static_cast<double>(e_up.since(e_start)), static_cast<double>(e_scan.since(e_up)),
      static_cast<double>(e_down.since(e_scan)));
}
#endif

// --verify: counts the elements of `got` that disagree with the CPU reference, printing the first
// few. Exact for integers and for min/max. Float sums were added in another order on the GPU, so
// they are held against a long double running sum instead, allowed a few ulps of the running sum
// of magnitudes per level of a scan tree: the rounding of any sane order stays inside that, a wrong
// element of a short array does not (for long float32 arrays one lost item hides in the rounding:
// integer inputs are the sharp test). A sequential float32 sum of 2^20 items would fail it.
template <class T, class Op>
std::size_t verify(const Options& o, const T* in, const T* got, std::size_t n) {
  std::size_t bad = 0;
  auto report = [&](std::size_t i, long double expected) {
    if (bad < 5)
      std::fprintf(stderr, "  [%zu] got %.17g, expected %.17Lg\n", i, static_cast<double>(got[i]),
                   expected);
    ++bad;
  };
  if constexpr (std::is_floating_point_v<T> && std::is_same_v<Op, scandof::Sum>) {
    // log2(n) levels of a tree, plus a random walk along chained tile prefixes (single-pass,
    // CUB): a simulation of 2^28 float32 items with 1024-item tiles stays below 1/5 of this.
    const long double ln = static_cast<long double>(n < 2 ? 2 : n);
    const long double factor = (8.0L * std::log2(ln) + 16.0L + 4.0L * std::sqrt(ln / 1024.0L)) *
                               std::numeric_limits<T>::epsilon();
    long double acc = 0, mag = 0;
    auto check = [&](std::size_t i) {
      const long double g = got[i];
      if (g == acc || (std::isnan(g) && std::isnan(acc))) return;
      if (!(std::fabs(g - acc) <= factor * mag + std::numeric_limits<T>::denorm_min()))
        report(i, acc);
    };
    const bool exclusive = o.kind == scandof::ScanKind::Exclusive;
    for (std::size_t i = 0; i < n; ++i) {
      if (exclusive) check(i);
      acc += in[i];
      mag += std::fabs(static_cast<long double>(in[i]));
      if (!exclusive) check(i);
    }
  } else {
    std::vector<T> ref(n);
    scan_on_cpu<T, Op>(o, in, ref.data(), n);
    for (std::size_t i = 0; i < n; ++i) {
      if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(got[i]) && std::isnan(ref[i])) continue;
      }
      if (!(got[i] == ref[i])) report(i, static_cast<long double>(ref[i]));
    }
  }
  return bad;
}

// Returns the number of elements --verify found wrong (0 without --verify).
template <class T, class Op>
std::size_t run_typed(const Options& o, bool on_gpu, const scandof::npy::Array& in,
                      scandof::npy::Array& out) {
  const std::size_t n = in.count();
  if (!on_gpu) {
    const auto t0 = Clock::now();
    scan_on_cpu<T, Op>(o, in.data<T>(), out.data<T>(), n);
    if (o.run.time)
      std::printf("scantool: CPU reference %s %s of %zu %s: %.4f ms (one core, sequential)\n",
                  scandof::to_string(o.kind), scandof::to_string(o.op), n,
                  scandof::npy::to_string(in.dtype), ms_since(t0));
  } else {
#if SCANDOF_WITH_CUDA
    scan_on_gpu<T, Op>(o, in.data<T>(), out.data<T>(), n);
#else
    throw std::logic_error("GPU path requested in a build without CUDA");
#endif
  }
  if (!o.run.verify) return 0;
  if (!on_gpu) {
    std::fprintf(stderr, "scantool: --verify: computed on the CPU, by the reference itself\n");
    return 0;
  }
  const std::size_t bad = verify<T, Op>(o, in.data<T>(), out.data<T>(), n);
  if (bad)
    std::fprintf(stderr, "scantool: --verify: %zu of %zu elements differ from the CPU reference\n",
                 bad, n);
  else
    std::fprintf(stderr, "scantool: --verify: all %zu elements match the CPU reference\n", n);
  return bad;
}

template <class T>
std::size_t run_op(const Options& o, bool on_gpu, const scandof::npy::Array& in,
                   scandof::npy::Array& out) {
  switch (o.op) {
    case scandof::OpKind::Sum:
      return run_typed<T, scandof::Sum>(o, on_gpu, in, out);
    case scandof::OpKind::Min:
      return run_typed<T, scandof::Min>(o, on_gpu, in, out);
    case scandof::OpKind::Max:
      return run_typed<T, scandof::Max>(o, on_gpu, in, out);
  }
  return 0;
}

void parse_options(Options& o) {
  if (!o.algo_name.empty()) {
    try {
      o.algo = scandof::parse_scan_algorithm(o.algo_name);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
  }
  if (o.op_name == "sum") {
    o.op = scandof::OpKind::Sum;
  } else if (o.op_name == "min") {
    o.op = scandof::OpKind::Min;
  } else if (o.op_name == "max") {
    o.op = scandof::OpKind::Max;
  } else {
    throw UsageError("unknown --op '" + o.op_name + "'; choose sum, min or max");
  }
  if (o.inclusive && o.exclusive)
    throw UsageError("--inclusive and --exclusive exclude each other");
  if (o.inclusive) o.kind = scandof::ScanKind::Inclusive;
  if (o.deterministic) o.determinism = scandof::Determinism::RunToRun;
  o.run.finish();
  check_outputs({o.in_path}, {{"OUT.npy", o.out_path}});
}

int run_scan(Options& o) {
  parse_options(o);
  const std::string& in_path = o.in_path;
  const std::string& out_path = o.out_path;

  const scandof::npy::Array in = load_1d(in_path, "scan");
  using scandof::npy::DType;
  if (in.dtype == DType::UInt8)
    throw std::runtime_error(in_path +
                             ": dtype uint8 ('|u1') cannot be scanned; supported: int32, "
                             "uint32, int64, float32, float64 (convert, e.g. a.astype(np.uint32))");

  if (o.run.cpu)
    std::fprintf(stderr, "scantool: --cpu: computed on the CPU with the reference scan\n");
  const bool floating = in.dtype == DType::Float32 || in.dtype == DType::Float64;
  if (o.deterministic && floating && o.algo == scandof::ScanAlgorithm::Cub)
    throw UsageError(
        "--deterministic: cub::DeviceScan gives no run-to-run guarantee for float sums; use "
        "--algo single-pass (the default) or a block scan");
  const bool on_gpu = use_gpu(o.run.cpu, "with the reference scan");

  scandof::npy::Array out(in.dtype, in.shape);
  std::size_t bad = 0;
  switch (in.dtype) {
    case DType::Int32:
      bad = run_op<std::int32_t>(o, on_gpu, in, out);
      break;
    case DType::UInt32:
      bad = run_op<std::uint32_t>(o, on_gpu, in, out);
      break;
    case DType::Int64:
      bad = run_op<std::int64_t>(o, on_gpu, in, out);
      break;
    case DType::Float32:
      bad = run_op<float>(o, on_gpu, in, out);
      break;
    case DType::Float64:
      bad = run_op<double>(o, on_gpu, in, out);
      break;
    case DType::UInt8:
      break;  // rejected above
  }
  // Written even when --verify fails: the wrong output is what one wants to look at.
  scandof::npy::save(out_path, out);
  return bad ? kExitFailure : kExitOk;
}

std::function<int()> setup(CLI::App& sub) {
  auto o = std::make_shared<Options>();
  sub.description(
      "Prefix scan of the 1-D array in IN.npy; writes OUT.npy with the same dtype and shape.\n"
      "dtypes: int32, uint32, int64, float32, float64 (little-endian, C order).\n"
      "Runs on the GPU through scandof::scan; without a CUDA device it computes on the CPU with\n"
      "the reference scan and says so on stderr.");
  sub.add_option("IN.npy", o->in_path, "the 1-D input")->required()->type_name("");
  sub.add_option("OUT.npy", o->out_path, "the result (not the input itself)")
      ->required()
      ->type_name("");
  add_text_options(sub, {{"--algo", &o->algo_name, "NAME",
                          "naive | work-efficient | conflict-free | optimized | warp-shuffle |\n"
                          "single-pass | cub                           (default: single-pass)"},
                         {"--op", &o->op_name, "NAME",
                          "sum | min | max                            (default: sum)"}});
  sub.add_flag("--exclusive", o->exclusive,
               "out[i] = op(in[0..i-1]), out[0] = identity  (the default)");
  sub.add_flag("--inclusive", o->inclusive, "out[i] = op(in[0..i])");
  sub.add_flag("--deterministic", o->deterministic,
               "bitwise the same result on every run (float sums: a fixed grouping, a few\n"
               "percent slower; integer scans are deterministic either way)");
  add_run_options(sub, o->run, "compute on the CPU with the sequential reference scan",
                  "print the GPU kernel time (CUDA events, median after warm-up) and the\n"
                  "end-to-end time (allocate, upload, scan, download)",
                  "also compute the CPU reference and compare (exit status 1 if any element\n"
                  "differs; float sums within a rounding bound, all else exact)");
  sub.footer(
      std::string(
          "Integer sums wrap around on overflow, as numpy's do. Float results of the GPU differ "
          "from\n"
          "numpy's sequential np.cumsum by rounding (the GPU adds in a different order), and\n"
          "single-pass and cub float sums may differ in their last bits from run to run;\n"
          "--deterministic fixes the order (the CPU path is sequential, hence deterministic).\n"
          "NaN in min/max scans propagates, as in numpy's np.minimum.accumulate and\n"
          "np.maximum.accumulate: from the first NaN on, every output is NaN (on the GPU too).\n"
          "Inclusive scans never show the identity (+inf for min); exclusive ones have it at\n"
          "out[0]. Sums of -0.0 give +0.0 where np.cumsum gives -0.0: the scan starts from the\n"
          "identity +0.0, and +0.0 + -0.0 is +0.0 (the two compare equal).\n"
          "\n"
          "Examples:\n"
          "  scantool gen --dtype int32 --n 1000000 --seed 7 in.npy\n"
          "  scantool scan in.npy out.npy                      # exclusive sum, single-pass\n"
          "  scantool scan --algo optimized --inclusive --op max --time in.npy out.npy\n"
          "  scantool scan --verify --algo naive in.npy out.npy   # exit status 1 on a mismatch\n"
          "  python3 -c \"import numpy as np; a=np.load('in.npy'); b=np.load('out.npy');"
          " print((b[1:] == np.cumsum(a, dtype=a.dtype)[:-1]).all())\"\n\n") +
      kErrorsHelp);
  return [o] { return run_scan(*o); };
}

const Registrar kRegistrar{
    Command{"scan", "prefix scan (sum/min/max, exclusive/inclusive) of a .npy", setup}};

}  // namespace
}  // namespace scantool
