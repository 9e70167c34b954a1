#!/usr/bin/env bash
# The two-layer depth of field (--dof layered --dof-layers 2) against the one-layer method and the
# oracle, on the GPU machine, from a folder made by scripts/gpu/pack.sh with
# PACK_BINS="app/scandof tests/test_dof_two_layer_cuda tests/test_dof_hdr tests/test_dof_cuda":
#   bash results/dof/two_layer/run.sh PACK_DIR
#   -> $OUT/two_layer.tar.gz (log, reports, sheets, UI screenshot) and $OUT/img_VIEW.tar (the
#      full-size images of near-blur and highlights: one and two layers, the reference, sharp)
# For each view (default, near-blur = focus 30, focus8, highlights; HDR, 1920x1080): layered/disc
# with one and with two depth layers, 30 measured frames each (medians), scored against the
# 256-sample lens reference; with two layers also --dof-oracle (the near field over the lens
# reference of the scene without it). Then the frame (120 frames, --no-animate) of layered/disc
# with one and two layers, and the GPU tests of the two-layer pass and of the other DoF passes.
set -u
D=$(cd "${1:?pack folder}" && pwd); R=$D/rt/run; O=${OUT:?the folder that comes back}/two_layer; mkdir -p "$O"
for g in "$D"/*.gz; do [[ -f $g ]] && { gunzip -f "$g"; chmod +x "${g%.gz}"; }; done
S="$R $D/scandof --resources $D --headless --size 1920x1080"
M="--dof layered --shape disc"
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  date -u
  for t in test_dof_two_layer_cuda test_dof_hdr test_dof_cuda; do
    [[ -x $D/$t ]] || continue
    echo "== $t"
    SCANDOF_REQUIRE_GPU=1 "$R" "$D/$t" 2>&1 | grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests ran|Failure|expected" | head -20
  done
  for view in default near-blur focus8 highlights; do
    for L in 1 2; do
      echo "== $view, $L layer(s)"
      extra=""; [[ $L == 2 ]] && extra="--dof-oracle"
      imgs=""; [[ $view == near-blur || $view == highlights ]] && imgs="--method-images $O/img_${view}_L$L"
      $S --frames 30 --view-preset "$view" $M --dof-layers $L --quality --reference 256 $extra \
        --report "$O/q_${view}_L$L.json" --method-sheet "$O/${view}_L${L}_sheet.png" $imgs 2>&1 | \
        grep -E "quality|lens reference|rror|not on the GPU|scandof\] work"
    done
  done
  for L in 1 2; do
    echo "== frame, layered/disc, $L layer(s)"
    $S --no-animate --frames 120 $M --dof-layers $L --report "$O/frame_L$L.json" 2>&1 | \
      grep -E "scandof\] work|rror"
  done
  echo "== frame, the default (gather/octagon), --dof-layers 2 has no effect there"
  $S --no-animate --frames 120 --dof-layers 2 --report "$O/frame_default.json" 2>&1 | \
    grep -E "scandof\] work|rror"
  echo "== UI screenshot with the second layer (frame budget)"
  $S --no-animate --frames 30 $M --dof-layers 2 --screenshot-ui "$O/ui_two_layer.png" 2>&1 | \
    grep -E "rror|written"
  date -u
} > "$O/two_layer.log" 2>&1
cd "$OUT" || exit 1
for v in near-blur highlights; do  # PNGs do not compress: one tar a view keeps each under 16 MiB
  mkdir -p "img_$v"
  cp "two_layer/img_${v}_L1/layered_disc.png" "img_$v/L1.png"
  cp "two_layer/img_${v}_L2/layered_disc.png" "img_$v/L2.png"
  cp "two_layer/img_${v}_L1/reference.png" "two_layer/img_${v}_L1/sharp.png" "img_$v/"
  tar cf "img_$v.tar" "img_$v" && rm -rf "img_$v"
done
rm -rf two_layer/img_*
tar czf two_layer.tar.gz two_layer && rm -rf two_layer
ls -la
