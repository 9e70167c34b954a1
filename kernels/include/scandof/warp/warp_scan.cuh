// Warp-level pieces every scan-shaped kernel builds on: one shuffle primitive that moves any
// trivially copyable T 32 bits at a time, and the inclusive / exclusive scans and reductions
// across the lanes of one warp (CUB's WarpScan / WarpReduce, shuffle-based only).
//
// One shuffle per 4-byte word: an 8-byte T costs two shuffles, as the built-in 64-bit overloads
// of __shfl_*_sync do, and a 4-byte T compiles to exactly one SHFL; there is no shared memory and
// no barrier. Every function here needs the whole warp converged (full mask).
//
// Operators are combined as op(earlier, later): the value from the lower lane goes on the left, so
// an associative, non-commutative op scans correctly. Only xor_allreduce needs a commutative op.
#pragma once

#include <cstring>

#include <cuda_runtime.h>

namespace scandof {
namespace warp {

constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kLanes = 32;

enum class Shfl { Up, Down, Idx, Xor };

// The one shuffle: T split into 32-bit words, each word shuffled with the same mode and argument.
template <Shfl kMode, class T>
__device__ __forceinline__ T shfl(const T& v, int arg) {
  constexpr int kWords = int((sizeof(T) + 3) / 4);
  unsigned w[kWords];
  w[kWords - 1] = 0;  // the tail bytes of a T that is not a multiple of 4 bytes
  memcpy(w, &v, sizeof(T));
#pragma unroll
  for (int i = 0; i < kWords; ++i) {
    if (kMode == Shfl::Up)
      w[i] = __shfl_up_sync(kFullMask, w[i], unsigned(arg));
    else if (kMode == Shfl::Down)
      w[i] = __shfl_down_sync(kFullMask, w[i], unsigned(arg));
    else if (kMode == Shfl::Idx)
      w[i] = __shfl_sync(kFullMask, w[i], arg);
    else
      w[i] = __shfl_xor_sync(kFullMask, w[i], arg);
  }
  T r;
  memcpy(&r, w, sizeof(T));
  return r;
}
// The value of lane - delta (lanes < delta get their own value back).
template <class T>
__device__ __forceinline__ T shfl_up(const T& v, int delta) {
  return shfl<Shfl::Up>(v, delta);
}
// The value of lane src.
template <class T>
__device__ __forceinline__ T shfl_idx(const T& v, int src) {
  return shfl<Shfl::Idx>(v, src);
}

// Inclusive Hillis-Steele scan over the first LANES lanes (ceil(log2(LANES)) shuffles; LANES need
// not be a power of two). Lanes beyond LANES compute values that the caller ignores.
template <int LANES = kLanes, class T, class Op>
__device__ __forceinline__ T inclusive_scan(T x, Op op, int lane) {
  static_assert(LANES > 0 && LANES <= kLanes, "a warp scan spans 1..32 lanes");
#pragma unroll
  for (int d = 1; d < LANES; d *= 2) {
    const T y = shfl_up(x, d);
    if (lane >= d) x = op(y, x);
  }
  return x;
}

// Inclusive scan that also hands back the exclusive one: excl = inclusive of lane - 1, junk in
// lane 0 (the caller knows lane 0 has nothing before it; no identity needed).
template <int LANES = kLanes, class T, class Op>
__device__ __forceinline__ T inclusive_scan(T x, Op op, int lane, T& excl) {
  const T incl = inclusive_scan<LANES>(x, op, lane);
  excl = shfl_up(incl, 1);
  return incl;
}

// Ordered reduction toward lane 0: lane 0 ends with op(x_0, op(x_1, ... x_31)); other lanes hold
// partial results.
template <class T, class Op>
__device__ __forceinline__ T reduce_down(T x, Op op, int lane) {
#pragma unroll
  for (int d = 1; d < kLanes; d *= 2) {
    const T y = shfl<Shfl::Down>(x, d);  // lane + d (the top d lanes get their own back)
    if (lane + d < kLanes) x = op(x, y);
  }
  return x;
}

// Butterfly all-reduce: every lane ends with the total. Commutative ops only (the order of the
// combines differs per lane); one shuffle fewer than reduce_down + broadcast.
template <class T, class Op>
__device__ __forceinline__ T xor_allreduce(T x, Op op) {
#pragma unroll
  for (int m = kLanes / 2; m > 0; m >>= 1) x = op(x, shfl<Shfl::Xor>(x, m));
  return x;
}

}  // namespace warp
}  // namespace scandof
