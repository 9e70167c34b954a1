// `scantool compact`: stream compaction (or stable partition) of a 1-D .npy array on the GPU
// with any of the library's three implementations, or on the CPU with the reference.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "command.hpp"
#include "gpu_util.hpp"
#include "scandof/compact.hpp"
#include "scandof/npy.hpp"

namespace scantool {
namespace {

const char* const kUsage =
    "Usage: scantool compact [OPTIONS] IN.npy OUT.npy\n"
    "\n"
    "Keeps the elements of the 1-D array IN.npy that pass a test, in order, and writes them to\n"
    "OUT.npy (shape (count,)); with --partition writes all n elements, the kept ones first, the\n"
    "others after them, both in input order. Prints the count. dtypes: int32, uint32, int64,\n"
    "float32, float64. Runs on the GPU; without a device (or with --cpu) on the CPU reference.\n"
    "\n"
    "The test (exactly one):\n"
    "  --keep TEST       TEST is one of  '<X' '<=X' '>X' '>=X' '==X' '!=X'  (quote it for the\n"
    "                    shell) or  nonzero | odd | even  (odd/even: integer dtypes only)\n"
    "  --less-than X     same as --keep '<X'\n"
    "  --not-equal X     same as --keep '!=X'\n"
    "  --flags F.npy     keep x[i] where F[i] != 0 (uint8, same length)\n"
    "\n"
    "Options:\n"
    "  --algo NAME       paper | reduce-then-scan | single-pass      (default: single-pass)\n"
    "  --paper-scan NAME scan used by --algo paper (naive ... single-pass, cub; default: "
    "optimized)\n"
    "  --partition       stable partition instead of compaction\n"
    "  --cpu             compute on the CPU with the reference (std::copy_if/stable_partition)\n"
    "  --time            print the GPU time (CUDA events, median of --reps after a warm-up)\n"
    "  --reps N          timed repetitions for --time                (default: 20)\n"
    "  --verify          also compute the CPU reference and compare (exit status 1 on mismatch)\n"
    "  -h, --help        this text\n"
    "\n"
    "Example:\n"
    "  scantool gen --dtype float32 --n 2^24 in.npy\n"
    "  scantool compact --keep '<0.5' --algo paper --paper-scan optimized --time in.npy "
    "out.npy\n"
    "  scantool compact --keep odd --partition ints.npy parted.npy\n";

struct Options {
  scandof::CompactOptions copt;
  enum class Test { Value, Flags } test = Test::Value;
  scandof::ValueTestKind kind = scandof::ValueTestKind::Less;
  std::string value, flags_path;
  bool partition = false, cpu = false, time = false, verify = false;
  std::size_t reps = 20;
};

template <class T>
T parse_value(const std::string& s) {
  std::size_t used = 0;
  T v{};
  try {
    if constexpr (std::is_floating_point_v<T>)
      v = static_cast<T>(std::stod(s, &used));
    else if constexpr (std::is_signed_v<T>)
      v = static_cast<T>(std::stoll(s, &used));
    else
      v = static_cast<T>(std::stoull(s, &used));
  } catch (const std::exception&) {
    used = 0;
  }
  if (s.empty() || used != s.size())
    throw UsageError("cannot parse the test value '" + s + "' as the array's dtype");
  return v;
}

// The CPU reference; returns the count.
template <class T, class Pred>
std::size_t on_cpu(const Options& o, const T* in, const std::uint8_t* flags, T* out, std::size_t n,
                   Pred pred) {
  if (flags)
    return o.partition ? scandof::partition_flagged_gold(in, flags, out, n)
                       : scandof::compact_flagged_gold(in, flags, out, n);
  return o.partition ? scandof::partition_gold(in, out, n, pred)
                     : scandof::compact_gold(in, out, n, pred);
}

#if SCANDOF_WITH_CUDA
template <class T, class Pred>
std::size_t on_gpu(const Options& o, const T* in, const std::uint8_t* flags, T* out, std::size_t n,
                   Pred pred) {
  DeviceBuffer<T> d_in(n), d_out(n);
  DeviceBuffer<std::uint8_t> d_flags(flags ? n : 0);
  DeviceBuffer<std::uint64_t> d_count(1);
  const std::size_t wb = scandof::compact_workspace_bytes<T>(n, o.copt);
  DeviceBuffer<unsigned char> ws(wb);
  if (n) CUDA_CHECK(cudaMemcpy(d_in.get(), in, n * sizeof(T), cudaMemcpyHostToDevice));
  if (flags && n) CUDA_CHECK(cudaMemcpy(d_flags.get(), flags, n, cudaMemcpyHostToDevice));
  auto once = [&] {
    if (flags) {
      if (o.partition)
        scandof::partition_flagged(d_in.get(), d_flags.get(), d_out.get(), d_count.get(), n,
                                   ws.get(), wb, 0, o.copt);
      else
        scandof::compact_flagged(d_in.get(), d_flags.get(), d_out.get(), d_count.get(), n, ws.get(),
                                 wb, 0, o.copt);
    } else {
      if (o.partition)
        scandof::partition_if(d_in.get(), d_out.get(), d_count.get(), n, pred, ws.get(), wb, 0,
                              o.copt);
      else
        scandof::compact_if(d_in.get(), d_out.get(), d_count.get(), n, pred, ws.get(), wb, 0,
                            o.copt);
    }
  };
  once();
  std::uint64_t count = 0;
  CUDA_CHECK(cudaMemcpy(&count, d_count.get(), sizeof(count), cudaMemcpyDeviceToHost));
  const std::size_t written = o.partition ? n : static_cast<std::size_t>(count);
  if (written)
    CUDA_CHECK(cudaMemcpy(out, d_out.get(), written * sizeof(T), cudaMemcpyDeviceToHost));
  if (o.time && n) {
    std::vector<double> ms;
    Event a, b;
    for (std::size_t r = 0; r < o.reps; ++r) {
      a.record();
      once();
      b.record();
      ms.push_back(b.since(a));
    }
    const double t = median(ms);
    std::printf("scantool: %s%s of %zu %s on %s: %.4f ms median of %zu, %.2f Gelem/s\n",
                o.partition ? "partition " : "compact ", scandof::to_string(o.copt.algo), n,
                scandof::npy::to_string(scandof::npy::dtype_of<T>()), current_device_name().c_str(),
                t, ms.size(), t > 0 ? static_cast<double>(n) / t * 1e-6 : 0.0);
  }
  return static_cast<std::size_t>(count);
}
#endif

template <class T>
int run_typed(const Options& o, bool gpu, const scandof::npy::Array& in,
              const scandof::npy::Array* flags_arr, const std::string& out_path) {
  const std::size_t n = in.count();
  const T* x = in.data<T>();
  const std::uint8_t* flags = flags_arr ? flags_arr->data<std::uint8_t>() : nullptr;
  std::vector<T> out(n);
  std::size_t count = 0;
  auto go = [&](auto pred) {
    if (gpu) {
#if SCANDOF_WITH_CUDA
      count = on_gpu<T>(o, x, flags, out.data(), n, pred);
#else
      throw std::logic_error("GPU path requested in a build without CUDA");
#endif
    } else {
      count = on_cpu<T>(o, x, flags, out.data(), n, pred);
    }
    if (o.verify && gpu) {
      std::vector<T> ref(n);
      const std::size_t rc = on_cpu<T>(o, x, flags, ref.data(), n, pred);
      const std::size_t m = o.partition ? n : std::min(rc, count);
      std::size_t bad = rc == count ? 0 : 1;
      for (std::size_t i = 0; i < m; ++i) bad += !(out[i] == ref[i]) && !(out[i] != out[i]);
      std::fprintf(stderr, "scantool: --verify: %s (count %zu, reference %zu)\n",
                   bad ? "MISMATCH" : "matches the CPU reference", count, rc);
      if (bad) throw std::runtime_error("verification failed");
    }
  };
  using K = scandof::ValueTestKind;
  if (!std::is_integral_v<T> && (o.kind == K::Odd || o.kind == K::Even))
    throw UsageError("odd/even need an integer dtype");
  const bool takes_value = o.kind != K::NonZero && o.kind != K::Odd && o.kind != K::Even;
  // With --flags the predicate is unused: any value does.
  go(scandof::ValueTest<T>{o.kind, o.test == Options::Test::Value && takes_value
                                       ? parse_value<T>(o.value)
                                       : T(0)});
  std::printf("%zu\n", count);
  out.resize(o.partition ? n : count);
  scandof::npy::save(out_path, scandof::npy::dtype_of<T>(), {out.size()}, out.data());
  return kExitOk;
}

int run_compact(const std::vector<std::string>& args) {
  const ParsedArgs p = parse_args(args, {{"--keep", true},
                                         {"--less-than", true},
                                         {"--not-equal", true},
                                         {"--flags", true},
                                         {"--algo", true},
                                         {"--paper-scan", true},
                                         {"--partition", false},
                                         {"--cpu", false},
                                         {"--time", false},
                                         {"--reps", true},
                                         {"--verify", false}});
  Options o;
  const int tests = p.has("--keep") + p.has("--less-than") + p.has("--not-equal") + p.has("--flags");
  if (tests != 1) throw UsageError("give exactly one of --keep, --less-than, --not-equal, --flags");
  using K = scandof::ValueTestKind;
  if (p.has("--not-equal")) o.kind = K::NotEqual, o.value = p.get("--not-equal", "");
  if (p.has("--less-than")) o.kind = K::Less, o.value = p.get("--less-than", "");
  if (p.has("--keep")) {
    const std::string t = p.get("--keep", "");
    static const std::pair<const char*, K> kOps[] = {{"<=", K::LessEqual}, {">=", K::GreaterEqual},
                                                     {"==", K::Equal},     {"!=", K::NotEqual},
                                                     {"<", K::Less},       {">", K::Greater}};
    bool found = false;
    if (t == "nonzero") o.kind = K::NonZero, found = true;
    if (t == "odd") o.kind = K::Odd, found = true;
    if (t == "even") o.kind = K::Even, found = true;
    for (const auto& [sym, kind] : kOps) {
      const std::size_t len = std::char_traits<char>::length(sym);
      if (!found && t.compare(0, len, sym) == 0) {
        o.kind = kind, o.value = t.substr(len), found = true;
        if (o.value.empty()) throw UsageError("--keep '" + t + "' needs a value, e.g. '" + sym + "0'");
      }
    }
    if (!found)
      throw UsageError("--keep: unknown test '" + t + "' (use <X <=X >X >=X ==X !=X nonzero odd even)");
  }
  if (p.has("--flags")) o.test = Options::Test::Flags, o.flags_path = p.get("--flags", "");
  try {
    if (p.has("--algo")) o.copt.algo = scandof::parse_compact_algorithm(p.get("--algo", ""));
    if (p.has("--paper-scan"))
      o.copt.paper_scan = scandof::parse_scan_algorithm(p.get("--paper-scan", ""));
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  o.partition = p.has("--partition");
  o.cpu = p.has("--cpu");
  o.time = p.has("--time");
  o.verify = p.has("--verify");
  if (p.has("--reps")) o.reps = std::max<std::size_t>(1, parse_size(p.get("--reps", ""), "--reps"));
  if (p.positional.size() != 2) throw UsageError("needs IN.npy and OUT.npy");
  const scandof::npy::Array in = scandof::npy::load(p.positional[0]);
  if (in.ndim() != 1) throw std::runtime_error(p.positional[0] + ": compact needs a 1-D array");
  scandof::npy::Array flags;
  if (!o.flags_path.empty()) {
    flags = scandof::npy::load(o.flags_path);
    if (flags.dtype != scandof::npy::DType::UInt8 || flags.count() != in.count())
      throw std::runtime_error(o.flags_path + ": flags must be uint8 with as many elements as " +
                               p.positional[0]);
  }
  const bool gpu = use_gpu(o.cpu, "reference");
  const scandof::npy::Array* fl = o.flags_path.empty() ? nullptr : &flags;
  using scandof::npy::DType;
  switch (in.dtype) {
    case DType::Int32:
      return run_typed<std::int32_t>(o, gpu, in, fl, p.positional[1]);
    case DType::UInt32:
      return run_typed<std::uint32_t>(o, gpu, in, fl, p.positional[1]);
    case DType::Int64:
      return run_typed<std::int64_t>(o, gpu, in, fl, p.positional[1]);
    case DType::Float32:
      return run_typed<float>(o, gpu, in, fl, p.positional[1]);
    case DType::Float64:
      return run_typed<double>(o, gpu, in, fl, p.positional[1]);
    default:
      throw std::runtime_error(p.positional[0] + ": unsupported dtype for compact");
  }
}

const Registrar kRegistrar{Command{"compact",
                                   "stream compaction / stable partition of a .npy (3 algorithms)",
                                   kUsage, run_compact}};

}  // namespace
}  // namespace scantool
