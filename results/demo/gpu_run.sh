#!/usr/bin/env bash
# Demo checks on the GPU machine (headless EGL). Writes into $OUT.
set -u
cd "$(dirname "$0")"
R=./rt/run; B=./scandof
W=$OUT/work; mkdir -p $W
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
# EGL: the bundle carries glvnd's libEGL.so.1 (the GPU machine lacks it); point it at NVIDIA's
# vendor library when no vendor file is installed.
ls /usr/share/glvnd/egl_vendor.d/ 2>/dev/null; ldconfig -p | grep -E "libEGL" | head -5
if ! ls /usr/share/glvnd/egl_vendor.d/10_nvidia.json /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json >/dev/null 2>&1; then
  echo '{"file_format_version":"1.0.0","ICD":{"library_path":"libEGL_nvidia.so.0"}}' > /tmp/10_nvidia.json
  export __EGL_VENDOR_LIBRARY_FILENAMES=/tmp/10_nvidia.json
fi
$R $B --headless --size 64x64 --frames 2 --verify || { echo "smoke test failed; stopping"; exit 1; }
log() { echo "=== $*"; }
log "1. 1080p: all variants timed, verify, dump, screenshots"
$R $B --headless --size 1920x1080 --frames 100 --no-animate --focus 10.7 --verify --all-variants \
  --out $OUT/focus_near.png --out-frame $OUT/frame.png --dump-sat $W/sat.npy \
  --report $W/report_1080p.json 2>&1 | tee $W/run1.log
echo "rc=${PIPESTATUS[0]}"
if python3 -c "import numpy" 2>/dev/null; then
  python3 - "$W/sat.npy" "$OUT/frame.png" <<'PY' 2>&1 | tee $W/dumpcheck_device.log
import sys, numpy as np
sat = np.load(sys.argv[1]); print("dump", sat.shape, sat.dtype, "last", sat[:, -1, -1])
PY
fi
(cd $W && split -b 15000000 -d sat.npy sat.npy.part && rm sat.npy && mv sat.npy.part00 $OUT/ && mv sat.npy.part01 $OUT/)
log "2. far focus"
$R $B --headless --size 1920x1080 --frames 10 --no-animate --focus 30 --out $OUT/focus_far.png 2>&1 | tail -3
log "3. verify every variant at awkward sizes, fused path"
for v in naive work-efficient conflict-free optimized warp-shuffle single-pass cub; do
  $R $B --headless --size 1921x1079 --frames 3 --variant $v --verify 2>&1 | grep -E "verify|error" ; echo "rc=${PIPESTATUS[0]} $v"
done
for s in 1920x1080 1001x777 33x17; do
  $R $B --headless --size $s --frames 3 --method fused --verify 2>&1 | grep -E "verify|error"; echo "rc=${PIPESTATUS[0]} fused $s"
done
log "4. float32 tables (error) and fused timings"
$R $B --headless --size 1920x1080 --frames 100 --no-animate --focus 10.7 --format f32 --report $W/report_f32.json 2>&1 | grep -E "float|error|fused|work"
$R $B --headless --size 1920x1080 --frames 100 --no-animate --focus 10.7 --method fused --report $W/report_fused.json 2>&1 | grep -E "fused|error"
log "5. CPU fallback forced, views"
$R $B --headless --size 640x360 --frames 3 --cpu --verify 2>&1 | grep -E "backend|verify|error"
$R $B --headless --size 960x540 --frames 3 --no-animate --focus 10.7 --view coc --out $W/view_coc.png 2>&1 | grep error
$R $B --headless --size 960x540 --frames 3 --no-animate --focus 10.7 --view split --out $W/view_split.png 2>&1 | grep error
$R $B --headless --size 3840x2160 --frames 20 --no-animate --focus 10.7 --verify --report $W/report_4k.json 2>&1 | grep -E "verify|error|work"
cp $W/*.json $W/*.log . 2>/dev/null; tar -C $W -cf $OUT/misc.tar .
ls -la $OUT
