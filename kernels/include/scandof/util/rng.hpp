// The project's one random generator: splitmix64, counter-based. Element i of a seeded input is a
// pure function of (seed, i), so inputs can be made in any order, on any thread or on the GPU, and
// a test, a benchmark and scantool that use the same seed see the same data.
#pragma once

#include <cstdint>

#include "scandof/config.hpp"

namespace scandof {
namespace util {

// splitmix64's finaliser (Steele, Lea & Flood 2014): a bijection on 64 bits with full avalanche.
SCANDOF_HD std::uint64_t mix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// The i-th value of the stream named by seed.
SCANDOF_HD std::uint64_t hash_at(std::uint64_t seed, std::uint64_t i) {
  return mix64(mix64(seed) ^ (i * 0xD6E8FEB86659FD93ull));
}

// A uniform double in [0, 1) from the top 53 bits.
SCANDOF_HD double unit_double(std::uint64_t bits) {
  return static_cast<double>(bits >> 11) * (1.0 / 9007199254740992.0);
}

// Sequential form for code that just wants "the next number".
class SplitMix64 {
 public:
  SCANDOF_HD explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  SCANDOF_HD std::uint64_t next() {
    state_ += 0x9E3779B97F4A7C15ull;
    return mix64(state_ - 0x9E3779B97F4A7C15ull);
  }
  SCANDOF_HD double next_double() { return unit_double(next()); }

 private:
  std::uint64_t state_;
};

}  // namespace util
}  // namespace scandof
