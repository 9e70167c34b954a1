// What the benchmarks in bench/ share beyond the library's util layer (include from .cu files only:
// the CUB baseline needs nvcc).
//
//   util::EventTimer timer(stream);
//   auto st = timer.measure([&](int rep) { launch(rep % sets); }, opts);   // st.median_ms
//
// The measuring rule is the project's (scandof/util/event_timer.hpp): CUDA events on one stream
// after warm-up, medians over many repetitions. This header adds what only benchmarks need: inputs
// rotated over several buffer sets (rotation.hpp), cudaMemcpy D2D and CUB as baselines in
// the same run, bytes counted as read plus written, a device-side comparison against the baseline's
// output, and the reports (console table, CSV, JSON through nlohmann-json, command lines through
// CLI11).
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "rotation.hpp"

#include <CLI/CLI.hpp>
#include <cuda_runtime_api.h>
#include <cub/device/device_scan.cuh>
#include <nlohmann/json.hpp>

#include "scandof/cuda_check.hpp"
#include "scandof/provenance.hpp"
#include "scandof/util/device_buffer.hpp"
#include "scandof/util/event_timer.hpp"
#include "scandof/util/file_io.hpp"
#include "scandof/util/parallel_for.hpp"
#include "scandof/util/rng.hpp"
#include "scandof/util/stats.hpp"
#include "scandof/util/stream.hpp"
#include "inputs.hpp"

namespace scandof {
namespace bench {

using util::DeviceBuffer;
using util::DeviceInfo;
using util::EventTimer;
using util::Stats;
using util::TimingOptions;
// Keys stay in the order they are added, as the committed results/ files have them.
using Json = nlohmann::ordered_json;

// ---------------------------------------------------------------------------------------------
// Command lines

// Parses with CLI11. Returns the exit status when the program should stop now: 0 after --help,
// 2 (with CLI11's message on stderr) for an unknown flag, a missing value or one out of range.
inline std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  return std::nullopt;
}

// main() of a benchmark whose run(argc, argv) may throw: reports the exception as
// "PROGRAM: what" and returns `error_status`.
template <class Run>
int guarded_main(const char* program, Run run, int argc, char** argv, int error_status) {
  scandof::provenance::set_command_line(argc, argv);
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", program, e.what());
    return error_status;
  }
}

// A comma-separated list option (`--types int32,float`), each item checked by `each`.
template <class T>
CLI::Option* add_list(CLI::App& app, const std::string& name, std::vector<T>& into,
                      const std::string& help, const CLI::Validator& each) {
  return app.add_option(name, into, help)->delimiter(',')->check(each)->expected(1, 1 << 20);
}

// A validator from a parse function that throws on a bad name (parse_scan_algorithm, ...).
template <class Parse>
CLI::Validator parsed_by(Parse parse, const std::string& what) {
  return CLI::Validator(
      [parse](std::string& s) -> std::string {
        try {
          parse(s);
          return {};
        } catch (const std::exception& e) {
          return e.what();
        }
      },
      what);
}

// The options every size sweep has (compactbench, sortbench): n = 2^min_log .. 2^max_log, the
// report files, --quick and --variants.
struct SweepOptions {
  int min_log = 10, max_log = 28;
  std::string csv, json;
  bool quick = false;
  bool variants = false;  // also time the implementation policies behind the public defaults
};

inline void add_sweep_options(CLI::App& app, SweepOptions& o, int max_log,
                              const std::string& variants_help) {
  app.add_option("--min-log", o.min_log, "smallest n = 2^K")->check(CLI::Range(0, max_log));
  app.add_option("--max-log", o.max_log, "largest n = 2^K")->check(CLI::Range(0, max_log));
  app.add_option("--csv", o.csv, "write the rows as CSV to FILE")->type_name("FILE");
  app.add_option("--json", o.json, "write the rows as JSON to FILE")->type_name("FILE");
  app.add_flag("--quick", o.quick, "few repetitions (smoke runs)");
  app.add_flag("--variants", o.variants, variants_help);
}

// After parse_command_line: the checks across options, with CLI11's wording; 2 on failure.
inline std::optional<int> check_sweep_options(const char* program, const SweepOptions& o) {
  if (o.min_log <= o.max_log) return std::nullopt;
  std::fprintf(stderr, "%s: need --min-log <= --max-log\nRun with --help for more information.\n",
               program);
  return 2;
}

// ---------------------------------------------------------------------------------------------
// Timing on the host

// Median wall time of a host function: each sample runs fn `inner` times (chosen so one sample
// lasts at least ~min_sample_ms, since steady_clock is too coarse for microsecond calls).
template <class Fn>
Stats time_host(Fn&& fn, int samples = 7, double min_sample_ms = 5.0) {
  using clock = std::chrono::steady_clock;
  auto run = [&](int inner) {
    const auto t0 = clock::now();
    for (int i = 0; i < inner; ++i) fn();
    return std::chrono::duration<double, std::milli>(clock::now() - t0).count();
  };
  double once = run(1);  // warm-up: page faults, caches, thread start
  int inner = 1;
  if (once < min_sample_ms) {
    once = std::max(run(1), 1e-4);
    inner = static_cast<int>(std::min(1e6, std::ceil(min_sample_ms / once)));
  }
  std::vector<double> ms;
  for (int s = 0; s < samples; ++s) ms.push_back(run(inner) / inner);
  return util::summarize(std::move(ms));
}

// ---------------------------------------------------------------------------------------------
// Buffer rotation and baselines

// cudaMemcpyAsync device to device of `bytes`: the bandwidth ceiling a streaming kernel that reads
// and writes the same bytes can hope for. Rate convention: 2 * bytes (read + write).
inline void memcpy_d2d(void* dst, const void* src, std::size_t bytes, cudaStream_t stream) {
  CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream));
}

// cub::DeviceScan sum, called directly (not through scandof's dispatch), with its temp storage
// sized by prepare() outside any timed region. 32-bit item counts below 2^31 keep CUB on its
// 32-bit offset path, the one a user would get.
template <class T>
class CubSumScan {
 public:
  void prepare(std::size_t max_n, bool inclusive) {
    std::size_t bytes = 0;
    query(nullptr, bytes, nullptr, nullptr, max_n, inclusive, 0);
    if (bytes > temp_.size()) temp_.resize(bytes);
  }
  void operator()(const T* in, T* out, std::size_t n, bool inclusive, cudaStream_t stream) {
    std::size_t bytes = temp_.size();
    query(temp_.get(), bytes, in, out, n, inclusive, stream);
    CUDA_CHECK_LAUNCH();
  }

 private:
  static void query(void* temp, std::size_t& bytes, const T* in, T* out, std::size_t n,
                    bool inclusive, cudaStream_t stream) {
    if (n <= static_cast<std::size_t>(std::numeric_limits<int>::max()))
      sum(temp, bytes, in, out, static_cast<int>(n), inclusive, stream);
    else
      sum(temp, bytes, in, out, static_cast<std::int64_t>(n), inclusive, stream);
  }
  template <class N>
  static void sum(void* temp, std::size_t& bytes, const T* in, T* out, N n, bool inclusive,
                  cudaStream_t stream) {
    if (inclusive)
      CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp, bytes, in, out, n, stream));
    else
      CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n, stream));
  }
  DeviceBuffer<unsigned char> temp_;
};

// Rates from a time: bytes counted as read plus written by the caller.
inline double gb_per_s(double bytes, double ms) {
  return ms > 0 ? bytes / (ms * 1e6) : 0.0;
}
inline double gelem_per_s(double elems, double ms) {
  return ms > 0 ? elems / (ms * 1e6) : 0.0;
}

// ---------------------------------------------------------------------------------------------
// Checking on the device: outputs are compared with the baseline's (CUB's) output in place, so a
// 2^28-element check costs one kernel rather than two gigabyte copies to the host.

namespace kernels {
template <class T>
__global__ void count_unequal(const T* a, const T* b, std::uint64_t n, unsigned long long* bad) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  unsigned long long c = 0;
  for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride)
    c += !(a[i] == b[i]);
  if (c) atomicAdd(bad, c);
}
}  // namespace kernels

class DeviceDiff {
 public:
  DeviceDiff() : bad_(1) {}
  // Starts a comparison: the count of differing elements accumulates over add() calls.
  void reset(cudaStream_t s) { CUDA_CHECK(cudaMemsetAsync(bad_.get(), 0, sizeof(*bad_.get()), s)); }
  template <class T>
  void add(const T* a, const T* b, std::size_t n, cudaStream_t s) {
    if (n == 0) return;
    kernels::count_unequal<T><<<1024, 256, 0, s>>>(a, b, n, bad_.get());
    CUDA_CHECK_LAUNCH();
  }
  // Waits for the stream and returns the count.
  unsigned long long result(cudaStream_t s) const {
    unsigned long long bad = 0;
    CUDA_CHECK(cudaMemcpyAsync(&bad, bad_.get(), sizeof bad, cudaMemcpyDeviceToHost, s));
    CUDA_CHECK(cudaStreamSynchronize(s));
    return bad;
  }

 private:
  DeviceBuffer<unsigned long long> bad_;
};

// Grid-stride fill of a device array: p[i] = value(util::hash_at(seed, i)). The element types and
// distributions are the benchmark's; the generator is the project's one.
template <class T, class Value>
__global__ void fill_hashed(T* p, std::uint64_t n, std::uint64_t seed, Value value) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride)
    p[i] = value(i, util::hash_at(seed, i));
}
template <class T, class Value>
void fill(T* p, std::size_t n, std::uint64_t seed, Value value, cudaStream_t s) {
  fill_hashed<T><<<1024, 256, 0, s>>>(p, n, seed, value);
  CUDA_CHECK_LAUNCH();
}

// ---------------------------------------------------------------------------------------------
// Element types named on command lines

template <class T>
struct TypeTag {
  using type = T;
};

// Calls f(TypeTag<T>{}) for a type name the benchmarks accept: int32, uint32, int64, float, double.
template <class F>
void with_type(const std::string& name, F&& f) {
  if (name == "int32")
    f(TypeTag<std::int32_t>{});
  else if (name == "uint32")
    f(TypeTag<std::uint32_t>{});
  else if (name == "int64")
    f(TypeTag<std::int64_t>{});
  else if (name == "float")
    f(TypeTag<float>{});
  else if (name == "double")
    f(TypeTag<double>{});
  else
    throw std::invalid_argument("unknown type " + name);
}
inline const std::vector<std::string>& type_names() {
  static const std::vector<std::string> v{"int32", "uint32", "int64", "float", "double"};
  return v;
}

// ---------------------------------------------------------------------------------------------
// Describing the run

// "model name" from /proc/cpuinfo, or "unknown CPU".
inline std::string host_cpu_name() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("model name", 0) == 0) {
      auto c = line.find(':');
      if (c != std::string::npos) {
        auto s = line.substr(c + 1);
        s.erase(0, s.find_first_not_of(" \t"));
        return s;
      }
    }
  }
  return "unknown CPU";
}

inline std::string utc_now_iso() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// "NAME on DEVICE (N SMs, L2 M MB), CUDA runtime R, driver D, DATE": the first line of a run.
inline void print_banner(const char* name, const DeviceInfo& dev) {
  std::printf("%s on %s (%d SMs, L2 %zu MB), CUDA runtime %s, driver %s, %s\n", name,
              dev.name.c_str(), dev.sm_count, dev.l2_bytes >> 20,
              util::cuda_version_string(dev.runtime_version).c_str(),
              util::cuda_version_string(dev.driver_version).c_str(), utc_now_iso().c_str());
}

// ---------------------------------------------------------------------------------------------
// Output: aligned text tables, CSV, JSON

// A console table in the style of cuda-samples' reports: header, rule, right-aligned cells.
class Table {
 public:
  explicit Table(std::vector<std::string> header) : header_(std::move(header)) {}
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  void print(std::FILE* f = stdout) const {
    std::vector<std::size_t> w(header_.size());
    for (std::size_t c = 0; c < header_.size(); ++c) w[c] = header_[c].size();
    for (const auto& r : rows_)
      for (std::size_t c = 0; c < r.size() && c < w.size(); ++c) w[c] = std::max(w[c], r[c].size());
    auto line = [&](const std::vector<std::string>& r) {
      for (std::size_t c = 0; c < w.size(); ++c) {
        const std::string& s = c < r.size() ? r[c] : std::string();
        // First column left-aligned (names), the rest right-aligned (numbers).
        std::fprintf(f, c == 0 ? "%-*s" : "  %*s", static_cast<int>(w[c]), s.c_str());
      }
      std::fprintf(f, "\n");
    };
    line(header_);
    std::size_t total = 0;
    for (std::size_t c = 0; c < w.size(); ++c) total += w[c] + (c ? 2 : 0);
    std::fprintf(f, "%s\n", std::string(total, '-').c_str());
    for (const auto& r : rows_) line(r);
    std::fflush(f);
  }

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

// printf into a std::string.
template <class... Args>
std::string fmt(const char* f, Args... args) {
  char buf[256];
  std::snprintf(buf, sizeof buf, f, args...);
  return buf;
}

// CSV rows collected in memory and written at the end through util::write_text_file (temporary
// file + rename, every write checked), so a failed run never leaves half a table.
class Csv {
 public:
  explicit Csv(std::vector<std::string> header) { row(header); }
  void row(const std::vector<std::string>& cells) {
    for (std::size_t i = 0; i < cells.size(); ++i) text_ += (i ? "," : "") + escape(cells[i]);
    text_ += "\n";
  }
  void save(const std::string& path) const { util::write_text_file(path, text_); }

 private:
  static std::string escape(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string o = "\"";
    for (char c : s) o += (c == '"') ? std::string("\"\"") : std::string(1, c);
    return o + "\"";
  }
  std::string text_;
};

// JSON text with every array of records one record per line (as the committed results/ files are
// laid out: diffable, and still one line per result for grep). Not-finite numbers become null.
inline std::string json_text(const Json& v) {
  const auto records = [](const Json& a) { return a.is_array() && !a.empty() && a[0].is_object(); };
  if (v.is_object()) {
    bool nested = false;
    for (const auto& item : v.items())
      nested =
          nested || records(item.value()) || (item.value().is_object() && !item.value().empty());
    if (!nested) return v.dump();
    std::string s = "{";
    bool first = true;
    for (const auto& item : v.items()) {
      s += (first ? "" : ", ") + Json(item.key()).dump() + ": " + json_text(item.value());
      first = false;
    }
    return s + "}";
  }
  if (records(v)) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ",\n  " : "\n  ") + v[i].dump();
    return s + "\n]";
  }
  return v.dump();
}

inline void write_json(const std::string& path, const Json& doc) {
  util::write_text_file(path, json_text(doc) + "\n");
}

// The document compactbench and sortbench write: what ran where, then one record per row.
inline Json run_document(const char* bench, const DeviceInfo& dev, const char* bytes_rule) {
  Json doc;
  doc["bench"] = bench;
  doc["device"] = dev.name;
  doc["sm_count"] = dev.sm_count;
  doc["cuda_runtime"] = util::cuda_version_string(dev.runtime_version);
  doc["driver"] = util::cuda_version_string(dev.driver_version);
  doc["date"] = utc_now_iso();
  doc["bytes"] = bytes_rule;
  doc["record"] = provenance::record(dev.name);
  doc["rows"] = Json::array();
  return doc;
}

// One identifying column of a compactbench / sortbench row: its JSON value and the text that the
// console table and the CSV both show.
struct Field {
  Field(const char* key, const std::string& text) : key(key), value(text), text(text) {}
  Field(const char* key, std::size_t n) : key(key), value(n), text(std::to_string(n)) {}
  Field(const char* key, Json value, std::string text)
      : key(key), value(std::move(value)), text(std::move(text)) {}
  const char* key;
  Json value;
  std::string text;
};
// The check column: true / "ok", false / "FAIL".
inline Field check_field(bool ok) {
  return Field("check", ok, ok ? "ok" : "FAIL");
}

// The measured columns of a row: the median time, the element rate, GB/s from the bytes the bench
// counts, and CUB's time over this one (0 when CUB did not run, "-" in the table).
struct Measured {
  Measured(const Stats& st, double elems, double bytes, double cub_ms)
      : st(st),
        elem_rate(gelem_per_s(elems, st.median_ms)),
        gb_s(gb_per_s(bytes, st.median_ms)),
        has_cub(cub_ms > 0),
        vs_cub(has_cub ? cub_ms / st.median_ms : 0.0) {}
  Stats st;
  double elem_rate, gb_s;
  bool has_cub;
  double vs_cub;
};

// How a bench names and prints its element rate: JSON key, table and CSV formats.
struct RateColumn {
  const char* key;  // gelem_s, gkeys_s
  const char* table_fmt;
  const char* csv_fmt;
};

// The console table, CSV and JSON of compactbench and sortbench: one call per row feeds all three
// (the identifying fields, then median / rate / GB/s / vs CUB in the table; median_ms, min_ms,
// reps, the rate, gb_s, vs_cub in the CSV and JSON), finish() prints the table, writes the files
// that were asked for and the verdict line.
class Report {
 public:
  Report(const char* bench, const DeviceInfo& dev, const char* bytes_rule, RateColumn rate,
         std::vector<std::string> table_header, std::vector<std::string> csv_header)
      : device_(dev.name),
        rate_(rate),
        table_(std::move(table_header)),
        csv_(std::move(csv_header)),
        doc_(run_document(bench, dev, bytes_rule)) {}
  // `trailing` fields follow the measured columns (a spread beside the ratio, say).
  void add(const std::vector<Field>& fields, const Measured& m,
           const std::vector<Field>& trailing = {}) {
    std::vector<std::string> table_row, csv_row{device_};
    Json rec;
    for (const Field& f : fields) {
      table_row.push_back(f.text);
      csv_row.push_back(f.text);
      rec[f.key] = f.value;
    }
    table_row.insert(table_row.end(),
                     {fmt("%.4f", m.st.median_ms), fmt(rate_.table_fmt, m.elem_rate),
                      fmt("%.0f", m.gb_s), m.has_cub ? fmt("%.2fx", m.vs_cub) : "-"});
    csv_row.insert(csv_row.end(), {fmt("%.6f", m.st.median_ms), fmt("%.6f", m.st.min_ms),
                                   std::to_string(m.st.reps), fmt(rate_.csv_fmt, m.elem_rate),
                                   fmt("%.2f", m.gb_s), fmt("%.4f", m.vs_cub)});
    rec["median_ms"] = m.st.median_ms;
    rec["min_ms"] = m.st.min_ms;
    rec["reps"] = m.st.reps;
    rec[rate_.key] = m.elem_rate;
    rec["gb_s"] = m.gb_s;
    rec["vs_cub"] = m.vs_cub;
    for (const Field& f : trailing) {
      table_row.push_back(f.text);
      csv_row.push_back(f.text);
      rec[f.key] = f.value;
    }
    table_.add(std::move(table_row));
    csv_.row(csv_row);
    doc_["rows"].push_back(std::move(rec));
  }
  // Returns the exit status: 0 when every check passed, 1 otherwise.
  int finish(const std::string& csv_path, const std::string& json_path, bool all_ok) const {
    table_.print();
    if (!csv_path.empty()) csv_.save(csv_path);
    if (!json_path.empty()) write_json(json_path, doc_);
    std::printf("%s\n", all_ok ? "all checks ok" : "SOME CHECKS FAILED");
    return all_ok ? 0 : 1;
  }

 private:
  std::string device_;
  RateColumn rate_;
  Table table_;
  Csv csv_;
  Json doc_;
};

}  // namespace bench
}  // namespace scandof
