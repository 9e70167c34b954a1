// Decoupled look-back (Merrill & Garland 2016), written once: the flag values, the memory-model
// accessors, the ways a tile packs (flag, value) into status words, the paced polling loop, and
// the look-back loops: warp-wide for single-pass scan (any T and op) and compaction (counts),
// called by warp 0 as the tile prefix callback (CUB's TilePrefixCallbackOp), and one digit column
// per thread for the onesweep sort. All of them poll through wait_published.
//
// Why the orderings are what they are:
//  - A tile publishes (flag, value) with ONE single-copy-atomic store whenever the pair fits one
//    64-bit word (CountWord, and each word of TileStatus). A reader that sees the flag in that
//    word necessarily sees the value stored with it, so relaxed accesses are enough: no fence, no
//    release/acquire, one L2 round trip per poll. .relaxed (not a plain ld/st) keeps the compiler
//    and the L1 from caching or splitting the access: each poll really goes to L2 (.gpu scope,
//    where every block's stores meet) and each store is one 8-byte write.
//  - The output a tile writes is never read by another block, so nothing else needs ordering
//    against the status words.
//  - A status word goes X -> A -> P and never back within one launch, and P's value is final,
//    so a poll that reads a stale word only costs another poll.
// Deadlock freedom is the callers' part: a tile only waits on lower tile ids, and lower ids
// belong to blocks that already started (atomic tile counter, or blockIdx order).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <cuda_runtime.h>

#include "scandof/ops.hpp"
#include "scandof/warp/warp_scan.cuh"

namespace scandof {
namespace detail {
namespace lookback {

constexpr unsigned kFlagInvalid = 0;    // X: the tile has published nothing yet
constexpr unsigned kFlagAggregate = 1;  // A: the tile's own total is available
constexpr unsigned kFlagPrefix = 2;     // P: the inclusive prefix up to the tile's end is available

// ---- memory-model accessors -------------------------------------------------------------------
// Generic-address forms (the single-pass scan's status words) and .global forms (compaction and
// sort, whose status arrays are known to be global). Both orderings are identical; the address
// space only picks LD vs LDG, and each kernel keeps the form it was measured with.

__device__ __forceinline__ unsigned long long ld_relaxed_u64(const unsigned long long* p) {
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void st_relaxed_u64(unsigned long long* p, unsigned long long v) {
  asm volatile("st.relaxed.gpu.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
// W: a 32- or 64-bit unsigned word (unsigned, unsigned long long or std::uint64_t).
template <class W>
__device__ __forceinline__ W ld_relaxed_global(const W* p) {
  static_assert(std::is_unsigned<W>::value && (sizeof(W) == 4 || sizeof(W) == 8),
                "status words are 32- or 64-bit unsigned");
  if constexpr (sizeof(W) == 4) {
    unsigned v;
    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
  } else {
    unsigned long long v;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return static_cast<W>(v);
  }
}
template <class W>
__device__ __forceinline__ void st_relaxed_global(W* p, typename std::common_type<W>::type v) {
  static_assert(std::is_unsigned<W>::value && (sizeof(W) == 4 || sizeof(W) == 8),
                "status words are 32- or 64-bit unsigned");
  if constexpr (sizeof(W) == 4)
    asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(static_cast<unsigned>(v))
                 : "memory");
  else
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p),
                 "l"(static_cast<unsigned long long>(v))
                 : "memory");
}

// ---- the paced polling loop -------------------------------------------------------------------
// poll() (re)reads what this thread waits on and returns true while it is still unpublished (X).
// kWarpWide: the warp polls a window together and leaves when no lane waits (the caller's lanes
// must be converged); otherwise each thread leaves on its own. spin_ns > 0 sleeps between polls:
// polls of tiles that have not published are L2 round trips competing with the data stream, and
// backing off leaves the predecessors time to publish (CUB's delay constructors).
template <bool kWarpWide, class Poll>
__device__ __forceinline__ void wait_published(Poll&& poll, unsigned spin_ns) {
  while (true) {
    const bool pending = poll();
    if (kWarpWide ? !__any_sync(warp::kFullMask, pending) : !pending) break;
    if (spin_ns) __nanosleep(spin_ns);
  }
}

// Look-back pacing: sleeping after publishing the aggregate and between polls trades a little
// latency for fewer L2 round trips competing with the data traffic.
struct LookbackDelays {
  unsigned first_ns = 0;  // before the first poll
  unsigned spin_ns = 0;   // between polls of a window that still holds an unpublished tile
};

// ---- the workspace's look-back state: one launch per call, no clearing kernel -----------------
// The status words live in the caller's workspace and keep their meaning between calls, so no
// kernel has to clear them first (a clearing launch is most of the cost of a scan of 2^14..2^16
// items). Layout: a 256-byte header, then two regions of status words, interleaved in chunks of
// 32 words so that one look-back window of 32 words stays in four 32-byte sectors:
//   physical word of logical word w of region r = ((w / 32) * 2 + r) * 32 + w % 32.
// A call takes its tile ids from the header's ticket counter, whose top half counts calls (the
// epoch); the epoch's parity names the region the call publishes in. The region was cleared by
// the call before (every block of a call zeroes a share of the other region's dirty words, which
// the last call before it wrote, after its own stores), and the block that takes a call's last
// ticket records how many words the call dirtied and advances the epoch. So a stale word of an
// earlier call is never read, whichever look-back primitive (scan, compaction, SAT) wrote it.
// The contract this gives the workspace: zero-filled before its first use (ScanWorkspace does
// it), then reused by any number of calls in any stream order, as long as two calls on one
// workspace never run at the same time and the buffer keeps the size of the largest call made
// with it. The epoch wraps after 2^32 calls; only its parity is used, so the wrap is harmless.
struct LookbackHeader {
  unsigned long long ticket_epoch;  // epoch << 32 | tickets taken in this call
  unsigned dirty[2];                // logical words each region's last call published
};
constexpr std::size_t kLookbackHeaderBytes = 256;
// Bytes kLookbackSpareOffset .. kLookbackHeaderBytes of the header's slot are no primitive's
// state: the ScanWorkspace compaction overloads keep their device count there.
constexpr std::size_t kLookbackSpareOffset = 128;
static_assert(sizeof(LookbackHeader) <= kLookbackSpareOffset, "the header fits its slot");

// Bytes of workspace for `words` logical status words per region (both regions, chunked).
inline std::size_t lookback_region_bytes(std::size_t words) {
  return ((words + 31) / 32) * 2 * 32 * sizeof(unsigned long long);
}
inline std::size_t lookback_state_bytes(std::size_t words) {
  return kLookbackHeaderBytes + lookback_region_bytes(words);
}

__host__ __device__ __forceinline__ std::size_t region_word(std::size_t w, unsigned region) {
  return ((w >> 5) * 2 + region) * 32 + (w & 31);
}

struct Ticket {
  unsigned tile;
  unsigned region;
};

// One thread per block. `words`: the logical status words this call may publish. The atomic is
// the block's only round trip before its loads can start (they need the tile id).
__device__ __forceinline__ Ticket take_ticket(LookbackHeader* h, unsigned tiles, unsigned words) {
  const unsigned long long old = atomicAdd(&h->ticket_epoch, 1ull);
  const Ticket t{static_cast<unsigned>(old), static_cast<unsigned>(old >> 32) & 1u};
  if (t.tile == tiles - 1) {
    // Every other block of this call already holds its ticket: reset the count, next epoch.
    h->dirty[t.region] = words;
    atomicAdd(&h->ticket_epoch, (1ull << 32) - tiles);
  }
  return t;
}

// Tiles numbered by blockIdx instead, for a grid whose blocks all fit on the device at once (so
// every block becomes resident whatever order they start in, and a wait on a lower tile always
// ends): the block reads the call's region with a plain load that overlaps its data loads, where
// the ticket's atomic must return before they can start; and counts itself done at its end, the
// last one recording the dirty words and advancing the epoch, as take_ticket's last ticket does.
// A block reads the epoch before it counts itself done, so no block can read the next epoch.
__device__ __forceinline__ unsigned read_region(const LookbackHeader* h) {
  return static_cast<unsigned>(ld_relaxed_u64(&h->ticket_epoch) >> 32) & 1u;
}
__device__ __forceinline__ void finish_indexed(LookbackHeader* h, unsigned tiles, unsigned words,
                                               unsigned region) {
  const unsigned long long old = atomicAdd(&h->ticket_epoch, 1ull);
  if (static_cast<unsigned>(old) == tiles - 1) {
    h->dirty[region] = words;
    atomicAdd(&h->ticket_epoch, (1ull << 32) - tiles);
  }
}

// read_region through the read-only path, for grids far larger than the device holds: the blocks
// of an SM share one L2 read of the line (one word read by every block queues at one L2 slice:
// 13 us of 0.53 ms at 2^28 for compaction on the H200). Valid only where nothing writes the epoch
// before every block of the call has read it (finish_by_last_tile), and the cache starts each
// launch empty of the line.
__device__ __forceinline__ unsigned read_region_shared_line(const LookbackHeader* h) {
  unsigned long long v;
  asm volatile("ld.global.nc.u64 %0, [%1];" : "=l"(v) : "l"(&h->ticket_epoch));
  return static_cast<unsigned>(v >> 32) & 1u;
}

// The same end of a call where the last tile's inclusive prefix proves that every block of the
// call has started (compaction: each tile publishes only after reading the region, and a prefix
// needs every tile before it published): that tile records the dirty words and advances the
// epoch alone, and no block counts itself done. Blocks that counted, one atomic on one word each,
// cost compaction 1.8 ns a tile on the H200 (31 us of 0.54 ms at 2^28 int32).
__device__ __forceinline__ void finish_by_last_tile(LookbackHeader* h, unsigned words,
                                                    unsigned region) {
  h->dirty[region] = words;
  atomicAdd(&h->ticket_epoch, 1ull << 32);
}

// The block's share of clearing the other region (all threads of the block, after its stores):
// the last call published there and has finished, and this call never reads it. Its dirty count
// was written by an earlier launch and is not written during this one (the last ticket's block
// writes this call's region's count).
__device__ __forceinline__ void clear_stale_share(const LookbackHeader* h,
                                                  unsigned long long* region_words,
                                                  const Ticket& t, unsigned tiles) {
  const unsigned other = t.region ^ 1u;
  const unsigned stale = h->dirty[other];
  for (std::size_t w = std::size_t(t.tile) * blockDim.x + threadIdx.x; w < stale;
       w += std::size_t(tiles) * blockDim.x)
    region_words[region_word(w, other)] = 0ull;
}

// ---- status words -----------------------------------------------------------------------------

// A count with the flag in its top two bits (compaction: 64-bit words, 62-bit counts; onesweep:
// 32-bit words while n < 2^30, 64-bit beyond). One word, one relaxed store per publication.
template <class W>
struct CountWord {
  static constexpr int kShift = 8 * sizeof(W) - 2;
  static constexpr W kAggregate = W(kFlagAggregate) << kShift;
  static constexpr W kPrefix = W(kFlagPrefix) << kShift;
  static constexpr W kValue = (W(1) << kShift) - 1;
  static __device__ __forceinline__ unsigned flag(W w) {
    return static_cast<unsigned>(w >> kShift);
  }
  static __device__ __forceinline__ W value(W w) { return w & kValue; }
};

// One status word per tile holding a count, in one region of the workspace's look-back state
// (region_word): the TileStatus interface over CountWord<uint64_t>.
struct CountStatus {
  using Word = CountWord<std::uint64_t>;
  std::uint64_t* words;  // the regions
  unsigned region;

  __device__ __forceinline__ std::uint64_t* at(std::uint64_t tile) const {
    return words + region_word(tile, region);
  }
  __device__ __forceinline__ void publish(std::uint64_t tile, unsigned flag,
                                          std::uint64_t v) const {
    st_relaxed_global(at(tile), (std::uint64_t(flag) << Word::kShift) | v);
  }
  __device__ __forceinline__ void read(std::uint64_t tile, unsigned& flag, std::uint64_t& v) const {
    const std::uint64_t w = ld_relaxed_global(at(tile));
    flag = Word::flag(w);
    v = Word::value(w);
  }
};

// How a tile of the single-pass scan publishes (flag, value of any T): each 32-bit piece of the
// value travels in its own 64-bit word, flag in the low half, piece in the high half. For
// sizeof(T) <= 4 that is one word, written and read with single 8-byte accesses. For wider T a
// word is written once with A and once with P, each write a single 64-bit store, so a reader that
// finds the same flag in every word of a tile has all pieces from the same publication; a mix (A
// in one word, P in another) reads as "not yet" and is polled again. One round trip per poll and
// no fences, where a flag + value slot ordered by release/acquire costs two round trips a poll
// (results/scan/README.md).
template <class T>
struct TileStatus {
  static constexpr int kWords = int((sizeof(T) + 3) / 4);
  unsigned long long* words;  // the regions (region_word), entry e at logical words e * kWords..
  unsigned region;

  __device__ __forceinline__ unsigned long long* at(std::size_t entry, int i) const {
    return words + region_word(entry * kWords + i, region);
  }
  __device__ __forceinline__ void publish(unsigned tile, unsigned flag, const T& v) const {
    unsigned w[kWords];
    w[kWords - 1] = 0;
    memcpy(w, &v, sizeof(T));
#pragma unroll
    for (int i = 0; i < kWords; ++i)
      st_relaxed_u64(at(tile, i), (static_cast<unsigned long long>(w[i]) << 32) | flag);
  }
  __device__ __forceinline__ void read(unsigned tile, unsigned& flag, T& v) const {
    unsigned long long x[kWords];
#pragma unroll
    for (int i = 0; i < kWords; ++i) x[i] = ld_relaxed_u64(at(tile, i));
    flag = static_cast<unsigned>(x[0]);
#pragma unroll
    for (int i = 1; i < kWords; ++i)
      if (static_cast<unsigned>(x[i]) != flag) flag = kFlagInvalid;
    unsigned w[kWords];
#pragma unroll
    for (int i = 0; i < kWords; ++i) w[i] = static_cast<unsigned>(x[i] >> 32);
    memcpy(&v, w, sizeof(T));
  }
};

// ---- the warp-wide look-back (tile prefix callback) ----------------------------------------
// Called by one whole warp for a tile > 0 with the tile's own total (in every lane): publishes
// the aggregate (A), looks back over 32 predecessors per poll until it meets an inclusive prefix
// (P), publishes the tile's inclusive prefix and returns the exclusive prefix in every lane.
// Only lanes whose tile is still X are re-read, so a window costs one round trip per lane at
// most per poll. Lane 31 inspects the newest tile of the window; the lanes from the newest P on
// are combined in order with op(earlier, later), so op need only be associative with a left
// identity (tiles before the newest P read as identity on the left, never summed).
template <class T, class Op, class Status, class Tile>
__device__ __forceinline__ T warp_lookback(const Status& status, Tile tile, const T& tile_total,
                                           Op op, const T& identity, LookbackDelays delays) {
  const int lane = threadIdx.x % warp::kLanes;
  if (lane == 0) status.publish(tile, kFlagAggregate, tile_total);
  if (delays.first_ns) __nanosleep(delays.first_ns);
  T prefix = identity;
  bool have = false;
  long long newest = static_cast<long long>(tile) - 1;  // lane 31 inspects this tile
  while (true) {
    const long long t = newest - (31 - lane);
    unsigned flag = kFlagPrefix;  // tiles before 0 count as "prefix found" (never summed)
    T val = identity;
    if (t >= 0) flag = kFlagInvalid;
    wait_published<true>(
        [&] {
          if (flag == kFlagInvalid) status.read(static_cast<Tile>(t), flag, val);
          return flag == kFlagInvalid;
        },
        delays.spin_ns);
    const unsigned pmask = __ballot_sync(warp::kFullMask, flag == kFlagPrefix);
    const int first = pmask ? 31 - __clz(pmask) : 0;  // newest P; older lanes drop out
    const T x = warp::reduce_down(lane >= first ? val : identity, op, lane);
    const T window = warp::shfl_idx(x, 0);
    prefix = have ? op(window, prefix) : window;
    have = true;
    if (pmask) break;
    newest -= 32;
  }
  if (lane == 0) status.publish(tile, kFlagPrefix, op(prefix, tile_total));
  return prefix;
}

// The run-to-run deterministic look-back. warp_lookback's result depends on which predecessors
// had published P when it looked, so a float sum differs from run to run. Here tiles are grouped
// kGroup at a time and tile t of group g returns op(GP[g], A[g*kGroup] .. A[t-1]): the aggregates
// of its own group's earlier tiles, combined in a tree fixed by t alone (lane 31 folds the kPer
// newest, lane 30 the kPer before, ..., then reduce_down), after GP[g], the inclusive prefix of
// every tile before the group, which the group's predecessor's last tile publishes. So every value
// is a fixed function of the input: the same bits on every run. Entries: the tiles' aggregates at
// [0, tiles), GP[g] (g >= 1) at tiles + g - 1, each written once. The cost: up to kGroup - 1
// aggregates read per tile (L2 traffic, not DRAM) and a chain of one hop per group.
template <int kGroup, class T, class Op, class Status>
__device__ __forceinline__ T warp_lookback_fixed(const Status& status, unsigned tile,
                                                 unsigned tiles, const T& tile_total, Op op,
                                                 const T& identity, LookbackDelays delays) {
  static_assert(kGroup >= 32 && kGroup % 32 == 0, "a group is whole windows of 32 tiles");
  constexpr int kPer = kGroup / 32;
  const int lane = threadIdx.x % warp::kLanes;
  if (lane == 0) status.publish(tile, kFlagAggregate, tile_total);
  if (delays.first_ns) __nanosleep(delays.first_ns);
  const unsigned g = tile / kGroup;
  const long long g0 = static_cast<long long>(g) * kGroup;
  const long long oldest = static_cast<long long>(tile) - static_cast<long long>(32 - lane) * kPer;
  T v[kPer];
  unsigned f[kPer];
#pragma unroll
  for (int k = 0; k < kPer; ++k) {
    v[k] = identity;
    f[k] = oldest + k >= g0 ? kFlagInvalid : kFlagAggregate;  // before the group: not read
  }
  T gp = identity;
  unsigned gf = (lane == 0 && g > 0) ? kFlagInvalid : kFlagPrefix;
  wait_published<true>(
      [&] {
        bool pending = false;
#pragma unroll
        for (int k = 0; k < kPer; ++k)
          if (f[k] == kFlagInvalid) {
            status.read(static_cast<unsigned>(oldest + k), f[k], v[k]);
            pending |= f[k] == kFlagInvalid;
          }
        if (gf == kFlagInvalid) {
          status.read(tiles + g - 1, gf, gp);
          pending |= gf == kFlagInvalid;
        }
        return pending;
      },
      delays.spin_ns);
  T x = identity;
#pragma unroll
  for (int k = 0; k < kPer; ++k)
    if (oldest + k >= g0) x = op(x, v[k]);
  x = warp::shfl_idx(warp::reduce_down(x, op, lane), 0);
  gp = warp::shfl_idx(gp, 0);
  T prefix;
  if (g == 0)
    prefix = x;
  else if (static_cast<long long>(tile) == g0)
    prefix = gp;
  else
    prefix = op(gp, x);
  if (lane == 0 && tile % kGroup == kGroup - 1 && tile + 1 < tiles)
    status.publish(tiles + g, kFlagPrefix, op(prefix, tile_total));
  return prefix;
}

// Entries warp_lookback_fixed publishes for `tiles` tiles.
template <int kGroup>
constexpr std::size_t fixed_lookback_entries(std::size_t tiles) {
  return tiles + (tiles + kGroup - 1) / kGroup;
}

// The same look-back for counts (CountWord<uint64_t> words, op = +), as compaction measured it:
// lane 0 inspects the newest tile, every lane re-reads its whole word on each poll and the window
// is summed by a butterfly. Written apart from warp_lookback because the generic form keeps each
// lane's (flag, value) live across polls and reduces in lane order: at compaction's 40- and
// 64-register caps that spilled (8-16 more bytes of local memory per thread).
__device__ __forceinline__ std::uint64_t warp_lookback_count(const CountStatus& status,
                                                             std::uint64_t tile,
                                                             std::uint64_t tile_count,
                                                             LookbackDelays delays) {
  using Word = CountStatus::Word;
  const int lane = threadIdx.x % warp::kLanes;
  if (lane == 0) status.publish(tile, kFlagAggregate, tile_count);
  if (delays.first_ns) __nanosleep(delays.first_ns);
  std::uint64_t prefix = 0;
  std::int64_t window = static_cast<std::int64_t>(tile) - 1;
  while (true) {
    const std::int64_t idx = window - lane;
    std::uint64_t word;
    // Tiles before 0 read as an empty prefix.
    wait_published<true>(
        [&] {
          word = idx >= 0 ? ld_relaxed_global(status.at(std::uint64_t(idx))) : Word::kPrefix;
          return Word::flag(word) == kFlagInvalid;
        },
        delays.spin_ns);
    const unsigned pmask = __ballot_sync(warp::kFullMask, Word::flag(word) == kFlagPrefix);
    const int stop = pmask ? __ffs(pmask) - 1 : 31;  // nearest tile with an inclusive prefix
    prefix += warp::xor_allreduce(lane <= stop ? Word::value(word) : std::uint64_t(0), Sum{});
    if (pmask) break;
    window -= 32;
  }
  if (lane == 0) status.publish(tile, kFlagPrefix, prefix + tile_count);
  return prefix;
}

// The onesweep form: each thread walks back alone over one column of CountWord<W> words (tile j's
// word at column[j * stride]; the block's 256 threads poll 256 digit columns in parallel),
// summing aggregates until it meets an inclusive prefix. Returns the exclusive prefix of `tile`
// (> 0). Publishing is the caller's: onesweep publishes its aggregate before staging its tile and
// its prefix after this returns.
// kBatch: the words of that many predecessors are loaded at once, so a walk of w tiles costs about
// w / kBatch L2 round trips instead of w. Walks are long: ncu's source view of the sort at 2^24
// (H100) counted 9.6 steps per walk with one load in flight, the loads' latency the kernel's
// largest stall. The price is up to kBatch - 1 loads past the prefix that ends the walk.
template <int kBatch = 1, class W>
__device__ __forceinline__ W thread_lookback_count(const W* column, std::size_t stride,
                                                   std::uint64_t tile, unsigned spin_ns) {
  static_assert(kBatch >= 1 && kBatch <= 16, "a batch lives in registers");
  using Word = CountWord<W>;
  W prefix = 0;
  // next: one past the next tile to read. Tile 0 always holds a prefix, so the walk ends there at
  // the latest; loads below it are skipped (their slots read as an empty prefix, never used).
  for (std::uint64_t next = tile;; next -= kBatch) {
    W w[kBatch];
#pragma unroll
    for (int b = 0; b < kBatch; ++b)
      w[b] = next > std::uint64_t(b) ? ld_relaxed_global(column + (next - 1 - b) * stride)
                                     : Word::kPrefix;
#pragma unroll
    for (int b = 0; b < kBatch; ++b) {
      if (Word::flag(w[b]) == kFlagInvalid) {
        const W* at = column + (next - 1 - b) * stride;
        wait_published<false>(
            [&] {
              w[b] = ld_relaxed_global(at);
              return Word::flag(w[b]) == kFlagInvalid;
            },
            spin_ns);
      }
      prefix += Word::value(w[b]);
      if (Word::flag(w[b]) == kFlagPrefix) return prefix;
    }
  }
}

}  // namespace lookback
}  // namespace detail
}  // namespace scandof
