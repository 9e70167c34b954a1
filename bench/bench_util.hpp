// Timing and reporting helpers shared by the benchmarks in bench/ (include from .cu files only: the
// CUB baseline needs nvcc).
//
//   scandof::bench::EventTimer timer(stream);
//   auto st = timer.measure([&](int rep) { launch(rep % sets); }, opts);   // st.median_ms
//
// What they implement is the project's measuring rule: CUDA events on one stream after warm-up,
// medians over many repetitions (at least min_reps, and enough to last min_total_ms when a call is
// short), inputs rotated over several buffer sets while one set fits in L2, bytes counted as read
// plus written, cudaMemcpy D2D and CUB measured in the same run as baselines.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include <cuda_runtime_api.h>
#include <cub/device/device_scan.cuh>

#include "scandof/cuda_check.hpp"
#include "scandof/scan.hpp"

namespace scandof {
namespace bench {

// ---------------------------------------------------------------------------------------------
// Statistics and timing

struct Stats {
  double median_ms = 0, min_ms = 0, max_ms = 0, mean_ms = 0;
  int reps = 0;
};

inline Stats summarize(std::vector<double> ms) {
  Stats s;
  if (ms.empty()) return s;
  std::sort(ms.begin(), ms.end());
  const std::size_t k = ms.size();
  s.median_ms = (k % 2) ? ms[k / 2] : 0.5 * (ms[k / 2 - 1] + ms[k / 2]);
  s.min_ms = ms.front();
  s.max_ms = ms.back();
  double sum = 0;
  for (double v : ms) sum += v;
  s.mean_ms = sum / static_cast<double>(k);
  s.reps = static_cast<int>(k);
  return s;
}

struct TimingOptions {
  int warmup = 5;            // untimed calls first: module loading, clocks, lazy allocations
  int min_reps = 50;         // never fewer timed calls than this
  int max_reps = 5000;       // bounds run time and the event pool at tiny sizes
  double min_total_ms = 20;  // short calls repeat until their sum reaches this
};

// Times one enqueued operation per repetition with a pair of events around it. All repetitions are
// enqueued before a single synchronize, so the GPU runs them back to back and each pair brackets
// only the GPU's time for that call (plus the host's launch cost when the GPU outruns the host,
// which is the honest cost of a call at tiny sizes). Events are created once and reused.
class EventTimer {
 public:
  explicit EventTimer(cudaStream_t stream) : stream_(stream) {}
  ~EventTimer() {
    for (cudaEvent_t e : events_) cudaEventDestroy(e);  // no throw from a destructor
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;

  // fn(rep) enqueues one call on the timer's stream; rep counts up from 0 across warm-up and timed
  // calls so the caller can rotate buffer sets with it.
  template <class Fn>
  Stats measure(Fn&& fn, const TimingOptions& opt = TimingOptions()) {
    int rep = 0;
    for (int i = 0; i < opt.warmup; ++i) fn(rep++);
    // One timed probe decides how many repetitions fill min_total_ms.
    ensure_events(2);
    CUDA_CHECK(cudaEventRecord(events_[0], stream_));
    fn(rep++);
    CUDA_CHECK(cudaEventRecord(events_[1], stream_));
    CUDA_CHECK(cudaEventSynchronize(events_[1]));
    float probe = 0;
    CUDA_CHECK(cudaEventElapsedTime(&probe, events_[0], events_[1]));
    int reps = opt.min_reps;
    if (probe > 0) {
      const double want = std::ceil(opt.min_total_ms / probe);
      if (want > reps) reps = static_cast<int>(std::min<double>(want, opt.max_reps));
    }
    reps = std::max(1, std::min(reps, std::max(opt.max_reps, opt.min_reps)));
    ensure_events(2 * static_cast<std::size_t>(reps));
    for (int i = 0; i < reps; ++i) {
      CUDA_CHECK(cudaEventRecord(events_[2 * i], stream_));
      fn(rep++);
      CUDA_CHECK(cudaEventRecord(events_[2 * i + 1], stream_));
    }
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    std::vector<double> ms(reps);
    for (int i = 0; i < reps; ++i) {
      float t = 0;
      CUDA_CHECK(cudaEventElapsedTime(&t, events_[2 * i], events_[2 * i + 1]));
      ms[i] = t;
    }
    return summarize(std::move(ms));
  }

 private:
  void ensure_events(std::size_t count) {
    while (events_.size() < count) {
      cudaEvent_t e;
      CUDA_CHECK(cudaEventCreate(&e));
      events_.push_back(e);
    }
  }
  cudaStream_t stream_;
  std::vector<cudaEvent_t> events_;
};

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
  return summarize(std::move(ms));
}

// ---------------------------------------------------------------------------------------------
// Device memory and buffer rotation

// RAII device array (no initialisation).
template <class T>
class DeviceArray {
 public:
  DeviceArray() = default;
  explicit DeviceArray(std::size_t count) { resize(count); }
  ~DeviceArray() { release(); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  DeviceArray(DeviceArray&& o) noexcept : p_(o.p_), n_(o.n_) { o.p_ = nullptr, o.n_ = 0; }
  DeviceArray& operator=(DeviceArray&& o) noexcept {
    if (this != &o) {
      release();
      p_ = o.p_, n_ = o.n_;
      o.p_ = nullptr, o.n_ = 0;
    }
    return *this;
  }
  // Drops the old contents; reallocation synchronizes the device, so size it before timing.
  void resize(std::size_t count) {
    if (count == n_) return;
    release();
    if (count) CUDA_CHECK(cudaMalloc(&p_, count * sizeof(T)));
    n_ = count;
  }
  void release() {
    if (p_) cudaFree(p_);
    p_ = nullptr, n_ = 0;
  }
  T* get() const { return p_; }
  std::size_t size() const { return n_; }
  std::size_t bytes() const { return n_ * sizeof(T); }

 private:
  T* p_ = nullptr;
  std::size_t n_ = 0;
};

// How many input/output sets to cycle through so that, between two uses of one set, the other sets
// have pushed at least `sweep_factor` x L2 of traffic through the cache: otherwise small sizes are
// timed from L2 and look faster than they run in a real pipeline. One set when a set outgrows L2.
// The caller keeps memory bounded: the sets together stay near sweep_factor x L2 (~100 MB on H100).
inline std::size_t rotation_sets(std::size_t set_bytes, std::size_t l2_bytes,
                                 double sweep_factor = 2.0, std::size_t max_sets = 4096) {
  if (set_bytes == 0 || set_bytes >= l2_bytes) return 1;
  const double want = std::ceil(sweep_factor * static_cast<double>(l2_bytes) / set_bytes);
  return static_cast<std::size_t>(std::max(1.0, std::min<double>(want, max_sets)));
}

// ---------------------------------------------------------------------------------------------
// Device description

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  std::size_t l2_bytes = 0;
  std::size_t global_mem_bytes = 0;
  int mem_bus_bits = 0;
  int driver_version = 0, runtime_version = 0;
};

inline std::string cuda_version_string(int v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

inline DeviceInfo query_device() {
  DeviceInfo d;
  CUDA_CHECK(cudaGetDevice(&d.ordinal));
  cudaDeviceProp p;
  CUDA_CHECK(cudaGetDeviceProperties(&p, d.ordinal));
  d.name = p.name;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sm_count = p.multiProcessorCount;
  d.l2_bytes = static_cast<std::size_t>(p.l2CacheSize);
  d.global_mem_bytes = p.totalGlobalMem;
  d.mem_bus_bits = p.memoryBusWidth;
  CUDA_CHECK(cudaDriverGetVersion(&d.driver_version));
  CUDA_CHECK(cudaRuntimeGetVersion(&d.runtime_version));
  return d;
}

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

// ---------------------------------------------------------------------------------------------
// Baselines

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
  CubSumScan() = default;
  ~CubSumScan() {
    if (temp_) cudaFree(temp_);
  }
  CubSumScan(const CubSumScan&) = delete;
  CubSumScan& operator=(const CubSumScan&) = delete;

  void prepare(std::size_t max_n, bool inclusive) {
    std::size_t bytes = 0;
    query(nullptr, bytes, nullptr, nullptr, max_n, inclusive, 0);
    if (bytes > temp_bytes_) {
      if (temp_) CUDA_CHECK(cudaFree(temp_));
      temp_ = nullptr;
      CUDA_CHECK(cudaMalloc(&temp_, bytes));
      temp_bytes_ = bytes;
    }
  }
  void operator()(const T* in, T* out, std::size_t n, bool inclusive, cudaStream_t stream) {
    std::size_t bytes = temp_bytes_;
    query(temp_, bytes, in, out, n, inclusive, stream);
    CUDA_CHECK_LAUNCH();
  }

 private:
  static void query(void* temp, std::size_t& bytes, const T* in, T* out, std::size_t n,
                    bool inclusive, cudaStream_t stream) {
    if (n <= static_cast<std::size_t>(std::numeric_limits<int>::max())) {
      const int ni = static_cast<int>(n);
      if (inclusive)
        CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp, bytes, in, out, ni, stream));
      else
        CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, ni, stream));
    } else {
      const std::int64_t ni = static_cast<std::int64_t>(n);
      if (inclusive)
        CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp, bytes, in, out, ni, stream));
      else
        CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, ni, stream));
    }
  }
  void* temp_ = nullptr;
  std::size_t temp_bytes_ = 0;
};

// Rates from a time: bytes counted as read plus written by the caller.
inline double gb_per_s(double bytes, double ms) {
  return ms > 0 ? bytes / (ms * 1e6) : 0.0;
}
inline double gelem_per_s(double elems, double ms) {
  return ms > 0 ? elems / (ms * 1e6) : 0.0;
}

// ---------------------------------------------------------------------------------------------
// Host-side input generation

// Counter-based hash (splitmix64 finaliser): element i of a seeded stream without sequential state,
// so large inputs fill in parallel and any prefix is the same whatever the total size.
inline std::uint64_t hash64(std::uint64_t seed, std::uint64_t i) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * (i + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Runs body(begin, end) over [0, n) on up to `threads` host threads (0: all cores).
template <class Body>
void parallel_for(std::size_t n, Body&& body, unsigned threads = 0) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t min_chunk = 1 << 16;
  threads = static_cast<unsigned>(
      std::max<std::size_t>(1, std::min<std::size_t>(threads, n / min_chunk)));
  if (threads <= 1) {
    body(std::size_t(0), n);
    return;
  }
  const std::size_t chunk = (n + threads - 1) / threads;
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    const std::size_t b = std::min(n, t * chunk), e = std::min(n, b + chunk);
    pool.emplace_back([&body, b, e] { body(b, e); });
  }
  for (auto& th : pool) th.join();
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

inline std::string csv_escape(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string o = "\"";
  for (char c : s) o += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return o + "\"";
}

class CsvWriter {
 public:
  explicit CsvWriter(const std::string& path) : f_(path) {
    if (!f_) throw std::runtime_error("cannot write " + path);
  }
  void row(const std::vector<std::string>& cells) {
    for (std::size_t i = 0; i < cells.size(); ++i) f_ << (i ? "," : "") << csv_escape(cells[i]);
    f_ << "\n";
  }

 private:
  std::ofstream f_;
};

// A small JSON builder: enough for flat records and arrays of them, no dependency. Numbers that are
// not finite become null (JSON has no NaN).
class Json {
 public:
  static std::string str(const std::string& s) {
    std::string o = "\"";
    for (char c : s) {
      switch (c) {
        case '"':
          o += "\\\"";
          break;
        case '\\':
          o += "\\\\";
          break;
        case '\n':
          o += "\\n";
          break;
        case '\t':
          o += "\\t";
          break;
        default:
          if (static_cast<unsigned char>(c) < 0x20)
            o += fmt("\\u%04x", c);
          else
            o += c;
      }
    }
    return o + "\"";
  }
  static std::string num(double v) {
    if (!std::isfinite(v)) return "null";
    return fmt("%.9g", v);
  }
  static std::string num(std::int64_t v) { return std::to_string(v); }
  static std::string num(std::uint64_t v) { return std::to_string(v); }
  static std::string num(int v) { return std::to_string(v); }
  static std::string boolean(bool b) { return b ? "true" : "false"; }

  // An object under construction: add("key", already-encoded JSON value).
  class Object {
   public:
    Object& add(const std::string& key, const std::string& encoded) {
      body_ += (body_.empty() ? "" : ", ") + str(key) + ": " + encoded;
      return *this;
    }
    std::string done() const { return "{" + body_ + "}"; }

   private:
    std::string body_;
  };
  static std::string array(const std::vector<std::string>& encoded, bool one_per_line = false) {
    std::string o = "[";
    for (std::size_t i = 0; i < encoded.size(); ++i)
      o += (i ? (one_per_line ? ",\n  " : ", ") : (one_per_line ? "\n  " : "")) + encoded[i];
    return o + (one_per_line && !encoded.empty() ? "\n]" : "]");
  }
};

inline void write_text_file(const std::string& path, const std::string& text) {
  std::ofstream f(path);
  if (!f) throw std::runtime_error("cannot write " + path);
  f << text;
  if (!f) throw std::runtime_error("write failed: " + path);
}

}  // namespace bench
}  // namespace scandof
