#!/usr/bin/env bash
# One command: install what is missing, build everything, run the test suite. Without a CUDA
# device the GPU tests skip with a message; the CPU references, the CLI and the demo (under Xvfb,
# CPU fallback) are still tested.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/scripts/setup.sh"
"$here/scripts/configure.sh" "$here/build/release"
cmake --build "$here/build/release"
ctest --test-dir "$here/build/release" --output-on-failure -j "$(nproc)"
