// sortbench: the library's radix sorts against cub::DeviceRadixSort in one run.
//
//   sortbench [--min-log 10] [--max-log 28] [--keys uint32,int32,float,uint64,pairs,pairs64]
//             [--dists uniform,equal,few,sorted] [--split-max-log 24] [--csv FILE] [--json FILE]
//             [--layouts 6] [--step-log 1] [--quick] [--variants [--variant-filter 8-bit,packed]]
//
// Implementations: "lsd" (8-bit digits, one onesweep kernel per digit), "split" (the chapter's 1
// bit per pass split + bitonic merge; keys only, up to --split-max-log because its merge costs
// O(log^2 n) passes), cub::DeviceRadixSort::SortKeys / SortPairs. "pairs" means uint32 keys with
// uint32 values, "pairs64" uint64 keys with uint32 values. --variants adds the onesweep policies
// behind the default (4-byte keys: tile sizes, residency, where the values are loaded;
// 8-byte keys: keys a thread, residency, values by cp.async);
// --variant-filter keeps those whose name holds one of its words, and then times them on every
// distribution asked for. Every output is compared with CUB's
// (exact); a mismatch makes the exit code 1. Gkeys/s = n / time; GB/s counts the minimum traffic of
// one sort, n keys (+ values) read and written once.
//
// CUB is called as its users call it: its own cudaMalloc'd temp storage sized for n, keys in their
// own buffers, num_items as int and as size_t (two rows; "vs CUB" is against the faster); the
// library gets its own workspace likewise. Each comparison is repeated in
// --layouts memory layouts (kLayouts: pads before the buffers and allocation orders), and every
// time reported is the median over the layouts of per-call medians, with the range beside it.
#include <cub/device/device_radix_sort.cuh>

#include <cstdio>
#include <initializer_list>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "scandof/device/sort_lsd.cuh"
#include "scandof/sort.hpp"

namespace scandof {
namespace {

using bench::DeviceBuffer;

enum class Dist { Uniform, Equal, Few, Sorted };

// A memory layout of one comparison: `pad_mib` allocated first and held, then the buffers in
// `order` (k: input keys and values, o: output keys and values, c: CUB's temp storage, l: the
// library's workspace), each its own cudaMalloc as a user would make it. Where a sort's scratch
// lies against its keys changes its time (the library's 2^28 uint32 sort took 5.40-5.96 ms over
// these six layouts on the H100, CUB's 5.51-5.56), so every sort is timed in several layouts and
// the report gives the median and the spread.
struct Layout {
  int pad_mib;
  const char* order;
};
constexpr Layout kLayouts[] = {{0, "kocl"},  {0, "clko"},   {0, "lcok"},
                               {64, "kocl"}, {185, "kolc"}, {512, "oklc"}};
constexpr int kMaxLayouts = static_cast<int>(sizeof(kLayouts) / sizeof(kLayouts[0]));

// Keys without NaNs or -0.0 (CUB and we may order those differently: see sort.hpp).
template <class K>
__device__ K key_at(std::uint64_t h) {
  if constexpr (std::is_same_v<K, float>)
    return static_cast<float>(static_cast<double>(h >> 11) * 0x1p-53 * 2e6 - 1e6) + 0.5f;
  else
    return static_cast<K>(h);
}

template <class K>
struct KeyValue {
  Dist dist;
  std::uint64_t seed;
  __device__ K operator()(std::uint64_t i, std::uint64_t h) const {
    switch (dist) {
      case Dist::Uniform:
        return key_at<K>(h);
      case Dist::Equal:
        return key_at<K>(util::hash_at(seed, 0));
      case Dist::Few:
        return key_at<K>(util::hash_at(seed, util::hash_at(seed ^ 1, i) % 16));
      case Dist::Sorted:
      default:
        return static_cast<K>(i);
    }
  }
};

struct Iota {
  __device__ std::uint32_t operator()(std::uint64_t i, std::uint64_t) const {
    return static_cast<std::uint32_t>(i);
  }
};

struct Options : bench::SweepOptions {
  std::vector<std::string> variant_filter;  // --variant-filter: names containing one of these
  int split_max_log = 24;
  int layouts = kMaxLayouts;
  int step_log = 1;
  std::vector<std::string> keys = {"uint32"};
  std::vector<std::string> dists = {"uniform", "equal", "few", "sorted"};
};

Dist parse_dist(const std::string& s) {
  if (s == "uniform") return Dist::Uniform;
  if (s == "equal") return Dist::Equal;
  if (s == "few") return Dist::Few;
  if (s == "sorted") return Dist::Sorted;
  throw std::invalid_argument("unknown distribution " + s + " (uniform, equal, few, sorted)");
}

struct Row {
  std::string keys, dist, impl;
  std::size_t n, bytes_per_item;
  bool ok;
  bench::Stats st;    // over the layouts: the median, min and max of the per-call medians
  double cub_ms = 0;  // CUB's median over the same layouts (0: no CUB column)
  double ratio_min = 0, ratio_max = 0;  // CUB / this, per layout
};

// One onesweep policy behind the public default (--variants): its name and the sort compiled for
// it.
template <class K>
struct Variant {
  std::string name;
  void (*sort)(const K* in, K* out, const std::uint32_t* vin, std::uint32_t* vout, std::size_t n,
               void* ws, std::size_t ws_bytes, cudaStream_t s);
  std::size_t (*workspace)(std::size_t n);  // its scratch
};

template <class P, class K, bool kPairs>
std::size_t workspace_of_policy(std::size_t n) {
  if constexpr (kPairs)
    return detail::lsd::workspace_bytes<K, std::uint32_t, true, P>(n);
  else
    return detail::lsd::workspace_bytes<K, detail::lsd::NoValue, false, P>(n);
}

template <class P, class K, bool kPairs>
void sort_with_policy(const K* in, K* out, const std::uint32_t* vin, std::uint32_t* vout,
                      std::size_t n, void* ws, std::size_t ws_bytes, cudaStream_t s) {
  if constexpr (kPairs)
    detail::lsd::sort<K, std::uint32_t, true, P>(in, out, vin, vout, n, ws, ws_bytes, s, 0,
                                                 8 * sizeof(K));
  else
    detail::lsd::sort<K, detail::lsd::NoValue, false, P>(in, out, nullptr, nullptr, n, ws, ws_bytes,
                                                         s, 0, 8 * sizeof(K));
}

template <class P, class K, bool kPairs>
Variant<K> variant(const char* name) {
  return {name, sort_with_policy<P, K, kPairs>, workspace_of_policy<P, K, kPairs>};
}

// The policies timed beside the default (the tuning of results/sort/README.md): for 4-byte keys
// tile sizes, residency and look-back batches; pairs with their values
// copied into shared memory by cp.async (AsyncValuesPolicy) for both key widths; keys a thread
// and residency for 8-byte keys. "large-tile": the shapes of the default's larger tiles and their
// neighbours; "values-after": the values through the keys' staging buffer once the keys have left.
template <class K, bool kPairs>
std::vector<Variant<K>> policy_variants() {
  using detail::lsd::OnesweepPolicy;
  using EightBit = detail::lsd::EightBitOnesweepPolicy<K, kPairs>;
  using Small = detail::lsd::SmallTilesPolicy<K, kPairs>;
  const char* const small_name = "lsd[small-tiles (GPUs with < 75 KB shared memory per block)]";
  using detail::lsd::AsyncValuesPolicy;
  using detail::lsd::ValuesAfterPolicy;
  if constexpr (sizeof(K) != 4) {
    if constexpr (kPairs) {
      // uint64 keys with uint32 values: where the values are loaded, keys a thread, residency.
      return {
          variant<EightBit, K, true>("lsd[8-bit,values-with-keys,16-keys,minblocks2]"),
          variant<AsyncValuesPolicy<16, 3>, K, true>("lsd[values-async,16-keys,minblocks3]"),
          variant<AsyncValuesPolicy<16, 2>, K, true>("lsd[values-async,16-keys,minblocks2]"),
          variant<AsyncValuesPolicy<24, 2>, K, true>("lsd[values-async,24-keys,minblocks2]"),
          variant<AsyncValuesPolicy<26, 2>, K, true>(
              "lsd[values-async,26-keys,minblocks2,large-tile]"),
          variant<AsyncValuesPolicy<28, 2>, K, true>(
              "lsd[values-async,28-keys,minblocks2,large-tile]"),
          variant<AsyncValuesPolicy<28, 2, 8>, K, true>(
              "lsd[values-async,28-keys,minblocks2,lookback-batch=8,large-tile]"),
          variant<AsyncValuesPolicy<30, 2>, K, true>(
              "lsd[values-async,30-keys,minblocks2,large-tile]"),
          variant<AsyncValuesPolicy<32, 2>, K, true>(
              "lsd[values-async,32-keys,minblocks2,large-tile]"),
          variant<ValuesAfterPolicy<16, 3>, K, true>("lsd[values-after,16-keys,minblocks3]"),
          variant<ValuesAfterPolicy<24, 2>, K, true>("lsd[values-after,24-keys,minblocks2]"),
          variant<ValuesAfterPolicy<28, 2>, K, true>("lsd[values-after,28-keys,minblocks2]"),
          variant<ValuesAfterPolicy<30, 2>, K, true>("lsd[values-after,30-keys,minblocks2]"),
      };
    } else {
      // uint64 keys: keys a thread and residency.
      return {
          variant<EightBit, K, false>("lsd[8-bit,16-keys,minblocks3]"),
          variant<OnesweepPolicy<20, 3, false>, K, false>("lsd[u64,20-keys,minblocks3]"),
          variant<OnesweepPolicy<24, 2, false>, K, false>("lsd[u64,24-keys,minblocks2]"),
          variant<OnesweepPolicy<16, 4, false>, K, false>("lsd[u64,16-keys,minblocks4]"),
          variant<OnesweepPolicy<28, 2, false>, K, false>("lsd[u64,28-keys,minblocks2,large-tile]"),
          variant<OnesweepPolicy<32, 2, false>, K, false>("lsd[u64,32-keys,minblocks2,large-tile]"),
          variant<OnesweepPolicy<36, 2, false>, K, false>("lsd[u64,36-keys,minblocks2,large-tile]"),
      };
    }
  } else if constexpr (kPairs) {
    // Digit width, where the values are loaded, and residency.
    return {
        variant<detail::lsd::LargeTilePairsPolicy<K>, K, true>(
            "lsd[apart,values-async,48-keys,minblocks2 (the earlier default)]"),
        variant<detail::lsd::PackedPairsPolicy<K>, K, true>(
            "lsd[packed,32-keys,minblocks2,every size]"),
        variant<detail::lsd::PackedPairsPolicy<K, 28>, K, true>("lsd[packed,28-keys,minblocks2]"),
        variant<detail::lsd::PackedPairsPolicy<K, 30>, K, true>("lsd[packed,30-keys,minblocks2]"),
        variant<detail::lsd::PackedPairsPolicy<K, 32, 2, 8>, K, true>(
            "lsd[packed,32-keys,minblocks2,lookback-batch=8]"),
        variant<EightBit, K, true>("lsd[8-bit,values-with-keys,32-keys,minblocks2]"),
        variant<AsyncValuesPolicy<24, 3>, K, true>("lsd[values-async,24-keys,minblocks3]"),
        variant<AsyncValuesPolicy<32, 2>, K, true>("lsd[values-async,32-keys,minblocks2]"),
        variant<AsyncValuesPolicy<16, 4>, K, true>("lsd[values-async,16-keys,minblocks4]"),
        variant<AsyncValuesPolicy<24, 2>, K, true>("lsd[values-async,24-keys,minblocks2]"),
        variant<AsyncValuesPolicy<28, 3>, K, true>(
            "lsd[values-async,28-keys,minblocks3,large-tile]"),
        variant<AsyncValuesPolicy<40, 2>, K, true>(
            "lsd[values-async,40-keys,minblocks2,large-tile]"),
        variant<AsyncValuesPolicy<44, 2>, K, true>(
            "lsd[values-async,44-keys,minblocks2,large-tile]"),
        variant<AsyncValuesPolicy<48, 2>, K, true>(
            "lsd[values-async,48-keys,minblocks2,large-tile]"),
        variant<AsyncValuesPolicy<48, 2, 8>, K, true>(
            "lsd[values-async,48-keys,minblocks2,lookback-batch=8,large-tile]"),
        variant<ValuesAfterPolicy<32, 3>, K, true>("lsd[values-after,32-keys,minblocks3]"),
        variant<ValuesAfterPolicy<28, 3>, K, true>("lsd[values-after,28-keys,minblocks3]"),
        variant<ValuesAfterPolicy<24, 3>, K, true>("lsd[values-after,24-keys,minblocks3]"),
        variant<ValuesAfterPolicy<48, 2>, K, true>("lsd[values-after,48-keys,minblocks2]"),
        variant<OnesweepPolicy<24, 2, true>, K, true>(
            "lsd[values-with-keys,24-keys-per-thread,minblocks2]"),
        variant<OnesweepPolicy<24, 3, true>, K, true>(
            "lsd[values-with-keys,24-keys-per-thread,minblocks3]"),
        variant<OnesweepPolicy<24, 3, false>, K, true>(
            "lsd[values-after-key-staging,24-keys,minblocks3]"),
        variant<OnesweepPolicy<24, 2, false>, K, true>(
            "lsd[values-after-key-staging,24-keys,minblocks2]"),
        variant<Small, K, true>(small_name),
    };
  } else {
    return {
        variant<EightBit, K, false>("lsd[8-bit,24-keys,minblocks4]"),
        variant<OnesweepPolicy<24, 2, false>, K, false>("lsd[minblocks2]"),
        variant<OnesweepPolicy<24, 3, false>, K, false>("lsd[minblocks3]"),
        variant<OnesweepPolicy<24, 4, false, 4, 100>, K, false>("lsd[spin100ns]"),
        variant<OnesweepPolicy<24, 4, false, 1>, K, false>("lsd[lookback-batch=1]"),
        variant<OnesweepPolicy<24, 4, false, 2>, K, false>("lsd[lookback-batch=2]"),
        variant<OnesweepPolicy<24, 4, false, 8>, K, false>("lsd[lookback-batch=8]"),
        variant<OnesweepPolicy<16, 4, false>, K, false>("lsd[16-keys-per-thread,minblocks4]"),
        variant<OnesweepPolicy<32, 2, false>, K, false>("lsd[32-keys-per-thread,minblocks2]"),
        variant<OnesweepPolicy<28, 3, false>, K, false>("lsd[28-keys,minblocks3,large-tile]"),
        variant<OnesweepPolicy<32, 3, false>, K, false>("lsd[32-keys,minblocks3,large-tile]"),
        variant<OnesweepPolicy<40, 2, false>, K, false>("lsd[40-keys,minblocks2,large-tile]"),
        variant<OnesweepPolicy<36, 3, false>, K, false>("lsd[36-keys,minblocks3,large-tile]"),
        variant<OnesweepPolicy<40, 3, false>, K, false>("lsd[40-keys,minblocks3,large-tile]"),
        variant<Small, K, false>(small_name),
    };
  }
}

bool variant_selected(const Options& o, const std::string& name) {
  if (o.variant_filter.empty()) return true;
  for (const std::string& f : o.variant_filter)
    if (name.find(f) != std::string::npos) return true;
  return false;
}

// Per-call medians of one implementation, one per layout, and CUB's in the same layouts.
struct Timed {
  std::vector<double> ms, cub_ms;
  bool ok = true;
  int reps = 0;
};

template <class K, bool kPairs>
void run_keys(const std::string& kname, const Options& o, const bench::DeviceInfo& dev,
              cudaStream_t s, std::vector<Row>& rows, bool& all_ok) {
  using V = std::uint32_t;
  bench::EventTimer timer(s);
  bench::TimingOptions topt;
  topt.min_reps = o.quick ? 5 : 20;
  if (o.quick) topt.min_total_ms = 2;
  const std::size_t max_n = std::size_t(1) << o.max_log;
  const std::size_t item = sizeof(K) + (kPairs ? sizeof(V) : 0);
  DeviceBuffer<K> ref_k(max_n);
  DeviceBuffer<V> ref_v(kPairs ? max_n : 0);
  bench::DeviceDiff diff;

  for (const std::string& dname : o.dists) {
    const Dist dist = parse_dist(dname);
    for (int lg = o.min_log; lg <= o.max_log; lg += o.step_log) {
      const std::size_t n = std::size_t(1) << lg;
      const std::size_t sets = std::min<std::size_t>(
          256,
          bench::rotation_sets(n * sizeof(K) * 2 + (kPairs ? 2 * n * sizeof(V) : 0), dev.l2_bytes));
      // One CUB call (the temp-storage query where tmp is null), num_items of num's type.
      auto cub_call = [&](void* tmp, std::size_t& bytes, const K* in, K* out, const V* vin,
                          V* vout_, auto num) {
        if constexpr (kPairs)
          return cub::DeviceRadixSort::SortPairs(tmp, bytes, in, out, vin, vout_, num, 0,
                                                 8 * sizeof(K), s);
        else
          return cub::DeviceRadixSort::SortKeys(tmp, bytes, in, out, num, 0, 8 * sizeof(K), s);
      };
      // CUB's temp storage for either num_items type (the larger of the two).
      std::size_t cub_bytes = 0;
      for (const bool wide : {false, true}) {
        std::size_t b = 0;
        CUDA_CHECK(
            wide ? cub_call(nullptr, b, nullptr, nullptr, nullptr, nullptr, n)
                 : cub_call(nullptr, b, nullptr, nullptr, nullptr, nullptr, static_cast<int>(n)));
        cub_bytes = std::max(cub_bytes, b);
      }
      std::size_t our_bytes = 0;
      for (SortAlgorithm a : all_sort_algorithms()) {
        if (a == SortAlgorithm::Split && (kPairs || lg > o.split_max_log)) continue;
        our_bytes = std::max(our_bytes, kPairs ? sort_pairs_workspace_bytes<K, V>(a, n)
                                               : sort_keys_workspace_bytes<K>(a, n));
      }
      if (o.variants)
        for (const Variant<K>& var : policy_variants<K, kPairs>())
          if (variant_selected(o, var.name)) our_bytes = std::max(our_bytes, var.workspace(n));
      // name -> medians over the layouts, in the order first timed.
      std::vector<std::pair<std::string, Timed>> timed;
      auto slot = [&](const std::string& name) -> Timed& {
        for (auto& t : timed)
          if (t.first == name) return t.second;
        timed.emplace_back(name, Timed{});
        return timed.back().second;
      };
      for (int li = 0; li < o.layouts; ++li) {
        const Layout& lay = kLayouts[li];
        DeviceBuffer<unsigned char> pad(std::size_t(lay.pad_mib) << 20);
        std::vector<DeviceBuffer<K>> ins, outs;
        DeviceBuffer<V> vals, vout;
        DeviceBuffer<unsigned char> cub_tmp, our_ws;
        for (const char* c = lay.order; *c; ++c) {
          switch (*c) {
            case 'k':
              for (std::size_t k = 0; k < sets; ++k) ins.emplace_back(n);
              if (kPairs) vals = DeviceBuffer<V>(n);
              break;
            case 'o':
              for (std::size_t k = 0; k < sets; ++k) outs.emplace_back(n);
              if (kPairs) vout = DeviceBuffer<V>(n);
              break;
            case 'c':
              cub_tmp = DeviceBuffer<unsigned char>(cub_bytes);
              break;
            default:
              our_ws = DeviceBuffer<unsigned char>(our_bytes);
              break;
          }
        }
        for (std::size_t k = 0; k < sets; ++k)
          bench::fill(ins[k].get(), n, 0x5EED + k, KeyValue<K>{dist, 0x5EED + k}, s);
        if (kPairs) bench::fill(vals.get(), n, 0, Iota{}, s);
        // CUB as its users call it (its own temp storage), with num_items as int and as size_t:
        // the two instantiate different kernels, and which is faster depends on the key type
        // (H100, CUDA 13.0, 2^28: uint32 6.37 ms with int, 5.55 with size_t; int32 5.43 / 5.51).
        // Ratios are taken against the faster of the two in each layout; CUB's output on set 0
        // is the reference.
        auto cub_sort = [&](bool wide, const K* in, K* out, V* vo) {
          std::size_t b = cub_bytes;
          CUDA_CHECK(
              wide ? cub_call(cub_tmp.get(), b, in, out, vals.get(), vo, n)
                   : cub_call(cub_tmp.get(), b, in, out, vals.get(), vo, static_cast<int>(n)));
        };
        double cub_best = 0;
        for (const bool wide : {false, true}) {
          const bench::Stats cub_st = timer.measure(
              [&](int rep) {
                cub_sort(wide, ins[rep % sets].get(), outs[rep % sets].get(), vout.get());
              },
              topt);
          const std::string name = std::string(kPairs ? "cub::SortPairs" : "cub::SortKeys") +
                                   (wide ? " (size_t n)" : " (int n)");
          Timed& cub_t = slot(name);
          cub_t.ms.push_back(cub_st.median_ms);
          cub_t.reps += cub_st.reps;
          cub_best = cub_best > 0 ? std::min(cub_best, cub_st.median_ms) : cub_st.median_ms;
        }
        cub_sort(false, ins[0].get(), ref_k.get(), ref_v.get());
        // Times go(in, out, values out) over the rotated sets, then checks a fresh run on set 0
        // (output poisoned) against CUB's keys and values.
        auto time_and_check = [&](const std::string& name, auto&& go) {
          const bench::Stats st = timer.measure(
              [&](int rep) { go(ins[rep % sets].get(), outs[rep % sets].get(), vout.get()); },
              topt);
          CUDA_CHECK(cudaMemsetAsync(outs[0].get(), 0xAB, n * sizeof(K), s));
          if (kPairs) CUDA_CHECK(cudaMemsetAsync(vout.get(), 0xAB, n * sizeof(V), s));
          go(ins[0].get(), outs[0].get(), vout.get());
          diff.reset(s);
          diff.add(outs[0].get(), ref_k.get(), n, s);
          if (kPairs) diff.add(vout.get(), ref_v.get(), n, s);
          const bool ok = diff.result(s) == 0;
          all_ok = all_ok && ok;
          Timed& t = slot(name);
          t.ms.push_back(st.median_ms);
          t.cub_ms.push_back(cub_best);
          t.ok = t.ok && ok;
          t.reps += st.reps;
        };
        for (SortAlgorithm a : all_sort_algorithms()) {
          if (a == SortAlgorithm::Split && (kPairs || lg > o.split_max_log)) continue;
          const std::size_t wb =
              kPairs ? sort_pairs_workspace_bytes<K, V>(a, n) : sort_keys_workspace_bytes<K>(a, n);
          time_and_check(to_string(a), [&](const K* in, K* out, V* vo) {
            if constexpr (kPairs)
              sort_pairs<K, V>(a, in, out, vals.get(), vo, n, our_ws.get(), wb, s);
            else
              sort_keys<K>(a, in, out, n, our_ws.get(), wb, s);
          });
        }
        // The policies on uniform keys, or on every distribution asked for when a filter names
        // a few of them.
        if (o.variants && (dist == Dist::Uniform || !o.variant_filter.empty()) && lg >= 20 &&
            lg % 2 == 0) {
          for (const Variant<K>& var : policy_variants<K, kPairs>()) {
            if (!variant_selected(o, var.name)) continue;
            const std::size_t wb = var.workspace(n);
            time_and_check(var.name, [&](const K* in, K* out, V* vo) {
              var.sort(in, out, vals.get(), vo, n, our_ws.get(), wb, s);
            });
          }
        }
        if (dist == Dist::Uniform) {
          const bench::Stats cp = timer.measure(
              [&](int rep) {
                bench::memcpy_d2d(outs[rep % sets].get(), ins[rep % sets].get(), n * sizeof(K), s);
              },
              topt);
          Timed& t = slot("cudaMemcpy D2D (keys)");
          t.ms.push_back(cp.median_ms);
          t.reps += cp.reps;
        }
      }
      for (const auto& [name, t] : timed) {
        Row r{kname, dname, name, n, name.rfind("cudaMemcpy", 0) == 0 ? sizeof(K) : item, t.ok};
        r.st = util::summarize(t.ms);  // median, min and max over the layouts
        r.st.reps = t.reps;
        if (!t.cub_ms.empty()) {
          r.cub_ms = util::summarize(t.cub_ms).median_ms;
          std::vector<double> ratio;
          for (std::size_t i = 0; i < t.ms.size(); ++i) ratio.push_back(t.cub_ms[i] / t.ms[i]);
          const bench::Stats rs = util::summarize(ratio);
          r.ratio_min = rs.min_ms;
          r.ratio_max = rs.max_ms;
        }
        rows.push_back(r);
      }
      std::fprintf(stderr, "  %s %s n=2^%d done (%d layouts)\n", kname.c_str(), dname.c_str(), lg,
                   o.layouts);
    }
  }
}

// --probe: where the library's time depends on memory layout, for uint32 keys at each size. Per
// layout (kLayouts) it prints each buffer's address (MiB, and MiB modulo 1 GiB), CUB's size_t
// call, and the library's sort with its workspace moved (ws+S: the whole workspace S MiB later)
// or rearranged (alt+S: control block and look-back status first, the spare keys S MiB after
// them); in the first layout also the histogram kernels on their own (grid = SMs x G).
void probe(const Options& o, const bench::DeviceInfo& dev, cudaStream_t s) {
  using K = std::uint32_t;
  bench::EventTimer timer(s);
  bench::TimingOptions topt;
  topt.min_reps = 20;
  int sms = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  (void)dev;
  const std::size_t kMiB = std::size_t(1) << 20;
  const std::size_t shifts[] = {2, 32, 64, 128, 256, 512};
  for (int lg = o.min_log; lg <= o.max_log; lg += o.step_log) {
    const std::size_t n = std::size_t(1) << lg;
    std::size_t cub_bytes = 0;
    CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, cub_bytes, static_cast<const K*>(nullptr),
                                              static_cast<K*>(nullptr), n, 0, 32, s));
    const std::size_t our_bytes = sort_keys_workspace_bytes<K>(SortAlgorithm::Lsd, n);
    for (int li = 0; li < o.layouts; ++li) {
      const Layout& lay = kLayouts[li];
      DeviceBuffer<unsigned char> pad(std::size_t(lay.pad_mib) << 20);
      DeviceBuffer<K> in, out;
      DeviceBuffer<unsigned char> cub_tmp, ws;
      for (const char* c = lay.order; *c; ++c) {
        if (*c == 'k') in = DeviceBuffer<K>(n);
        if (*c == 'o') out = DeviceBuffer<K>(n);
        if (*c == 'c') cub_tmp = DeviceBuffer<unsigned char>(cub_bytes);
        if (*c == 'l') ws = DeviceBuffer<unsigned char>(our_bytes + 1024 * kMiB);
      }
      bench::fill(in.get(), n, 0x5EED, KeyValue<K>{Dist::Uniform, 0x5EED}, s);
      auto mib = [&](const void* q) {
        const auto a = reinterpret_cast<std::uintptr_t>(q);
        return bench::fmt("%zu(%zu)", static_cast<std::size_t>(a / kMiB),
                          static_cast<std::size_t>((a / kMiB) % 1024));
      };
      std::string line = bench::fmt("probe 2^%d %s/%d keys=%s out=%s cub=%s ws=%s", lg, lay.order,
                                    lay.pad_mib, mib(in.get()).c_str(), mib(out.get()).c_str(),
                                    mib(cub_tmp.get()).c_str(), mib(ws.get()).c_str());
      auto t = [&](const char* name, auto&& go) {
        const bench::Stats st = timer.measure([&](int) { go(); }, topt);
        line += bench::fmt(" | %s %.4f", name, st.median_ms);
      };
      t("cub", [&] {
        std::size_t b = cub_bytes;
        CUDA_CHECK(
            cub::DeviceRadixSort::SortKeys(cub_tmp.get(), b, in.get(), out.get(), n, 0, 32, s));
      });
      auto lsd = [&](std::size_t off, detail::lsd::Placement pl) {
        detail::lsd::sort<K, detail::lsd::NoValue, false>(in.get(), out.get(), nullptr, nullptr, n,
                                                          ws.get() + off, our_bytes, s, 0, 32, pl);
      };
      t("lsd", [&] { lsd(0, {}); });
      for (std::size_t sh : shifts)
        t(bench::fmt("ws+%zu", sh).c_str(), [&] { lsd(sh * kMiB, {}); });
      for (std::size_t sh :
           {std::size_t(0), std::size_t(2), std::size_t(64), std::size_t(256), std::size_t(512)})
        t(bench::fmt("alt+%zu", sh).c_str(), [&] { lsd(0, {true, sh * kMiB}); });
      std::printf("%s\n", line.c_str());
      std::fflush(stdout);
      if (li != 0) continue;
      DeviceBuffer<unsigned long long> tot(detail::lsd::kMaxPasses * detail::lsd::kRadix);
      std::vector<unsigned long long> ref, got(tot.size());
      // Times one histogram kernel over `keys` (end_bit: their width), appending it to `line`;
      // every kernel's counts are compared with the first's over the same keys.
      auto hist_into = [&](std::string& line, std::vector<unsigned long long>& ref,
                           const auto* keys, int end_bit, const std::string& name, int grid,
                           auto kernel, int block, std::size_t smem) {
        detail::lsd::allow_smem(kernel, smem);
        CUDA_CHECK(cudaMemsetAsync(tot.get(), 0, tot.size() * 8, s));
        kernel<<<grid, block, smem, s>>>(keys, n, 0, end_bit, tot.get());
        CUDA_CHECK(
            cudaMemcpyAsync(got.data(), tot.get(), tot.size() * 8, cudaMemcpyDeviceToHost, s));
        CUDA_CHECK(cudaStreamSynchronize(s));
        if (ref.empty()) ref = got;
        const bench::Stats st = timer.measure(
            [&](int) { kernel<<<grid, block, smem, s>>>(keys, n, 0, end_bit, tot.get()); }, topt);
        line +=
            bench::fmt(" | %s %.4f%s", name.c_str(), st.median_ms, got == ref ? "" : " MISMATCH");
      };
      // Copies of the counters (histogram_copies_kernel): as many blocks as fit an SM, times each
      // of `mults`.
      auto copies_into = [&](auto&& hist_fn, const char* name, auto kernel, int block,
                             std::size_t smem, std::initializer_list<int> mults) {
        detail::lsd::allow_smem(kernel, smem);  // before the occupancy query counts it
        int per_sm = 0;
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, smem));
        for (int m : mults)
          hist_fn(mults.size() > 1 ? bench::fmt("%s/%dx%d", name, per_sm, m)
                                   : bench::fmt("%s/%d", name, per_sm),
                  sms * std::max(per_sm, 1) * m, kernel, block, smem);
      };
      std::string h = bench::fmt("probe-hist 2^%d", lg);
      auto hist = [&](const std::string& name, int grid, auto kernel,
                      int block = detail::lsd::kThreads, std::size_t smem = 0) {
        hist_into(h, ref, in.get(), 32, name, grid, kernel, block, smem);
      };
      auto copies = [&](const char* name, auto kernel, int block, std::size_t smem) {
        copies_into(hist, name, kernel, block, smem, {1, 2});
      };
      namespace L = detail::lsd;
      copies("c16b1024v4 (the library's)", L::histogram_copies_kernel<K, 4, 1024, 16>, 1024,
             L::histogram_copies_smem_bytes<K, 16>());
      copies("c16b512v4", L::histogram_copies_kernel<K, 4, 512, 16>, 512,
             L::histogram_copies_smem_bytes<K, 16>());
      copies("c8b512v4", L::histogram_copies_kernel<K, 4, 512, 8>, 512,
             L::histogram_copies_smem_bytes<K, 8>());
      copies("c32b1024v4", L::histogram_copies_kernel<K, 4, 1024, 32>, 1024,
             L::histogram_copies_smem_bytes<K, 32>());
      for (int g : {4, 8, 16}) {
        hist(bench::fmt("old/%d", g), sms * g, detail::lsd::histogram_kernel<K>);
        hist(bench::fmt("vec2/%d", g), sms * g, detail::lsd::histogram_vec_kernel<K, 2>);
        hist(bench::fmt("vec4/%d", g), sms * g, detail::lsd::histogram_vec_kernel<K, 4>);
        hist(bench::fmt("vec8/%d", g), sms * g, detail::lsd::histogram_vec_kernel<K, 8>);
      }
      h += bench::fmt(
          " | memcpy %.4f",
          timer
              .measure([&](int) { bench::memcpy_d2d(out.get(), in.get(), n * sizeof(K), s); }, topt)
              .median_ms);
      std::printf("%s\n", h.c_str());
      std::fflush(stdout);
      // The same for uint64 keys (n of them: twice the bytes, eight digits).
      using K8 = std::uint64_t;
      DeviceBuffer<K8> in8(n);
      bench::fill(in8.get(), n, 0x5EED, KeyValue<K8>{Dist::Uniform, 0x5EED}, s);
      std::vector<unsigned long long> ref8;
      std::string h8 = bench::fmt("probe-hist64 2^%d", lg);
      auto hist8 = [&](const std::string& name, int grid, auto kernel, int block,
                       std::size_t smem) {
        hist_into(h8, ref8, in8.get(), 64, name, grid, kernel, block, smem);
      };
      hist8("vec4/16 (the earlier)", sms * 16, L::histogram_vec_kernel<K8, 4>,
            detail::lsd::kThreads, 0);
      hist8("vec2/8", sms * 8, L::histogram_vec_kernel<K8, 2>, detail::lsd::kThreads, 0);
      auto copies8 = [&](const char* name, auto kernel, int block, std::size_t smem) {
        copies_into(hist8, name, kernel, block, smem, {1});
      };
      copies8("c16b1024v4", L::histogram_copies_kernel<K8, 4, 1024, 16>, 1024,
              L::histogram_copies_smem_bytes<K8, 16>());
      copies8("c16b1024v8 (the library's)", L::histogram_copies_kernel<K8, 8, 1024, 16>, 1024,
              L::histogram_copies_smem_bytes<K8, 16>());
      copies8("c8b1024v4", L::histogram_copies_kernel<K8, 4, 1024, 8>, 1024,
              L::histogram_copies_smem_bytes<K8, 8>());
      copies8("c8b512v4", L::histogram_copies_kernel<K8, 4, 512, 8>, 512,
              L::histogram_copies_smem_bytes<K8, 8>());
      copies8("c8b512v8", L::histogram_copies_kernel<K8, 8, 512, 8>, 512,
              L::histogram_copies_smem_bytes<K8, 8>());
      copies8("c4b512v4", L::histogram_copies_kernel<K8, 4, 512, 4>, 512,
              L::histogram_copies_smem_bytes<K8, 4>());
      std::printf("%s\n", h8.c_str());
      std::fflush(stdout);
    }
  }
}

int run(int argc, char** argv) {
  Options o;
  CLI::App app(
      "sortbench: the library's radix sorts against cub::DeviceRadixSort in one run. "
      "Implementations: lsd (8-bit digits), split (the chapter's 1 bit per pass split + bitonic "
      "merge; keys only, up to --split-max-log), cub::DeviceRadixSort::SortKeys / SortPairs. "
      "\"pairs\" means uint32 keys with uint32 values, \"pairs64\" uint64 keys with uint32 "
      "values. Every output is compared with CUB's "
      "(exact); a mismatch makes the exit code 1.",
      "sortbench");
  app.option_defaults()->always_capture_default();
  bench::add_sweep_options(app, o, 30,
                           "also time the LSD policies behind the defaults (4-byte keys)");
  app.add_option("--split-max-log", o.split_max_log,
                 "largest n = 2^K for the split sort (its merge costs O(log^2 n) passes)")
      ->check(CLI::Range(0, 30));
  app.add_option("--layouts", o.layouts,
                 "time every sort in the first N memory layouts (pads before the buffers, "
                 "allocation orders); the report gives the median over them and the spread")
      ->check(CLI::Range(1, kMaxLayouts));
  app.add_option("--step-log", o.step_log, "n = 2^min-log, 2^(min-log + K), ... up to 2^max-log")
      ->check(CLI::Range(1, 30));
  bool probe_mode = false;
  app.add_flag("--probe", probe_mode,
               "instead of the comparison: the library's uint32 sort with its workspace moved or "
               "rearranged in each layout, and the histogram kernels alone (see probe())");
  app.add_option("--variant-filter", o.variant_filter,
                 "with --variants: only the policies whose name contains one of these "
                 "(comma-separated), e.g. 8-bit,packed")
      ->delimiter(',');
  bench::add_list(app, "--keys", o.keys, "key types, comma-separated",
                  CLI::IsMember({"uint32", "int32", "float", "uint64", "pairs", "pairs64"}));
  bench::add_list(app, "--dists", o.dists, "key distributions, comma-separated",
                  CLI::IsMember({"uniform", "equal", "few", "sorted"}));
  if (const auto rc = bench::parse_command_line(app, argc, argv)) return *rc;
  if (const auto rc = bench::check_sweep_options("sortbench", o)) return *rc;
  const bench::DeviceInfo dev = util::current_device();
  if (probe_mode) {
    util::Stream ps;
    probe(o, dev, ps);
    return 0;
  }
  bench::print_banner("sortbench", dev);
  std::printf(
      "each sort timed in %d memory layout(s), each with its own allocations; CUB %d.%d.%d\n",
      o.layouts, CUB_MAJOR_VERSION, CUB_MINOR_VERSION, CUB_SUBMINOR_VERSION);
  util::Stream stream;
  std::vector<Row> rows;
  bool all_ok = true;
  for (const auto& k : o.keys) {
    if (k == "uint32")
      run_keys<std::uint32_t, false>(k, o, dev, stream, rows, all_ok);
    else if (k == "int32")
      run_keys<std::int32_t, false>(k, o, dev, stream, rows, all_ok);
    else if (k == "float")
      run_keys<float, false>(k, o, dev, stream, rows, all_ok);
    else if (k == "uint64")
      run_keys<std::uint64_t, false>(k, o, dev, stream, rows, all_ok);
    else if (k == "pairs")
      run_keys<std::uint32_t, true>(k, o, dev, stream, rows, all_ok);
    else if (k == "pairs64")
      run_keys<std::uint64_t, true>(k, o, dev, stream, rows, all_ok);
  }

  // Every time is the median over the layouts of per-call medians (an event pair per call); the
  // ranges are the smallest and largest per-layout median, and CUB / this per layout.
  bench::Report report("sortbench", dev, "2 * n * (sizeof(K) [+ sizeof(V)])",
                       {"gkeys_s", "%.2f", "%.4f"},
                       {"keys", "dist", "impl", "n", "check", "ms by layout", "median ms",
                        "Gkeys/s", "GB/s", "vs CUB", "vs CUB by layout"},
                       {"device", "keys", "dist", "impl", "n", "check", "ms_range", "median_ms",
                        "min_ms", "reps", "gkeys_s", "gb_s", "vs_cub", "vs_cub_range"});
  for (const Row& r : rows)
    report.add(
        {{"keys", r.keys},
         {"dist", r.dist},
         {"impl", r.impl},
         {"n", r.n},
         bench::check_field(r.ok),
         {"ms_range", bench::Json::array({r.st.min_ms, r.st.max_ms}),
          bench::fmt("%.4f-%.4f", r.st.min_ms, r.st.max_ms)}},
        bench::Measured(r.st, static_cast<double>(r.n), 2.0 * r.n * r.bytes_per_item, r.cub_ms),
        {{"vs_cub_range", bench::Json::array({r.ratio_min, r.ratio_max}),
          r.cub_ms > 0 ? bench::fmt("%.2f-%.2fx", r.ratio_min, r.ratio_max) : "-"}});
  return report.finish(o.csv, o.json, all_ok);
}

}  // namespace
}  // namespace scandof

int main(int argc, char** argv) {
  // 2: the status these benchmarks have always given for any error that ends a run.
  return scandof::bench::guarded_main("sortbench", scandof::run, argc, argv, 2);
}
