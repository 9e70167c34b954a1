// Work-efficient block scan: Blelloch's up-sweep (reduce) and down-sweep with the root set to the
// identity (the paper's Algorithms 3 and 4), two adjacent items per thread as the paper first
// writes it. 2(n - 1) combines, but the tree's strides of 2, 4, 8, ... elements make threads of a
// warp hit the same shared-memory bank: up to 16-way conflicts at the deep levels. ConflictFree
// is the same tree with padded indices.
#pragma once

#include "scandof/block/common.cuh"

namespace scandof {
namespace block {

template <class T, class Op>
struct BlockScan<ScanAlgorithm::WorkEfficient, T, Op>
    : detail::PairTreeScan<ScanAlgorithm::WorkEfficient, T, Op, detail::AdjacentPairs> {
  using Base = detail::PairTreeScan<ScanAlgorithm::WorkEfficient, T, Op, detail::AdjacentPairs>;
  using Base::Base;
};

}  // namespace block
}  // namespace scandof
