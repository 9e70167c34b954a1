// CPU "gold" references for scan (cuda-samples' *_gold style): the sequential loop of the paper's
// CPU column (n-1 applications of op, the work-efficiency baseline), and a multi-threaded two-pass
// version (reduce chunks, scan the chunk totals, rescan chunks) as a second, fairer CPU baseline.
// Both accept in == out. Both combine as op(earlier, later), so non-commutative operators work.
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

#include "scandof/scan.hpp"

namespace scandof {

template <class T, class Op>
void scan_gold(ScanKind kind, const T* in, T* out, std::size_t n, Op op, T identity) {
  T acc = identity;
  if (kind == ScanKind::Exclusive) {
    for (std::size_t i = 0; i < n; ++i) {
      T x = in[i];  // read before write: in may alias out
      out[i] = acc;
      acc = op(acc, x);
    }
  } else {
    for (std::size_t i = 0; i < n; ++i) {
      acc = op(acc, in[i]);
      out[i] = acc;
    }
  }
}

template <class T, class Op>
void scan_gold(ScanKind kind, const T* in, T* out, std::size_t n, Op op) {
  scan_gold(kind, in, out, n, op, identity_of<Op, T>());
}

// threads == 0: std::thread::hardware_concurrency(). Reads the input twice (2n + n traffic), so it
// only wins over scan_gold once n is well past the caches and several cores are free.
template <class T, class Op>
void scan_gold_parallel(ScanKind kind, const T* in, T* out, std::size_t n, Op op, T identity,
                        unsigned threads = 0) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t min_chunk = 1 << 16;
  threads = static_cast<unsigned>(
      std::max<std::size_t>(1, std::min<std::size_t>(threads, n / min_chunk)));
  if (threads <= 1) return scan_gold(kind, in, out, n, op, identity);

  const std::size_t chunk = (n + threads - 1) / threads;
  std::vector<T> totals(threads, identity);
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      const std::size_t b = std::min(n, t * chunk), e = std::min(n, b + chunk);
      T acc = identity;
      for (std::size_t i = b; i < e; ++i) acc = op(acc, in[i]);
      totals[t] = acc;
    });
  }
  for (auto& th : pool) th.join();
  pool.clear();
  // Exclusive scan of the chunk totals, sequentially: only `threads` elements.
  T carry = identity;
  for (unsigned t = 0; t < threads; ++t) {
    T x = totals[t];
    totals[t] = carry;
    carry = op(carry, x);
  }
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      const std::size_t b = std::min(n, t * chunk), e = std::min(n, b + chunk);
      scan_gold(kind, in + b, out + b, e - b, op, totals[t]);
    });
  }
  for (auto& th : pool) th.join();
}

}  // namespace scandof
