// Blelloch block scan without bank conflicts: the WorkEfficient tree with every shared-memory index
// padded by one element per bank row (BankPad: i >> 5 for 4-byte T, i >> 4 for 8-byte T), and the
// paper's loading of the two tile halves (thread t takes items t and t + TILE/2) so global loads
// and the first tree level stay conflict-free too. Same 2(n - 1) combines; 1/32 more shared memory.
#pragma once

#include "scandof/block/common.cuh"

namespace scandof {
namespace block {

template <class T, class Op>
struct BlockScan<ScanAlgorithm::ConflictFree, T, Op>
    : detail::PairTreeScan<ScanAlgorithm::ConflictFree, T, Op, detail::PaddedHalves<T>> {
  using Base = detail::PairTreeScan<ScanAlgorithm::ConflictFree, T, Op, detail::PaddedHalves<T>>;
  using Base::Base;
};

}  // namespace block
}  // namespace scandof
