#!/usr/bin/env bash
# Configures build/<name> (default build/release) for this machine: the GPU's own architecture when
# nvidia-smi sees one (fast to compile), else sm_75 + PTX, which is enough to check that everything
# compiles (tests that need a GPU skip). Pass CUDA_ARCHS=... to override.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build/release}
args=(-S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release)
nvcc=$(command -v nvcc || true)
[[ -z $nvcc && -x /usr/local/cuda/bin/nvcc ]] && nvcc=/usr/local/cuda/bin/nvcc
if [[ -z $nvcc ]]; then
  args+=(-DSCANDOF_CUDA=OFF)
else
  args+=(-DCMAKE_CUDA_COMPILER="$nvcc")
  if [[ -n ${CUDA_ARCHS:-} ]]; then
    archs=$CUDA_ARCHS
  elif cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n1) && [[ -n $cap ]]; then
    archs=${cap/./}
  else
    archs=75
  fi
  args+=(-DCMAKE_CUDA_ARCHITECTURES="$archs")
fi
cmake "${args[@]}"
