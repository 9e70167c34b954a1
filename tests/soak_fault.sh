#!/bin/sh
# One fault of the demo's soak and fault suite (tests/demo_soak.cmake): runs scandof into a fault
# and checks the exit status and the message, and for a recovered fault the soak's verdict line
# for it and a passing --verify after it.
#   soak_fault.sh SCANDOF CASE DIR [XVFB_RUN]
# CASE: minimise | huge-resize | low-memory | alloc | shader-missing | shader-broken |
#       no-gl-compute | reference-cancel | screenshot-unwritable | report-unwritable
# DIR: a scratch folder (made); XVFB_RUN: also run the window's variant of the case under it.
set -u
S=$1
case_=$2
dir=$3
xvfb=${4:-}
mkdir -p "$dir" || exit 1
# Small frames and a cheap scene: llvmpipe renders them in milliseconds.
small="--size 96x54 --anisotropy 1 --tess 2 --reference 4 --no-animate"
soak="$small --soak-frames 80 --soak-switch 10 --soak-resize 20 --verify"

fail() { echo "FAIL ($case_): $*"; exit 1; }
# run NAME ARGS...: output in $out, exit status in $rc
run() {
  name=$1
  shift
  out=$("$@" 2>&1)
  rc=$?
  printf '%s\n' "$out" > "$dir/$case_-$name.log"
}
expect_rc() { [ "$rc" -eq "$1" ] || fail "exit status $rc, want $1; log: $dir/$case_-$name.log"; }
# window NAME ARGS...: scandof ARGS under xvfb-run; $rc is scandof's own exit status (xvfb-run's
# cleanup now and then fails on its own, which is not the demo's).
window() {
  name=$1
  shift
  out=$($xvfb -a -s '-screen 0 640x480x24' sh -c '"$@"; echo "scandof exit status $?"' sh "$S" "$@" 2>&1)
  printf '%s\n' "$out" > "$dir/$case_-$name.log"
  rc=$(printf '%s\n' "$out" | sed -n 's/^scandof exit status \([0-9]*\)$/\1/p' | tail -n 1)
  [ -n "$rc" ] || rc=255
}
expect() { printf '%s\n' "$out" | grep -q -- "$1" || fail "no '$1' in $dir/$case_-$name.log"; }
# A recovered soak fault: its verdict line, the run's verify verdicts, exit 0.
recovered() {
  expect_rc 0
  expect "soak: fault $1 at frame [0-9]*: recovered"
  printf '%s\n' "$out" | grep -q "NOT RECOVERED" && fail "a fault did not recover"
  expect "SAT verify OK"
  expect "verifies (0 failed)"
}

case $case_ in
  minimise)
    run headless "$S" --headless $soak --inject-fault minimise
    recovered minimise
    expect "minimise: restored to 96x54 after 5 passes without a frame"
    expect "(5 passes minimised)"
    if [ -n "$xvfb" ]; then
      window window --no-vsync $soak --inject-fault minimise
      recovered minimise
    fi
    ;;
  huge-resize)
    run headless "$S" --headless $soak --inject-fault huge-resize
    recovered huge-resize
    expect "resize to 65536x65536 refused: frame size 65536x65536 is beyond this GL implementation: GL_MAX_TEXTURE_SIZE is [0-9]*; kept 96x54"
    if [ -n "$xvfb" ]; then
      window window --no-vsync $soak --inject-fault huge-resize
      recovered huge-resize
      expect "beyond this GL implementation"
    fi
    ;;
  low-memory)
    run headless "$S" --headless $soak --inject-fault low-memory@resize
    recovered 'low-memory@resize'
    expect "needs about [0-9]* [KM]iB and 0 KiB are free (pretended by --inject-fault low-memory@resize)"
    ;;
  alloc)
    # Without a CUDA device the failed allocation is the host's (std::bad_alloc); on the CUDA
    # backend a real cudaMalloc fails (cudaErrorMemoryAllocation).
    run headless "$S" --headless $soak --inject-fault cuda-alloc@resize
    recovered 'alloc@resize'
    expect "failed (\(std::bad_alloc\|.*cudaErrorMemoryAllocation.*\)); back at 96x54"
    if [ -n "$xvfb" ]; then
      window window --no-vsync $soak --inject-fault alloc@resize
      recovered 'alloc@resize'
    fi
    ;;
  shader-missing | shader-broken)
    # A copy of the resources with one shader gone or broken: the run stops at start with the
    # file's name (exit 1), headless and in the window, and nothing crashes.
    res=$dir/res-$case_
    rm -rf "$res" && mkdir -p "$res" || exit 1
    bin=$(dirname "$S")
    cp -r "$bin/shaders" "$bin/assets" "$res/" || exit 1
    [ -d "$bin/glsat" ] && cp -r "$bin/glsat" "$res/"
    if [ "$case_" = shader-missing ]; then
      rm "$res/shaders/tonemap.comp" || exit 1
      want="cannot open file: $res/shaders/tonemap.comp"
    else
      printf 'this line is not GLSL;\n' >> "$res/shaders/tonemap.comp" || exit 1
      want="shader compilation failed: $res/shaders/tonemap.comp"
    fi
    run headless "$S" --headless $small --frames 2 --resources "$res"
    expect_rc 1
    expect "scandof: error: .*$want"
    if [ -n "$xvfb" ]; then
      window window $small --frames 2 --exit --resources "$res"
      expect_rc 1
      expect "scandof: error: .*$want"
    fi
    ;;
  no-gl-compute)
    # The GL backend asked for on a driver that lacks what it needs: the CPU backend takes over
    # with the reason, and the run verifies.
    run headless "$S" --headless $small --frames 2 --backend gl --inject-fault no-gl-compute --verify
    expect_rc 0
    expect "SAT backend: CPU fallback: built without CUDA; no GL compute: GL compute reported missing (--inject-fault no-gl-compute)\|SAT backend: CPU fallback: .*no GL compute: GL compute reported missing"
    expect "SAT verify OK"
    # A soak cycling onto the GL backend meets the same fallback at every switch.
    run soak "$S" --headless $soak --soak-backends gl,cpu --inject-fault no-gl-compute
    expect_rc 0
    expect "verifies (0 failed)"
    ;;
  reference-cancel)
    run headless "$S" --headless $soak --inject-fault reference-cancel
    recovered reference-cancel
    expect "lens reference cancelled after 2 of 4 samples; rendering it again in full"
    ;;
  screenshot-unwritable)
    run headless "$S" --headless $soak --screenshot-dir "$dir/no/such/folder"
    expect_rc 0
    expect "soak: fault screenshot at frame [0-9]*: recovered: cannot write $dir/no/such/folder/soak-shot.png"
    expect "screenshots (1 failed)"
    ;;
  report-unwritable)
    # A soak whose report cannot be written stops before it starts (exit 1, the path named).
    run missing "$S" --headless $soak --report "$dir/no/such/folder/r.json"
    expect_rc 1
    expect "cannot write $dir/no/such/folder/r.json: its folder $dir/no/such/folder is missing or not writable"
    # A report that fails at the end (a full disk): exit 1 naming it, after the soak's summary.
    run full "$S" --headless $small --soak-frames 20 --soak-switch 10 --report /dev/full
    expect_rc 1
    expect "soak: 20 frames"
    expect "cannot write /dev/full"
    ;;
  *)
    fail "unknown case"
    ;;
esac
echo "ok ($case_)"
