// The argument checks of the public entry points (scan.hpp, compact.hpp, sort.hpp, sat.hpp), with
// no device needed: each call gets fake, never dereferenced device pointers and must throw the
// documented std::invalid_argument before any CUDA call. Without a device a CUDA call would throw
// scandof::CudaError instead (a failed test); on a GPU machine a launch with these pointers would
// fault, which TearDown's synchronize reports. So these run, and can fail, in CI without a GPU.
// Only the headers a user includes: the library's own instantiations are under test.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "scandof/compact.hpp"
#include "scandof/sat.hpp"
#include "scandof/scan.hpp"
#include "scandof/sort.hpp"

namespace scandof {
namespace {

// A fake device address: far apart for different `slot`s (2^52 bytes), 256-byte aligned, plus
// `offset` elements (bytes for void). Arrays of up to 2^52 bytes at different slots never overlap.
template <class T>
T* fake(int slot, std::size_t offset = 0) {
  using E = std::conditional_t<std::is_void<T>::value, char, T>;
  return reinterpret_cast<T*>((std::uintptr_t(slot) << 52) + offset * sizeof(E));
}

// More elements than 2^31 - 1 tiles of any variant hold (the largest tile has 2^13 4-byte
// elements), few enough that arrays of them at different slots stay apart (2^48 bytes).
constexpr std::size_t kHugeN = std::size_t(1) << 46;

class Validation : public ::testing::Test {
 protected:
  // Where a device is present, nothing may have been launched with the fake pointers: a launch
  // would surface here as an illegal address (or a launch error left behind).
  void TearDown() override {
    std::string why;
    if (!cuda_device_available(&why)) return;
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess) << "a rejected call launched work";
    EXPECT_EQ(cudaGetLastError(), cudaSuccess) << "a rejected call left a CUDA error behind";
  }
};

// ---- scan ------------------------------------------------------------------------------------

const ScanAlgorithm kScanAlgos[] = {ScanAlgorithm::Naive,     ScanAlgorithm::WorkEfficient,
                                    ScanAlgorithm::ConflictFree, ScanAlgorithm::Optimized,
                                    ScanAlgorithm::WarpShuffle,  ScanAlgorithm::SinglePass,
                                    ScanAlgorithm::Cub};

using ScanValidation = Validation;

TEST_F(ScanValidation, UnknownAlgorithmOrKind) {
  for (int bad : {-1, kNumScanAlgorithms, 1000}) {
    const auto a = static_cast<ScanAlgorithm>(bad);
    EXPECT_THROW((scan<std::int32_t, Sum>(a, ScanKind::Exclusive, fake<std::int32_t>(1),
                                          fake<std::int32_t>(2), 100, Sum{}, 0, fake<void>(3),
                                          1 << 20)),
                 std::invalid_argument)
        << bad;
    EXPECT_THROW((scan<std::int32_t, Sum>(a, ScanKind::Exclusive, nullptr, nullptr, 0, Sum{}, 0,
                                          nullptr, 0)),
                 std::invalid_argument)
        << "n == 0 does not excuse an unknown algorithm: " << bad;
    EXPECT_THROW((scan_workspace_bytes<std::int32_t, Sum>(a, 100)), std::invalid_argument) << bad;
    ScanWorkspace ws;
    EXPECT_THROW(scan(a, ScanKind::Exclusive, fake<const float>(1), fake<float>(2), 100, Max{}, ws),
                 std::invalid_argument)
        << bad;
    EXPECT_EQ(ws.size(), 0u) << "the workspace grew for a rejected call";
  }
  for (ScanAlgorithm a : kScanAlgos) {
    for (int kind : {-1, 2, 7}) {
      EXPECT_THROW((scan<std::int64_t, Sum>(a, static_cast<ScanKind>(kind),
                                            fake<std::int64_t>(1), fake<std::int64_t>(2), 100,
                                            Sum{}, 0, fake<void>(3), SIZE_MAX)),
                   std::invalid_argument)
          << to_string(a) << " kind " << kind;
      ScanWorkspace ws;
      EXPECT_THROW(scan(a, static_cast<ScanKind>(kind), fake<const std::int64_t>(1),
                        fake<std::int64_t>(2), 100, Sum{}, ws),
                   std::invalid_argument)
          << to_string(a) << " kind " << kind;
      EXPECT_EQ(ws.size(), 0u);
    }
  }
}

TEST_F(ScanValidation, NullPointersOverlapAndOverflow) {
  using T = std::uint32_t;
  for (ScanAlgorithm a : kScanAlgos) {
    SCOPED_TRACE(to_string(a));
    const auto explicit_ws = [&](const T* in, T* out, std::size_t n) {
      scan<T, Sum>(a, ScanKind::Inclusive, in, out, n, Sum{}, 0u, fake<void>(3), SIZE_MAX);
    };
    const auto grown_ws = [&](const T* in, T* out, std::size_t n) {
      ScanWorkspace ws;
      try {
        scan(a, ScanKind::Inclusive, in, out, n, Sum{}, ws);
      } catch (...) {
        EXPECT_EQ(ws.size(), 0u) << "the workspace grew before the arguments were checked";
        throw;
      }
    };
    for (const auto& call : {std::function<void(const T*, T*, std::size_t)>(explicit_ws),
                             std::function<void(const T*, T*, std::size_t)>(grown_ws)}) {
      EXPECT_THROW(call(nullptr, fake<T>(2), 10), std::invalid_argument);
      EXPECT_THROW(call(fake<T>(1), nullptr, 10), std::invalid_argument);
      // Overlap other than in place, either way round.
      EXPECT_THROW(call(fake<T>(1), fake<T>(1, 1), 32), std::invalid_argument);
      EXPECT_THROW(call(fake<T>(1, 1), fake<T>(1), 32), std::invalid_argument);
      EXPECT_THROW(call(fake<T>(1), fake<T>(1, 31), 32), std::invalid_argument);
      // n * sizeof(T) past size_t.
      EXPECT_THROW(call(fake<T>(1), fake<T>(2), SIZE_MAX / sizeof(T) + 1), std::invalid_argument);
    }
    // n == 0: nothing to do, null pointers allowed, no device needed.
    EXPECT_NO_THROW(explicit_ws(nullptr, nullptr, 0));
    EXPECT_NO_THROW(grown_ws(nullptr, nullptr, 0));
  }
}

TEST_F(ScanValidation, WorkspaceTooSmallMissingOrMisaligned) {
  using T = std::int64_t;
  const std::size_t n = (std::size_t(1) << 20) + 7;
  for (ScanAlgorithm a : kScanAlgos) {
    // CUB's scratch size is the device's answer (cub::DeviceScan asks the runtime): not a
    // host-side check.
    if (a == ScanAlgorithm::Cub) continue;
    SCOPED_TRACE(to_string(a));
    const std::size_t need = scan_workspace_bytes<T, Sum>(a, n);
    ASSERT_GT(need, 0u) << "n spans several tiles";
    EXPECT_THROW((scan<T, Sum>(a, ScanKind::Exclusive, fake<T>(1), fake<T>(2), n, Sum{}, 0,
                               fake<void>(3), need - 1)),
                 std::invalid_argument);
    EXPECT_THROW((scan<T, Sum>(a, ScanKind::Exclusive, fake<T>(1), fake<T>(2), n, Sum{}, 0,
                               nullptr, need)),
                 std::invalid_argument);
    EXPECT_THROW((scan<T, Sum>(a, ScanKind::Exclusive, fake<T>(1), fake<T>(2), n, Sum{}, 0,
                               nullptr, 0)),
                 std::invalid_argument);
  }
  // The single pass's status words need 16-byte alignment.
  const std::size_t need = scan_workspace_bytes<T, Sum>(ScanAlgorithm::SinglePass, n);
  EXPECT_THROW((scan<T, Sum>(ScanAlgorithm::SinglePass, ScanKind::Exclusive, fake<T>(1),
                             fake<T>(2), n, Sum{}, 0, fake<char>(3, 8), need + 64)),
               std::invalid_argument);
}

TEST_F(ScanValidation, TooManyTiles) {
  using T = std::int32_t;
  for (ScanAlgorithm a : kScanAlgos) {
    if (a == ScanAlgorithm::Cub) continue;  // 64-bit offsets: no grid limit of its own
    SCOPED_TRACE(to_string(a));
    EXPECT_THROW((scan_workspace_bytes<T, Sum>(a, kHugeN)), std::invalid_argument);
    EXPECT_THROW((scan<T, Sum>(a, ScanKind::Exclusive, fake<T>(1), fake<T>(2), kHugeN, Sum{}, 0,
                               fake<void>(3), SIZE_MAX)),
                 std::invalid_argument);
    ScanWorkspace ws;
    EXPECT_THROW(scan(a, ScanKind::Exclusive, fake<const T>(1), fake<T>(2), kHugeN, Sum{}, ws),
                 std::invalid_argument);
    EXPECT_EQ(ws.size(), 0u);
  }
}

// ---- compaction --------------------------------------------------------------------------------

std::vector<CompactOptions> every_compact_option() {
  std::vector<CompactOptions> v;
  for (CompactAlgorithm a : all_compact_algorithms()) {
    if (a != CompactAlgorithm::Paper) {
      v.push_back({a, ScanAlgorithm::Optimized});
      continue;
    }
    for (ScanAlgorithm s : kScanAlgos) v.push_back({a, s});
  }
  return v;
}

std::string name_of(const CompactOptions& o) {
  return std::string(to_string(o.algo)) +
         (o.algo == CompactAlgorithm::Paper ? std::string("/") + to_string(o.paper_scan) : "");
}

using CompactValidation = Validation;

// Each of the four entry points and its ScanWorkspace twin, as one call shape: (in, flags, out,
// count, n, ws, ws_bytes, opt). The flags are ignored by the predicate forms.
using Elem = float;
using Flags = const std::uint8_t*;
struct CompactEntry {
  const char* name;
  bool flagged;
  std::function<void(const Elem*, Flags, Elem*, std::uint64_t*, std::size_t, void*, std::size_t,
                     CompactOptions)>
      with_ws;
  std::function<void(const Elem*, Flags, Elem*, std::size_t, ScanWorkspace&, CompactOptions)> grown;
};

std::vector<CompactEntry> compact_entries() {
  const LessThan<Elem> p{0.5f};
  return {
      {"compact_if", false,
       [p](const Elem* i, Flags, Elem* o, std::uint64_t* c, std::size_t n, void* w, std::size_t b,
           CompactOptions opt) { compact_if<Elem>(i, o, c, n, p, w, b, 0, opt); },
       [p](const Elem* i, Flags, Elem* o, std::size_t n, ScanWorkspace& ws, CompactOptions opt) {
         compact_if<Elem>(i, o, n, p, ws, 0, opt);
       }},
      {"partition_if", false,
       [p](const Elem* i, Flags, Elem* o, std::uint64_t* c, std::size_t n, void* w, std::size_t b,
           CompactOptions opt) { partition_if<Elem>(i, o, c, n, p, w, b, 0, opt); },
       [p](const Elem* i, Flags, Elem* o, std::size_t n, ScanWorkspace& ws, CompactOptions opt) {
         partition_if<Elem>(i, o, n, p, ws, 0, opt);
       }},
      {"compact_flagged", true,
       [](const Elem* i, Flags f, Elem* o, std::uint64_t* c, std::size_t n, void* w, std::size_t b,
          CompactOptions opt) { compact_flagged<Elem>(i, f, o, c, n, w, b, 0, opt); },
       [](const Elem* i, Flags f, Elem* o, std::size_t n, ScanWorkspace& ws, CompactOptions opt) {
         compact_flagged<Elem>(i, f, o, n, ws, 0, opt);
       }},
      {"partition_flagged", true,
       [](const Elem* i, Flags f, Elem* o, std::uint64_t* c, std::size_t n, void* w, std::size_t b,
          CompactOptions opt) { partition_flagged<Elem>(i, f, o, c, n, w, b, 0, opt); },
       [](const Elem* i, Flags f, Elem* o, std::size_t n, ScanWorkspace& ws, CompactOptions opt) {
         partition_flagged<Elem>(i, f, o, n, ws, 0, opt);
       }},
  };
}

TEST_F(CompactValidation, BadArguments) {
  const std::size_t n = 1000;
  auto* count = fake<std::uint64_t>(4);
  Flags flags = fake<const std::uint8_t>(5);
  for (const CompactEntry& e : compact_entries()) {
    for (const CompactOptions& opt : every_compact_option()) {
      SCOPED_TRACE(std::string(e.name) + " " + name_of(opt));
      auto both = [&](const Elem* in, Flags f, Elem* out, std::size_t m) {
        EXPECT_THROW(e.with_ws(in, f, out, count, m, fake<void>(3), SIZE_MAX, opt),
                     std::invalid_argument);
        ScanWorkspace ws;
        EXPECT_THROW(e.grown(in, f, out, m, ws, opt), std::invalid_argument);
        EXPECT_EQ(ws.size(), 0u) << "the workspace grew before the arguments were checked";
      };
      both(nullptr, flags, fake<Elem>(2), n);
      both(fake<Elem>(1), flags, nullptr, n);
      both(fake<Elem>(1), flags, fake<Elem>(1, 10), n);  // out overlaps in
      both(fake<Elem>(1, 10), flags, fake<Elem>(1), n);
      both(fake<Elem>(1), flags, fake<Elem>(2), SIZE_MAX / sizeof(Elem) + 1);
      if (e.flagged) {
        both(fake<Elem>(1), nullptr, fake<Elem>(2), n);
        // out over the flags
        both(fake<Elem>(1), flags, reinterpret_cast<Elem*>(const_cast<std::uint8_t*>(flags) + 64), n);
      }
      EXPECT_THROW(e.with_ws(fake<Elem>(1), flags, fake<Elem>(2), nullptr, n, fake<void>(3), SIZE_MAX,
                             opt),
                   std::invalid_argument)
          << "null d_count";
      EXPECT_THROW(e.with_ws(nullptr, nullptr, nullptr, nullptr, 0, nullptr, 0, opt),
                   std::invalid_argument)
          << "null d_count with n == 0";
      // Too small or missing scratch (CUB's size, for the paper's CUB scan, is the device's).
      if (!(opt.algo == CompactAlgorithm::Paper && opt.paper_scan == ScanAlgorithm::Cub)) {
        const std::size_t need = compact_workspace_bytes<Elem>(n, opt);
        ASSERT_GT(need, 0u);
        EXPECT_THROW(e.with_ws(fake<Elem>(1), flags, fake<Elem>(2), count, n, fake<void>(3), need - 1,
                               opt),
                     std::invalid_argument);
        EXPECT_THROW(e.with_ws(fake<Elem>(1), flags, fake<Elem>(2), count, n, nullptr, need, opt),
                     std::invalid_argument);
      }
    }
  }
}

TEST_F(CompactValidation, UnknownAlgorithmsAndTooManyTiles) {
  auto* count = fake<std::uint64_t>(4);
  Flags flags = fake<const std::uint8_t>(5);
  std::vector<CompactOptions> bad;
  for (int a : {-1, kNumCompactAlgorithms, 99})
    bad.push_back({static_cast<CompactAlgorithm>(a), ScanAlgorithm::Optimized});
  for (int s : {-1, kNumScanAlgorithms}) bad.push_back({CompactAlgorithm::Paper, static_cast<ScanAlgorithm>(s)});
  for (const CompactEntry& e : compact_entries()) {
    for (const CompactOptions& opt : bad) {
      SCOPED_TRACE(std::string(e.name) + " algo " + std::to_string(int(opt.algo)) + " scan " +
                   std::to_string(int(opt.paper_scan)));
      EXPECT_THROW(e.with_ws(fake<Elem>(1), flags, fake<Elem>(2), count, 1000, fake<void>(3), SIZE_MAX,
                             opt),
                   std::invalid_argument);
      // n == 0 would only clear the count: the options are refused before that CUDA call.
      EXPECT_THROW(e.with_ws(nullptr, nullptr, nullptr, count, 0, nullptr, 0, opt),
                   std::invalid_argument);
      ScanWorkspace ws;
      EXPECT_THROW(e.grown(fake<Elem>(1), flags, fake<Elem>(2), 1000, ws, opt), std::invalid_argument);
      EXPECT_EQ(ws.size(), 0u);
      EXPECT_THROW(compact_workspace_bytes<Elem>(1000, opt), std::invalid_argument);
    }
  }
  // The single pass runs one block per tile; past 2^31 - 1 tiles it refuses (partition runs
  // reduce-then-scan, which has no such limit).
  const CompactOptions sp{CompactAlgorithm::SinglePass, ScanAlgorithm::Optimized};
  for (const CompactEntry& e : compact_entries()) {
    if (std::string(e.name).find("partition") != std::string::npos) continue;
    SCOPED_TRACE(e.name);
    EXPECT_THROW(e.with_ws(fake<Elem>(1), flags, fake<Elem>(2), count, kHugeN, fake<void>(3), SIZE_MAX,
                           sp),
                 std::invalid_argument);
    ScanWorkspace ws;
    EXPECT_THROW(e.grown(fake<Elem>(1), flags, fake<Elem>(2), kHugeN, ws, sp), std::invalid_argument);
    EXPECT_EQ(ws.size(), 0u);
  }
}

// ---- sort --------------------------------------------------------------------------------------

using SortValidation = Validation;
using U32 = std::uint32_t;

// sort_keys and sort_pairs with explicit scratch and with a ScanWorkspace (which must not grow).
template <class K>
void expect_keys_throw(SortAlgorithm a, const K* in, K* out, std::size_t n, int b, int e,
                       const std::string& what) {
  EXPECT_THROW(sort_keys<K>(a, in, out, n, fake<void>(3), SIZE_MAX, 0, b, e),
               std::invalid_argument)
      << what;
  ScanWorkspace ws;
  EXPECT_THROW(sort_keys<K>(a, in, out, n, ws, 0, b, e), std::invalid_argument) << what;
  EXPECT_EQ(ws.size(), 0u) << what << ": the workspace grew before the arguments were checked";
}
template <class K>
void expect_pairs_throw(SortAlgorithm a, const K* kin, K* kout, const U32* vin, U32* vout,
                        std::size_t n, int b, int e, const std::string& what) {
  EXPECT_THROW((sort_pairs<K, U32>(a, kin, kout, vin, vout, n, fake<void>(3), SIZE_MAX, 0, b, e)),
               std::invalid_argument)
      << what;
  ScanWorkspace ws;
  EXPECT_THROW((sort_pairs<K, U32>(a, kin, kout, vin, vout, n, ws, 0, b, e)),
               std::invalid_argument)
      << what;
  EXPECT_EQ(ws.size(), 0u) << what << ": the workspace grew before the arguments were checked";
}

template <class K>
void sort_bad_arguments() {
  constexpr int kBits = 8 * sizeof(K);
  const std::size_t n = 1000;
  for (SortAlgorithm a : all_sort_algorithms()) {
    SCOPED_TRACE(to_string(a));
    for (const auto& r : std::vector<std::pair<int, int>>{
             {0, kBits + 1}, {9, 8}, {-1, kBits}, {kBits + 1, -1}, {0, 1000}}) {
      expect_keys_throw<K>(a, fake<K>(1), fake<K>(2), n, r.first, r.second,
                           "bits [" + std::to_string(r.first) + ", " + std::to_string(r.second) +
                               ")");
      expect_pairs_throw<K>(SortAlgorithm::Lsd, fake<K>(1), fake<K>(2), fake<U32>(5),
                            fake<U32>(6), n, r.first, r.second, "pairs, bad bits");
    }
    expect_keys_throw<K>(a, nullptr, fake<K>(2), n, 0, -1, "null keys in");
    expect_keys_throw<K>(a, fake<K>(1), nullptr, n, 0, -1, "null keys out");
    expect_keys_throw<K>(a, fake<K>(1), fake<K>(1, 1), n, 0, -1, "keys out overlaps in");
    expect_keys_throw<K>(a, fake<K>(1, 999), fake<K>(1), n, 0, -1, "keys in overlaps out");
    expect_keys_throw<K>(a, fake<K>(1), fake<K>(2), SIZE_MAX / sizeof(K) + 1, 0, -1,
                         "n * sizeof(K) overflows");
    // Too small or missing scratch.
    const std::size_t need = sort_keys_workspace_bytes<K>(a, n);
    ASSERT_GT(need, 0u);
    EXPECT_THROW(sort_keys<K>(a, fake<K>(1), fake<K>(2), n, fake<void>(3), need - 1),
                 std::invalid_argument);
    EXPECT_THROW(sort_keys<K>(a, fake<K>(1), fake<K>(2), n, nullptr, need), std::invalid_argument);
    // n == 0: nothing to do, null pointers allowed, no device needed.
    EXPECT_NO_THROW(sort_keys<K>(a, nullptr, nullptr, 0, nullptr, 0));
    ScanWorkspace ws;
    EXPECT_NO_THROW(sort_keys<K>(a, nullptr, nullptr, 0, ws));
    EXPECT_NO_THROW((sort_pairs<K, U32>(SortAlgorithm::Lsd, nullptr, nullptr, nullptr, nullptr, 0,
                                        nullptr, 0)));
  }
  // The split sort: full bit range, keys only, n below 2^32.
  expect_keys_throw<K>(SortAlgorithm::Split, fake<K>(1), fake<K>(2), n, 0, kBits / 2, "split, half");
  expect_keys_throw<K>(SortAlgorithm::Split, fake<K>(1), fake<K>(2), n, 1, -1, "split, from bit 1");
  expect_keys_throw<K>(SortAlgorithm::Split, fake<K>(1), fake<K>(2), std::size_t(1) << 32, 0, -1,
                       "split, 2^32 keys");
  expect_pairs_throw<K>(SortAlgorithm::Split, fake<K>(1), fake<K>(2), fake<U32>(5), fake<U32>(6),
                        n, 0, -1, "split pairs");
  // Pairs: the values' pointers, and no keys array over a values array.
  const SortAlgorithm lsd = SortAlgorithm::Lsd;
  expect_pairs_throw<K>(lsd, fake<K>(1), fake<K>(2), nullptr, fake<U32>(6), n, 0, -1, "null vin");
  expect_pairs_throw<K>(lsd, fake<K>(1), fake<K>(2), fake<U32>(5), nullptr, n, 0, -1, "null vout");
  expect_pairs_throw<K>(lsd, nullptr, fake<K>(2), fake<U32>(5), fake<U32>(6), n, 0, -1, "null kin");
  expect_pairs_throw<K>(lsd, fake<K>(1), fake<K>(2), fake<U32>(5), fake<U32>(5, 3), n, 0, -1,
                        "values out overlaps in");
  expect_pairs_throw<K>(lsd, fake<K>(1), fake<K>(2), fake<U32>(5), fake<U32>(2), n, 0, -1,
                        "values out is keys out");
  expect_pairs_throw<K>(lsd, fake<K>(1), fake<K>(2), fake<U32>(2, 7), fake<U32>(6), n, 0, -1,
                        "keys out over values in");
  expect_pairs_throw<K>(lsd, fake<K>(1), fake<K>(2), fake<U32>(5), fake<U32>(1, 5), n, 0, -1,
                        "values out over keys in");
  expect_pairs_throw<K>(lsd, fake<K>(1), fake<K>(2), fake<U32>(5), fake<U32>(6),
                        SIZE_MAX / sizeof(K) + 1, 0, -1, "n * sizeof overflows");
  const std::size_t need = sort_pairs_workspace_bytes<K, U32>(lsd, n);
  EXPECT_THROW((sort_pairs<K, U32>(lsd, fake<K>(1), fake<K>(2), fake<U32>(5), fake<U32>(6), n,
                                   fake<void>(3), need - 1)),
               std::invalid_argument);
  EXPECT_THROW((sort_pairs<K, U32>(lsd, fake<K>(1), fake<K>(2), fake<U32>(5), fake<U32>(6), n,
                                   nullptr, need)),
               std::invalid_argument);
}

TEST_F(SortValidation, BadArgumentsUint32) { sort_bad_arguments<std::uint32_t>(); }
TEST_F(SortValidation, BadArgumentsInt32) { sort_bad_arguments<std::int32_t>(); }
TEST_F(SortValidation, BadArgumentsFloat) { sort_bad_arguments<float>(); }
TEST_F(SortValidation, BadArgumentsUint64) { sort_bad_arguments<std::uint64_t>(); }

TEST_F(SortValidation, UnknownAlgorithm) {
  for (int bad : {-1, kNumSortAlgorithms, 50}) {
    const auto a = static_cast<SortAlgorithm>(bad);
    expect_keys_throw<U32>(a, fake<U32>(1), fake<U32>(2), 1000, 0, -1, "keys");
    expect_pairs_throw<U32>(a, fake<U32>(1), fake<U32>(2), fake<U32>(5), fake<U32>(6), 1000, 0, -1,
                            "pairs");
    EXPECT_THROW(sort_keys<U32>(a, nullptr, nullptr, 0, nullptr, 0), std::invalid_argument)
        << "n == 0 does not excuse an unknown algorithm";
    EXPECT_THROW(sort_keys_workspace_bytes<U32>(a, 1000), std::invalid_argument);
    EXPECT_THROW((sort_pairs_workspace_bytes<U32, U32>(a, 1000)), std::invalid_argument);
  }
}

// ---- summed-area tables --------------------------------------------------------------------------

using SatValidation = Validation;

TEST_F(SatValidation, BadArguments) {
  SatBuilder b;
  SatInput in;
  in.width = 64;
  in.height = 32;
  in.pixels = fake<const unsigned char>(1);
  in.pitch_bytes = 256;
  void* out = fake<void>(2);
  const auto throws = [&](const SatInput& i, void* o, SatFormat f, SatMethod m, ScanAlgorithm a,
                          int ch, SatLayout l, const char* what) {
    EXPECT_THROW(b.build(i, o, f, m, a, 0, false, ch, l), std::invalid_argument) << what;
    EXPECT_THROW(b.build(i, o, f, m, a, 0, true, ch, l), std::invalid_argument) << what << " timed";
  };
  const SatFormat u32 = SatFormat::U32;
  const SatMethod fused = SatMethod::Fused;
  const ScanAlgorithm opt = ScanAlgorithm::Optimized;
  const SatLayout planar = SatLayout::Planar;
  for (int m = 0; m < kNumSatMethods; ++m) {
    const auto method = static_cast<SatMethod>(m);
    SCOPED_TRACE(to_string(method));
    throws(in, out, static_cast<SatFormat>(2), method, opt, 3, planar, "unknown format");
    throws(in, out, static_cast<SatFormat>(-1), method, opt, 3, planar, "unknown format");
    throws(in, out, u32, method, static_cast<ScanAlgorithm>(kNumScanAlgorithms), 3, planar,
           "unknown scan");
    throws(in, out, u32, method, opt, 3, static_cast<SatLayout>(2), "unknown layout");
    throws(in, out, u32, method, opt, 0, planar, "0 channels");
    throws(in, out, u32, method, opt, 5, planar, "5 channels");
    throws(in, nullptr, u32, method, opt, 3, planar, "null output");
    throws(in, fake<char>(2, 8), u32, method, opt, 3, planar, "output not 16-byte aligned");
    SatInput i = in;
    i.pixels = nullptr;
    throws(i, out, u32, method, opt, 3, planar, "neither texture nor pixels");
    i = in;
    i.pitch_bytes = 4 * 64 - 4;
    throws(i, out, u32, method, opt, 3, planar, "pitch below 4 * width");
    i.pitch_bytes = 4 * 64 + 2;
    throws(i, out, u32, method, opt, 3, planar, "pitch not a multiple of 4");
    i = in;
    i.pixels = fake<const unsigned char>(1, 2);
    throws(i, out, u32, method, opt, 3, planar, "pixels not 4-byte aligned");
    i = in;
    i.height = -3;
    throws(i, out, u32, method, opt, 3, planar, "negative height");
    i.height = (1 << 20) + 1;
    throws(i, out, u32, method, opt, 3, planar, "height past 2^20");
    i = in;
    i.width = (1 << 18) + 4;
    i.pitch_bytes = std::size_t(i.width) * 4;
    throws(i, out, u32, method, opt, 3, SatLayout::Interleaved, "interleaved width past 2^18");
  }
  for (int m : {-1, kNumSatMethods})
    throws(in, out, u32, static_cast<SatMethod>(m), opt, 3, planar, "unknown method");
  // An empty image is no work: no throw, no device needed, even with null pointers.
  SatInput empty;
  empty.width = 0;
  empty.height = 17;
  EXPECT_NO_THROW(b.build(empty, nullptr, u32, fused, opt));
  EXPECT_EQ(b.stage_times().total_ms, 0.0f);
}

}  // namespace
}  // namespace scandof
