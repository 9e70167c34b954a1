// A uniform sample of at most `capacity` items out of a stream of any length (reservoir sampling,
// Vitter's algorithm R, a fixed seed so a run is repeatable): below the capacity every item is
// kept, in order. The headless runner keeps its frames' stage times in one, so the report's
// medians come from bounded memory however many frames a run measures (holding every frame grew
// a 40,000-frame run by about 160 bytes a frame).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "scandof/util/rng.hpp"

namespace demo {

template <class T>
class Reservoir {
 public:
  explicit Reservoir(std::size_t capacity, std::uint64_t seed = 0x5eed5a3df00dull)
      : capacity_(capacity), rng_(seed) {
    items_.reserve(capacity);
  }
  void add(const T& item) {
    ++seen_;
    if (items_.size() < capacity_) {
      items_.push_back(item);
      return;
    }
    // Item number seen_ replaces a kept one with probability capacity / seen_.
    const std::uint64_t j = rng_.next() % seen_;
    if (j < capacity_) items_[static_cast<std::size_t>(j)] = item;
  }
  const std::vector<T>& items() const { return items_; }
  std::uint64_t seen() const { return seen_; }
  std::size_t capacity() const { return capacity_; }

 private:
  std::size_t capacity_;
  scandof::util::SplitMix64 rng_;
  std::vector<T> items_;
  std::uint64_t seen_ = 0;
};

}  // namespace demo
