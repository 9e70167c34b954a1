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
#include <limits>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "scandof/compact.hpp"
#include "scandof/device/compact_impl.cuh"

namespace scandof {
namespace {

using bench::DeviceBuffer;

template <class T>
struct UniformValue {
  __device__ T operator()(std::uint64_t, std::uint64_t h) const {
    return bench::uniform_value<T>(h);
  }
};

struct Options : bench::SweepOptions {
  std::vector<std::string> types = {"int32"};
  std::vector<double> sels = {0.01, 0.5, 0.99};
  std::vector<std::string> algos;  // empty: all_compact_algorithms()
  std::string paper_scan = "optimized";
};

struct Row {
  std::string type, impl;
  double sel;
  std::size_t n, kept;
  bool ok;
  bench::Stats st;
  double cub_ms;
};

// One policy of the single pass (or reduce-then-scan) behind the public defaults: its name and
// the compaction compiled for it.
template <class T>
struct Variant {
  std::string name;
  CompactAlgorithm algo;
  void (*run)(const T* in, T* out, std::uint64_t* d_count, std::size_t n, LessThan<T> pred,
              void* ws, std::size_t ws_bytes, cudaStream_t s, CompactOptions opt);
};

template <class P, class T>
void run_with_policy(const T* in, T* out, std::uint64_t* d_count, std::size_t n, LessThan<T> pred,
                     void* ws, std::size_t ws_bytes, cudaStream_t s, CompactOptions opt) {
  detail::compact::run<false, P>("compactbench", in, out, d_count, n,
                                 detail::compact::PredSelect<LessThan<T>>{pred}, false, nullptr, ws,
                                 ws_bytes, s, opt);
}

template <class T, int kBytes, unsigned kFirst, unsigned kSpin>
Variant<T> single_pass_variant() {
  return {"single-pass[" + std::to_string(kBytes) + "B,pace" + std::to_string(kFirst) + "/" +
              std::to_string(kSpin) + "permille]",
          CompactAlgorithm::SinglePass,
          run_with_policy<detail::compact::SinglePassPolicy<kBytes, kFirst, kSpin>, T>};
}

template <class T>
std::vector<Variant<T>> policy_variants() {
  // Pacing in thousandths of a wave (device/lookback_pacing.cuh).
  return {single_pass_variant<T, 128, 500, 80>(),  // the scan's pacing
          single_pass_variant<T, 128, 194, 39>(),  // the default
          single_pass_variant<T, 128, 100, 30>(),
          single_pass_variant<T, 128, 0, 0>(),
          single_pass_variant<T, 96, 194, 39>(),
          single_pass_variant<T, 64, 500, 80>(),
          {"reduce-then-scan[vec16]", CompactAlgorithm::ReduceThenScan,
           run_with_policy<detail::compact::DefaultSinglePassPolicy, T>}};
}

template <class T>
void run_type(const char* tname, const Options& o, const bench::DeviceInfo& dev, cudaStream_t s,
              std::vector<Row>& rows, bool& all_ok) {
  bench::EventTimer timer(s);
  bench::TimingOptions topt;
  if (o.quick) topt.min_reps = 10, topt.min_total_ms = 2;
  std::vector<CompactAlgorithm> algos;
  for (const auto& a : o.algos) algos.push_back(parse_compact_algorithm(a));
  if (algos.empty()) algos = all_compact_algorithms();
  const ScanAlgorithm paper_scan = parse_scan_algorithm(o.paper_scan);
  const std::size_t max_n = std::size_t(1) << o.max_log;
  // Buffer sets: rotate unless one set (in + out) moves 2 x L2 (rotation.hpp), total ~2 x L2.
  const std::size_t max_sets =
      bench::rotation_sets(2 * (std::size_t(1) << o.min_log) * sizeof(T), dev.l2_bytes);
  std::vector<DeviceBuffer<T>> ins, outs;
  DeviceBuffer<T> ref_out(max_n);
  DeviceBuffer<std::uint64_t> d_counts(max_sets + 1);
  bench::DeviceDiff diff;
  std::size_t cub_bytes = 0;
  CUDA_CHECK(cub::DeviceSelect::If(nullptr, cub_bytes, static_cast<const T*>(nullptr),
                                   static_cast<T*>(nullptr), static_cast<std::uint64_t*>(nullptr),
                                   static_cast<int>(max_n), LessThan<T>{T(0)}, s));
  DeviceBuffer<unsigned char> cub_tmp(cub_bytes);
  std::size_t our_bytes = 0;
  for (CompactAlgorithm a : algos)
    our_bytes = std::max(our_bytes, compact_workspace_bytes<T>(max_n, {a, paper_scan}));
  DeviceBuffer<unsigned char> our_tmp(std::max<std::size_t>(our_bytes, 1));

  for (int lg = o.min_log; lg <= o.max_log; ++lg) {
    const std::size_t n = std::size_t(1) << lg;
    const std::size_t sets = bench::rotation_sets(2 * n * sizeof(T), dev.l2_bytes);
    ins.resize(std::max(ins.size(), sets));
    outs.resize(std::max(outs.size(), sets));
    for (std::size_t k = 0; k < sets; ++k) {
      if (ins[k].size() < n) {
        ins[k].resize(n);
        outs[k].resize(n);
      }
      bench::fill(ins[k].get(), n, 0xC0FFEEull + k, UniformValue<T>{}, s);
    }
    // Sets beyond this size's count are released once sizes stop needing them.
    for (std::size_t k = sets; k < ins.size(); ++k) ins[k].release(), outs[k].release();
    for (double sel : o.sels) {
      const LessThan<T> pred{bench::threshold_for<T>(sel)};
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
      // Times go(rep) over the rotated sets, then checks a fresh run on set 0 against CUB's output.
      // A single pass after any other use of our_tmp starts from a zeroed look-back state (the
      // workspace's contract, compact.hpp); then every timed call is its one launch.
      auto time_and_check = [&](const std::string& name, auto&& go, CompactAlgorithm a,
                                std::size_t wb) {
        if (a == CompactAlgorithm::SinglePass) scandof::clear_workspace(our_tmp.get(), wb, s);
        const bench::Stats st = timer.measure(go, topt);
        CUDA_CHECK(cudaMemsetAsync(outs[0].get(), 0xAB, n * sizeof(T), s));
        go(0);
        std::uint64_t got_k = 0;
        CUDA_CHECK(cudaMemcpyAsync(&got_k, d_counts.get(), 8, cudaMemcpyDeviceToHost, s));
        diff.reset(s);
        diff.add(outs[0].get(), ref_out.get(), ref_k, s);
        const bool ok = got_k == ref_k && diff.result(s) == 0;
        all_ok = all_ok && ok;
        rows.push_back({tname, name, sel, n, got_k, ok, st, cub_st.median_ms});
      };
      for (CompactAlgorithm a : algos) {
        const CompactOptions opt{a, paper_scan};
        const std::size_t wb = compact_workspace_bytes<T>(n, opt);
        std::string name = to_string(a);
        if (a == CompactAlgorithm::Paper) name += std::string("/") + to_string(paper_scan);
        time_and_check(name, [&](int rep) {
          const std::size_t k = rep % sets;
          compact_if(ins[k].get(), outs[k].get(), d_counts.get() + k, n, pred, our_tmp.get(), wb, s,
                     opt);
        }, a, wb);
      }
      // The policies behind the public defaults, each checked against CUB like the rest.
      if (o.variants && lg >= 20 && lg % 2 == 0) {
        for (const Variant<T>& var : policy_variants<T>()) {
          const CompactOptions opt{var.algo, paper_scan};
          const std::size_t wb = compact_workspace_bytes<T>(n, opt);
          time_and_check(var.name, [&](int rep) {
            const std::size_t k = rep % sets;
            var.run(ins[k].get(), outs[k].get(), d_counts.get() + k, n, pred, our_tmp.get(), wb, s,
                    opt);
          }, var.algo, wb);
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
  CLI::App app(
      "compactbench: stream compaction against cub::DeviceSelect::If and cudaMemcpy D2D in one "
      "run (Figure 39-11 for today's GPU). Every output (count and kept elements) is compared with "
      "CUB's at every size; a mismatch makes the exit code 1.",
      "compactbench");
  app.option_defaults()->always_capture_default();
  bench::add_sweep_options(
      app, o, 30, "also time the single-pass policies behind the defaults (n = 2^20, 2^22, ...)");
  bench::add_list(app, "--types", o.types, "element types, comma-separated",
                  CLI::IsMember(bench::type_names()));
  bench::add_list(app, "--sel", o.sels, "selectivities (fractions kept), comma-separated",
                  CLI::Range(0.0, 1.0));
  bench::add_list(app, "--algos", o.algos,
                  "paper, reduce-then-scan, single-pass, comma-separated (default: all)",
                  bench::parsed_by(parse_compact_algorithm, "ALGO"));
  app.add_option("--paper-scan", o.paper_scan, "the block scan inside the paper's compaction")
      ->check(bench::parsed_by(parse_scan_algorithm, "SCAN"));
  if (const auto rc = bench::parse_command_line(app, argc, argv)) return *rc;
  if (const auto rc = bench::check_sweep_options("compactbench", o)) return *rc;
  const bench::DeviceInfo dev = util::current_device();
  bench::print_banner("compactbench", dev);
  util::Stream stream;
  std::vector<Row> rows;
  bool all_ok = true;
  for (const auto& t : o.types)
    bench::with_type(t, [&](auto tag) {
      run_type<typename decltype(tag)::type>(t.c_str(), o, dev, stream, rows, all_ok);
    });

  bench::Report report(
      "compactbench", dev, "n*sizeof(T) read + kept*sizeof(T) written", {"gelem_s", "%.1f", "%.3f"},
      {"type", "sel", "impl", "n", "check", "kept", "median ms", "Gelem/s", "GB/s", "vs CUB"},
      {"device", "type", "selectivity", "impl", "n", "check", "kept", "median_ms", "min_ms", "reps",
       "gelem_s", "gb_s", "vs_cub"});
  for (const Row& r : rows) {
    const std::size_t esz = r.type == "int64" || r.type == "double" ? 8 : 4;
    const double bytes = static_cast<double>(r.n + r.kept) * esz;
    report.add({{"type", r.type},
                {"selectivity", r.sel, bench::fmt("%.2f", r.sel)},
                {"impl", r.impl},
                {"n", r.n},
                bench::check_field(r.ok),
                {"kept", r.kept}},
               bench::Measured(r.st, static_cast<double>(r.n), bytes, r.cub_ms));
  }
  return report.finish(o.csv, o.json, all_ok);
}

}  // namespace
}  // namespace scandof

int main(int argc, char** argv) {
  // 2: the status these benchmarks have always given for any error that ends a run.
  return scandof::bench::guarded_main("compactbench", scandof::run, argc, argv, 2);
}
