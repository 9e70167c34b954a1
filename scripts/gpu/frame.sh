#!/usr/bin/env bash
# Frame-speed runs for results/frame/ (issue 8), on the GPU machine from a folder made by pack.sh:
#   bash .gpu-final/frame.sh        -> $OUT/frame/*.json, *.png, frame.log
# Headless, still scene, fused SAT with the single-pass variant, medians over 120 frames (after the
# runner's warm-up), each DoF pass at 1080p and 4K; then --verify (SAT exact + compute == fragment
# DoF within 1/255) for every variant and method at awkward sizes.
set -u
D=$(cd "$(dirname "$0")" && pwd); R=$D/rt/run; O=${OUT:-/tmp/out}/frame; mkdir -p "$O"
for g in "$D"/*.gz; do [[ -f $g ]] && { gunzip -f "$g"; chmod +x "${g%.gz}"; }; done
if ! ls /usr/share/glvnd/egl_vendor.d/10_nvidia.json /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json >/dev/null 2>&1; then
  echo '{"file_format_version":"1.0.0","ICD":{"library_path":"libEGL_nvidia.so.0"}}' > /tmp/10_nvidia.json
  export __EGL_VENDOR_LIBRARY_FILENAMES=/tmp/10_nvidia.json
fi
S="$R $D/scandof --resources $D --headless --no-animate"
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  for size in 1920x1080 3840x2160; do
    for pass in fragment compute; do
      echo "== $size $pass"
      $S --size $size --frames 120 --method fused --variant single-pass --dof-pass $pass \
        --report "$O/frame_${size}_${pass}.json" --out "$O/frame_${size}_${pass}.png" 2>&1 | grep -v "^\[scandof\] screenshot"
    done
  done
  echo "== paper pipeline, work-efficient (the demo's default), compute DoF, 1080p"
  $S --size 1920x1080 --frames 120 --dof-pass compute --report "$O/frame_1920x1080_compute_paper.json" 2>&1 | tail -n 3
  for size in 1921x1079 33x17 3840x2160 1x1; do
    echo "== verify $size: SAT exact and compute == fragment DoF, every variant (paper) and method"
    for cfg in "--variant naive" "--variant work-efficient" "--variant conflict-free" \
               "--variant optimized" "--variant warp-shuffle" "--variant single-pass" \
               "--variant cub" "--method fused" "--method fused-two-pass" "--method fused --format f32"; do
      printf '%-32s ' "$cfg"
      $S --size $size --frames 2 --verify $cfg 2>&1 | grep -E "verify|DoF passes|rror" | \
        sed -E 's/ \(CUDA on [^)]*\)//' | tr '\n' ' '
      echo
    done
  done
} 2>&1 | tee "$O/frame.log"
