// Host-side data parallelism for CPU references and input generation: splits [0, n) into one
// contiguous chunk per hardware thread. Runs inline when n is small, because starting threads costs
// about 50 us each and the CPU references are often called on a few thousand elements.
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace scandof {
namespace util {

// f(begin, end) over [0, n); threads = 0 means hardware_concurrency. Chunks smaller than min_chunk
// are not worth a thread.
template <class F>
void parallel_for(std::size_t n, F&& f, std::size_t min_chunk = std::size_t(1) << 18,
                  unsigned threads = 0) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(
      std::max<std::size_t>(1, std::min<std::size_t>(threads, (n + min_chunk - 1) / min_chunk)));
  if (threads <= 1) {
    f(std::size_t(0), n);
    return;
  }
  const std::size_t chunk = (n + threads - 1) / threads;
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) {
    const std::size_t b = std::min(n, t * chunk), e = std::min(n, b + chunk);
    pool.emplace_back([&f, b, e] { f(b, e); });
  }
  for (auto& th : pool) th.join();
}

}  // namespace util
}  // namespace scandof
