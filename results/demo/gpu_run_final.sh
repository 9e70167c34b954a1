#!/usr/bin/env bash
# Second GPU pass (after the UI work): the panels rendered headless over a 1080p frame with the
# all-variants comparison, a fresh report, and exact verification of every variant again.
set -u
cd "$(dirname "$0")"
R=./rt/run; B=./scandof
if ! ls /usr/share/glvnd/egl_vendor.d/10_nvidia.json /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json >/dev/null 2>&1; then
  echo '{"file_format_version":"1.0.0","ICD":{"library_path":"libEGL_nvidia.so.0"}}' > /tmp/10_nvidia.json
  export __EGL_VENDOR_LIBRARY_FILENAMES=/tmp/10_nvidia.json
fi
$R $B --headless --size 64x64 --frames 2 --verify || { echo "smoke test failed; stopping"; exit 1; }
$R $B --headless --size 1920x1080 --frames 100 --no-animate --focus 10.7 --all-variants --verify \
  --screenshot-ui $OUT/ui_h100.png --report $OUT/report_1080p_final.json 2>&1 | grep -vE "^\[gl\]"
for v in naive work-efficient conflict-free optimized warp-shuffle single-pass cub; do
  $R $B --headless --size 1279x719 --frames 2 --variant $v --verify 2>&1 | grep -E "verify|error"
done
$R $B --headless --size 1279x719 --frames 2 --method fused --verify 2>&1 | grep -E "verify|error"
$R $B --headless --size 1279x719 --frames 2 --method fused --format f32 --variant cub 2>&1 | grep -E "float|error"
