// All block-level scan variants: scandof::block::BlockScan<ScanAlgorithm, T, Op>.
#pragma once

#include "scandof/block/common.cuh"
#include "scandof/block/naive.cuh"
#include "scandof/block/work_efficient.cuh"
#include "scandof/block/conflict_free.cuh"
#include "scandof/block/optimized.cuh"
#include "scandof/block/warp_shuffle.cuh"
