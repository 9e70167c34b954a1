#!/usr/bin/env bash
# One command: install what is missing, build everything, run the test suite. Without a CUDA
# device the GPU tests skip with a message; the CPU references, the CLI and the demo (under Xvfb,
# CPU fallback) are still tested.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/scripts/setup.sh"
"$here/scripts/configure.sh" "$here/build/release"
cmake --build "$here/build/release"
# The registered tests against the floor in tests/expected_min_tests.txt: a group of tests that
# stops registering (a tool missing under SCANDOF_ALLOW_MISSING_TEST_TOOLS, a glob or an if() that
# no longer matches) fails the run instead of passing by not running.
floor_file="$here/tests/expected_min_tests.txt"
floor=$(grep -v '^[[:space:]]*#' "$floor_file" | grep -m1 -oE '[0-9]+' || true)
[[ -n $floor ]] || { echo "test.sh: no number in $floor_file" >&2; exit 1; }
registered=$(ctest --test-dir "$here/build/release" -N | sed -n 's/^Total Tests: *//p')
[[ -n $registered ]] || { echo "test.sh: ctest -N printed no 'Total Tests' line" >&2; exit 1; }
# CTest counts a skipped case as passed in its closing line; the line after it keeps them apart
# (GPU cases skip where there is no CUDA device; SCANDOF_REQUIRE_GPU=1 makes them fail instead).
log=$(mktemp)
rc=0
junit=$(mktemp)
trap 'rm -f "$log" "$junit"' EXIT
ctest --test-dir "$here/build/release" --output-on-failure -j "$(nproc)" --output-junit "$junit" | tee "$log" || rc=$?
passed=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .* Passed +[0-9.]+ sec' "$log" || true)
skipped=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .*\*\*\*Skipped' "$log" || true)
failed=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .*(\*\*\*(Failed|Exception|Timeout|Not Run)|Failed +[0-9.]+ sec)' "$log" || true)
# ran: the cases that ran to a verdict; each skip names its reason above.
echo "ctest: ran $((passed + failed)), skipped $skipped, failed $failed (registered $registered, floor $floor)"
# Why each skip skipped (a CUDA device, a GPU driver's GL feature); a skip for any other reason
# fails the run, so "skipped" only ever counts cases this machine cannot run.
/usr/bin/python3 "$here/scripts/skip_reasons.py" "$junit" || { echo "test.sh: a case skipped for a reason other than missing GPU hardware" >&2; rc=1; }
# The floor counts the CUDA suites (CI has nvcc); a build without CUDA (SCANDOF_NO_CUDA=1) has fewer.
cuda=$(sed -n 's/^SCANDOF_CUDA:BOOL=//p' "$here/build/release/CMakeCache.txt")
if [[ $cuda != ON ]]; then
  echo "test.sh: built without CUDA: the floor of $floor_file (a CUDA build's) not applied" >&2
elif ((registered < floor)); then
  echo "test.sh: $registered tests registered, fewer than the $floor of $floor_file:" \
       "a group of tests no longer registers" >&2
  exit 1
fi
if ((failed > 0 && rc == 0)); then rc=1; fi
# No function of app/, glsat/ or kernels/ much past 150 lines (tests and benchmarks aside).
/usr/bin/python3 "$here/scripts/check_function_sizes.py" --limit 160 || { echo "test.sh: a function grew past 160 lines" >&2; rc=1; }

# Second stage: the tests labelled `sanitize` (the demo's unit tests, a short CPU soak with faults,
# and whatever else carries the label) in an ASan+UBSan Debug build of the CPU parts, build/asan.
# Only their targets are built (scandof_sanitize_targets, tests/demo_soak.cmake); a finding aborts
# the test (halt_on_error, UBSan not recoverable). SCANDOF_SKIP_SANITIZE=1 leaves the stage out.
# Uncached on a 2-core machine shared with other builds: 6.6 min to configure and build (85 steps),
# 36 s of tests.
san_ran=0 san_failed=0 san_rc=0
if [[ ${SCANDOF_SKIP_SANITIZE:-0} != 1 ]]; then
  asan="$here/build/asan"
  san_flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
  san_start=$SECONDS
  san_log=$(mktemp)
  trap 'rm -f "$log" "$junit" "$san_log"' EXIT
  { cmake -S "$here" -B "$asan" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSCANDOF_CUDA=OFF \
      -DSCANDOF_BUILD_BENCH=OFF -DSCANDOF_BUILD_TOOLS=OFF -DCMAKE_C_FLAGS="$san_flags" \
      -DCMAKE_CXX_FLAGS="$san_flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
      >/dev/null &&
    cmake --build "$asan" --target scandof_sanitize_targets &&
    ctest --test-dir "$asan" -L sanitize --output-on-failure -j "$(nproc)" | tee "$san_log"; } || san_rc=$?
  san_passed=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .* Passed +[0-9.]+ sec' "$san_log" || true)
  san_failed=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .*(\*\*\*(Failed|Exception|Timeout|Not Run)|Failed +[0-9.]+ sec)' "$san_log" || true)
  san_ran=$((san_passed + san_failed))
  if ((san_ran == 0)); then
    echo "test.sh: the sanitize stage ran no test" >&2
    san_rc=1
  fi
  if ((san_failed > 0 && san_rc == 0)); then san_rc=1; fi
  echo "sanitize stage: $((SECONDS - san_start)) s"
fi
((san_rc != 0 && rc == 0)) && rc=$san_rc
echo "test.sh: main stage: ran $((passed + failed)), failed $failed; sanitize stage: ran $san_ran, failed $san_failed; exit $rc"
exit "$rc"
