// scanbench: every scan variant of the library against CUB and the copy ceiling, n = 2^10..2^28,
// and the report's Table 2 (sequential CPU scan against the GPU) redone on today's hardware.
//
//   scanbench [--min-log 10] [--max-log 28] [--reps 100] [--algos naive,cub,...]
//             [--types int32,float] [--kind exclusive|inclusive] [--csv FILE] [--json FILE]
//             [--quick] [--no-table2] [--seed S] [--min-ms 20] [--label TEXT]
//
// Every variant goes through the public API (scandof::scan with an explicit workspace sized once,
// before any timing). Each (variant, n) is first checked against the CPU reference for every
// element (output poisoned first), then timed: CUDA events around each call after warm-up, the
// median of at least --reps calls (more when calls are short, so each point lasts >= --min-ms),
// inputs and outputs rotated over several buffer sets unless one set moves 2 x L2. Rates count
// 2 * n * sizeof(T) bytes (read + write), the traffic of an ideal scan and of a copy of n elements.
//
// Exit status: 0 all checks passed (also 0, with the message "no CUDA device: scanbench needs a
// GPU", when there is no usable device, so CI smoke runs pass on GPU-less machines); 1 a check
// failed or a variant threw; 2 bad command line; 3 a CUDA error ended the run (results gathered so
// far are still written).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "bench_util.hpp"
#include "scandof/cuda_check.hpp"
#include "scandof/ops.hpp"
#include "scandof/scan.hpp"
#include "scandof/scan_gold.hpp"

namespace {

namespace sb = scandof::bench;
using scandof::ScanAlgorithm;
using scandof::ScanKind;

// ---------------------------------------------------------------------------------------------
// Command line

struct Options {
  int min_log = 10, max_log = 28;
  int reps = 100;
  int warmup = 5;
  double min_ms = 20;
  std::vector<ScanAlgorithm> algos;
  std::vector<std::string> types{"int32", "float"};
  ScanKind kind = ScanKind::Exclusive;
  std::string csv, json;
  std::string label;  // free text kept in the JSON, e.g. the git commit the binary was built from
  bool quick = false;
  bool table2 = true;
  std::uint64_t seed = 20070815;  // any fixed value: runs are reproducible
};

// Parses the command line into `o`; returns the exit status when the program should stop now.
std::optional<int> parse_args(int argc, char** argv, Options& o) {
  CLI::App app(
      "scanbench: every scan variant of the library against CUB and the copy ceiling, n = "
      "2^10..2^28, and the report's Table 2 (sequential CPU scan against the GPU) on today's "
      "hardware.",
      "scanbench");
  app.footer("exit: 0 ok (or no CUDA device), 1 check failed, 2 usage, 3 CUDA error");
  app.option_defaults()->always_capture_default();
  std::vector<std::string> algos;
  std::string kind = "exclusive";
  bool no_table2 = false;
  auto* min_log =
      app.add_option("--min-log", o.min_log, "smallest n = 2^K")->check(CLI::Range(0, 32));
  auto* max_log =
      app.add_option("--max-log", o.max_log, "largest n = 2^K")->check(CLI::Range(0, 32));
  auto* reps = app.add_option("--reps", o.reps, "at least N timed calls per point")
                   ->check(CLI::Range(1, 1000000));
  sb::add_list(app, "--algos", algos,
               "naive, work-efficient, conflict-free, optimized, warp-shuffle, single-pass, "
               "cub; comma-separated (default: all)",
               sb::parsed_by(scandof::parse_scan_algorithm, "ALGO"));
  sb::add_list(app, "--types", o.types, "element types, comma-separated",
               CLI::IsMember(sb::type_names()));
  app.add_option("--kind", kind, "scan kind")->check(CLI::IsMember({"exclusive", "inclusive"}));
  app.add_option("--csv", o.csv, "write the rows as CSV to FILE")->type_name("FILE");
  app.add_option("--json", o.json, "write the rows, the config and Table 2 as JSON to FILE")
      ->type_name("FILE");
  app.add_flag("--quick", o.quick,
               "n = 2^10..2^16, few repetitions, Table 2 at 1,024 and 65,536 only (smoke runs)");
  app.add_flag("--no-table2", no_table2, "skip Table 2 (CPU against GPU)");
  app.add_option("--seed", o.seed, "seed of the inputs");
  auto* min_ms = app.add_option("--min-ms", o.min_ms, "each point lasts at least MS milliseconds")
                     ->check(CLI::Range(0.0, 1e6));
  app.add_option("--label", o.label, "free text kept in the JSON (e.g. the git commit)");
  if (const auto rc = sb::parse_command_line(app, argc, argv)) return rc;
  o.table2 = !no_table2;
  o.kind = kind == "inclusive" ? ScanKind::Inclusive : ScanKind::Exclusive;
  for (const auto& name : algos) o.algos.push_back(scandof::parse_scan_algorithm(name));
  if (o.quick) {
    if (!min_log->count()) o.min_log = 10;
    if (!max_log->count()) o.max_log = 16;
    if (!reps->count()) o.reps = 10;
    if (!min_ms->count()) o.min_ms = 2;
    o.warmup = 2;
  }
  if (o.algos.empty()) o.algos = scandof::all_scan_algorithms();
  if (o.min_log > o.max_log) {
    std::fprintf(stderr,
                 "scanbench: need --min-log <= --max-log\nRun with --help for more "
                 "information.\n");
    return 2;
  }
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Results

struct Row {
  std::string type, kind, variant;
  std::size_t n = 0;
  std::string check;  // ok, FAIL, ERR, or "-" (not checked: memcpy)
  std::string note;   // first mismatch or the exception text
  sb::Stats st;
  double gbps = 0, gelems = 0, vs_cub = NAN, pct_memcpy = NAN;
  std::size_t sets = 1, workspace = 0;
};

struct Cpu2 {
  std::size_t n;
  double seq_ms, par_ms;
  unsigned par_threads;
};

struct Context {
  Options opt;
  sb::DeviceInfo dev;
  int mem_bus_bits = 0;
  cudaStream_t stream = nullptr;
  std::vector<Row> rows;
  std::vector<Cpu2> cpu;
  int failures = 0;
};

// ---------------------------------------------------------------------------------------------
// Inputs and the reference
//
// Floating-point inputs are k/64 with k a nonzero integer in [-64, 64]. Every sum of a contiguous
// range of them is then a multiple of 1/64, exact in float while its magnitude stays below 2^18
// (2^47 in double). The reference verifies that bound (max prefix - min prefix), so for every
// association order a GPU variant may use, its result must equal the fp64 reference exactly: the
// check is bitwise and catches a dropped or doubled element anywhere. Rounding is not what this
// benchmark studies; with these inputs it cannot hide or fake an error. Zero-mean values keep the
// prefixes a random walk (about 10^4 at 2^28), far from the bound.

template <class T>
T make_value(std::uint64_t h) {
  if constexpr (std::is_same<T, std::uint32_t>::value) {
    return static_cast<std::uint32_t>(h);  // full range: wraps, exact under modular arithmetic
  } else if constexpr (std::is_integral<T>::value) {
    const std::int64_t range = sizeof(T) == 4 ? 1000 : (std::int64_t(1) << 40);
    return static_cast<T>(static_cast<std::int64_t>(h % (2 * range + 1)) - range);
  } else {
    const int k = 1 + static_cast<int>(h % 64);
    return static_cast<T>(((h >> 32) & 1) ? k : -k) / T(64);
  }
}

template <class T>
using RefT = typename std::conditional<std::is_same<T, float>::value, double, T>::type;

template <class T>
struct HostData {
  std::vector<T> in;         // rotation pool: P elements (the first n_max are the checked input)
  std::vector<RefT<T>> ref;  // scan of in[0, n_max): a prefix of it is the scan of any prefix
  bool exact = true;         // floating point: every range sum representable (see above)
  double tol = 0;
};

template <class T>
void fill_input(std::vector<T>& v, std::uint64_t seed) {
  scandof::util::parallel_for(v.size(), [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) v[i] = make_value<T>(scandof::util::hash_at(seed, i));
  });
}

template <class T>
HostData<T> make_host_data(std::size_t pool, std::size_t n_max, ScanKind kind, std::uint64_t seed) {
  HostData<T> h;
  h.in.resize(pool);
  fill_input(h.in, seed);
  h.ref.resize(n_max);
  using R = RefT<T>;
  if constexpr (std::is_same<R, T>::value) {
    scandof::scan_gold_parallel(kind, h.in.data(), h.ref.data(), n_max, scandof::Sum{}, T(0));
  } else {
    scandof::util::parallel_for(n_max, [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) h.ref[i] = static_cast<R>(h.in[i]);
    });
    scandof::scan_gold_parallel(kind, h.ref.data(), h.ref.data(), n_max, scandof::Sum{}, R(0));
  }
  if constexpr (std::is_floating_point<T>::value) {
    // Range sums are differences of inclusive prefixes (with the empty prefix 0 among them).
    double lo = 0, hi = 0, acc = 0;
    for (std::size_t i = 0; i < n_max; ++i) {
      acc += static_cast<double>(h.in[i]);
      lo = std::min(lo, acc), hi = std::max(hi, acc);
    }
    const double bound = std::is_same<T, float>::value ? 262144.0 : 140737488355328.0;
    h.exact = (hi - lo) < bound;
    // Outside the exact regime: a loose bound of log2(n) roundings at the largest range magnitude.
    h.tol = h.exact ? 0.0
                    : 4.0 * std::numeric_limits<T>::epsilon() * (hi - lo) *
                          std::max(1.0, std::log2(static_cast<double>(n_max)));
  }
  return h;
}

// Compares got[0, n) with ref[0, n) in parallel; returns the mismatch count and the first one.
template <class T>
std::size_t compare(const T* got, const RefT<T>* ref, std::size_t n, double tol,
                    std::string* first) {
  std::atomic<std::size_t> bad{0};
  std::atomic<std::size_t> first_i{n};
  scandof::util::parallel_for(n, [&](std::size_t b, std::size_t e) {
    std::size_t local = 0, local_first = n;
    for (std::size_t i = b; i < e; ++i) {
      bool okv;
      if constexpr (std::is_floating_point<T>::value)
        okv = std::fabs(static_cast<double>(got[i]) - static_cast<double>(ref[i])) <=
              tol;  // NaN fails
      else
        okv = got[i] == ref[i];
      if (!okv) {
        ++local;
        if (local_first == n) local_first = i;
      }
    }
    bad += local;
    std::size_t cur = first_i.load();
    while (local_first < cur && !first_i.compare_exchange_weak(cur, local_first)) {
    }
  });
  if (bad && first) {
    const std::size_t i = first_i.load();
    std::ostringstream s;
    s.precision(17);
    s << bad.load() << " of " << n << " wrong, first at " << i << ": got " << +got[i] << " want "
      << +ref[i];
    *first = s.str();
  }
  return bad;
}

// ---------------------------------------------------------------------------------------------
// The sweep for one element type

void print_row_header(const char* type, ScanKind kind) {
  std::printf("\n== %s %s scan ==\n", type, scandof::to_string(kind));
  std::printf("%-15s %11s %5s %11s %9s %9s %7s %8s %6s %5s\n", "variant", "n", "check", "median_ms",
              "GB/s", "Gelem/s", "vs_cub", "%memcpy", "reps", "sets");
  std::fflush(stdout);
}

void print_row(const Row& r) {
  std::printf("%-15s %11zu %5s %11.5f %9.1f %9.2f %7s %8s %6d %5zu%s%s\n", r.variant.c_str(), r.n,
              r.check.c_str(), r.st.median_ms, r.gbps, r.gelems,
              std::isnan(r.vs_cub) ? "-" : sb::fmt("%.2f", r.vs_cub).c_str(),
              std::isnan(r.pct_memcpy) ? "-" : sb::fmt("%.1f%%", r.pct_memcpy).c_str(), r.st.reps,
              r.sets, r.note.empty() ? "" : "  # ", r.note.c_str());
  std::fflush(stdout);
}

template <class T>
void sweep(Context& ctx, const std::vector<std::size_t>& sizes, ScanKind kind,
           const std::vector<ScanAlgorithm>& algos) {
  const char* tname = sb::type_name<T>();
  const std::size_t n_max = *std::max_element(sizes.begin(), sizes.end());
  const std::size_t l2 = std::max<std::size_t>(ctx.dev.l2_bytes, 1 << 20);

  // One input pool and one output pool, big enough for the largest n and for every rotation.
  std::size_t pool = n_max;
  for (std::size_t n : sizes) pool = std::max(pool, n * sb::rotation_sets(2 * n * sizeof(T), l2));

  std::printf("\n[%s] preparing %zu elements of input and the CPU reference...\n", tname, pool);
  std::fflush(stdout);
  HostData<T> host = make_host_data<T>(pool, n_max, kind, ctx.opt.seed);
  if (!host.exact)
    std::printf("[%s] warning: range sums exceed the exact regime, tolerance %.3g\n", tname,
                host.tol);
  std::vector<T> got(n_max);

  sb::DeviceBuffer<T> d_in(pool), d_out(pool);
  CUDA_CHECK(cudaMemcpy(d_in.get(), host.in.data(), pool * sizeof(T), cudaMemcpyHostToDevice));

  // Scratch sized once for the largest need of any variant at any size: the timed loop allocates
  // nothing.
  std::size_t ws_max = 0;
  for (ScanAlgorithm a : algos)
    for (std::size_t n : sizes) {
      try {
        ws_max = std::max(ws_max, scandof::scan_workspace_bytes<T, scandof::Sum>(a, n));
      } catch (const scandof::CudaError&) {
        throw;
      } catch (const std::exception&) {
        // Reported as ERR when the variant runs.
      }
    }
  scandof::ScanWorkspace ws;
  ws.reserve(ws_max);
  sb::CubSumScan<T> cub;
  const bool inclusive = kind == ScanKind::Inclusive;
  cub.prepare(n_max, inclusive);

  sb::EventTimer timer(ctx.stream);
  sb::TimingOptions topt;
  topt.warmup = ctx.opt.warmup;
  topt.min_reps = ctx.opt.reps;
  topt.min_total_ms = ctx.opt.min_ms;

  print_row_header(tname, kind);
  for (std::size_t n : sizes) {
    const std::size_t sets = sb::rotation_sets(2 * n * sizeof(T), l2);
    const double bytes = 2.0 * static_cast<double>(n) * sizeof(T);
    T* const in = d_in.get();
    T* const out = d_out.get();

    auto finish = [&](Row& r) {
      r.type = tname;
      r.kind = scandof::to_string(kind);
      r.n = n;
      r.sets = sets;
      r.gbps = sb::gb_per_s(bytes, r.st.median_ms);
      r.gelems = sb::gelem_per_s(static_cast<double>(n), r.st.median_ms);
    };

    // Poison, run once on set 0, compare every element with the reference.
    auto check = [&](Row& r, const std::function<void()>& run_once) {
      CUDA_CHECK(cudaMemsetAsync(out, 0xA5, n * sizeof(T), ctx.stream));
      run_once();
      CUDA_CHECK(cudaStreamSynchronize(ctx.stream));
      CUDA_CHECK(cudaMemcpy(got.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost));
      const std::size_t bad = compare<T>(got.data(), host.ref.data(), n, host.tol, &r.note);
      r.check = bad ? "FAIL" : "ok";
      if (bad) ++ctx.failures;
    };

    Row copy;
    copy.variant = "memcpy";
    copy.check = "-";
    copy.st = timer.measure(
        [&](int rep) {
          const std::size_t s = static_cast<std::size_t>(rep) % sets;
          sb::memcpy_d2d(out + s * n, in + s * n, n * sizeof(T), ctx.stream);
        },
        topt);
    finish(copy);
    copy.pct_memcpy = 100.0;

    Row cubrow;
    cubrow.variant = "cub-direct";
    check(cubrow, [&] { cub(in, out, n, inclusive, ctx.stream); });
    cubrow.st = timer.measure(
        [&](int rep) {
          const std::size_t s = static_cast<std::size_t>(rep) % sets;
          cub(in + s * n, out + s * n, n, inclusive, ctx.stream);
        },
        topt);
    finish(cubrow);
    const double cub_ms = cubrow.st.median_ms, copy_ms = copy.st.median_ms;
    auto relate = [&](Row& r) {
      if (r.st.median_ms > 0) {
        r.vs_cub = cub_ms / r.st.median_ms;
        r.pct_memcpy = 100.0 * copy_ms / r.st.median_ms;
      }
    };
    relate(cubrow);
    copy.vs_cub = cub_ms / copy_ms;
    print_row(copy);
    print_row(cubrow);
    ctx.rows.push_back(copy);
    ctx.rows.push_back(cubrow);

    for (ScanAlgorithm a : algos) {
      Row r;
      r.variant = scandof::to_string(a);
      try {
        const std::size_t need = scandof::scan_workspace_bytes<T, scandof::Sum>(a, n);
        r.workspace = need;
        auto launch = [&, a](const T* src, T* dst) {
          scandof::scan<T, scandof::Sum>(a, kind, src, dst, n, scandof::Sum{}, T(0), ws.data(),
                                         ws.size(), ctx.stream);
        };
        // Zero once per variant, outside the timing, as a user zeroes a workspace once: the
        // single pass keeps its look-back state there between calls, the others scribble on it.
        scandof::clear_workspace(ws.data(), ws.size(), ctx.stream);
        check(r, [&] { launch(in, out); });
        r.st = timer.measure(
            [&](int rep) {
              const std::size_t s = static_cast<std::size_t>(rep) % sets;
              launch(in + s * n, out + s * n);
            },
            topt);
        finish(r);
        relate(r);
      } catch (const scandof::CudaError&) {
        throw;  // the context may be unusable: stop, keep what was measured
      } catch (const std::exception& e) {
        r.type = tname, r.kind = scandof::to_string(kind), r.n = n, r.sets = sets;
        r.check = "ERR";
        r.note = e.what();
        ++ctx.failures;
      }
      print_row(r);
      ctx.rows.push_back(r);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Table 2 of the report: exclusive float scan, CPU (one core) against GPU

struct PaperRow {
  std::size_t n;
  double cpu_ms, gpu_ms;
};
// GeForce 8800 GTX against one core of a 2.93 GHz Core Duo (2007).
const PaperRow kPaper[] = {
    {1024, 0.0022, 0.079}, {65536, 0.146, 0.137}, {1048576, 5.90, 1.12}, {16777216, 94.8, 15.85}};

const Row* find_row(const Context& ctx, const std::string& type, const std::string& variant,
                    std::size_t n, std::size_t from = 0) {
  for (std::size_t i = from; i < ctx.rows.size(); ++i) {
    const Row& r = ctx.rows[i];
    if (r.type == type && r.variant == variant && r.n == n) return &r;
  }
  return nullptr;
}

void table2(Context& ctx) {
  std::vector<std::size_t> sizes;
  for (const auto& p : kPaper)
    if (!ctx.opt.quick || p.n <= 65536) sizes.push_back(p.n);

  // GPU times come from the sweep when it covered exclusive float at these sizes; otherwise the
  // missing ones are measured now (they join ctx.rows like any other row).
  std::vector<std::size_t> missing;
  const bool sweep_has = ctx.opt.kind == ScanKind::Exclusive;
  for (std::size_t n : sizes)
    if (!sweep_has || !find_row(ctx, "float", "cub-direct", n)) missing.push_back(n);
  std::size_t first_new = ctx.rows.size();
  if (!missing.empty()) {
    std::printf("\n[table 2] measuring exclusive float scans at the report's sizes\n");
    sweep<float>(ctx, missing, ScanKind::Exclusive, ctx.opt.algos);
  }

  // CPU columns: the paper's sequential loop on one core, and the multi-threaded two-pass scan.
  const std::size_t n_max = sizes.back();
  std::vector<float> in(n_max), out(n_max);
  fill_input(in, ctx.opt.seed);
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  for (std::size_t n : sizes) {
    Cpu2 c;
    c.n = n;
    c.seq_ms =
        sb::time_host([&] {
          scandof::scan_gold(ScanKind::Exclusive, in.data(), out.data(), n, scandof::Sum{}, 0.0f);
        }).median_ms;
    // Thread count passed in: asking hardware_concurrency() inside costs microseconds, which would
    // swamp the 1,024-element case (that size runs sequentially anyway: chunks of >= 2^16).
    c.par_ms = sb::time_host([&] {
                 scandof::scan_gold_parallel(ScanKind::Exclusive, in.data(), out.data(), n,
                                             scandof::Sum{}, 0.0f, hw);
               }).median_ms;
    c.par_threads = static_cast<unsigned>(
        std::max<std::size_t>(1, std::min<std::size_t>(hw, n / (std::size_t(1) << 16))));
    ctx.cpu.push_back(c);
  }
  volatile float sink = out[n_max - 1];  // keep the CPU scans observable
  (void)sink;

  // Rows from the sweep (kind exclusive) or from the measurement just made.
  auto gpu_row = [&](const std::string& variant, std::size_t n) -> const Row* {
    const Row* r = nullptr;
    if (sweep_has) r = find_row(ctx, "float", variant, n);
    if (!r || std::find(missing.begin(), missing.end(), n) != missing.end())
      r = find_row(ctx, "float", variant, n, first_new);
    return r;
  };

  std::vector<std::string> header{"elements", "paper CPU", "paper GPU", "CPU 1 core",
                                  "CPU threads"};
  std::vector<std::string> variants;
  for (ScanAlgorithm a : ctx.opt.algos) variants.push_back(scandof::to_string(a));
  variants.push_back("cub-direct");
  variants.push_back("memcpy");
  for (const auto& v : variants) header.push_back(v);
  header.push_back("best GPU vs 1 core");
  sb::Table tab(header);
  for (const Cpu2& c : ctx.cpu) {
    const PaperRow* p = nullptr;
    for (const auto& q : kPaper)
      if (q.n == c.n) p = &q;
    std::vector<std::string> cells{std::to_string(c.n), sb::fmt("%.4f", p->cpu_ms),
                                   sb::fmt("%.4f", p->gpu_ms), sb::fmt("%.4f", c.seq_ms),
                                   sb::fmt("%.4f (%u)", c.par_ms, c.par_threads)};
    double best = INFINITY;
    for (const auto& v : variants) {
      const Row* r = gpu_row(v, c.n);
      if (r && (r->check == "ok" || r->check == "-")) {  // "-": memcpy, nothing to check
        cells.push_back(sb::fmt("%.4f", r->st.median_ms));
        if (v != "memcpy") best = std::min(best, r->st.median_ms);
      } else {
        cells.push_back(r ? r->check : "-");
      }
    }
    cells.push_back(std::isfinite(best) ? sb::fmt("%.1fx", c.seq_ms / best) : "-");
    tab.add(cells);
  }
  std::printf(
      "\n== Table 2: exclusive float scan, ms (paper: GeForce 8800 GTX vs one Core Duo core"
      " at 2.93 GHz) ==\nhost CPU: %s, %u threads\n",
      sb::host_cpu_name().c_str(), hw);
  tab.print();
}

// ---------------------------------------------------------------------------------------------
// Writing results

sb::Json row_json(const Row& r) {
  sb::Json o = {{"type", r.type},           {"kind", r.kind},
                {"variant", r.variant},     {"n", r.n},
                {"check", r.check},         {"median_ms", r.st.median_ms},
                {"min_ms", r.st.min_ms},    {"max_ms", r.st.max_ms},
                {"mean_ms", r.st.mean_ms},  {"reps", r.st.reps},
                {"gb_per_s", r.gbps},       {"gelem_per_s", r.gelems},
                {"vs_cub", r.vs_cub},  // NaN (no CUB time) is written as null
                {"pct_memcpy", r.pct_memcpy}, {"sets", r.sets},
                {"workspace_bytes", r.workspace}};
  if (!r.note.empty()) o["note"] = r.note;
  return o;
}

void write_outputs(const Context& ctx, const std::string& status) {
  const Options& o = ctx.opt;
  if (!o.csv.empty()) {
    sb::Csv csv({"type", "kind", "variant", "n", "check", "median_ms", "min_ms", "max_ms", "reps",
                 "gb_per_s", "gelem_per_s", "vs_cub", "pct_memcpy", "sets", "note"});
    for (const Row& r : ctx.rows)
      csv.row({r.type, r.kind, r.variant, std::to_string(r.n), r.check,
               sb::fmt("%.6g", r.st.median_ms), sb::fmt("%.6g", r.st.min_ms),
               sb::fmt("%.6g", r.st.max_ms), std::to_string(r.st.reps), sb::fmt("%.6g", r.gbps),
               sb::fmt("%.6g", r.gelems), std::isnan(r.vs_cub) ? "" : sb::fmt("%.4g", r.vs_cub),
               std::isnan(r.pct_memcpy) ? "" : sb::fmt("%.4g", r.pct_memcpy),
               std::to_string(r.sets), r.note});
    csv.save(o.csv);
    std::printf("wrote %s\n", o.csv.c_str());
  }
  if (!o.json.empty()) {
    const sb::DeviceInfo& d = ctx.dev;
    sb::Json dev;
    dev["name"] = d.name;
    dev["compute_capability"] = std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor);
    dev["sm_count"] = d.sm_count;
    dev["l2_bytes"] = d.l2_bytes;
    dev["global_mem_bytes"] = d.global_bytes;
    dev["memory_bus_bits"] = ctx.mem_bus_bits;
    dev["driver_version"] = scandof::util::cuda_version_string(d.driver_version);
    dev["runtime_version"] = scandof::util::cuda_version_string(d.runtime_version);
    sb::Json cfg;
    cfg["min_log"] = o.min_log;
    cfg["max_log"] = o.max_log;
    cfg["min_reps"] = o.reps;
    cfg["warmup"] = o.warmup;
    cfg["min_total_ms"] = o.min_ms;
    cfg["quick"] = o.quick;
    cfg["seed"] = o.seed;
    cfg["algos"] = sb::Json::array();
    for (ScanAlgorithm a : o.algos) cfg["algos"].push_back(scandof::to_string(a));
    cfg["types"] = o.types;
    cfg["bytes_counted"] = "2 * n * sizeof(T): read + write";
    cfg["rotation"] =
        "buffer sets rotated until 2 x L2 of traffic separates two uses of one set; 1 set once a "
        "set moves 2 x L2";
    sb::Json rows = sb::Json::array();
    for (const Row& r : ctx.rows) rows.push_back(row_json(r));

    // Table 2: CPU columns plus each GPU row's median at the report's sizes.
    sb::Json t2 = sb::Json::array();
    for (const Cpu2& c : ctx.cpu) {
      sb::Json e;
      e["n"] = c.n;
      e["cpu_seq_ms"] = c.seq_ms;
      e["cpu_par_ms"] = c.par_ms;
      e["cpu_par_threads"] = c.par_threads;
      for (const auto& p : kPaper)
        if (p.n == c.n) e["paper_cpu_ms"] = p.cpu_ms, e["paper_gpu_ms"] = p.gpu_ms;
      // The last row for (float, variant, n) is the exclusive one: either the sweep's (when it was
      // exclusive) or the Table 2 measurement appended after it.
      std::map<std::string, const Row*> last;
      for (const Row& r : ctx.rows)
        if (r.type == "float" && r.n == c.n) last[r.variant] = &r;
      sb::Json g = sb::Json::object();
      for (const auto& kv : last)
        g[kv.first] = (kv.second->check == "ok" || kv.second->check == "-")
                          ? sb::Json(kv.second->st.median_ms)
                          : sb::Json(nullptr);
      e["gpu_ms"] = g;
      t2.push_back(e);
    }
    sb::Json t2o;
    t2o["type"] = "float";
    t2o["kind"] = "exclusive";
    t2o["paper_hardware"] = "GeForce 8800 GTX; CPU: one core of a 2.93 GHz Intel Core Duo";
    t2o["rows"] = t2;

    sb::Json root;
    root["benchmark"] = "scanbench";
    root["status"] = status;
    root["label"] = o.label;
    root["date_utc"] = sb::utc_now_iso();
    root["device"] = dev;
    root["record"] = scandof::provenance::record(d.name);
    root["cuda_runtime"] = scandof::util::cuda_version_string(d.runtime_version);
    root["host_cpu"] = sb::host_cpu_name();
    root["host_threads"] = std::thread::hardware_concurrency();
    root["kind"] = scandof::to_string(o.kind);
    root["config"] = cfg;
    root["failures"] = ctx.failures;
    root["results"] = rows;
    root["table2"] = t2o;
    sb::write_json(o.json, root);
    std::printf("wrote %s\n", o.json.c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  scandof::provenance::set_command_line(argc, argv);
  Context ctx;
  if (const auto rc = parse_args(argc, argv, ctx.opt)) return *rc;
  std::string why;
  if (!scandof::cuda_device_available(&why)) {
    // Exit 0 on purpose: CI machines have no GPU and run this as a smoke test.
    std::printf("no CUDA device: scanbench needs a GPU (%s)\n", why.c_str());
    return 0;
  }
  try {
    ctx.dev = scandof::util::current_device();
    CUDA_CHECK(cudaDeviceGetAttribute(&ctx.mem_bus_bits, cudaDevAttrGlobalMemoryBusWidth,
                                      ctx.dev.ordinal));
    scandof::util::Stream stream;
    ctx.stream = stream;
    std::printf("scanbench on %s (sm_%d%d, %d SMs, L2 %.0f MB), CUDA runtime %s, driver %s\n",
                ctx.dev.name.c_str(), ctx.dev.cc_major, ctx.dev.cc_minor, ctx.dev.sm_count,
                ctx.dev.l2_bytes / 1e6,
                scandof::util::cuda_version_string(ctx.dev.runtime_version).c_str(),
                scandof::util::cuda_version_string(ctx.dev.driver_version).c_str());
    std::printf(
        "host: %s; %s scan; bytes = 2*n*sizeof(T); vs_cub = cub time / time; "
        "%%memcpy = memcpy time / time\n",
        sb::host_cpu_name().c_str(), scandof::to_string(ctx.opt.kind));
    {
      // Bring clocks up before the first (launch-bound) point: without this the first 2^10 point
      // of a run measured 25 us against 5 us for the next sizes (H100, one run).
      const std::size_t bytes = std::size_t(256) << 20;
      sb::DeviceBuffer<unsigned char> a(bytes), b(bytes);
      const auto t0 = std::chrono::steady_clock::now();
      while (std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(300)) {
        for (int i = 0; i < 20; ++i) sb::memcpy_d2d(b.get(), a.get(), bytes, ctx.stream);
        stream.sync();
      }
    }
    std::vector<std::size_t> sizes;
    for (int k = ctx.opt.min_log; k <= ctx.opt.max_log; ++k) sizes.push_back(std::size_t(1) << k);
    for (const auto& t : ctx.opt.types)
      sb::with_type(t, [&](auto tag) {
        sweep<typename decltype(tag)::type>(ctx, sizes, ctx.opt.kind, ctx.opt.algos);
      });
    if (ctx.opt.table2) table2(ctx);
    write_outputs(ctx, ctx.failures ? "failures" : "ok");
  } catch (const std::exception& e) {
    // Results gathered so far are still written, with the reason in "status".
    const bool cuda = dynamic_cast<const scandof::CudaError*>(&e) != nullptr;
    std::fprintf(stderr, "scanbench: %s%s\n", cuda ? "CUDA error: " : "", e.what());
    try {
      write_outputs(ctx, std::string(cuda ? "cuda error: " : "error: ") + e.what());
    } catch (...) {
    }
    return 3;
  }
  if (ctx.failures) {
    std::printf("\n%d check(s) failed or variant(s) threw\n", ctx.failures);
    return 1;
  }
  std::printf("\nall checks passed\n");
  return 0;
}
