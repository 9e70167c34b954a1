// GPU tests of the device-wide scan: every ScanAlgorithm x {int32, uint32, int64, float, double} x
// {Sum, Min, Max} x {Exclusive, Inclusive} over awkward and seeded random sizes up to 2^26, plus
// ComposeAffine (non-commutative, through scan.cuh's user-operator path) for every algorithm, in
// place, unaligned pointers, a non-blocking stream, two streams at once, both workspace paths and
// the argument errors. Skips (with the reason) without a CUDA device.
//
// Every run: output (plus guard zones before and after it) poisoned with 0xAB bytes, every element
// checked on the GPU against a CPU reference (integers, Min/Max and Affine exactly; float sums
// within a bound relative to a long-double reference), guards checked untouched, input checked
// unchanged. CPU references are built once per (type, operator, kind) and reused by all seven
// algorithms. A table of every failure is printed at the end of the run.
//
// SCANDOF_TEST_MAX_N=70000 keeps sizes small enough for compute-sanitizer; SCANDOF_TEST_SEED
// changes every input.
#include <cstdint>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "scandof/scan.cuh"  // instantiates the user-operator path (Affine, ComposeAffine) here
#include "test_util.hpp"

namespace {

using scandof::Affine;
using scandof::ComposeAffine;
using scandof::Max;
using scandof::Min;
using scandof::OpKind;
using scandof::ScanAlgorithm;
using scandof::ScanKind;
using scandof::ScanWorkspace;
using scandof::Sum;
namespace t = scandof::test;

// ---- failure summary ----------------------------------------------------------------------------

std::vector<std::string>& failure_log() {
  static std::vector<std::string> log;
  return log;
}

class FailureSummary : public ::testing::Environment {
 public:
  void TearDown() override {
    const auto& log = failure_log();
    std::cout << "\n[ summary ] seed " << t::base_seed() << ", SCANDOF_TEST_MAX_N "
              << (t::max_test_n() == std::size_t(-1) ? std::string("unlimited")
                                                     : std::to_string(t::max_test_n()))
              << ": " << log.size() << " failing scan runs\n";
    for (const auto& line : log) std::cout << "[ FAILED  ] " << line << "\n";
  }
};
::testing::Environment* const kSummary = ::testing::AddGlobalTestEnvironment(new FailureSummary);

// Records and reports one failing run: which algorithm, type, operator, kind and size.
void fail_run(const std::string& what) {
  failure_log().push_back(what);
  ADD_FAILURE() << what;
}

std::string describe(ScanAlgorithm a, const char* type, const char* op, ScanKind k, std::size_t n,
                     const char* extra = "") {
  std::ostringstream os;
  os << t::algo_name(a) << " " << type << " " << op << " " << t::kind_name(k) << " n=" << n
     << extra;
  return os.str();
}

// ---- operators by value -------------------------------------------------------------------------

template <class F>
void with_op(OpKind op, F&& f) {
  switch (op) {
    case OpKind::Sum:
      return f(Sum{});
    case OpKind::Min:
      return f(Min{});
    case OpKind::Max:
      return f(Max{});
  }
}

const char* op_str(OpKind op) {
  return op == OpKind::Sum ? "Sum" : op == OpKind::Min ? "Min" : "Max";
}

// ---- sizes --------------------------------------------------------------------------------------

// Awkward sizes, then three seeded random ones: two log-uniform in [2^17, 2^25], one in
// [2^25, 2^26] so the deepest recursion of the three-phase variants is always there.
const std::vector<std::size_t>& sweep_sizes() {
  static const std::vector<std::size_t> sizes = [] {
    auto s = t::awkward_sizes();
    for (auto x :
         t::random_sizes(2, std::size_t(1) << 17, std::size_t(1) << 25, t::derive_seed(0x512E)))
      s.push_back(x);
    s.push_back(
        t::random_sizes(1, std::size_t(1) << 25, std::size_t(1) << 26, t::derive_seed(0x512F))[0]);
    s = t::capped(s);
    std::cout << "[ info ] sweep sizes:";
    for (auto x : s) std::cout << " " << x;
    std::cout << "\n";
    return s;
  }();
  return sizes;
}

std::size_t max_sweep_size() {
  std::size_t m = 0;
  for (auto s : sweep_sizes()) m = std::max(m, s);
  return m;
}

// Guard zones around every output: an out-of-range write by a tile or the add phase lands here.
constexpr std::size_t kFrontGuard = 256;  // elements; keeps the output 1 KiB aligned
constexpr std::size_t kBackGuard = 8192;  // more than any tile

// ---- the sweep ----------------------------------------------------------------------------------

struct SweepParam {
  OpKind op;
  ScanKind kind;
  ScanAlgorithm algo;
};

std::vector<SweepParam> sweep_params() {
  std::vector<SweepParam> v;
  // Algorithm innermost: consecutive tests share (op, kind), so the reference cache is reused.
  for (OpKind op : {OpKind::Sum, OpKind::Min, OpKind::Max})
    for (ScanKind k : {ScanKind::Exclusive, ScanKind::Inclusive})
      for (ScanAlgorithm a : t::every_algorithm()) v.push_back({op, k, a});
  return v;
}

// Readable parameters in gtest / CTest listings instead of a byte dump.
void PrintTo(const SweepParam& p, std::ostream* os) {
  *os << op_str(p.op) << " " << t::kind_name(p.kind) << " " << t::algo_name(p.algo);
}

std::string sweep_name(const ::testing::TestParamInfo<SweepParam>& info) {
  return std::string(op_str(info.param.op)) + "_" + t::kind_name(info.param.kind) + "_" +
         t::algo_name(info.param.algo);
}

// One size's inputs and reference, on the device.
template <class T>
struct SizeCase {
  std::size_t n = 0;
  t::DeviceBuffer<T> in, pristine;   // the scan's input, and a copy to prove it was not written
  t::DeviceBuffer<T> want;           // exact reference (integers, Min/Max)
  t::DeviceBuffer<double> ref, mag;  // float sums: long-double reference and sum of |x|
};

template <class T>
struct ReferenceCache {
  int op = -1, kind = -1;
  std::vector<SizeCase<T>> cases;
  std::vector<std::vector<T>> host_in;  // kept so the other kind reuses the inputs
};

template <class T>
constexpr std::uint64_t type_tag() {
  return sizeof(T) * 16 + (std::is_floating_point_v<T> ? 1 : 0) + (std::is_signed_v<T> ? 2 : 0);
}

template <class T>
class SweepTest : public ::testing::TestWithParam<SweepParam> {
 public:
  static void TearDownTestSuite() {
    cache_.reset();
    out_.reset();
    ws_.reset();
    counter_.reset();
  }

 protected:
  void SetUp() override { SCANDOF_SKIP_WITHOUT_GPU(); }

  static bool is_float_sum(OpKind op) { return std::is_floating_point_v<T> && op == OpKind::Sum; }

  // Builds inputs and references for every size of (op, kind), dropping the previous ones.
  static ReferenceCache<T>& cache_for(OpKind op, ScanKind kind) {
    if (cache_ && cache_->op == static_cast<int>(op) && cache_->kind == static_cast<int>(kind))
      return *cache_;
    const bool same_inputs = cache_ && cache_->op == static_cast<int>(op);
    if (!same_inputs) {
      cache_.reset();  // free device memory first
      auto c = std::make_unique<ReferenceCache<T>>();
      c->op = static_cast<int>(op);
      for (std::size_t n : sweep_sizes()) {
        SizeCase<T> sc;
        sc.n = n;
        with_op(op, [&](auto o) {
          using Op = decltype(o);
          c->host_in.push_back(t::random_vector<T>(
              n, t::derive_seed(type_tag<T>(), static_cast<int>(op), n), t::pattern_for<Op>()));
        });
        sc.in.assign(c->host_in.back());
        sc.pristine.resize(n);
        if (n > 0)
          CUDA_CHECK(cudaMemcpy(sc.pristine.data(), sc.in.data(), n * sizeof(T),
                                cudaMemcpyDeviceToDevice));
        c->cases.push_back(std::move(sc));
      }
      cache_ = std::move(c);
    }
    ReferenceCache<T>& c = *cache_;
    c.kind = static_cast<int>(kind);
    for (std::size_t j = 0; j < c.cases.size(); ++j) {
      SizeCase<T>& sc = c.cases[j];
      const std::vector<T>& in = c.host_in[j];
      const std::size_t n = sc.n;
      with_op(op, [&](auto o) {
        using Op = decltype(o);
        if (is_float_sum(op)) {
          const auto r = t::float_sum_reference(kind, in.data(), n);
          sc.ref.assign(r.value);
          sc.mag.assign(r.mag);
        } else {
          std::vector<T> want(n);
          scandof::scan_gold_parallel(kind, in.data(), want.data(), n, o,
                                      scandof::identity_of<Op, T>());
          sc.want.assign(want);
        }
      });
    }
    return c;
  }

  void run_sweep() {
    const SweepParam p = GetParam();
    if (!out_) {
      out_ = std::make_unique<t::DeviceBuffer<T>>(kFrontGuard + max_sweep_size() + kBackGuard);
      ws_ = std::make_unique<ScanWorkspace>();
      counter_ = std::make_unique<t::MismatchCounter>();
    }
    ReferenceCache<T>& cache = cache_for(p.op, p.kind);
    T* const out = out_->data() + kFrontGuard;
    for (SizeCase<T>& sc : cache.cases) {
      const std::string what = describe(p.algo, t::type_name<T>(), op_str(p.op), p.kind, sc.n);
      out_->poison(0, kFrontGuard + sc.n + kBackGuard);
      try {
        with_op(p.op, [&](auto o) {
          using Op = decltype(o);
          scandof::scan<T, Op>(p.algo, p.kind, sc.in.data(), out, sc.n, o, *ws_);
        });
        CUDA_CHECK(cudaDeviceSynchronize());
      } catch (const std::exception& e) {
        fail_run(what + ": threw " + e.what());
        if (dynamic_cast<const scandof::CudaError*>(&e) != nullptr) {
          // A fault poisons the context: every later run would fail for the same reason.
          GTEST_FAIL() << "stopping this test after a CUDA error";
        }
        continue;
      }
      check_output(what, sc, out, p.op);
    }
  }

  void check_output(const std::string& what, SizeCase<T>& sc, const T* out, OpKind op) {
    const std::size_t n = sc.n;
    t::MismatchCounter& cnt = *counter_;
    const t::Mismatches m = is_float_sum(op) ? cnt.close(out, sc.ref.data(), sc.mag.data(), n,
                                                         t::sum_tolerance_factor<T>(n))
                                             : cnt.exact(out, sc.want.data(), n);
    if (m.count > 0) {
      const std::size_t i = m.first;
      std::ostringstream os;
      os << what << ": " << m.count << " wrong elements, first [" << i << "] got "
         << t::show(t::fetch_element(out, i)) << ", want ";
      if (is_float_sum(op)) {
        os.precision(17);
        os << t::fetch_element(sc.ref.data(), i) << " +- "
           << t::sum_tolerance_factor<T>(n) * t::fetch_element(sc.mag.data(), i);
      } else {
        os << t::show(t::fetch_element(sc.want.data(), i));
      }
      fail_run(os.str());
    }
    const t::Mismatches front = cnt.unpoisoned(out - kFrontGuard, kFrontGuard * sizeof(T));
    const t::Mismatches back = cnt.unpoisoned(out + n, kBackGuard * sizeof(T));
    if (front.count > 0)
      fail_run(what + ": wrote " + std::to_string(front.count) + " bytes before out[0]");
    if (back.count > 0)
      fail_run(what + ": wrote past out[n-1], first at element n+" +
               std::to_string(back.first / sizeof(T)));
    const t::Mismatches in = cnt.exact(sc.in.data(), sc.pristine.data(), n);
    if (in.count > 0) {
      fail_run(what + ": modified its input, first at [" + std::to_string(in.first) + "]");
      // Restore it so the next algorithm is not blamed.
      CUDA_CHECK(
          cudaMemcpy(sc.in.data(), sc.pristine.data(), n * sizeof(T), cudaMemcpyDeviceToDevice));
    }
  }

  inline static std::unique_ptr<ReferenceCache<T>> cache_;
  inline static std::unique_ptr<t::DeviceBuffer<T>> out_;
  inline static std::unique_ptr<ScanWorkspace> ws_;
  inline static std::unique_ptr<t::MismatchCounter> counter_;
};

#define SCANDOF_SWEEP(NAME, TYPE)         \
  class NAME : public SweepTest<TYPE> {}; \
  TEST_P(NAME, AllSizes) {                \
    run_sweep();                          \
  }                                       \
  INSTANTIATE_TEST_SUITE_P(Scan, NAME, ::testing::ValuesIn(sweep_params()), sweep_name);

SCANDOF_SWEEP(SweepInt32, std::int32_t)
SCANDOF_SWEEP(SweepUint32, std::uint32_t)
SCANDOF_SWEEP(SweepInt64, std::int64_t)
SCANDOF_SWEEP(SweepFloat, float)
SCANDOF_SWEEP(SweepDouble, double)

// ---- ComposeAffine: the non-commutative operator, through scan.cuh ------------------------------

struct AffineParam {
  ScanKind kind;
  ScanAlgorithm algo;
};

void PrintTo(const AffineParam& p, std::ostream* os) {
  *os << t::kind_name(p.kind) << " " << t::algo_name(p.algo);
}

class AffineSweep : public ::testing::TestWithParam<AffineParam> {
 protected:
  void SetUp() override { SCANDOF_SKIP_WITHOUT_GPU(); }
};

std::vector<AffineParam> affine_params() {
  std::vector<AffineParam> v;
  for (ScanKind k : {ScanKind::Exclusive, ScanKind::Inclusive})
    for (ScanAlgorithm a : t::every_algorithm()) v.push_back({k, a});
  return v;
}

TEST_P(AffineSweep, AllSizes) {
  const AffineParam p = GetParam();
  auto sizes = t::awkward_sizes();
  sizes.push_back(
      t::random_sizes(1, std::size_t(1) << 21, std::size_t(1) << 23, t::derive_seed(0xAFF))[0]);
  sizes = t::capped(sizes);
  std::size_t max_n = 0;
  for (auto s : sizes) max_n = std::max(max_n, s);
  t::DeviceBuffer<Affine> outbuf(kFrontGuard + max_n + kBackGuard);
  Affine* const out = outbuf.data() + kFrontGuard;
  ScanWorkspace ws;
  t::MismatchCounter cnt;
  for (std::size_t n : sizes) {
    const std::string what = describe(p.algo, "Affine", "ComposeAffine", p.kind, n);
    const auto in = t::random_vector<Affine>(n, t::derive_seed(0xAFF, n));
    std::vector<Affine> want(n);
    scandof::scan_gold(p.kind, in.data(), want.data(), n, ComposeAffine{});
    t::DeviceBuffer<Affine> d_in(in), d_want(want);
    outbuf.poison(0, kFrontGuard + n + kBackGuard);
    try {
      scandof::scan(p.algo, p.kind, d_in.data(), out, n, ComposeAffine{}, ws);
      CUDA_CHECK(cudaDeviceSynchronize());
    } catch (const std::exception& e) {
      fail_run(what + ": threw " + e.what());
      if (dynamic_cast<const scandof::CudaError*>(&e) != nullptr) return;
      continue;
    }
    const t::Mismatches m = cnt.exact(out, d_want.data(), n);
    if (m.count > 0) {
      fail_run(what + ": " + std::to_string(m.count) + " wrong elements, first [" +
               std::to_string(m.first) + "] got " + t::show(t::fetch_element(out, m.first)) +
               ", want " + t::show(want[m.first]));
    }
    if (cnt.unpoisoned(out - kFrontGuard, kFrontGuard * sizeof(Affine)).count +
            cnt.unpoisoned(out + n, kBackGuard * sizeof(Affine)).count >
        0)
      fail_run(what + ": wrote outside out[0, n)");
    if (!t::all_equal(d_in.download(), in)) fail_run(what + ": modified its input");
  }
}

INSTANTIATE_TEST_SUITE_P(Scan, AffineSweep, ::testing::ValuesIn(affine_params()),
                         [](const ::testing::TestParamInfo<AffineParam>& info) {
                           return std::string(t::kind_name(info.param.kind)) + "_" +
                                  t::algo_name(info.param.algo);
                         });

// ---- API behaviour, per algorithm ---------------------------------------------------------------

class ScanApi : public ::testing::TestWithParam<ScanAlgorithm> {
 protected:
  void SetUp() override { SCANDOF_SKIP_WITHOUT_GPU(); }
};

// Sizes for the per-algorithm API tests (capped like the sweep).
std::vector<std::size_t> api_sizes() {
  return t::capped({1, 33, 1025, 4097, 65537, (std::size_t(1) << 20) + 7});
}

// Scans host data on the device with a caller-supplied launcher and returns the result.
template <class T, class Launch>
std::vector<T> device_scan(const std::vector<T>& in, Launch&& launch) {
  t::DeviceBuffer<T> d_in(in), d_out(in.size());
  d_out.poison();
  launch(d_in.data(), d_out.data(), in.size());
  CUDA_CHECK(cudaDeviceSynchronize());
  return d_out.download();
}

TEST_P(ScanApi, InPlace) {
  const ScanAlgorithm a = GetParam();
  ScanWorkspace ws;
  for (ScanKind kind : {ScanKind::Exclusive, ScanKind::Inclusive}) {
    for (std::size_t n : api_sizes()) {
      {
        const auto in = t::random_vector<std::int32_t>(n, t::derive_seed(0x1A, n));
        std::vector<std::int32_t> want(n);
        scandof::scan_gold(kind, in.data(), want.data(), n, Sum{});
        t::DeviceBuffer<std::int32_t> d(in);
        scandof::scan(a, kind, d.data(), d.data(), n, Sum{}, ws);
        CUDA_CHECK(cudaDeviceSynchronize());
        EXPECT_TRUE(t::all_equal(d.download(), want))
            << describe(a, "int32", "Sum", kind, n, " in place");
      }
      {
        const auto in = t::random_vector<Affine>(n, t::derive_seed(0x1B, n));
        std::vector<Affine> want(n);
        scandof::scan_gold(kind, in.data(), want.data(), n, ComposeAffine{});
        t::DeviceBuffer<Affine> d(in);
        scandof::scan(a, kind, d.data(), d.data(), n, ComposeAffine{}, ws);
        CUDA_CHECK(cudaDeviceSynchronize());
        EXPECT_TRUE(t::all_equal(d.download(), want))
            << describe(a, "Affine", "ComposeAffine", kind, n, " in place");
      }
    }
  }
}

// Vector loads must fall back when the pointers are not 16-byte aligned (cudaMalloc's are).
TEST_P(ScanApi, UnalignedPointers) {
  const ScanAlgorithm a = GetParam();
  ScanWorkspace ws;
  for (std::size_t n : t::capped({1025, 65537, (std::size_t(1) << 20) + 7})) {
    for (ScanKind kind : {ScanKind::Exclusive, ScanKind::Inclusive}) {
      const auto in = t::random_vector<std::int32_t>(n, t::derive_seed(0x2A, n));
      std::vector<std::int32_t> want(n);
      scandof::scan_gold(kind, in.data(), want.data(), n, Sum{});
      t::DeviceBuffer<std::int32_t> d_in(n + 4), d_out(n + 4);
      d_in.upload(in.data(), n, 1);  // in at +4 bytes, out at +12 bytes
      d_out.poison();
      scandof::scan(a, kind, d_in.data() + 1, d_out.data() + 3, n, Sum{}, ws);
      CUDA_CHECK(cudaDeviceSynchronize());
      EXPECT_TRUE(t::all_equal(d_out.download(n, 3), want))
          << describe(a, "int32", "Sum", kind, n, " unaligned");
      const auto head = d_out.download(3);
      for (auto v : head) EXPECT_EQ(v, t::poison_value<std::int32_t>()) << "wrote before out";

      const auto fin = t::random_vector<double>(n, t::derive_seed(0x2B, n), t::Pattern::Walk);
      std::vector<double> fwant(n);
      scandof::scan_gold(kind, fin.data(), fwant.data(), n, Max{});
      t::DeviceBuffer<double> f_in(n + 1), f_out(n + 1);
      f_in.upload(fin.data(), n, 1);  // 8-byte aligned, not 16
      f_out.poison();
      scandof::scan(a, kind, f_in.data() + 1, f_out.data() + 1, n, Max{}, ws);
      CUDA_CHECK(cudaDeviceSynchronize());
      EXPECT_TRUE(t::all_equal(f_out.download(n, 1), fwant))
          << describe(a, "double", "Max", kind, n, " unaligned");
    }
  }
}

// Holds a stream busy for about `ms` milliseconds.
__global__ void spin_kernel(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

long long cycles_for_ms(double ms) {
  int dev = 0, khz = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev));
  return static_cast<long long>(ms * khz);
}

// Everything the scan does must be ordered on the caller's stream. The input only becomes valid
// after a busy kernel on a non-blocking stream, so a launch, memset or copy the library puts on
// the default stream reads poison (a non-blocking stream does not sync with the legacy stream).
TEST_P(ScanApi, NonBlockingStreamOrdering) {
  const ScanAlgorithm a = GetParam();
  const std::size_t n = std::min<std::size_t>(t::max_test_n(), (std::size_t(1) << 20) + 7);
  t::Stream s;
  for (ScanKind kind : {ScanKind::Exclusive, ScanKind::Inclusive}) {
    for (bool explicit_ws : {false, true}) {
      const auto in = t::random_vector<std::int32_t>(n, t::derive_seed(0x3A, n, explicit_ws));
      std::vector<std::int32_t> want(n);
      scandof::scan_gold(kind, in.data(), want.data(), n, Sum{});
      t::DeviceBuffer<std::int32_t> src(in), d_in(n), d_out(n), d_out2(n);
      d_in.poison();
      const std::size_t need = scandof::scan_workspace_bytes<std::int32_t, Sum>(a, n);
      ScanWorkspace ws;
      ws.reserve(need);  // sized up front: a reallocation inside the sequence would synchronize
      CUDA_CHECK(cudaDeviceSynchronize());

      spin_kernel<<<1, 1, 0, s>>>(cycles_for_ms(20));
      CUDA_CHECK_LAUNCH();
      CUDA_CHECK(cudaMemcpyAsync(d_in.data(), src.data(), n * sizeof(std::int32_t),
                                 cudaMemcpyDeviceToDevice, s));
      // Two scans back to back with one workspace and no sync between them: if the workspace
      // were reset outside the stream (cudaMemset on the legacy stream), the second reset would
      // land before the first scan ran and one of them would read the other's state.
      d_out.poison(s);
      d_out2.poison(s);
      if (explicit_ws) scandof::clear_workspace(ws.data(), ws.size(), s);  // its first raw use
      for (std::int32_t* o : {d_out.data(), d_out2.data()}) {
        if (explicit_ws) {
          scandof::scan<std::int32_t, Sum>(a, kind, d_in.data(), o, n, Sum{}, 0, ws.data(),
                                           ws.size(), s);
        } else {
          scandof::scan(a, kind, d_in.data(), o, n, Sum{}, ws, s);
        }
      }
      CUDA_CHECK(cudaStreamSynchronize(s));
      const char* how = explicit_ws ? " non-blocking stream, explicit workspace"
                                    : " non-blocking stream, ScanWorkspace";
      EXPECT_TRUE(t::all_equal(d_out.download(), want))
          << describe(a, "int32", "Sum", kind, n, how);
      EXPECT_TRUE(t::all_equal(d_out2.download(), want))
          << describe(a, "int32", "Sum", kind, n, how) << ", second scan";
    }
  }
}

// Two streams, two workspaces, interleaved: catches hidden shared state (a static tile counter or
// status array) that one scan would clobber under the other.
TEST_P(ScanApi, TwoStreamsAtOnce) {
  const ScanAlgorithm a = GetParam();
  const std::size_t n1 = std::min<std::size_t>(t::max_test_n(), (std::size_t(1) << 20) + 7);
  const std::size_t n2 = std::min<std::size_t>(t::max_test_n(), (std::size_t(1) << 18) + 3);
  const auto in1 = t::random_vector<std::uint32_t>(n1, t::derive_seed(0x4A));
  const auto in2 = t::random_vector<Affine>(n2, t::derive_seed(0x4B));
  std::vector<std::uint32_t> want1(n1);
  std::vector<Affine> want2(n2);
  scandof::scan_gold(ScanKind::Inclusive, in1.data(), want1.data(), n1, Sum{});
  scandof::scan_gold(ScanKind::Exclusive, in2.data(), want2.data(), n2, ComposeAffine{});
  t::DeviceBuffer<std::uint32_t> d1(in1), o1(n1);
  t::DeviceBuffer<Affine> d2(in2), o2(n2);
  t::Stream s1, s2;
  ScanWorkspace w1, w2;
  w1.reserve(scandof::scan_workspace_bytes<std::uint32_t, Sum>(a, n1));
  w2.reserve(scandof::scan_workspace_bytes<Affine, ComposeAffine>(a, n2));
  for (int round = 0; round < 4; ++round) {
    o1.poison(s1);
    o2.poison(s2);
    for (int rep = 0; rep < 3; ++rep) {
      scandof::scan(a, ScanKind::Inclusive, d1.data(), o1.data(), n1, Sum{}, w1, s1);
      scandof::scan(a, ScanKind::Exclusive, d2.data(), o2.data(), n2, ComposeAffine{}, w2, s2);
    }
    CUDA_CHECK(cudaStreamSynchronize(s1));
    CUDA_CHECK(cudaStreamSynchronize(s2));
    ASSERT_TRUE(t::all_equal(o1.download(), want1))
        << describe(a, "uint32", "Sum", ScanKind::Inclusive, n1, " concurrent, round ") << round;
    ASSERT_TRUE(t::all_equal(o2.download(), want2))
        << describe(a, "Affine", "ComposeAffine", ScanKind::Exclusive, n2, " concurrent, round ")
        << round;
  }
}

TEST_P(ScanApi, ExplicitWorkspace) {
  const ScanAlgorithm a = GetParam();
  for (std::size_t n : api_sizes()) {
    const auto in = t::random_vector<std::int64_t>(n, t::derive_seed(0x5A, n));
    std::vector<std::int64_t> want(n);
    scandof::scan_gold(ScanKind::Exclusive, in.data(), want.data(), n, Sum{});
    t::DeviceBuffer<std::int64_t> d_in(in), d_out(n);
    const std::size_t need = scandof::scan_workspace_bytes<std::int64_t, Sum>(a, n);
    EXPECT_EQ(need, (scandof::scan_workspace_bytes<std::int64_t, Sum>(a, n))) << "not repeatable";

    // Exactly the bytes asked for, in a buffer of exactly that size (memcheck sees overruns).
    t::DeviceBuffer<unsigned char> w(need);
    scandof::clear_workspace(w.data(), need);
    d_out.poison();
    scandof::scan<std::int64_t, Sum>(a, ScanKind::Exclusive, d_in.data(), d_out.data(), n, Sum{}, 0,
                                     w.data(), need);
    CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_TRUE(t::all_equal(d_out.download(), want))
        << describe(a, "int64", "Sum", ScanKind::Exclusive, n, " exact workspace");

    // A larger workspace than needed is fine, reused for a second call.
    t::DeviceBuffer<unsigned char> big(need + 4096);
    scandof::clear_workspace(big.data(), big.size());
    for (int rep = 0; rep < 2; ++rep) {
      d_out.poison();
      scandof::scan<std::int64_t, Sum>(a, ScanKind::Exclusive, d_in.data(), d_out.data(), n, Sum{},
                                       0, big.data(), big.size());
      CUDA_CHECK(cudaDeviceSynchronize());
      EXPECT_TRUE(t::all_equal(d_out.download(), want))
          << describe(a, "int64", "Sum", ScanKind::Exclusive, n, " larger workspace");
    }

    if (need > 0) {
      // Too small or missing: a bad argument, thrown before anything is launched.
      d_out.poison();
      EXPECT_THROW(
          (scandof::scan<std::int64_t, Sum>(a, ScanKind::Exclusive, d_in.data(), d_out.data(), n,
                                            Sum{}, 0, w.data(), need - 1)),
          std::invalid_argument)
          << t::algo_name(a) << " n=" << n << " need=" << need;
      EXPECT_THROW((scandof::scan<std::int64_t, Sum>(a, ScanKind::Exclusive, d_in.data(),
                                                     d_out.data(), n, Sum{}, 0, nullptr, need)),
                   std::invalid_argument);
      EXPECT_THROW((scandof::scan<std::int64_t, Sum>(a, ScanKind::Exclusive, d_in.data(),
                                                     d_out.data(), n, Sum{}, 0, nullptr, 0)),
                   std::invalid_argument);
      CUDA_CHECK(cudaDeviceSynchronize());
      for (auto v : d_out.download())
        ASSERT_EQ(v, t::poison_value<std::int64_t>()) << "a rejected call wrote output";
    }
    std::cout << "[ info ] " << t::algo_name(a) << " int64 n=" << n << ": workspace " << need
              << " bytes\n";
  }
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST_P(ScanApi, ScanWorkspaceGrowsReusesAndMoves) {
  const ScanAlgorithm a = GetParam();
  const std::size_t big = std::min<std::size_t>(t::max_test_n(), (std::size_t(1) << 20) + 7);
  auto check = [&](ScanWorkspace& ws, std::size_t n, const char* step) {
    const auto in = t::random_vector<float>(n, t::derive_seed(0x6A, n), t::Pattern::Walk);
    std::vector<float> want(n);
    scandof::scan_gold(ScanKind::Inclusive, in.data(), want.data(), n, Min{});
    const auto got = device_scan(in, [&](const float* i, float* o, std::size_t m) {
      scandof::scan(a, ScanKind::Inclusive, i, o, m, Min{}, ws);
    });
    EXPECT_TRUE(t::all_equal(got, want))
        << describe(a, "float", "Min", ScanKind::Inclusive, n, " ScanWorkspace: ") << step;
    EXPECT_GE(ws.size(), (scandof::scan_workspace_bytes<float, Min>(a, n))) << step;
  };
  ScanWorkspace ws;
  check(ws, 1000, "small");
  check(ws, big, "grown");
  const std::size_t grown = ws.size();
  void* const p = ws.data();
  check(ws, 3000, "small again");
  EXPECT_EQ(ws.size(), grown) << "shrank";
  EXPECT_EQ(ws.data(), p) << "reallocated without need";
  ScanWorkspace moved(std::move(ws));
  EXPECT_EQ(moved.data(), p);
  EXPECT_EQ(ws.data(), nullptr);
  EXPECT_EQ(ws.size(), 0u);
  check(moved, big, "move-constructed");
  ScanWorkspace assigned;
  assigned.reserve(64);
  assigned = std::move(moved);
  EXPECT_EQ(assigned.data(), p);
  check(assigned, big, "move-assigned");
  check(ws, 70000, "moved-from, reused");
}

// n == 0 with real buffers writes nothing, on both overloads. The argument checks themselves
// (null pointers, overlaps, unknown enums, workspace sizes) run without a device in
// test_validation.cu.
TEST_P(ScanApi, EmptyArraysWriteNothing) {
  const ScanAlgorithm a = GetParam();
  ScanWorkspace ws;
  EXPECT_NO_THROW((scandof::scan(a, ScanKind::Inclusive, static_cast<const Affine*>(nullptr),
                                 static_cast<Affine*>(nullptr), 0, ComposeAffine{}, ws)));
  t::DeviceBuffer<std::uint32_t> buf(64), obuf(64);
  buf.poison();
  obuf.poison();
  scandof::scan(a, ScanKind::Exclusive, buf.data(), obuf.data(), 0, Sum{}, ws);
  scandof::scan<std::uint32_t, Sum>(a, ScanKind::Inclusive, buf.data(), obuf.data(), 0, Sum{}, 0u,
                                    nullptr, 0);
  CUDA_CHECK(cudaDeviceSynchronize());
  for (auto v : obuf.download()) ASSERT_EQ(v, t::poison_value<std::uint32_t>());
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

INSTANTIATE_TEST_SUITE_P(Scan, ScanApi, ::testing::ValuesIn(t::every_algorithm()),
                         [](const ::testing::TestParamInfo<ScanAlgorithm>& info) {
                           return std::string(t::algo_name(info.param));
                         });

// ---- the checks themselves can fail ------------------------------------------------------------

// Every GPU check above passes when nothing is wrong; these prove each one reports a wrong
// element, a write into a guard zone and a swapped operand order when there is one.
TEST(CheckerSelfTest, DeviceComparisonsCatchErrors) {
  SCANDOF_SKIP_WITHOUT_GPU();
  t::MismatchCounter cnt;
  const std::size_t n = (std::size_t(1) << 20) + 7;
  {
    const auto v = t::random_vector<std::int64_t>(n, 1);
    auto bad = v;
    bad[5] += 1;
    bad[n - 1] -= 1;
    t::DeviceBuffer<std::int64_t> a(v), b(bad);
    EXPECT_EQ(cnt.exact(a.data(), a.data(), n).count, 0u);
    const t::Mismatches m = cnt.exact(a.data(), b.data(), n);
    EXPECT_EQ(m.count, 2u);
    EXPECT_EQ(m.first, 5u);
  }
  {
    const auto in = t::random_vector<float>(n, 2);
    const auto ref = t::float_sum_reference(ScanKind::Inclusive, in.data(), n);
    // A float scan rounded like a look-back scan: serial inside 1024-item tiles, then a serial
    // float chain of tile prefixes (pessimistic: real tiles use trees inside).
    std::vector<float> got(n);
    float carry = 0.0f;
    for (std::size_t b = 0; b < n; b += 1024) {
      float local = 0.0f;
      for (std::size_t i = b; i < std::min(n, b + 1024); ++i) {
        local += in[i];
        got[i] = carry + local;
      }
      carry += local;
    }
    t::DeviceBuffer<float> g(got);
    t::DeviceBuffer<double> r(ref.value), m(ref.mag);
    const double f = t::sum_tolerance_factor<float>(n);
    EXPECT_EQ(cnt.close(g.data(), r.data(), m.data(), n, f).count, 0u)
        << "a look-back-like float scan is out of bound: bound too tight";
    // One element missing from one early prefix (far out, where sums reach 2^19, the float
    // spacing and the bound exceed one input: only integer tests catch that there).
    std::size_t i = 100;
    while (in[i] < 0.25f) ++i;
    got[i] -= in[i];
    t::DeviceBuffer<float> g2(got);
    const t::Mismatches mm = cnt.close(g2.data(), r.data(), m.data(), n, f);
    EXPECT_EQ(mm.count, 1u);
    EXPECT_EQ(mm.first, i);
  }
  {
    t::DeviceBuffer<double> buf(1000);
    buf.poison();
    EXPECT_EQ(cnt.unpoisoned(buf.data(), 1000 * sizeof(double)).count, 0u);
    CUDA_CHECK(cudaMemset(reinterpret_cast<char*>(buf.data()) + 4321, 0x00, 1));
    const t::Mismatches m = cnt.unpoisoned(buf.data(), 1000 * sizeof(double));
    EXPECT_EQ(m.count, 1u);
    EXPECT_EQ(m.first, 4321u);
  }
  {
    // The scan with operands swapped differs from the real one, and the device check sees it.
    struct Swapped {
      __host__ __device__ Affine operator()(const Affine& f, const Affine& g) const {
        return ComposeAffine{}(g, f);
      }
    };
    const auto in = t::random_vector<Affine>(n, 3);
    std::vector<Affine> want(n), wrong(n);
    scandof::scan_gold(ScanKind::Inclusive, in.data(), want.data(), n, ComposeAffine{});
    scandof::scan_gold(ScanKind::Inclusive, in.data(), wrong.data(), n, Swapped{}, Affine{1u, 0u});
    t::DeviceBuffer<Affine> w(want), x(wrong);
    const t::Mismatches m = cnt.exact(x.data(), w.data(), n);
    EXPECT_GT(m.count, n / 2) << "a swapped operand order went unnoticed";
    EXPECT_EQ(m.first, 1u);  // [0] is in[0] either way
  }
}

// Information, never a failure: whether repeated float sums come out bitwise identical. Look-back
// scans need not be (the reference's pitfall list); tests above compare within a bound.
TEST(ScanInfo, FloatRunToRunDeterminism) {
  SCANDOF_SKIP_WITHOUT_GPU();
  const std::size_t n = std::min<std::size_t>(t::max_test_n(), (std::size_t(1) << 24) + 3);
  const auto in = t::random_vector<float>(n, 4);
  t::DeviceBuffer<float> d_in(in), first(n), again(n);
  t::MismatchCounter cnt;
  ScanWorkspace ws;
  for (ScanAlgorithm a : t::every_algorithm()) {
    scandof::scan(a, ScanKind::Inclusive, d_in.data(), first.data(), n, Sum{}, ws);
    unsigned long long differing = 0;
    for (int rep = 0; rep < 10; ++rep) {
      scandof::scan(a, ScanKind::Inclusive, d_in.data(), again.data(), n, Sum{}, ws);
      differing = std::max(differing, cnt.exact(again.data(), first.data(), n).count);
    }
    std::cout << "[ info ] " << t::algo_name(a) << " float Sum n=" << n << ", 11 runs: "
              << (differing == 0 ? "bitwise identical"
                                 : std::to_string(differing) + " elements differ between runs")
              << "\n";
  }
}

}  // namespace
