// `scantool compact`: stream compaction (or stable partition) of a 1-D .npy array on the GPU
// with any of the library's three implementations, or on the CPU with the reference.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "command.hpp"
#if SCANDOF_WITH_CUDA
#include "scandof/util/device_buffer.hpp"
#endif
#include "scandof/compact.hpp"
#include "scandof/npy.hpp"

namespace scantool {
namespace {

struct Options {
  scandof::CompactOptions copt;
  enum class Test { Value, Flags } test = Test::Value;
  scandof::ValueTestKind kind = scandof::ValueTestKind::Less;
  std::string value, flags_path;
  bool partition = false;
  RunOptions run;
  // As given on the command line.
  std::string keep, less_than, not_equal, algo, paper_scan, in_path, out_path;
};

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
  using scandof::util::DeviceBuffer;
  DeviceBuffer<T> d_in(n), d_out(n);
  DeviceBuffer<std::uint8_t> d_flags(flags ? n : 0);
  DeviceBuffer<std::uint64_t> d_count(1);
  const std::size_t wb = scandof::compact_workspace_bytes<T>(n, o.copt);
  DeviceBuffer<unsigned char> ws(wb);
  scandof::clear_workspace(ws.get(), wb);  // the single pass's look-back state starts zero
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
  if (o.run.time && n) {
    std::size_t reps = 0;
    const double t = median_gpu_ms(once, o.run.reps, &reps);
    std::printf("scantool: %s%s of %zu %s on %s: %.4f ms median of %zu, %.2f Gelem/s\n",
                o.partition ? "partition " : "compact ", scandof::to_string(o.copt.algo), n,
                scandof::npy::to_string(scandof::npy::dtype_of<T>()), device_name().c_str(), t,
                reps, t > 0 ? static_cast<double>(n) / t * 1e-6 : 0.0);
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
    if (o.run.verify && gpu) {
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
  // With --flags the predicate is unused: any value does. A threshold is compared in exact
  // arithmetic, as numpy does: '>3000000000' on int32 keeps none, '>-1' on uint32 keeps all.
  scandof::ValueTest<T> test{o.kind, T(0)};
  if (o.test == Options::Test::Value && takes_value) {
    try {
      test = scandof::make_value_test<T>(o.kind, o.value);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string(e.what()) + " (the test's value)");
    }
  }
  go(test);
  std::printf("%zu\n", count);
  out.resize(o.partition ? n : count);
  save_all({{out_path, scandof::npy::dtype_of<T>(), {out.size()}, out.data()}});
  return kExitOk;
}

int run_compact(Options& o) {
  const int tests =
      !o.keep.empty() + !o.less_than.empty() + !o.not_equal.empty() + !o.flags_path.empty();
  if (tests != 1) throw UsageError("give exactly one of --keep, --less-than, --not-equal, --flags");
  using K = scandof::ValueTestKind;
  if (!o.not_equal.empty()) o.kind = K::NotEqual, o.value = o.not_equal;
  if (!o.less_than.empty()) o.kind = K::Less, o.value = o.less_than;
  if (!o.keep.empty()) {
    const std::string& t = o.keep;
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
        if (o.value.empty())
          throw UsageError("--keep '" + t + "' needs a value, e.g. '" + sym + "0'");
      }
    }
    if (!found)
      throw UsageError("--keep: unknown test '" + t +
                       "' (use <X <=X >X >=X ==X !=X nonzero odd even)");
  }
  if (!o.flags_path.empty()) o.test = Options::Test::Flags;
  try {
    if (!o.algo.empty()) o.copt.algo = scandof::parse_compact_algorithm(o.algo);
    if (!o.paper_scan.empty()) o.copt.paper_scan = scandof::parse_scan_algorithm(o.paper_scan);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  o.run.finish();
  check_outputs({o.in_path, o.flags_path}, {{"OUT.npy", o.out_path}});
  const scandof::npy::Array in = load_1d(o.in_path, "compact");
  scandof::npy::Array flags;
  if (!o.flags_path.empty())
    flags =
        load_companion(o.flags_path, scandof::npy::DType::UInt8, in.count(), o.in_path, "flags");
  const bool gpu = use_gpu(o.run.cpu, "reference");
  const scandof::npy::Array* fl = o.flags_path.empty() ? nullptr : &flags;
  using scandof::npy::DType;
  switch (in.dtype) {
    case DType::Int32:
      return run_typed<std::int32_t>(o, gpu, in, fl, o.out_path);
    case DType::UInt32:
      return run_typed<std::uint32_t>(o, gpu, in, fl, o.out_path);
    case DType::Int64:
      return run_typed<std::int64_t>(o, gpu, in, fl, o.out_path);
    case DType::Float32:
      return run_typed<float>(o, gpu, in, fl, o.out_path);
    case DType::Float64:
      return run_typed<double>(o, gpu, in, fl, o.out_path);
    default:
      throw std::runtime_error(o.in_path + ": unsupported dtype for compact");
  }
}

std::function<int()> setup(CLI::App& sub) {
  auto o = std::make_shared<Options>();
  sub.description(
      "Keeps the elements of the 1-D array IN.npy that pass a test, in order, and writes them to\n"
      "OUT.npy (shape (count,)); with --partition writes all n elements, the kept ones first, the\n"
      "others after them, both in input order. Prints the count. dtypes: int32, uint32, int64,\n"
      "float32, float64. Runs on the GPU; without a device (or with --cpu) on the CPU reference.\n"
      "\n"
      "The test (exactly one of --keep, --less-than, --not-equal, --flags). X is compared with\n"
      "the values as numpy compares an array with a Python number, exactly: on int32 "
      "'>3000000000'\n"
      "keeps none and '>2.5' is '>2'; on uint32 '>-1' keeps all; float32 rounds X to float32 when\n"
      "it fits. X may be nan or inf: nothing equals NaN, so '!=nan' keeps all and the others "
      "none.");
  sub.add_option("IN.npy", o->in_path, "the 1-D input")->required()->type_name("");
  sub.add_option("OUT.npy", o->out_path, "the kept elements (not the input itself)")
      ->required()
      ->type_name("");
  auto* g = sub.add_option_group("The test", "exactly one");
  add_text_options(
      *g, {{"--keep", &o->keep, "TEST",
            "TEST is one of  '<X' '<=X' '>X' '>=X' '==X' '!=X'  (quote it for the\n"
            "shell) or  nonzero | odd | even  (odd/even: integer dtypes only)"},
           {"--less-than", &o->less_than, "X", "same as --keep '<X'"},
           {"--not-equal", &o->not_equal, "X", "same as --keep '!=X'"},
           {"--flags", &o->flags_path, "F.npy", "keep x[i] where F[i] != 0 (uint8, same length)"}});
  add_text_options(
      sub, {{"--algo", &o->algo, "NAME",
             "paper | reduce-then-scan | single-pass      (default: single-pass)"},
            {"--paper-scan", &o->paper_scan, "NAME",
             "scan used by --algo paper (naive ... single-pass, cub; default: optimized)"}});
  sub.add_flag("--partition", o->partition, "stable partition instead of compaction");
  add_run_options(sub, o->run,
                  "compute on the CPU with the reference (std::copy_if/stable_partition)",
                  "print the GPU time (CUDA events, median of --reps after a warm-up)",
                  "also compute the CPU reference and compare (exit status 1 on mismatch)");
  sub.footer(std::string("Example:\n"
                         "  scantool gen --dtype float32 --n 2^24 in.npy\n"
                         "  scantool compact --keep '<0.5' --algo paper --paper-scan optimized "
                         "--time in.npy out.npy\n"
                         "  scantool compact --keep odd --partition ints.npy parted.npy\n\n") +
             kErrorsHelp);
  return [o] { return run_compact(*o); };
}

const Registrar kRegistrar{
    Command{"compact", "stream compaction / stable partition of a .npy (3 algorithms)", setup}};

}  // namespace
}  // namespace scantool
