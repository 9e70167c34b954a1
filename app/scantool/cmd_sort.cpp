// `scantool sort`: radix sort of a 1-D .npy array (keys, optionally with uint32 values) on the
// GPU with the library's LSD or split sort, or on the CPU with the reference (std::stable_sort).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "command.hpp"
#include "gpu_util.hpp"
#include "scandof/npy.hpp"
#include "scandof/sort.hpp"

namespace scantool {
namespace {

const char* const kUsage =
    "Usage: scantool sort [OPTIONS] IN.npy OUT.npy\n"
    "\n"
    "Sorts the 1-D array IN.npy ascending (stable) and writes OUT.npy. Key dtypes: uint32,\n"
    "int32, float32 (float order: -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN).\n"
    "Runs on the GPU; without a device (or with --cpu) on the CPU reference.\n"
    "\n"
    "Options:\n"
    "  --algo NAME          lsd | split                                (default: lsd)\n"
    "                       (split: the chapter's 1-bit split + bitonic merge; keys only, all "
    "bits)\n"
    "  --begin-bit B        sort by bits [B, E) of the order-preserving key image (default: 0)\n"
    "  --end-bit E                                                     (default: all bits)\n"
    "  --values V.npy       uint32 values to carry along (stable key-value sort; lsd only)\n"
    "  --values-out W.npy   where the permuted values go (needed with --values)\n"
    "  --cpu                compute on the CPU with the reference\n"
    "  --time               print the GPU time (CUDA events, median of --reps after a warm-up)\n"
    "  --reps N             timed repetitions for --time               (default: 20)\n"
    "  --verify             also compute the CPU reference and compare (exit 1 on mismatch)\n"
    "  -h, --help           this text\n"
    "\n"
    "Example:\n"
    "  scantool gen --dtype uint32 --n 2^24 keys.npy\n"
    "  scantool sort --time --verify keys.npy sorted.npy\n";

struct Options {
  scandof::SortAlgorithm algo = scandof::SortAlgorithm::Lsd;
  int begin_bit = 0, end_bit = -1;
  std::string values, values_out;
  bool cpu = false, time = false, verify = false;
  std::size_t reps = 20;
};

template <class K>
void on_cpu(const Options& o, const K* k, K* ko, const std::uint32_t* v, std::uint32_t* vo,
            std::size_t n) {
  if (v)
    scandof::sort_pairs_gold(k, ko, v, vo, n, o.begin_bit, o.end_bit);
  else
    scandof::sort_keys_gold(k, ko, n, o.begin_bit, o.end_bit);
}

#if SCANDOF_WITH_CUDA
template <class K>
void on_gpu(const Options& o, const K* k, K* ko, const std::uint32_t* v, std::uint32_t* vo,
            std::size_t n) {
  if (n == 0) return;
  DeviceBuffer<K> dk(n), dko(n);
  DeviceBuffer<std::uint32_t> dv(v ? n : 0), dvo(v ? n : 0);
  const std::size_t wb = v ? scandof::sort_pairs_workspace_bytes<K, std::uint32_t>(o.algo, n)
                           : scandof::sort_keys_workspace_bytes<K>(o.algo, n);
  DeviceBuffer<unsigned char> ws(wb);
  CUDA_CHECK(cudaMemcpy(dk.get(), k, n * sizeof(K), cudaMemcpyHostToDevice));
  if (v) CUDA_CHECK(cudaMemcpy(dv.get(), v, n * 4, cudaMemcpyHostToDevice));
  auto once = [&] {
    if (v)
      scandof::sort_pairs(o.algo, dk.get(), dko.get(), dv.get(), dvo.get(), n, ws.get(), wb, 0,
                          o.begin_bit, o.end_bit);
    else
      scandof::sort_keys(o.algo, dk.get(), dko.get(), n, ws.get(), wb, 0, o.begin_bit, o.end_bit);
  };
  once();
  CUDA_CHECK(cudaMemcpy(ko, dko.get(), n * sizeof(K), cudaMemcpyDeviceToHost));
  if (v) CUDA_CHECK(cudaMemcpy(vo, dvo.get(), n * 4, cudaMemcpyDeviceToHost));
  if (!o.time) return;
  std::vector<double> ms;
  Event a, b;
  for (std::size_t r = 0; r < o.reps; ++r) {
    a.record();
    once();
    b.record();
    ms.push_back(b.since(a));
  }
  const double t = median(ms);
  std::printf("scantool: %s sort of %zu %s%s on %s: %.4f ms median of %zu, %.2f Gkeys/s\n",
              scandof::to_string(o.algo), n, scandof::npy::to_string(scandof::npy::dtype_of<K>()),
              v ? " keys + uint32 values" : "", current_device_name().c_str(), t, ms.size(),
              t > 0 ? static_cast<double>(n) / t * 1e-6 : 0.0);
}
#endif

template <class K>
int run_typed(const Options& o, bool gpu, const scandof::npy::Array& in,
              const scandof::npy::Array* vals, const std::string& out_path) {
  const std::size_t n = in.count();
  std::vector<K> ko(n);
  std::vector<std::uint32_t> vo(vals ? n : 0);
  const K* k = in.data<K>();
  const std::uint32_t* v = vals ? vals->data<std::uint32_t>() : nullptr;
  if (gpu) {
#if SCANDOF_WITH_CUDA
    on_gpu<K>(o, k, ko.data(), v, v ? vo.data() : nullptr, n);
#else
    throw std::logic_error("GPU path requested in a build without CUDA");
#endif
  } else {
    on_cpu<K>(o, k, ko.data(), v, v ? vo.data() : nullptr, n);
  }
  int rc = kExitOk;
  if (o.verify && gpu) {
    std::vector<K> rk(n);
    std::vector<std::uint32_t> rv(v ? n : 0);
    on_cpu<K>(o, k, rk.data(), v, v ? rv.data() : nullptr, n);
    const bool same = (n == 0 || std::memcmp(rk.data(), ko.data(), n * sizeof(K)) == 0) &&
                      (!v || n == 0 || std::memcmp(rv.data(), vo.data(), n * 4) == 0);
    std::fprintf(stderr, "scantool: --verify: %s\n",
                 same ? "matches the CPU reference (bitwise)" : "MISMATCH with the CPU reference");
    if (!same) rc = kExitFailure;
  }
  scandof::npy::save(out_path, scandof::npy::dtype_of<K>(), {n}, ko.data());
  if (v) scandof::npy::save(o.values_out, scandof::npy::DType::UInt32, {n}, vo.data());
  return rc;
}

int run_sort(const std::vector<std::string>& args) {
  const ParsedArgs p = parse_args(args, {{"--algo", true},
                                         {"--begin-bit", true},
                                         {"--end-bit", true},
                                         {"--values", true},
                                         {"--values-out", true},
                                         {"--cpu", false},
                                         {"--time", false},
                                         {"--reps", true},
                                         {"--verify", false}});
  Options o;
  try {
    if (p.has("--algo")) o.algo = scandof::parse_sort_algorithm(p.get("--algo", ""));
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  if (p.has("--begin-bit"))
    o.begin_bit = static_cast<int>(parse_size(p.get("--begin-bit", ""), "--begin-bit"));
  if (p.has("--end-bit"))
    o.end_bit = static_cast<int>(parse_size(p.get("--end-bit", ""), "--end-bit"));
  o.values = p.get("--values", "");
  o.values_out = p.get("--values-out", "");
  if (o.values.empty() != o.values_out.empty())
    throw UsageError("--values and --values-out go together");
  o.cpu = p.has("--cpu");
  o.time = p.has("--time");
  o.verify = p.has("--verify");
  if (p.has("--reps")) o.reps = std::max<std::size_t>(1, parse_size(p.get("--reps", ""), "--reps"));
  if (p.positional.size() != 2) throw UsageError("needs IN.npy and OUT.npy");
  const scandof::npy::Array in = scandof::npy::load(p.positional[0]);
  if (in.ndim() != 1) throw std::runtime_error(p.positional[0] + ": sort needs a 1-D array");
  scandof::npy::Array vals;
  if (!o.values.empty()) {
    vals = scandof::npy::load(o.values);
    if (vals.dtype != scandof::npy::DType::UInt32 || vals.count() != in.count())
      throw std::runtime_error(o.values + ": values must be uint32 with as many elements as keys");
  }
  const int bits = 32;  // every supported key dtype is 32-bit
  if (o.begin_bit < 0 || o.begin_bit > (o.end_bit < 0 ? bits : o.end_bit) || o.end_bit > bits)
    throw UsageError("bad bit range for 32-bit keys");
  if (o.algo == scandof::SortAlgorithm::Split &&
      (o.begin_bit != 0 || (o.end_bit >= 0 && o.end_bit != bits) || !o.values.empty()))
    throw UsageError("--algo split sorts keys only, on all bits (its bitonic merge is not stable)");
  const bool gpu = use_gpu(o.cpu, "reference");
  const scandof::npy::Array* vp = o.values.empty() ? nullptr : &vals;
  using scandof::npy::DType;
  switch (in.dtype) {
    case DType::UInt32:
      return run_typed<std::uint32_t>(o, gpu, in, vp, p.positional[1]);
    case DType::Int32:
      return run_typed<std::int32_t>(o, gpu, in, vp, p.positional[1]);
    case DType::Float32:
      return run_typed<float>(o, gpu, in, vp, p.positional[1]);
    default:
      throw std::runtime_error(p.positional[0] + ": sort supports uint32, int32, float32 keys");
  }
}

const Registrar kRegistrar{
    Command{"sort", "radix sort of a .npy (LSD or the chapter's split sort)", kUsage, run_sort}};

}  // namespace
}  // namespace scantool
