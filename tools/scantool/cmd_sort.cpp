// `scantool sort`: radix sort of a 1-D .npy array (keys, optionally with uint32 values) on the
// GPU with the library's LSD or split sort, or on the CPU with the reference (std::stable_sort).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "command.hpp"
#if SCANDOF_WITH_CUDA
#include "scandof/util/device_buffer.hpp"
#endif
#include "scandof/npy.hpp"
#include "scandof/sort.hpp"

namespace scantool {
namespace {

struct Options {
  scandof::SortAlgorithm algo = scandof::SortAlgorithm::Lsd;
  int begin_bit = 0, end_bit = -1;
  std::string values, values_out;
  RunOptions run;
  // As given on the command line.
  std::string algo_name, begin_text, end_text, in_path, out_path;
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
  using scandof::util::DeviceBuffer;
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
  if (!o.run.time) return;
  std::size_t reps = 0;
  const double t = median_gpu_ms(once, o.run.reps, &reps);
  std::printf("scantool: %s sort of %zu %s%s on %s: %.4f ms median of %zu, %.2f Gkeys/s\n",
              scandof::to_string(o.algo), n, scandof::npy::to_string(scandof::npy::dtype_of<K>()),
              v ? " keys + uint32 values" : "", device_name().c_str(), t, reps,
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
  if (o.run.verify && gpu) {
    std::vector<K> rk(n);
    std::vector<std::uint32_t> rv(v ? n : 0);
    on_cpu<K>(o, k, rk.data(), v, v ? rv.data() : nullptr, n);
    const bool same = (n == 0 || std::memcmp(rk.data(), ko.data(), n * sizeof(K)) == 0) &&
                      (!v || n == 0 || std::memcmp(rv.data(), vo.data(), n * 4) == 0);
    std::fprintf(stderr, "scantool: --verify: %s\n",
                 same ? "matches the CPU reference (bitwise)" : "MISMATCH with the CPU reference");
    if (!same) rc = kExitFailure;
  }
  // Keys and values are renamed into place together: a failure writing either leaves both
  // destinations as they were.
  std::vector<NpyOut> outs{{out_path, scandof::npy::dtype_of<K>(), {n}, ko.data()}};
  if (v) outs.push_back({o.values_out, scandof::npy::DType::UInt32, {n}, vo.data()});
  save_all(outs);
  return rc;
}

int run_sort(Options& o) {
  try {
    if (!o.algo_name.empty()) o.algo = scandof::parse_sort_algorithm(o.algo_name);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  const int bits = 32;  // every supported key dtype is 32-bit
  if (!o.begin_text.empty())
    o.begin_bit = static_cast<int>(parse_u64(o.begin_text, "--begin-bit", bits));
  if (!o.end_text.empty()) o.end_bit = static_cast<int>(parse_u64(o.end_text, "--end-bit", bits));
  if (o.begin_bit > (o.end_bit < 0 ? bits : o.end_bit))
    throw UsageError("--begin-bit " + std::to_string(o.begin_bit) + " exceeds --end-bit " +
                     std::to_string(o.end_bit));
  if (o.values.empty() != o.values_out.empty())
    throw UsageError("--values and --values-out go together");
  o.run.finish();
  check_outputs({o.in_path, o.values}, {{"OUT.npy", o.out_path}, {"--values-out", o.values_out}});
  if (o.algo == scandof::SortAlgorithm::Split &&
      (o.begin_bit != 0 || (o.end_bit >= 0 && o.end_bit != bits) || !o.values.empty()))
    throw UsageError("--algo split sorts keys only, on all bits (its bitonic merge is not stable)");
  const scandof::npy::Array in = load_1d(o.in_path, "sort");
  scandof::npy::Array vals;
  if (!o.values.empty())
    vals = load_companion(o.values, scandof::npy::DType::UInt32, in.count(), o.in_path, "values");
  const bool gpu = use_gpu(o.run.cpu, "reference");
  const scandof::npy::Array* vp = o.values.empty() ? nullptr : &vals;
  using scandof::npy::DType;
  switch (in.dtype) {
    case DType::UInt32:
      return run_typed<std::uint32_t>(o, gpu, in, vp, o.out_path);
    case DType::Int32:
      return run_typed<std::int32_t>(o, gpu, in, vp, o.out_path);
    case DType::Float32:
      return run_typed<float>(o, gpu, in, vp, o.out_path);
    default:
      throw std::runtime_error(o.in_path + ": sort supports uint32, int32, float32 keys, not " +
                               scandof::npy::to_string(in.dtype));
  }
}

std::function<int()> setup(CLI::App& sub) {
  auto o = std::make_shared<Options>();
  sub.description(
      "Sorts the 1-D array IN.npy ascending (stable) and writes OUT.npy. Key dtypes: uint32,\n"
      "int32, float32 (float order: -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN).\n"
      "Runs on the GPU; without a device (or with --cpu) on the CPU reference.");
  sub.add_option("IN.npy", o->in_path, "the 1-D keys")->required()->type_name("");
  sub.add_option("OUT.npy", o->out_path, "the sorted keys (not the input itself)")
      ->required()
      ->type_name("");
  add_text_options(sub,
                   {{"--algo", &o->algo_name, "NAME",
                     "lsd | split                                (default: lsd)\n"
                     "(split: the chapter's 1-bit split + bitonic merge; keys only, all bits)"},
                    {"--begin-bit", &o->begin_text, "B",
                     "sort by bits [B, E) of the order-preserving key image, 0 <= B <= E <= 32\n"
                     "(default: 0)"},
                    {"--end-bit", &o->end_text, "E", "(default: all bits, 32)"},
                    {"--values", &o->values, "V.npy",
                     "uint32 values to carry along (stable key-value sort; lsd only)"},
                    {"--values-out", &o->values_out, "W.npy",
                     "where the permuted values go (needed with --values; not OUT.npy)"}});
  add_run_options(sub, o->run, "compute on the CPU with the reference",
                  "print the GPU time (CUDA events, median of --reps after a warm-up)",
                  "also compute the CPU reference and compare (exit 1 on mismatch)");
  sub.footer(std::string("Example:\n"
                         "  scantool gen --dtype uint32 --n 2^24 keys.npy\n"
                         "  scantool sort --time --verify keys.npy sorted.npy\n\n") +
             kErrorsHelp);
  return [o] { return run_sort(*o); };
}

const Registrar kRegistrar{
    Command{"sort", "radix sort of a .npy (LSD or the chapter's split sort)", setup}};

}  // namespace
}  // namespace scantool
