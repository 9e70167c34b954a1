#!/usr/bin/env bash
# Frame-speed runs for results/frame/ and the GL backend's demo runs (results/sat/), on the
# GPU machine from a folder made by pack.sh:
#   bash .gpu-final/frame.sh        -> $OUT/frame.tgz (frame/*.json, *.png, frame.log)
# Headless, still scene, medians over 120 frames (after the runner's warm-up): the CUDA backend
# (fused SAT, single-pass variant) with each DoF pass, and the GL compute backend (fused) with
# each DoF pass, at 1080p and 4K, in the HDR pipeline (the default; the GPU frame ends with the
# tone map) and the compute passes again in the LDR (paper) one and with the floor and wall shaded
# forward; then --verify (SAT exact; compute passes == fragment pass within 1/255) for every
# variant and method at awkward sizes, on both GPU backends.
# The DoF is the demo's default (gather/octagon, radius offset 0.5, since 4f1ed0a; the main table
# of results/frame/README.md was gather/box at offset 0): DOF_ARGS="--dof gather --shape box
# --dof-radius-offset 0" measures that again.
set -u
D=$(cd "$(dirname "$0")" && pwd); R=$D/rt/run; O=/tmp/frame-out/frame; rm -rf /tmp/frame-out; mkdir -p "$O"
for g in "$D"/*.gz; do [[ -f $g ]] && { gunzip -f "$g"; chmod +x "${g%.gz}"; }; done
S="$R $D/scandof --resources $D --headless --no-animate ${DOF_ARGS:-}"
pack() { (cd /tmp/frame-out && tar czf "${OUT:-/tmp}/frame.tgz" frame); }
# One frame-speed run of the fused single-pass SAT on $backend at $size, 120 frames: its report
# is $O/frame_${size}_${backend}_$1.json; the other arguments go to the demo.
frame_run() {
  local name=$1; shift
  $S --size $size --frames 120 --backend $backend --method fused --variant single-pass "$@" \
    --report "$O/frame_${size}_${backend}_${name}.json" 2>&1 | \
    grep -vE "screenshot written|report written"
}
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  for size in 1920x1080 3840x2160; do
    for backend in cuda gl; do
      for pass in fragment compute; do
        echo "== $size $backend $pass"
        frame_run $pass --dof-pass $pass \
          $([[ $size == 1920x1080 ]] && echo --out "$O/frame_${size}_${backend}_${pass}.png")
      done
    done
  done
  for size in 1920x1080 3840x2160; do
    for backend in cuda gl; do
      echo "== $size $backend compute, floor and wall shaded forward (--scene-shading forward)"
      frame_run compute_forward --dof-pass compute --scene-shading forward
    done
  done
  for size in 1920x1080 3840x2160; do
    for backend in cuda gl; do
      echo "== $size $backend compute, LDR (paper) frame (--ldr)"
      frame_run compute_ldr --dof-pass compute --ldr
    done
  done
  echo "== paper pipeline, work-efficient (the demo's default), CUDA, compute DoF, 1080p"
  $S --size 1920x1080 --frames 120 --dof-pass compute --report "$O/frame_1920x1080_cuda_compute_paper.json" 2>&1 | grep -E "^\[scandof\] work"
  pack
  for backend in cuda gl; do
    for size in 1921x1079 33x17 3840x2160 1x1; do
      echo "== verify $backend $size: SAT exact, compute passes == fragment pass"
      for cfg in "--variant naive" "--variant work-efficient" "--variant conflict-free" \
                 "--variant optimized" "--variant warp-shuffle" "--variant single-pass" \
                 "--variant cub" "--method fused" "--method fused-two-pass" "--method fused --format f32" \
                 "--method fused-one-pass" "--method fused-one-pass --format f32"; do
        printf '%-32s ' "$cfg"
        $S --size $size --frames 2 --backend $backend --verify $cfg 2>&1 | \
          grep -E "verify|DoF passes|scene shading|rror" | sed -E 's/ \((CUDA|GL compute) on [^)]*\)//' | tr '\n' ' '
        echo
      done
    done
  done
} 2>&1 | tee "$O/frame.log"
pack
