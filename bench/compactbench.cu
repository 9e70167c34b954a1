// compactbench: stream compaction against cub::DeviceSelect::If and cudaMemcpy D2D, in one run:
// the analogue of the chapter's Figure 39-11 (time against size) for today's GPU.
//
//   compactbench [--min-log 10] [--max-log 28] [--types int32,float,...] [--sel 0.01,0.5,0.99]
//                [--algos paper,reduce-then-scan,single-pass] [--paper-scan optimized]
//                [--csv FILE] [--json FILE] [--quick]
//
// Inputs are uniform ([0,1) for floats, all bits for integers); the predicate is x < threshold,
// the threshold chosen for the wanted selectivity. Every implementation's output (count and kept
// elements) is compared with CUB's at every size; a mismatch makes the exit code 1.
// Bytes per call = n * sizeof(T) read + count * sizeof(T) written (the minimum any compaction
// must move); Gelem/s = n / time.
#include <cub/device/device_select.cuh>

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "scandof/compact.hpp"
#include "scandof/device/compact_impl.cuh"

namespace scandof {
namespace {

using bench::DeviceArray;

template <class T>
__host__ __device__ T value_at(std::uint64_t h) {
  if constexpr (std::is_floating_point_v<T>)
    return static_cast<T>(static_cast<double>(h >> 11) * 0x1p-53);
  else
    return static_cast<T>(h);
}

template <class T>
T threshold_for(double sel) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(sel);
  } else if constexpr (std::is_unsigned_v<T>) {
    return static_cast<T>(sel * static_cast<double>(std::numeric_limits<T>::max()));
  } else {
    const double lo = static_cast<double>(std::numeric_limits<T>::lowest());
    return static_cast<T>(lo + sel * (-2.0 * lo));
  }
}

__device__ __forceinline__ std::uint64_t dhash(std::uint64_t seed, std::uint64_t i) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * (i + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

template <class T>
__global__ void fill_kernel(T* p, std::uint64_t n, std::uint64_t seed) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride)
    p[i] = value_at<T>(dhash(seed, i));
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
  int min_log = 10, max_log = 28;
  std::vector<std::string> types = {"int32"};
  std::vector<double> sels = {0.01, 0.5, 0.99};
  std::vector<CompactAlgorithm> algos = all_compact_algorithms();
  ScanAlgorithm paper_scan = ScanAlgorithm::Optimized;
  std::string csv, json;
  bool quick = false;
  bool variants = false;  // also time the implementation knobs (detail::compact::Knobs)
};

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  std::string x;
  while (std::getline(ss, x, ','))
    if (!x.empty()) v.push_back(x);
  return v;
}

struct Row {
  std::string type, impl;
  double sel;
  std::size_t n, kept;
  bool ok;
  bench::Stats st;
  double cub_ms;
};

template <class T>
void run_type(const char* tname, const Options& o, const bench::DeviceInfo& dev, cudaStream_t s,
              std::vector<Row>& rows, bool& all_ok) {
  bench::EventTimer timer(s);
  bench::TimingOptions topt;
  if (o.quick) topt.min_reps = 10, topt.min_total_ms = 2;
  const std::size_t max_n = std::size_t(1) << o.max_log;
  // Buffer sets: rotate while one set (in + out) fits in L2, total ~2 x L2.
  const std::size_t max_sets =
      bench::rotation_sets(2 * (std::size_t(1) << o.min_log) * sizeof(T), dev.l2_bytes);
  std::vector<DeviceArray<T>> ins, outs;
  DeviceArray<T> ref_out(max_n);
  DeviceArray<std::uint64_t> d_counts(max_sets + 1);
  DeviceArray<unsigned long long> d_bad(1);
  std::size_t cub_bytes = 0;
  CUDA_CHECK(cub::DeviceSelect::If(nullptr, cub_bytes, static_cast<const T*>(nullptr),
                                   static_cast<T*>(nullptr), static_cast<std::uint64_t*>(nullptr),
                                   static_cast<int>(max_n), LessThan<T>{T(0)}, s));
  DeviceArray<unsigned char> cub_tmp(cub_bytes);
  std::size_t our_bytes = 0;
  for (CompactAlgorithm a : o.algos)
    our_bytes = std::max(our_bytes, compact_workspace_bytes<T>(max_n, {a, o.paper_scan}));
  DeviceArray<unsigned char> our_tmp(std::max<std::size_t>(our_bytes, 1));

  for (int lg = o.min_log; lg <= o.max_log; ++lg) {
    const std::size_t n = std::size_t(1) << lg;
    const std::size_t sets = bench::rotation_sets(2 * n * sizeof(T), dev.l2_bytes);
    ins.resize(std::max(ins.size(), sets));
    outs.resize(std::max(outs.size(), sets));
    for (std::size_t k = 0; k < sets; ++k) {
      if (ins[k].size() < n) {
        ins[k] = DeviceArray<T>(std::max(n, ins[k].size()));
        outs[k] = DeviceArray<T>(std::max(n, outs[k].size()));
      }
      fill_kernel<T><<<1024, 256, 0, s>>>(ins[k].get(), n, 0xC0FFEEull + k);
      CUDA_CHECK_LAUNCH();
    }
    // Sets beyond this size's count are released once sizes stop needing them.
    for (std::size_t k = sets; k < ins.size(); ++k) ins[k].release(), outs[k].release();
    for (double sel : o.sels) {
      const LessThan<T> pred{threshold_for<T>(sel)};
      auto run_cub = [&](int rep) {
        const std::size_t k = rep % sets;
        std::size_t b = cub_bytes;
        CUDA_CHECK(cub::DeviceSelect::If(cub_tmp.get(), b, ins[k].get(), outs[k].get(),
                                         d_counts.get() + k, static_cast<int>(n), pred, s));
      };
      const bench::Stats cub_st = timer.measure(run_cub, topt);
      // The reference output: CUB's on set 0.
      std::size_t bb = cub_bytes;
      CUDA_CHECK(cub::DeviceSelect::If(cub_tmp.get(), bb, ins[0].get(), ref_out.get(),
                                       d_counts.get() + max_sets, static_cast<int>(n), pred, s));
      std::uint64_t ref_k = 0;
      CUDA_CHECK(cudaMemcpyAsync(&ref_k, d_counts.get() + max_sets, 8, cudaMemcpyDeviceToHost, s));
      CUDA_CHECK(cudaStreamSynchronize(s));
      rows.push_back(
          {tname, "cub::DeviceSelect::If", sel, n, ref_k, true, cub_st, cub_st.median_ms});
      for (CompactAlgorithm a : o.algos) {
        const CompactOptions opt{a, o.paper_scan};
        const std::size_t wb = compact_workspace_bytes<T>(n, opt);
        auto run_ours = [&](int rep) {
          const std::size_t k = rep % sets;
          compact_if(ins[k].get(), outs[k].get(), d_counts.get() + k, n, pred, our_tmp.get(), wb, s,
                     opt);
        };
        const bench::Stats st = timer.measure(run_ours, topt);
        // Check: a fresh run on set 0 against CUB's output.
        CUDA_CHECK(cudaMemsetAsync(outs[0].get(), 0xAB, n * sizeof(T), s));
        run_ours(0);
        std::uint64_t got_k = 0;
        CUDA_CHECK(cudaMemcpyAsync(&got_k, d_counts.get(), 8, cudaMemcpyDeviceToHost, s));
        CUDA_CHECK(cudaMemsetAsync(d_bad.get(), 0, 8, s));
        if (ref_k > 0) {
          diff_kernel<T><<<1024, 256, 0, s>>>(outs[0].get(), ref_out.get(), ref_k, d_bad.get());
          CUDA_CHECK_LAUNCH();
        }
        unsigned long long bad = 0;
        CUDA_CHECK(cudaMemcpyAsync(&bad, d_bad.get(), 8, cudaMemcpyDeviceToHost, s));
        CUDA_CHECK(cudaStreamSynchronize(s));
        const bool ok = got_k == ref_k && bad == 0;
        all_ok = all_ok && ok;
        std::string name = to_string(a);
        if (a == CompactAlgorithm::Paper) name += std::string("/") + to_string(o.paper_scan);
        rows.push_back({tname, name, sel, n, got_k, ok, st, cub_st.median_ms});
      }
      // The knobs behind the public defaults, each checked against CUB like the rest.
      if (o.variants && lg >= 20 && lg % 2 == 0) {
        struct Variant {
          std::string name;
          CompactAlgorithm algo;
          detail::compact::Knobs kn;
        };
        std::vector<Variant> variants;
        auto add = [&](int bytes, bool block_order, unsigned first, unsigned spin) {
          detail::compact::Knobs kn;
          kn.bytes_per_thread = bytes;
          kn.block_order = block_order;
          kn.first_ns = first;
          kn.spin_ns = spin;
          variants.push_back({std::string("single-pass[") + std::to_string(bytes) + "B," +
                                  (block_order ? "blockidx" : "atomic") + ",pace" +
                                  std::to_string(first) + "/" + std::to_string(spin) + "]",
                              CompactAlgorithm::SinglePass, kn});
        };
        add(128, false, 3000, 648);  // run 3's default
        add(128, false, 2000, 400);
        add(128, true, 3000, 648);
        add(128, true, 2000, 400);
        add(128, true, 1000, 300);
        add(128, true, 0, 0);
        add(96, true, 2000, 400);
        add(96, false, 2000, 400);
        add(64, true, 3000, 648);
        {
          detail::compact::Knobs r;
          variants.push_back({"reduce-then-scan[vec16]", CompactAlgorithm::ReduceThenScan, r});
        }
        for (const Variant& var : variants) {
          {
            {
              const detail::compact::Knobs kn = var.kn;
              const CompactAlgorithm a = var.algo;
              const CompactOptions opt{a, o.paper_scan};
              const std::size_t wb = compact_workspace_bytes<T>(n, opt);
              auto go = [&](int rep) {
                const std::size_t k = rep % sets;
                detail::compact::run<false>("compactbench", ins[k].get(), outs[k].get(),
                                            d_counts.get() + k, n,
                                            detail::compact::PredSelect<LessThan<T>>{pred}, false,
                                            nullptr, our_tmp.get(), wb, s, opt, kn);
              };
              const bench::Stats st = timer.measure(go, topt);
              CUDA_CHECK(cudaMemsetAsync(outs[0].get(), 0xAB, n * sizeof(T), s));
              go(0);
              std::uint64_t got_k = 0;
              CUDA_CHECK(cudaMemcpyAsync(&got_k, d_counts.get(), 8, cudaMemcpyDeviceToHost, s));
              CUDA_CHECK(cudaMemsetAsync(d_bad.get(), 0, 8, s));
              if (ref_k > 0) {
                diff_kernel<T>
                    <<<1024, 256, 0, s>>>(outs[0].get(), ref_out.get(), ref_k, d_bad.get());
                CUDA_CHECK_LAUNCH();
              }
              unsigned long long bad = 0;
              CUDA_CHECK(cudaMemcpyAsync(&bad, d_bad.get(), 8, cudaMemcpyDeviceToHost, s));
              CUDA_CHECK(cudaStreamSynchronize(s));
              const bool ok = got_k == ref_k && bad == 0;
              all_ok = all_ok && ok;
              rows.push_back({tname, var.name, sel, n, got_k, ok, st, cub_st.median_ms});
            }
          }
        }
      }
    }
    auto run_copy = [&](int rep) {
      const std::size_t k = rep % sets;
      bench::memcpy_d2d(outs[k].get(), ins[k].get(), n * sizeof(T), s);
    };
    const bench::Stats cp = timer.measure(run_copy, topt);
    rows.push_back({tname, "cudaMemcpy D2D", 1.0, n, n, true, cp, 0.0});
    std::fprintf(stderr, "  %s n=2^%d done\n", tname, lg);
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
    else if (a == "--types")
      o.types = split_list(next());
    else if (a == "--sel") {
      o.sels.clear();
      for (auto& x : split_list(next())) o.sels.push_back(std::stod(x));
    } else if (a == "--algos") {
      o.algos.clear();
      for (auto& x : split_list(next())) o.algos.push_back(parse_compact_algorithm(x));
    } else if (a == "--paper-scan")
      o.paper_scan = parse_scan_algorithm(next());
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
          "compactbench [--min-log 10] [--max-log 28] [--types int32,uint32,int64,float,double]\n"
          "             [--sel 0.01,0.5,0.99] [--algos paper,reduce-then-scan,single-pass]\n"
          "             [--paper-scan optimized] [--csv FILE] [--json FILE] [--quick]\n");
      return 0;
    } else {
      throw std::invalid_argument("unknown argument " + a);
    }
  }
  if (o.min_log < 0 || o.max_log > 30 || o.min_log > o.max_log)
    throw std::invalid_argument("need 0 <= --min-log <= --max-log <= 30");
  const bench::DeviceInfo dev = bench::query_device();
  std::printf("compactbench on %s (%d SMs, L2 %zu MB), CUDA runtime %s, driver %s, %s\n",
              dev.name.c_str(), dev.sm_count, dev.l2_bytes >> 20,
              bench::cuda_version_string(dev.runtime_version).c_str(),
              bench::cuda_version_string(dev.driver_version).c_str(), bench::utc_now_iso().c_str());
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  std::vector<Row> rows;
  bool all_ok = true;
  for (const auto& t : o.types) {
    if (t == "int32")
      run_type<std::int32_t>("int32", o, dev, s, rows, all_ok);
    else if (t == "uint32")
      run_type<std::uint32_t>("uint32", o, dev, s, rows, all_ok);
    else if (t == "int64")
      run_type<std::int64_t>("int64", o, dev, s, rows, all_ok);
    else if (t == "float")
      run_type<float>("float", o, dev, s, rows, all_ok);
    else if (t == "double")
      run_type<double>("double", o, dev, s, rows, all_ok);
    else
      throw std::invalid_argument("unknown type " + t);
  }
  CUDA_CHECK(cudaStreamDestroy(s));

  bench::Table table(
      {"type", "sel", "impl", "n", "check", "kept", "median ms", "Gelem/s", "GB/s", "vs CUB"});
  std::unique_ptr<bench::CsvWriter> csv;
  if (!o.csv.empty()) {
    csv = std::make_unique<bench::CsvWriter>(o.csv);
    csv->row({"device", "type", "selectivity", "impl", "n", "check", "kept", "median_ms", "min_ms",
              "reps", "gelem_s", "gb_s", "vs_cub"});
  }
  std::vector<std::string> json_rows;
  for (const Row& r : rows) {
    const std::size_t esz = r.type == "int64" || r.type == "double" ? 8 : 4;
    const double bytes = static_cast<double>(r.n + r.kept) * esz;
    const double ge = bench::gelem_per_s(static_cast<double>(r.n), r.st.median_ms);
    const double gb = bench::gb_per_s(bytes, r.st.median_ms);
    const double vs = r.cub_ms > 0 ? r.cub_ms / r.st.median_ms : 0.0;
    table.add({r.type, bench::fmt("%.2f", r.sel), r.impl, std::to_string(r.n), r.ok ? "ok" : "FAIL",
               std::to_string(r.kept), bench::fmt("%.4f", r.st.median_ms), bench::fmt("%.1f", ge),
               bench::fmt("%.0f", gb), r.cub_ms > 0 ? bench::fmt("%.2fx", vs) : "-"});
    if (csv)
      csv->row({dev.name, r.type, bench::fmt("%.2f", r.sel), r.impl, std::to_string(r.n),
                r.ok ? "ok" : "FAIL", std::to_string(r.kept), bench::fmt("%.6f", r.st.median_ms),
                bench::fmt("%.6f", r.st.min_ms), std::to_string(r.st.reps), bench::fmt("%.3f", ge),
                bench::fmt("%.2f", gb), bench::fmt("%.4f", vs)});
    json_rows.push_back(bench::Json::Object()
                            .add("type", bench::Json::str(r.type))
                            .add("selectivity", bench::Json::num(r.sel))
                            .add("impl", bench::Json::str(r.impl))
                            .add("n", bench::Json::num(static_cast<std::uint64_t>(r.n)))
                            .add("check", bench::Json::boolean(r.ok))
                            .add("kept", bench::Json::num(static_cast<std::uint64_t>(r.kept)))
                            .add("median_ms", bench::Json::num(r.st.median_ms))
                            .add("min_ms", bench::Json::num(r.st.min_ms))
                            .add("reps", bench::Json::num(r.st.reps))
                            .add("gelem_s", bench::Json::num(ge))
                            .add("gb_s", bench::Json::num(gb))
                            .add("vs_cub", bench::Json::num(vs))
                            .done());
  }
  table.print();
  if (!o.json.empty()) {
    const std::string doc =
        bench::Json::Object()
            .add("bench", bench::Json::str("compactbench"))
            .add("device", bench::Json::str(dev.name))
            .add("sm_count", bench::Json::num(dev.sm_count))
            .add("cuda_runtime", bench::Json::str(bench::cuda_version_string(dev.runtime_version)))
            .add("driver", bench::Json::str(bench::cuda_version_string(dev.driver_version)))
            .add("date", bench::Json::str(bench::utc_now_iso()))
            .add("bytes", bench::Json::str("n*sizeof(T) read + kept*sizeof(T) written"))
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
    std::fprintf(stderr, "compactbench: %s\n", e.what());
    return 2;
  }
}
