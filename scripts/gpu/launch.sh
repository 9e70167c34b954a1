#!/usr/bin/env bash
# The demo's front door on the GPU machine, from a folder made by pack.sh (scandof, and for the
# test step demo_runtime_settings, test_gl_sat, scandof_app_tests):
#   bash .gpu-final/launch.sh [window] [headless] [tests] [timing]
# window: a real window under Xvfb with Mesa's GLX beside the CUDA device (the GL context is not
#   on the CUDA GPU, as on a hybrid-graphics laptop or a remote desktop): the default launch, then
#   --backend cuda, --backend gl and --backend gl with an injected failure; needs DISPLAY set (the
#   Xvfb of the GPU machine's xvfb pack, its env.sh sourced).
# headless: EGL on the NVIDIA driver: the default launch verified at 64x48, 1001x777 and 1920x1080,
#   --backend cuda, and an injected CUDA-GL registration failure in frame 60 of 120.
# tests: demo_runtime_settings and test_gl_sat with SCANDOF_REQUIRE_GPU=1, scandof_app_tests.
# timing: the 1080p default frame against a scandof built from another commit, put in the folder
#   as scandof_base (with that commit's shaders/, glsat/ and assets/ in base_res/ where they
#   differ), alternating, 3 rounds of 300 frames; frame_gpu_ms medians printed.
# Logs, reports and screenshots go to $OUT/launch.tgz; the screenshots also to $OUT.
set -u
D=$(cd "$(dirname "$0")" && pwd); R=$D/rt/run; O=${OUT:-/tmp/out}; L=/tmp/scandof-launch
mkdir -p "$L" "$O"
steps=${*:-window headless tests timing}
has() { [[ " $steps " == *" $1 "* ]]; }
for g in "$D"/*.gz; do [[ -f $g ]] && { gunzip -f "$g"; chmod +x "${g%.gz}"; }; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$L/gpu.txt"
S="$R $D/scandof --resources $D"
run() {  # run NAME CMD...: the command's output in NAME.log, its exit status last
  local name=$1; shift
  timeout 300 "$@" > "$L/$name.log" 2>&1
  local rc=$?
  echo "exit $rc" >> "$L/$name.log"
  echo "== $name: exit $rc"
  grep -aE 'SAT backend|hint:|falls back|refused|verify OK|agrees|DISAGREES|FAILED|PASSED|error' \
    "$L/$name.log" | cut -c1-400 | head -n 12
}
if has window; then
  run window_default $S --frames 240 --exit --screenshot-ui "$L/window_default.png"
  run window_cuda $S --backend cuda --frames 60 --exit --screenshot-ui "$L/window_cuda.png"
  run window_gl $S --backend gl --frames 60 --exit --screenshot-ui "$L/window_gl.png"
  run window_gl_fault $S --backend gl --frames 60 --exit --inject-fault interop-register@30 \
    --screenshot-ui "$L/window_gl_fault.png"
fi
if has headless; then
  (
    unset DISPLAY __GLX_VENDOR_LIBRARY_NAME
    for size in 64x48 1001x777 1920x1080; do
      run "headless_verify_$size" $S --headless --no-animate --size $size --frames 3 --verify
    done
    run headless_cuda $S --headless --no-animate --size 640x360 --frames 3 --backend cuda --verify
    run headless_fault $S --headless --no-animate --size 1920x1080 --frames 120 --verify \
      --inject-fault interop-register@60 --report "$L/fault.json" --out "$L/fault.png"
  )
fi
if has tests; then
  (
    unset DISPLAY __GLX_VENDOR_LIBRARY_NAME
    cd "$D"  # the demo's GL tests find its shaders and assets beside the executable
    export SCANDOF_REQUIRE_GPU=1
    run demo_runtime_settings "$R" "$D/demo_runtime_settings"
    SCANDOF_GLSAT_SHADERS=$D/glsat/shaders run test_gl_sat "$R" "$D/test_gl_sat"
    run scandof_app_tests "$R" "$D/scandof_app_tests"
    echo "shader logs that warned: $(cat "$L"/demo_runtime_settings.log "$L"/test_gl_sat.log |
                                     grep -ac 'warning')"
  )
fi
if has timing && [[ -x $D/scandof_base ]]; then
  (
    unset DISPLAY __GLX_VENDOR_LIBRARY_NAME
    for round in 1 2 3; do
      for b in scandof scandof_base; do
        res=$D
        [[ $b == scandof_base && -d $D/base_res ]] && res=$D/base_res
        timeout 300 "$R" "$D/$b" --resources "$res" --headless --no-animate --size 1920x1080 \
          --frames 300 --report "$L/timing_${b}_$round.json" > "$L/timing_${b}_$round.log" 2>&1
      done
    done
    python3 - "$L" <<'PY'
import json, statistics, sys, glob
for b in ("scandof", "scandof_base"):
    vals = []
    for f in sorted(glob.glob(f"{sys.argv[1]}/timing_{b}_[0-9].json")):
        r = json.load(open(f))
        run = r["runs"][-1]
        vals.append(run["frame_gpu_ms"])
        print(f"{b} {f.rsplit('_', 1)[1]}: frame_gpu_ms {run['frame_gpu_ms']:.4f}, "
              f"sat_ms {run['sat_ms']:.4f}, interop_ms {run['interop_ms']:.4f}; {r['sat_backend']}")
    if vals:
        print(f"{b}: median of rounds {statistics.median(vals):.4f} ms")
PY
  ) | tee "$L/timing.txt"
fi
cp "$L"/*.png "$O"/ 2>/dev/null
(cd "$(dirname "$L")" && tar czf "$O/launch.tgz" "$(basename "$L")")
