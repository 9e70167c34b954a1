// What the Primitives window (and headless --primitives) asks the benchmark to run: plain data that
// Settings carries and compares, so it lives below the benchmark (primitives/bench.hpp) that runs it.
#pragma once

#include <cstdint>

#include "scandof/compact.hpp"
#include "scandof/scan.hpp"
#include "scandof/sort.hpp"

namespace demo {

enum class Primitive : int { Scan = 0, Compact = 1, Sort = 2 };
constexpr int kNumPrimitives = 3;
// Compaction flavours, each with its CUB twin: compact_if / DeviceSelect::If, partition_if /
// DevicePartition::If, compact_flagged / DeviceSelect::Flagged (flags computed from the keys).
enum class CompactMode : int { Select = 0, Partition = 1, Flagged = 2 };
constexpr int kNumCompactModes = 3;
// Sort inputs. Scan and compaction always take Uniform (compaction's knob is the selectivity).
enum class Distribution : int { Uniform = 0, AllEqual = 1, FewDistinct = 2, Sorted = 3 };
constexpr int kNumDistributions = 4;

struct PrimRequest {
  Primitive primitive = Primitive::Scan;
  scandof::ScanAlgorithm scan_variant = scandof::ScanAlgorithm::SinglePass;
  scandof::CompactAlgorithm compact_algo = scandof::CompactAlgorithm::SinglePass;
  scandof::SortAlgorithm sort_algo = scandof::SortAlgorithm::Lsd;
  CompactMode compact_mode = CompactMode::Select;
  Distribution distribution = Distribution::Uniform;
  int selectivity_pct = 50;  // compaction: 1, 50 or 99 (any 0..100 works)
  int log2_n = 22;
  int reps = 25;  // timed runs per contender after 3 warm-up runs; medians reported
  std::uint64_t seed = 0x5ca9d0f2024ull;

  bool operator==(const PrimRequest& o) const {
    return primitive == o.primitive && scan_variant == o.scan_variant &&
           compact_algo == o.compact_algo && sort_algo == o.sort_algo &&
           compact_mode == o.compact_mode && distribution == o.distribution &&
           selectivity_pct == o.selectivity_pct && log2_n == o.log2_n && reps == o.reps &&
           seed == o.seed;
  }
};

}  // namespace demo
