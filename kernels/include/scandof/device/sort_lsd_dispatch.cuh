// The onesweep sort's host side: the workspace layout (control block, look-back status rows,
// spare buffers), the launch sequence of a sort (one memset, the histogram, one kernel per digit)
// and the choice of policy by key type, size and the GPU's shared memory per block.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "scandof/cuda_check.hpp"
#include "scandof/device/dependent_launch.cuh"
#include "scandof/device/sort_lsd_agent.cuh"
#include "scandof/device/sort_lsd_tuning.cuh"

namespace scandof {
namespace detail {
namespace lsd {

// ---------------------------------------------------------------- host side
inline std::size_t align_up(std::size_t x) {
  return (x + 255) & ~std::size_t(255);
}

// Look-back status: one row of 256 words per tile. Two sets of rows while a set is at most
// 128 MiB (n <= 2^29): passes alternate between them, one memset before the first pass clears
// both (with the control block in front of them), and each tile of a later pass clears its row
// of the set the pass before used, for the pass after: no memset between passes (about 2 % at
// 2^26-2^28, H100, results/sort/README.md). Beyond 128 MiB a set, one set cleared before each
// pass (a second set would cost up to 2 GiB more at 2^32 keys, where the memsets are a small part
// of the sort).
struct StatusPlan {
  std::size_t word_bytes = 4, tiles = 0;
  int sets = 2;
  std::size_t bytes = 0;
};
template <class K>
StatusPlan status_plan(std::size_t n) {
  StatusPlan p;
  p.word_bytes = n < (std::size_t(1) << 30) ? 4 : 8;
  constexpr std::size_t kTileKeys = static_cast<std::size_t>(kThreads) * kMinOnesweepItems;
  p.tiles = (n + kTileKeys - 1) / kTileKeys;
  const std::size_t row_set = p.tiles * kRadix * p.word_bytes;
  p.sets = row_set <= (std::size_t(128) << 20) ? 2 : 1;
  p.bytes = align_up(row_set * p.sets);
  return p;
}

// The packed pairs' second buffer of words (packed_pairs_passes), after the spare keys and values.
inline std::size_t packed_second_buffer_bytes(std::size_t n) {
  return align_up(n * sizeof(std::uint64_t));
}

// Scratch of sort() under policy P (the public API's: DefaultOnesweepPolicy).
template <class K, class V, bool kHasValues, class P = DefaultOnesweepPolicy<K, kHasValues>>
std::size_t workspace_bytes(std::size_t n) {
  if (n == 0) return 0;
  std::size_t b = align_up(n * sizeof(K));
  if (kHasValues) b += align_up(n * sizeof(V));
  if constexpr (P::PACKED_PAIRS) b += packed_second_buffer_bytes(n);
  b += align_up(sizeof(Ctrl));  // digit totals, tile counters
  b += status_plan<K>(n).bytes;
  return b;
}

// Dynamic shared memory of onesweep_kernel under policy P.
template <class K, class V, bool kHasValues, class Off, class P>
constexpr std::size_t onesweep_smem_bytes() {
  constexpr bool kStagedValues = kHasValues && !P::VALUES_AFTER;
  return sizeof(TileSmem<K, V, kStagedValues, Off, P::TILE>);
}

template <class Kernel>
void allow_smem(Kernel kernel, std::size_t smem) {
  if (smem > 48 * 1024)
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(smem)));
}

// What every onesweep sort does before its passes: one memset clears the control block and the
// status rows (they follow it: sort()), then the histogram of every digit in one read of the keys.
// Returns the words of one set of status rows.
template <class P, class K, class W>
std::size_t onesweep_prologue(const K* ksrc, std::size_t n, int begin_bit, int end_bit, Ctrl* ctrl,
                              W* status, const StatusPlan& sp, int sms, cudaStream_t stream) {
  // The status rows were planned for the smallest tile (kMinOnesweepItems), so any policy fits.
  const std::size_t tiles = (n + P::TILE - 1) / P::TILE;
  if (tiles > sp.tiles)
    throw std::logic_error("sort: onesweep tile smaller than the status rows were planned for");
  const std::size_t row_set_words = tiles * kRadix;
  const std::size_t status_off =
      reinterpret_cast<unsigned char*>(status) - reinterpret_cast<unsigned char*>(ctrl);
  CUDA_CHECK(cudaMemsetAsync(ctrl, 0, status_off + row_set_words * sizeof(W) * sp.sets, stream));
  // 16 copies of the counters in blocks of 1024 (histogram_copies_kernel: 64 KiB for 4-byte keys,
  // one block an SM on the H100 by registers; 128 KiB for 8-byte keys), 4 vectors a thread and
  // loop for 4-byte keys, 8 for 8-byte ones: at 2^28 uint32 0.357 ms against 0.459 for
  // histogram_vec_kernel below, where the read alone takes about 0.34 (H100, sortbench --probe,
  // results/sort/README.md, with the copy counts and vector widths that lost).
  {
    constexpr int kBlock = 1024, kCopies = 16, kVecs = sizeof(K) == 4 ? 4 : 8;
    constexpr std::size_t smem = histogram_copies_smem_bytes<K, kCopies>();
    auto kernel = histogram_copies_kernel<K, kVecs, kBlock, kCopies, P::PACKED_PAIRS>;
    int dev = 0, optin = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    if (smem <= static_cast<std::size_t>(optin)) {
      allow_smem(kernel, smem);
      int per_sm = 0;
      CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kBlock, smem));
      const std::size_t chunk = static_cast<std::size_t>(kBlock) * kVecs * (16 / sizeof(K));
      const int blocks = static_cast<int>(std::max<std::size_t>(
          1, std::min<std::size_t>((n + chunk - 1) / chunk,
                                   static_cast<std::size_t>(sms) * std::max(per_sm, 1))));
      kernel<<<blocks, kBlock, smem, stream>>>(ksrc, n, begin_bit, end_bit, ctrl->totals);
      CUDA_CHECK_LAUNCH();
      return row_set_words;
    }
  }
  // Where a block cannot have that memory: 16-byte loads, 8 keys a thread and loop, 16 blocks an
  // SM: at 2^28 uint32 0.459 ms against 0.568 for histogram_kernel's scalar loads (H100, sortbench
  // --probe, results/sort/README.md).
  constexpr int kHistVecs = sizeof(K) == 4 ? 2 : 4;
  const std::size_t hchunk = static_cast<std::size_t>(kThreads) * kHistVecs * (16 / sizeof(K));
  const int hblocks = static_cast<int>(std::max<std::size_t>(
      1, std::min<std::size_t>((n + hchunk - 1) / hchunk, static_cast<std::size_t>(sms) * 16)));
  histogram_vec_kernel<K, kHistVecs, kRadixBits, P::PACKED_PAIRS>
      <<<hblocks, kThreads, 0, stream>>>(ksrc, n, begin_bit, end_bit, ctrl->totals);
  CUDA_CHECK_LAUNCH();
  return row_set_words;
}

// Pass `pass`'s status rows, and the rows it clears for the next pass (null if none). With one
// set, the set is cleared before every pass but the first.
template <class W>
std::pair<W*, W*> pass_status(W* status, const StatusPlan& sp, std::size_t row_set_words, int pass,
                              int passes, cudaStream_t stream) {
  W* st = status;
  W* clear = nullptr;
  if (sp.sets == 2) {
    st += static_cast<std::size_t>(pass & 1) * row_set_words;
    // Pass 0's other set is still clear from the memset; the last pass leaves its rows.
    if (pass > 0 && pass + 1 < passes)
      clear = status + static_cast<std::size_t>((pass + 1) & 1) * row_set_words;
  } else if (pass > 0) {
    CUDA_CHECK(cudaMemsetAsync(status, 0, row_set_words * sizeof(W), stream));
  }
  return {st, clear};
}

// Every digit pass of policy P: the histogram kernel, then one onesweep kernel per digit.
template <class P, class K, class V, bool kHasValues, class W, class Off>
void onesweep_passes(const K* ksrc, K* kout, K* kalt, const V* vsrc, V* vout, V* valt,
                     std::size_t n, int begin_bit, int end_bit, int passes, Ctrl* ctrl, W* status,
                     const StatusPlan& sp, int sms, cudaStream_t stream) {
  const std::size_t row_set_words =
      onesweep_prologue<P>(ksrc, n, begin_bit, end_bit, ctrl, status, sp, sms, stream);
  const auto tiles = static_cast<unsigned>(row_set_words / kRadix);
  auto kernel = onesweep_kernel<K, V, kHasValues, W, Off, P>;
  constexpr std::size_t smem = onesweep_smem_bytes<K, V, kHasValues, Off, P>();
  allow_smem(kernel, smem);
  for (int pass = 0; pass < passes; ++pass) {
    const int shift = begin_bit + pass * kRadixBits;
    const unsigned mask = (1u << std::min(kRadixBits, end_bit - shift)) - 1u;
    const bool to_out = (passes - 1 - pass) % 2 == 0;
    K* kdst = to_out ? kout : kalt;
    V* vdst = to_out ? vout : valt;
    const auto st = pass_status(status, sp, row_set_words, pass, passes, stream);
    kernel<<<tiles, kThreads, smem, stream>>>(ksrc, kdst, vsrc, vdst, n, shift, mask,
                                              ctrl->totals + pass * kRadix, st.first, st.second,
                                              ctrl->counters + pass, P::SPIN_NS);
    CUDA_CHECK_LAUNCH();
    ksrc = kdst;
    vsrc = vdst;
  }
}

// 4-byte keys with 4-byte values sorted as one 64-bit word a pair (the key's radix bits above the
// value's bits), so that the middle passes rank and scatter one array of 8-byte words, as a sort
// of uint64 keys does, instead of keys and values apart. An even number of passes (at least 2):
// the first reads the two input arrays and writes words to buffer A (`spare`), the middle ones go
// A -> B -> A (`second`), the last reads A and writes the two output arrays. The digits of the
// words are bits 32 + begin_bit on; the histogram counts the keys themselves. Each pass is
// launched to start while the kernel before it drains.
// H100, ncu, 2^26: a middle pass over words takes 504-514 us against 551-556 for a pass over keys
// and values apart; the first 527 and the last 557. What that costs: 16 bytes of scratch a pair
// (two buffers of words) where keys and values apart take 8; the layouts in 8 bytes a pair that
// were tried spill or gain nothing (results/sort/README.md).
template <class P, class K, class V, class W, class Off>
void packed_pairs_passes(const K* kin, K* kout, const V* vin, V* vout, std::uint64_t* spare,
                         std::uint64_t* second, std::size_t n, int begin_bit, int end_bit,
                         int passes, Ctrl* ctrl, W* status, const StatusPlan& sp, int sms,
                         cudaStream_t stream) {
  using E = std::uint64_t;
  static_assert(kPackablePairs<K, V, true>, "4-byte keys and values");
  if (passes < 2 || passes % 2 != 0)
    throw std::logic_error("sort: the packed pairs passes need an even number of passes");
  const std::size_t row_set_words =
      onesweep_prologue<P>(kin, n, begin_bit, end_bit, ctrl, status, sp, sms, stream);
  const auto tiles = static_cast<unsigned>(row_set_words / kRadix);
  auto first = onesweep_kernel<E, NoValue, false, W, Off, P, PairsIn<K, V>, E*>;
  auto words = onesweep_kernel<E, NoValue, false, W, Off, P, const E*, E*>;
  auto last = onesweep_kernel<E, NoValue, false, W, Off, P, const E*, PairsOut<K, V>>;
  constexpr std::size_t smem = onesweep_smem_bytes<E, NoValue, false, Off, P>();
  allow_smem(first, smem);
  allow_smem(words, smem);
  allow_smem(last, smem);
  for (int pass = 0; pass < passes; ++pass) {
    const int shift = begin_bit + pass * kRadixBits;
    const unsigned mask = (1u << std::min(kRadixBits, end_bit - shift)) - 1u;
    const auto st = pass_status(status, sp, row_set_words, pass, passes, stream);
    // With one set of status rows a memset comes between the passes: launched plainly after it.
    const bool after_kernel = sp.sets == 2 || pass == 0;
    const auto launch = [&](auto kernel, auto src, auto dst) {
      pdl::launch_dependent(kernel, dim3(tiles), dim3(kThreads), smem, stream, after_kernel, src,
                            dst, static_cast<const NoValue*>(nullptr),
                            static_cast<NoValue*>(nullptr), static_cast<std::uint64_t>(n),
                            32 + shift, mask, ctrl->totals + pass * kRadix, st.first, st.second,
                            ctrl->counters + pass, P::SPIN_NS);
    };
    if (pass == 0)
      launch(first, PairsIn<K, V>{kin, vin}, spare);
    else if (pass + 1 == passes)
      launch(last, static_cast<const E*>(spare), PairsOut<K, V>{kout, vout});
    else if (pass % 2 == 1)
      launch(words, static_cast<const E*>(spare), second);
    else
      launch(words, static_cast<const E*>(second), spare);
  }
}

// Policy P where a block may have its shared memory; where it may not, EightBitOnesweepPolicy if
// that fits (the larger default tiles want up to 113 KB with values: sm_86 allows 99 KB), else
// 4-byte keys sort in SmallTilesPolicy and 8-byte keys in EightBitOnesweepPolicy (16 a thread,
// which every GPU built for allows).
template <class P, class K, class V, bool kHasValues, class W, class Off>
void onesweep_sort(const K* ksrc, K* kout, K* kalt, const V* vsrc, V* vout, V* valt, std::size_t n,
                   int begin_bit, int end_bit, int passes, Ctrl* ctrl, W* status,
                   const StatusPlan& sp, cudaStream_t stream) {
  int dev = 0, sms = 0, smem_optin = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  const auto fits = [&](std::size_t bytes) {
    return bytes <= static_cast<std::size_t>(smem_optin);
  };
  if (!fits(onesweep_smem_bytes<K, V, kHasValues, Off, P>())) {
    using EightBit = EightBitOnesweepPolicy<K, kHasValues>;
    using Small = std::conditional_t<sizeof(K) == 4, SmallTilesPolicy<K, kHasValues>, EightBit>;
    if (!std::is_same<P, EightBit>::value &&
        fits(onesweep_smem_bytes<K, V, kHasValues, Off, EightBit>()))
      onesweep_passes<EightBit, K, V, kHasValues, W, Off>(ksrc, kout, kalt, vsrc, vout, valt, n,
                                                          begin_bit, end_bit, passes, ctrl, status,
                                                          sp, sms, stream);
    else
      onesweep_passes<Small, K, V, kHasValues, W, Off>(ksrc, kout, kalt, vsrc, vout, valt, n,
                                                       begin_bit, end_bit, passes, ctrl, status, sp,
                                                       sms, stream);
    return;
  }
  onesweep_passes<P, K, V, kHasValues, W, Off>(ksrc, kout, kalt, vsrc, vout, valt, n, begin_bit,
                                               end_bit, passes, ctrl, status, sp, sms, stream);
}

// Where sort() puts its buffers inside the workspace: by default the spare keys (and values)
// first, then the control block and the look-back status. status_first puts the control block
// and status first and the spare buffers alt_shift bytes after them (the benchmark's --probe
// times placements; the caller sizes the workspace for the shift).
struct Placement {
  bool status_first = false;
  std::size_t alt_shift = 0;
};

// A policy may name another for small inputs: Below, used under BELOW_N keys (sort()).
template <class P, class = void>
struct HasBelowPolicy : std::false_type {};
template <class P>
struct HasBelowPolicy<P, std::void_t<typename P::Below>> : std::true_type {};

// Whether sort() under a PACKED_PAIRS policy P takes packed_pairs_passes, or P::Fallback: 4-byte
// keys and values, an even number of passes, 32-bit status words (n < 2^30) and a block that may
// have the tile's shared memory.
template <class P, class K, class V, bool kHasValues>
bool packed_pairs_apply(std::size_t n, int passes) {
  if constexpr (!kPackablePairs<K, V, kHasValues>) {
    return false;
  } else {
    if (passes < 2 || passes % 2 != 0 || status_plan<K>(n).word_bytes != 4) return false;
    int dev = 0, smem_optin = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    return onesweep_smem_bytes<std::uint64_t, NoValue, false, unsigned, P>() <=
           static_cast<std::size_t>(smem_optin);
  }
}

// P: the onesweep policy (the library's DefaultOnesweepPolicy; the benchmark and the tests pass
// others).
template <class K, class V, bool kHasValues, class P = DefaultOnesweepPolicy<K, kHasValues>>
void sort(const K* kin, K* kout, const V* vin, V* vout, std::size_t n, void* ws,
          std::size_t ws_bytes, cudaStream_t stream, int begin_bit, int end_bit,
          Placement pl = {}) {
  const int passes = num_passes(begin_bit, end_bit);
  if (passes == 0) {
    if (kin != kout)
      CUDA_CHECK(cudaMemcpyAsync(kout, kin, n * sizeof(K), cudaMemcpyDeviceToDevice, stream));
    if (kHasValues && vin != vout)
      CUDA_CHECK(cudaMemcpyAsync(vout, vin, n * sizeof(V), cudaMemcpyDeviceToDevice, stream));
    return;
  }
  if (n <= static_cast<std::size_t>(Tuning<K>::kTile)) {
    single_tile_kernel<K, V, kHasValues>
        <<<1, kThreads, 0, stream>>>(kin, kout, vin, vout, static_cast<int>(n), begin_bit, end_bit);
    CUDA_CHECK_LAUNCH();
    return;
  }
  if (ws_bytes < workspace_bytes<K, V, kHasValues, P>(n))
    throw std::logic_error("sort: workspace smaller than this policy needs");
  if constexpr (HasBelowPolicy<P>::value) {
    if (n < P::BELOW_N) {
      sort<K, V, kHasValues, typename P::Below>(kin, kout, vin, vout, n, ws, ws_bytes, stream,
                                                begin_bit, end_bit, pl);
      return;
    }
  }
  if constexpr (P::PACKED_PAIRS) {
    if (!packed_pairs_apply<P, K, V, kHasValues>(n, passes)) {
      sort<K, V, kHasValues, typename P::Fallback>(kin, kout, vin, vout, n, ws, ws_bytes, stream,
                                                   begin_bit, end_bit, pl);
      return;
    }
  }
  const StatusPlan sp = status_plan<K>(n);
  auto* p = static_cast<unsigned char*>(ws);
  Ctrl* ctrl = nullptr;
  void* status = nullptr;
  auto take_ctrl_status = [&] {
    ctrl = reinterpret_cast<Ctrl*>(p);
    p += align_up(sizeof(Ctrl));
    status = p;
    p += sp.bytes;
  };
  if (pl.status_first) take_ctrl_status();
  p += pl.alt_shift;
  K* kalt = reinterpret_cast<K*>(p);
  p += align_up(n * sizeof(K));
  V* valt = nullptr;
  if (kHasValues) {
    valt = reinterpret_cast<V*>(p);
    p += align_up(n * sizeof(V));
  }
  std::uint64_t* second = nullptr;
  if constexpr (P::PACKED_PAIRS) {
    second = reinterpret_cast<std::uint64_t*>(p);
    p += packed_second_buffer_bytes(n);
  }
  if (!pl.status_first) take_ctrl_status();

  if constexpr (P::PACKED_PAIRS && kPackablePairs<K, V, kHasValues>) {
    // Buffer A (n words) in the spare keys and values (2 x align_up(4n) >= 8n), B after them.
    auto* spare = reinterpret_cast<std::uint64_t*>(kalt);
    if (reinterpret_cast<unsigned char*>(spare + n) >
        reinterpret_cast<unsigned char*>(valt) + align_up(n * sizeof(V)))
      throw std::logic_error("sort: the packed pairs' words do not fit the spare buffers");
    int dev = 0, sms = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    packed_pairs_passes<P, K, V, unsigned, unsigned>(
        kin, kout, vin, vout, spare, second, n, begin_bit, end_bit, passes, ctrl,
        static_cast<unsigned*>(status), sp, sms, stream);
    return;
  }

  // Ping-pong so that the last pass lands in kout. Sorting in place with an odd pass count
  // first moves the input to the spare buffer (one extra copy).
  const K* ksrc = kin;
  const V* vsrc = vin;
  if (kin == kout && passes % 2 == 1) {
    CUDA_CHECK(cudaMemcpyAsync(kalt, kin, n * sizeof(K), cudaMemcpyDeviceToDevice, stream));
    ksrc = kalt;
  }
  if (kHasValues && vin == vout && passes % 2 == 1) {
    CUDA_CHECK(cudaMemcpyAsync(valt, vin, n * sizeof(V), cudaMemcpyDeviceToDevice, stream));
    vsrc = valt;
  }

  // Status words of 32 bits while n < 2^30 (half the status traffic), 64 beyond; global
  // positions of 32 bits while n < 2^32.
  using U64 = unsigned long long;
  if (sp.word_bytes == 4)
    onesweep_sort<P, K, V, kHasValues, unsigned, unsigned>(
        ksrc, kout, kalt, vsrc, vout, valt, n, begin_bit, end_bit, passes, ctrl,
        static_cast<unsigned*>(status), sp, stream);
  else if (n < (std::size_t(1) << 32))
    onesweep_sort<P, K, V, kHasValues, U64, unsigned>(ksrc, kout, kalt, vsrc, vout, valt, n,
                                                      begin_bit, end_bit, passes, ctrl,
                                                      static_cast<U64*>(status), sp, stream);
  else
    onesweep_sort<P, K, V, kHasValues, U64, U64>(ksrc, kout, kalt, vsrc, vout, valt, n, begin_bit,
                                                 end_bit, passes, ctrl, static_cast<U64*>(status),
                                                 sp, stream);
}

}  // namespace lsd
}  // namespace detail
}  // namespace scandof
