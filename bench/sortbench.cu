// sortbench: the library's radix sorts against cub::DeviceRadixSort in one run.
//
//   sortbench [--min-log 10] [--max-log 28] [--keys uint32,int32,float,uint64,pairs]
//             [--dists uniform,equal,few,sorted] [--split-max-log 24] [--csv FILE] [--json FILE]
//             [--quick]
//
// Implementations: "lsd" (8-bit digits, upsweep / scan / downsweep), "split" (the chapter's 1 bit
// per pass split + bitonic merge; keys only, up to --split-max-log because its merge costs
// O(log^2 n) passes), cub::DeviceRadixSort::SortKeys / SortPairs. "pairs" means uint32 keys with
// uint32 values. Every output is compared with CUB's (exact); a mismatch makes the exit code 1.
// Gkeys/s = n / time; GB/s counts the minimum traffic of one sort, n keys (+ values) read and
// written once.
#include <cub/device/device_radix_sort.cuh>

#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "scandof/device/sort_lsd.cuh"
#include "scandof/sort.hpp"

namespace scandof {
namespace {

using bench::DeviceArray;

__device__ __forceinline__ std::uint64_t dhash(std::uint64_t seed, std::uint64_t i) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * (i + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

enum class Dist { Uniform, Equal, Few, Sorted };

// Keys without NaNs or -0.0 (CUB and we may order those differently: see sort.hpp).
template <class K>
__device__ K key_at(std::uint64_t h) {
  if constexpr (std::is_same_v<K, float>)
    return static_cast<float>(static_cast<double>(h >> 11) * 0x1p-53 * 2e6 - 1e6) + 0.5f;
  else
    return static_cast<K>(h);
}

template <class K>
__global__ void fill_kernel(K* p, std::uint64_t n, std::uint64_t seed, Dist d) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    switch (d) {
      case Dist::Uniform:
        p[i] = key_at<K>(dhash(seed, i));
        break;
      case Dist::Equal:
        p[i] = key_at<K>(dhash(seed, 0));
        break;
      case Dist::Few:
        p[i] = key_at<K>(dhash(seed, dhash(seed ^ 1, i) % 16));
        break;
      case Dist::Sorted:
        if constexpr (std::is_same_v<K, float>)
          p[i] = static_cast<float>(i);
        else
          p[i] = static_cast<K>(i);
        break;
    }
  }
}

__global__ void iota_kernel(std::uint32_t* p, std::uint64_t n) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride)
    p[i] = static_cast<std::uint32_t>(i);
}

template <class T>
__global__ void diff_kernel(const T* a, const T* b, std::uint64_t n, unsigned long long* bad) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  unsigned long long c = 0;
  for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride)
    c += !(a[i] == b[i]);
  if (c) atomicAdd(bad, c);
}

struct Options {
  int min_log = 10, max_log = 28, split_max_log = 24;
  std::vector<std::string> keys = {"uint32"};
  std::vector<std::string> dists = {"uniform", "equal", "few", "sorted"};
  std::string csv, json;
  bool quick = false;
  bool variants = false;  // also time the LSD knobs (detail::lsd::Knobs) and a per-kernel split
};

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  std::string x;
  while (std::getline(ss, x, ','))
    if (!x.empty()) v.push_back(x);
  return v;
}

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
  bench::Stats st;
  double cub_ms;
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
  DeviceArray<K> ref_k(max_n);
  DeviceArray<V> ref_v(kPairs ? max_n : 0), vals(kPairs ? max_n : 0), vout(kPairs ? max_n : 0);
  DeviceArray<unsigned long long> d_bad(1);
  if (kPairs) {
    iota_kernel<<<1024, 256, 0, s>>>(vals.get(), max_n);
    CUDA_CHECK_LAUNCH();
  }
  std::size_t cub_bytes = 0;
  if (kPairs)
    CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
        nullptr, cub_bytes, static_cast<const K*>(nullptr), static_cast<K*>(nullptr),
        static_cast<const V*>(nullptr), static_cast<V*>(nullptr), static_cast<int>(max_n)));
  else
    CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, cub_bytes, static_cast<const K*>(nullptr),
                                              static_cast<K*>(nullptr), static_cast<int>(max_n)));
  DeviceArray<unsigned char> cub_tmp(cub_bytes);
  const std::size_t our_bytes = std::max(
      kPairs ? sort_pairs_workspace_bytes<K, V>(SortAlgorithm::Lsd, max_n)
             : sort_keys_workspace_bytes<K>(SortAlgorithm::Lsd, max_n),
      kPairs ? std::size_t(0)
             : sort_keys_workspace_bytes<K>(
                   SortAlgorithm::Split, std::size_t(1) << std::min(o.split_max_log, o.max_log)));
  DeviceArray<unsigned char> our_tmp(our_bytes);
  std::vector<DeviceArray<K>> ins, outs;

  for (const std::string& dname : o.dists) {
    const Dist dist = parse_dist(dname);
    for (int lg = o.min_log; lg <= o.max_log; ++lg) {
      const std::size_t n = std::size_t(1) << lg;
      const std::size_t sets = std::min<std::size_t>(
          256,
          bench::rotation_sets(n * sizeof(K) * 2 + (kPairs ? 2 * n * sizeof(V) : 0), dev.l2_bytes));
      ins.clear();
      outs.clear();
      for (std::size_t k = 0; k < sets; ++k) {
        ins.emplace_back(n);
        outs.emplace_back(n);
        fill_kernel<K><<<1024, 256, 0, s>>>(ins[k].get(), n, 0x5EED + k, dist);
        CUDA_CHECK_LAUNCH();
      }
      // CUB, and its output on set 0 as the reference.
      auto cub_sort = [&](const K* in, K* out, V* vo) {
        std::size_t b = cub_bytes;
        if (kPairs)
          CUDA_CHECK(cub::DeviceRadixSort::SortPairs(cub_tmp.get(), b, in, out, vals.get(), vo,
                                                     static_cast<int>(n), 0, 8 * sizeof(K), s));
        else
          CUDA_CHECK(cub::DeviceRadixSort::SortKeys(cub_tmp.get(), b, in, out, static_cast<int>(n),
                                                    0, 8 * sizeof(K), s));
      };
      const bench::Stats cub_st = timer.measure(
          [&](int rep) { cub_sort(ins[rep % sets].get(), outs[rep % sets].get(), vout.get()); },
          topt);
      cub_sort(ins[0].get(), ref_k.get(), ref_v.get());
      rows.push_back({kname, dname, kPairs ? "cub::SortPairs" : "cub::SortKeys", n, item, true,
                      cub_st, cub_st.median_ms});
      for (SortAlgorithm a : all_sort_algorithms()) {
        if (a == SortAlgorithm::Split && (kPairs || lg > o.split_max_log)) continue;
        const std::size_t wb =
            kPairs ? sort_pairs_workspace_bytes<K, V>(a, n) : sort_keys_workspace_bytes<K>(a, n);
        auto ours = [&](const K* in, K* out, V* vo) {
          if constexpr (kPairs)
            sort_pairs<K, V>(a, in, out, vals.get(), vo, n, our_tmp.get(), wb, s);
          else
            sort_keys<K>(a, in, out, n, our_tmp.get(), wb, s);
        };
        const bench::Stats st = timer.measure(
            [&](int rep) { ours(ins[rep % sets].get(), outs[rep % sets].get(), vout.get()); },
            topt);
        CUDA_CHECK(cudaMemsetAsync(outs[0].get(), 0xAB, n * sizeof(K), s));
        ours(ins[0].get(), outs[0].get(), vout.get());
        CUDA_CHECK(cudaMemsetAsync(d_bad.get(), 0, 8, s));
        diff_kernel<K><<<1024, 256, 0, s>>>(outs[0].get(), ref_k.get(), n, d_bad.get());
        CUDA_CHECK_LAUNCH();
        if (kPairs) {
          diff_kernel<V><<<1024, 256, 0, s>>>(vout.get(), ref_v.get(), n, d_bad.get());
          CUDA_CHECK_LAUNCH();
        }
        unsigned long long bad = 0;
        CUDA_CHECK(cudaMemcpyAsync(&bad, d_bad.get(), 8, cudaMemcpyDeviceToHost, s));
        CUDA_CHECK(cudaStreamSynchronize(s));
        all_ok = all_ok && bad == 0;
        rows.push_back({kname, dname, to_string(a), n, item, bad == 0, st, cub_st.median_ms});
      }
      if (o.variants && !kPairs && dist == Dist::Uniform && lg >= 20 && lg % 2 == 0) {
        struct Variant {
          const char* name;
          detail::lsd::Knobs kn;
        };
        std::vector<Variant> variants;
        {
          detail::lsd::Knobs kn;
          kn.onesweep = false;
          variants.push_back({"lsd[3-kernel,ballot-up,minblocks3]", kn});
          kn.downsweep_min_blocks = 4;
          variants.push_back({"lsd[3-kernel,ballot-up,minblocks4]", kn});
          for (int mb : {2, 3, 4}) {
            detail::lsd::Knobs o1;
            o1.onesweep_min_blocks = mb;
            variants.push_back({mb == 2   ? "lsd[onesweep,minblocks2]"
                                : mb == 3 ? "lsd[onesweep,minblocks3]"
                                          : "lsd[onesweep,minblocks4]",
                                o1});
          }
          detail::lsd::Knobs o2;
          o2.spin_ns = 100;
          variants.push_back({"lsd[onesweep,spin100ns]", o2});
        }
        for (const Variant& var : variants) {
          {
            const detail::lsd::Knobs kn = var.kn;
            const std::size_t wb = sort_keys_workspace_bytes<K>(SortAlgorithm::Lsd, n);
            auto go = [&](const K* in, K* out) {
              detail::lsd::sort<K, detail::lsd::NoValue, false>(
                  in, out, nullptr, nullptr, n, our_tmp.get(), wb, s, 0, 8 * sizeof(K), kn);
            };
            const bench::Stats st = timer.measure(
                [&](int rep) { go(ins[rep % sets].get(), outs[rep % sets].get()); }, topt);
            CUDA_CHECK(cudaMemsetAsync(outs[0].get(), 0xAB, n * sizeof(K), s));
            go(ins[0].get(), outs[0].get());
            CUDA_CHECK(cudaMemsetAsync(d_bad.get(), 0, 8, s));
            diff_kernel<K><<<1024, 256, 0, s>>>(outs[0].get(), ref_k.get(), n, d_bad.get());
            CUDA_CHECK_LAUNCH();
            unsigned long long bad = 0;
            CUDA_CHECK(cudaMemcpyAsync(&bad, d_bad.get(), 8, cudaMemcpyDeviceToHost, s));
            CUDA_CHECK(cudaStreamSynchronize(s));
            all_ok = all_ok && bad == 0;
            rows.push_back({kname, dname, var.name, n, item, bad == 0, st, cub_st.median_ms});
          }
        }
        // Per-kernel split of one pass (digit 0) with the default knobs.
        if (lg == o.max_log) {
          constexpr int kTile = detail::lsd::Tuning<K>::kTile;
          int sms = 0, per_sm = 0;
          CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
          CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
              &per_sm, detail::lsd::downsweep_kernel<K, detail::lsd::NoValue, false, 3>,
              detail::lsd::kThreads, 0));
          const std::uint64_t tiles = (n + kTile - 1) / kTile;
          const std::uint64_t want = std::min<std::uint64_t>(
              tiles, std::min<std::uint64_t>(detail::lsd::kMaxBlocks, std::uint64_t(sms) * per_sm));
          const std::uint64_t tpb = (tiles + want - 1) / want;
          const int blocks = static_cast<int>((tiles + tpb - 1) / tpb);
          DeviceArray<unsigned> hist(256 * detail::lsd::kMaxBlocks), tot(256);
          cudaEvent_t ev[4];
          for (auto& e : ev) CUDA_CHECK(cudaEventCreate(&e));
          std::vector<double> up, sc, dn;
          for (int r = 0; r < 10; ++r) {
            CUDA_CHECK(cudaMemsetAsync(tot.get(), 0, 256 * 4, s));
            CUDA_CHECK(cudaEventRecord(ev[0], s));
            detail::lsd::upsweep_kernel<K, true><<<blocks, detail::lsd::kThreads, 0, s>>>(
                ins[0].get(), n, 0, 255u, tpb, hist.get(), tot.get(), blocks);
            CUDA_CHECK(cudaEventRecord(ev[1], s));
            detail::lsd::scan_kernel<><<<256, 1024, 0, s>>>(hist.get(), tot.get(), blocks);
            CUDA_CHECK(cudaEventRecord(ev[2], s));
            detail::lsd::downsweep_kernel<K, detail::lsd::NoValue, false, 3>
                <<<blocks, detail::lsd::kThreads, 0, s>>>(ins[0].get(), outs[0].get(), nullptr,
                                                          nullptr, n, 0, 255u, tpb, hist.get(),
                                                          blocks);
            CUDA_CHECK(cudaEventRecord(ev[3], s));
            CUDA_CHECK(cudaEventSynchronize(ev[3]));
            float a = 0, b = 0, c = 0;
            CUDA_CHECK(cudaEventElapsedTime(&a, ev[0], ev[1]));
            CUDA_CHECK(cudaEventElapsedTime(&b, ev[1], ev[2]));
            CUDA_CHECK(cudaEventElapsedTime(&c, ev[2], ev[3]));
            up.push_back(a), sc.push_back(b), dn.push_back(c);
          }
          for (auto& e : ev) CUDA_CHECK(cudaEventDestroy(e));
          std::printf(
              "lsd pass split at n=%zu (%s, %d blocks x %llu tiles of %d): upsweep %.4f ms, "
              "scan %.4f ms, downsweep %.4f ms (medians of 10)\n",
              n, kname.c_str(), blocks, static_cast<unsigned long long>(tpb), kTile,
              bench::summarize(up).median_ms, bench::summarize(sc).median_ms,
              bench::summarize(dn).median_ms);
        }
      }
      if (dist == Dist::Uniform) {
        const bench::Stats cp = timer.measure(
            [&](int rep) {
              bench::memcpy_d2d(outs[rep % sets].get(), ins[rep % sets].get(), n * sizeof(K), s);
            },
            topt);
        rows.push_back({kname, dname, "cudaMemcpy D2D (keys)", n, sizeof(K), true, cp, 0.0});
      }
      std::fprintf(stderr, "  %s %s n=2^%d done\n", kname.c_str(), dname.c_str(), lg);
    }
  }
}

int run(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
      return argv[++i];
    };
    if (a == "--min-log")
      o.min_log = std::stoi(next());
    else if (a == "--max-log")
      o.max_log = std::stoi(next());
    else if (a == "--split-max-log")
      o.split_max_log = std::stoi(next());
    else if (a == "--keys")
      o.keys = split_list(next());
    else if (a == "--dists")
      o.dists = split_list(next());
    else if (a == "--csv")
      o.csv = next();
    else if (a == "--json")
      o.json = next();
    else if (a == "--quick")
      o.quick = true;
    else if (a == "--variants")
      o.variants = true;
    else if (a == "--help" || a == "-h") {
      std::printf(
          "sortbench [--min-log 10] [--max-log 28] [--keys uint32,int32,float,uint64,pairs]\n"
          "          [--dists uniform,equal,few,sorted] [--split-max-log 24] [--csv FILE]\n"
          "          [--json FILE] [--quick]\n");
      return 0;
    } else {
      throw std::invalid_argument("unknown argument " + a);
    }
  }
  if (o.min_log < 0 || o.max_log > 30 || o.min_log > o.max_log)
    throw std::invalid_argument("need 0 <= --min-log <= --max-log <= 30");
  const bench::DeviceInfo dev = bench::query_device();
  std::printf("sortbench on %s (%d SMs, L2 %zu MB), CUDA runtime %s, driver %s, %s\n",
              dev.name.c_str(), dev.sm_count, dev.l2_bytes >> 20,
              bench::cuda_version_string(dev.runtime_version).c_str(),
              bench::cuda_version_string(dev.driver_version).c_str(), bench::utc_now_iso().c_str());
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  std::vector<Row> rows;
  bool all_ok = true;
  for (const auto& k : o.keys) {
    if (k == "uint32")
      run_keys<std::uint32_t, false>(k, o, dev, s, rows, all_ok);
    else if (k == "int32")
      run_keys<std::int32_t, false>(k, o, dev, s, rows, all_ok);
    else if (k == "float")
      run_keys<float, false>(k, o, dev, s, rows, all_ok);
    else if (k == "uint64")
      run_keys<std::uint64_t, false>(k, o, dev, s, rows, all_ok);
    else if (k == "pairs")
      run_keys<std::uint32_t, true>(k, o, dev, s, rows, all_ok);
    else
      throw std::invalid_argument("unknown key type " + k);
  }
  CUDA_CHECK(cudaStreamDestroy(s));

  bench::Table table(
      {"keys", "dist", "impl", "n", "check", "median ms", "Gkeys/s", "GB/s", "vs CUB"});
  std::unique_ptr<bench::CsvWriter> csv;
  if (!o.csv.empty()) {
    csv = std::make_unique<bench::CsvWriter>(o.csv);
    csv->row({"device", "keys", "dist", "impl", "n", "check", "median_ms", "min_ms", "reps",
              "gkeys_s", "gb_s", "vs_cub"});
  }
  std::vector<std::string> json_rows;
  for (const Row& r : rows) {
    const double gk = bench::gelem_per_s(static_cast<double>(r.n), r.st.median_ms);
    const double gb = bench::gb_per_s(2.0 * r.n * r.bytes_per_item, r.st.median_ms);
    const double vs = r.cub_ms > 0 ? r.cub_ms / r.st.median_ms : 0.0;
    table.add({r.keys, r.dist, r.impl, std::to_string(r.n), r.ok ? "ok" : "FAIL",
               bench::fmt("%.4f", r.st.median_ms), bench::fmt("%.2f", gk), bench::fmt("%.0f", gb),
               r.cub_ms > 0 ? bench::fmt("%.2fx", vs) : "-"});
    if (csv)
      csv->row({dev.name, r.keys, r.dist, r.impl, std::to_string(r.n), r.ok ? "ok" : "FAIL",
                bench::fmt("%.6f", r.st.median_ms), bench::fmt("%.6f", r.st.min_ms),
                std::to_string(r.st.reps), bench::fmt("%.4f", gk), bench::fmt("%.2f", gb),
                bench::fmt("%.4f", vs)});
    json_rows.push_back(bench::Json::Object()
                            .add("keys", bench::Json::str(r.keys))
                            .add("dist", bench::Json::str(r.dist))
                            .add("impl", bench::Json::str(r.impl))
                            .add("n", bench::Json::num(static_cast<std::uint64_t>(r.n)))
                            .add("check", bench::Json::boolean(r.ok))
                            .add("median_ms", bench::Json::num(r.st.median_ms))
                            .add("min_ms", bench::Json::num(r.st.min_ms))
                            .add("reps", bench::Json::num(r.st.reps))
                            .add("gkeys_s", bench::Json::num(gk))
                            .add("gb_s", bench::Json::num(gb))
                            .add("vs_cub", bench::Json::num(vs))
                            .done());
  }
  table.print();
  if (!o.json.empty()) {
    const std::string doc =
        bench::Json::Object()
            .add("bench", bench::Json::str("sortbench"))
            .add("device", bench::Json::str(dev.name))
            .add("sm_count", bench::Json::num(dev.sm_count))
            .add("cuda_runtime", bench::Json::str(bench::cuda_version_string(dev.runtime_version)))
            .add("driver", bench::Json::str(bench::cuda_version_string(dev.driver_version)))
            .add("date", bench::Json::str(bench::utc_now_iso()))
            .add("bytes", bench::Json::str("2 * n * (sizeof(K) [+ sizeof(V)])"))
            .add("rows", bench::Json::array(json_rows, true))
            .done();
    bench::write_text_file(o.json, doc + "\n");
  }
  std::printf("%s\n", all_ok ? "all checks ok" : "SOME CHECKS FAILED");
  return all_ok ? 0 : 1;
}

}  // namespace
}  // namespace scandof

int main(int argc, char** argv) {
  try {
    return scandof::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sortbench: %s\n", e.what());
    return 2;
  }
}
