// The onesweep sort's tuned policies (OnesweepPolicy shapes, sort_lsd_agent.cuh): which shape
// each key type and size sorts with. Each carries one line of provenance: the GPU, the commit of
// the measurement and what it gained; results/sort/README.md has the tables behind them.
#pragma once

#include <cstddef>
#include <type_traits>

#include "scandof/device/sort_lsd_agent.cuh"

namespace scandof {
namespace detail {
namespace lsd {

// Pairs whose values reach shared memory by cp.async as the tile starts (OnesweepPolicy's
// ValuesAsync): no value registers through the ranking, so larger tiles fit 2 blocks an SM.
// H100, 6f545f2: no gain at the same tile (2^28 pairs 9.51 -> 9.52 ms); it makes room for 48 keys.
template <int Items, int MinBlocks, int LookbackBatch = 4>
using AsyncValuesPolicy = OnesweepPolicy<Items, MinBlocks, false, LookbackBatch, 0, true>;

// Pairs whose values follow the keys through the keys' staging buffer (ValuesAfter), as CUB does.
// H100, 9585619: uint64 pairs 0.98 / 0.99 / 1.00x -> 1.00 / 1.01 / 1.01x CUB at 2^24 / 26 / 28.
template <int Items, int MinBlocks, int LookbackBatch = 4>
using ValuesAfterPolicy = OnesweepPolicy<Items, MinBlocks, false, LookbackBatch, 0, false, true>;

// Tiles of 6144 4-byte keys at 4 blocks an SM, 8192 pairs (values with the keys) at 2, 4096
// 8-byte keys at 3 (2 with values): the pairs policy under 2^21 / 2^25 keys, and the fallback
// where a block cannot have the default tiles' shared memory.
// H100, 8557a07 / b7aee04 / 4622116: 2^28 uint32 6.39 -> 6.10 ms; uint64 0.72-0.86x -> 0.89-1.03x.
template <class K, bool kHasValues>
struct EightBitOnesweepPolicy
    : OnesweepPolicy<sizeof(K) == 4 ? (kHasValues ? 32 : 24) : 16,
                     kHasValues ? 2 : (sizeof(K) == 4 ? 4 : 3), kHasValues> {};

// Pairs of 4-byte keys and other 4-byte values from 2^25 keys on: tiles of 12288 (48 keys a
// thread) at 2 blocks an SM, the values by cp.async; smaller inputs keep EightBitOnesweepPolicy.
// H100, 6b8a9e0: pairs 2^28 9.49 -> 8.73 ms (0.92 -> 1.00x CUB); at 2^24 0.646 -> 0.664 (lost).
template <class K>
struct LargeTilePairsPolicy : AsyncValuesPolicy<48, 2> {
  using Below = EightBitOnesweepPolicy<K, true>;
  static constexpr std::size_t BELOW_N = std::size_t(1) << 25;
};

// 4-byte keys with 4-byte values as one 64-bit word a pair (packed_pairs_passes), 32 words a
// thread at 2 blocks an SM; 16 bytes of scratch a pair. Fallback (LargeTilePairsPolicy): odd
// passes, n >= 2^30 (64-bit status words), or a block without the tile's 75 KB of shared memory.
// H100, 060982f: 2^24 / 2^26 / 2^28 0.651 / 2.286 / 8.716 -> 0.595 / 2.189 / 8.293 ms.
template <class K, int Items = 32, int MinBlocks = 2, int LookbackBatch = 4>
struct PackedPairsPolicy : OnesweepPolicy<Items, MinBlocks, false, LookbackBatch> {
  static constexpr bool PACKED_PAIRS = true;
  using Fallback = LargeTilePairsPolicy<K>;
};

// The default for 4-byte pairs: packed words from 2^21 pairs on, EightBitOnesweepPolicy below.
// H100, 060982f: at 2^20 the 8-bit pairs kernel 0.0751 ms against 0.0895 packed (CUB 0.0891).
template <class K>
struct DefaultPackedPairsPolicy : PackedPairsPolicy<K> {
  using Below = EightBitOnesweepPolicy<K, true>;
  static constexpr std::size_t BELOW_N = std::size_t(1) << 21;
};

// uint64 keys with 4-byte values: tiles of 7680 (30 keys a thread) at 2 blocks an SM, the values
// after the keys (ValuesAfterPolicy); 4-byte pairs in this shape spill.
// H100, 404f13f / 9585619: pairs64 2^28 25.80 -> 24.89 -> 24.81 ms (0.96 -> 1.01x CUB).
using LargeTilePairs64Policy = ValuesAfterPolicy<30, 2>;

// The library's policy: 4-byte keys 32 a thread at 3 blocks an SM, 8-byte keys 32 at 2 (tiles of
// 8192: a tile's fixed cost, 256 counters and status words and the barriers, over more keys),
// pairs DefaultPackedPairsPolicy or LargeTilePairs64Policy. Where a block cannot have the shared
// memory, onesweep_sort() falls back to smaller tiles.
// H100, 6b8a9e0: 2^28 uint32 5.69 -> 4.98 ms (0.97 -> 1.10x CUB), uint64 16.15 -> 15.55.
template <class K, bool kHasValues>
struct DefaultOnesweepPolicy
    : std::conditional_t<
          kHasValues,
          std::conditional_t<sizeof(K) == 4, DefaultPackedPairsPolicy<K>, LargeTilePairs64Policy>,
          OnesweepPolicy<32, sizeof(K) == 4 ? 3 : 2, false>> {};

// 4-byte keys on GPUs whose blocks cannot have EightBitOnesweepPolicy's shared memory (sm_75
// allows 64 KB): tiles of 4096 (43 KB of staging with values), values loaded after the keys.
// H100 (forced), d08e8a0 / 9f98b3a: uint32 1.09x / 1.05x CUB at 2^24 / 2^28, pairs 0.80x / 0.73x.
template <class K, bool kHasValues>
struct SmallTilesPolicy : OnesweepPolicy<16, kHasValues ? 3 : 4, false> {};

}  // namespace lsd
}  // namespace detail
}  // namespace scandof
