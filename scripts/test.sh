#!/usr/bin/env bash
# One command: install what is missing, build everything, run the test suite. Without a CUDA
# device the GPU tests skip with a message; the CPU references, the CLI and the demo (under Xvfb,
# CPU fallback) are still tested.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/scripts/setup.sh"
"$here/scripts/configure.sh" "$here/build/release"
cmake --build "$here/build/release"
# CTest counts a skipped case as passed in its closing line; the line after it keeps them apart
# (GPU cases skip where there is no CUDA device; SCANDOF_REQUIRE_GPU=1 makes them fail instead).
log=$(mktemp)
trap 'rm -f "$log"' EXIT
rc=0
ctest --test-dir "$here/build/release" --output-on-failure -j "$(nproc)" | tee "$log" || rc=$?
passed=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .* Passed +[0-9.]+ sec' "$log" || true)
skipped=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .*\*\*\*Skipped' "$log" || true)
failed=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .*(\*\*\*(Failed|Exception|Timeout|Not Run)|Failed +[0-9.]+ sec)' "$log" || true)
echo "ctest: $passed passed, $failed failed, $skipped skipped"  # each skip names its reason above
exit "$rc"
