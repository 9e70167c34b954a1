#!/usr/bin/env bash
# Runs on the GPU machine from a folder made by pack.sh:  bash .gpu-final/validate.sh [steps...]
# steps: suite tests prims dof sanitize bench demo tool glsat (default: all). "suite" runs every
# GoogleTest executable of the pack (PACK_BINS=tests in pack.sh) and prints
# "suite: ran N, skipped M, failed F" (skips are failures here: SCANDOF_REQUIRE_GPU=1). Logs go to $OUT/logs.tgz (tarred as it goes, so
# a cut-off run still brings back what finished; logs from earlier calls of this script in the
# same command are kept); a summary table is printed last.
set -u
D=$(cd "$(dirname "$0")" && pwd); R=$D/rt/run; O=${OUT:-/tmp/out}; L=/tmp/scandof-logs/logs; mkdir -p "$L" "$O"
steps=${*:-suite tests prims dof sanitize bench demo tool glsat}
# A GPU test that finds no usable device fails here instead of skipping (tests/gpu_skip.hpp).
export SCANDOF_REQUIRE_GPU=1
for g in "$D"/*.gz; do [[ -f $g ]] && { gunzip -f "$g"; chmod +x "${g%.gz}"; }; done
if ! ls /usr/share/glvnd/egl_vendor.d/10_nvidia.json /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json >/dev/null 2>&1; then
  echo '{"file_format_version":"1.0.0","ICD":{"library_path":"libEGL_nvidia.so.0"}}' > /tmp/10_nvidia.json
  export __EGL_VENDOR_LIBRARY_FILENAMES=/tmp/10_nvidia.json
fi
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$L/gpu.txt"
summary=()
step() {  # step TIMEOUT NAME CMD...
  local t=$1 name=$2; shift 2; local s=$(date +%s)
  timeout "$t" "$@" > "$L/$name.log" 2>&1; local rc=$?
  local line="$name rc=$rc $(( $(date +%s) - s ))s :: $(grep -aE 'PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY|tests? (passed|failed)|verify|all checks' "$L/$name.log" | tail -n 2 | tr '\n' ' ')"
  echo "$line"; summary+=("$line")
  (cd "$(dirname "$L")" && tar czf "$O/logs.tgz" logs)
}
has() { [[ " $steps " == *" $1 "* ]]; }
if has suite; then
  ran=0 skipped=0 failed=0 bins=0
  cd "$D"  # the demo's GL tests find its shaders and assets beside the executable
  export SCANDOF_GLSAT_SHADERS=$D/glsat/shaders  # test_gl_sat's folder (pack.sh copies it)
  export SCANDOF_DOF_TIMINGS=1  # the CPU DoF timings at 1920x1080 (480x270 without it)
  for t in "$D"/test_* "$D"/scandof_app_tests "$D"/demo_runtime_settings; do
    [[ -x $t && ! -d $t ]] || continue
    name=$(basename "$t"); bins=$((bins + 1))
    step 1200 "suite_$name" "$R" "$t"
    log=$L/suite_$name.log
    p=$(grep -aoE '^\[  PASSED  \] [0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)
    k=$(grep -aoE '^\[  SKIPPED \] [0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)
    f=$(grep -aoE '^\[  FAILED  \] [0-9]+ test' "$log" | grep -oE '[0-9]+' | tail -1)
    grep -aq '^\[==========\] .* ran\.' "$log" || f=$(( ${f:-0} + 1 ))  # crashed or cut off
    ran=$((ran + ${p:-0} + ${f:-0})); skipped=$((skipped + ${k:-0})); failed=$((failed + ${f:-0}))
  done
  line="suite: $bins executables, ran $ran, skipped $skipped, failed $failed"
  echo "$line" | tee "$L/suite_summary.txt"; summary+=("$line")
fi
if has tests; then
  step 60 test_scan_gold "$R" "$D/test_scan_gold"
  step 200 test_scan "$R" "$D/test_scan"
  step 120 test_scan_large "$R" "$D/test_scan_large"
  step 120 test_sat "$R" "$D/test_sat"
fi
if has prims; then
  step 120 test_compact "$R" "$D/test_compact"
  step 120 test_sort "$R" "$D/test_sort"
  step 120 test_compact_large "$R" "$D/test_compact_large"
  step 120 test_sort_large "$R" "$D/test_sort_large"
fi
if has sanitize; then
  export SCANDOF_TEST_MAX_N=70000
  # One 4-byte and one 8-byte type over every algorithm and both kinds, plus the non-commutative
  # operator: the kernels differ by element size, not by operator.
  f='Scan/SweepInt32.*Sum*:Scan/SweepDouble.*Max*:Scan/AffineSweep.*:Scan/ScanApi.*InPlace*'
  for tool in memcheck racecheck synccheck; do
    step 150 "san_${tool}_scan" "$R" compute-sanitizer --tool $tool --error-exitcode 9 "$D/test_scan" --gtest_filter="$f"
  done
  for tool in memcheck racecheck synccheck; do
    step 120 "san_${tool}_sat" "$R" compute-sanitizer --tool $tool --error-exitcode 9 "$D/test_sat" \
      --gtest_filter='Sizes/SatSweep.*/1x1:Sizes/SatSweep.*/31x33:Sizes/SatSweep.*/7x1:Sat.ChannelsAndPitches'
  done
  # The look-back users (single-pass compaction, onesweep and split sort) and the DoF kernels.
  for tool in memcheck racecheck synccheck; do
    step 150 "san_${tool}_compact" "$R" compute-sanitizer --tool $tool --error-exitcode 9 "$D/test_compact" \
      --gtest_filter='CompactTyped/*.AllAlgorithmsModesSizes:Compact.SinglePassPolicies'
    step 150 "san_${tool}_sort" "$R" compute-sanitizer --tool $tool --error-exitcode 9 "$D/test_sort" \
      --gtest_filter='SortTyped/*.LsdKeysAndPairs:SortTyped/*.SplitKeys:Sort.LsdPolicies:Sort.LsdPoliciesSkewedKeys:Sort.InPlace'
    step 150 "san_${tool}_dof" "$R" compute-sanitizer --tool $tool --error-exitcode 9 "$D/test_dof_cuda"
    step 150 "san_${tool}_sat_interleaved" "$R" compute-sanitizer --tool $tool --error-exitcode 9 \
      "$D/test_sat_interleaved" --gtest_filter='*U32*:*Planar*'
  done
  unset SCANDOF_TEST_MAX_N
fi
if has dof; then
  step 120 test_dof_cuda "$R" "$D/test_dof_cuda"
  step 60 test_sat_interleaved "$R" "$D/test_sat_interleaved"
  step 120 dofbench "$R" "$D/dofbench" --json "$L/dofbench.json"
fi
if has bench; then
  step 200 scanbench "$R" "$D/scanbench" --json "$L/scanbench.json" --csv "$L/scanbench.csv" --label "${LABEL:-}"
  step 120 satbench "$R" "$D/satbench" --out "$L/sat"
  # The runs behind results/compact/ and results/sort/.
  step 300 compactbench "$R" "$D/compactbench" --variants --csv "$L/compactbench.csv" --json "$L/compactbench.json"
  step 300 sortbench "$R" "$D/sortbench" --keys uint32 --dists uniform,equal --variants --split-max-log 20 \
    --csv "$L/sortbench.csv" --json "$L/sortbench.json"
fi
if has demo; then
  step 60 demo_smoke "$R" "$D/scandof" --resources "$D" --headless --size 64x64 --frames 2 --verify
  step 200 demo_1080p "$R" "$D/scandof" --resources "$D" --headless --size 1920x1080 --frames 100 --no-animate \
    --focus 10.7 --verify --all-variants --out "$L/focus_near.png" --report "$L/report_1080p.json"
  step 60 demo_far "$R" "$D/scandof" --resources "$D" --headless --size 1920x1080 --frames 10 --no-animate \
    --focus 30 --out "$L/focus_far.png"
  step 60 demo_ui "$R" "$D/scandof" --resources "$D" --headless --size 1600x900 --frames 10 --no-animate \
    --compare --screenshot-ui "$L/ui.png"
  step 120 demo_primitives "$R" "$D/scandof" --resources "$D" --headless --size 1600x900 --frames 5 \
    --no-animate --primitives --prim-size 2^24 --report "$L/primitives.json" --screenshot-ui "$L/ui_primitives.png"
fi
if has tool; then
  T="$R $D/scantool"
  step 30 scantool_gen $T gen --dtype int32 --n 16777216 --seed 3 /tmp/a.npy
  for a in naive work-efficient conflict-free optimized warp-shuffle single-pass cub; do
    step 30 "scantool_$a" $T scan --verify --time --algo $a /tmp/a.npy /tmp/b_$a.npy
  done
  for k in '>3' '<-2' '!=0' nonzero odd even; do
    for a in paper reduce-then-scan single-pass; do
      step 30 "scantool_compact_${a}_$(echo "$k" | tr -c 'a-z0-9' '_')" $T compact --verify --time \
        --algo $a --keep "$k" /tmp/a.npy /tmp/k.npy
    done
  done
  step 30 scantool_sort $T sort --verify --time /tmp/a.npy /tmp/s.npy
  step 30 scantool_sort_split $T sort --verify --algo split /tmp/a.npy /tmp/s2.npy
fi
if has glsat; then  # the OpenGL compute SAT library (glsat/) on the NVIDIA EGL driver
  step 300 test_gl_sat env SCANDOF_GLSAT_SHADERS="$D/glsat/shaders" "$R" "$D/test_gl_sat"
  step 400 glsatbench "$R" "$D/glsatbench" --shaders "$D/glsat/shaders" --out "$L/glsat"
fi
(cd "$(dirname "$L")" && tar czf "$O/logs.tgz" logs)
printf '%s\n' "=== summary" "${summary[@]}"
