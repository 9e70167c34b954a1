#!/usr/bin/env bash
# The HDR pipeline's figures for results/dof/ and results/frame/, on the GPU machine from a folder
# made by pack.sh (PACK_BINS="app/scandof bench/satbench bench/glsatbench"; copy this file next to
# it):
#   bash .gpu-final/hdr.sh [sat] [frame] [verify] [highlights] [ldr] [hdr-views] [blades] [bokeh]
#   (default: all but blades and bokeh)
# -> $OUT/hdr/: sat/ (satbench RGBA8 and RGBA16F at 1080p, uint32 fused and the rest),
#    glsat/ (glsatbench likewise), frame_{cuda,gl}_{hdr,ldr}.json (300 frames at 1080p),
#    highlights.json + highlights_sheet.png (every method against a 256-sample HDR reference),
#    ldr_{default,near-blur,focus8}.json (the LDR table of results/dof re-measured in this run),
#    hdr_near-blur.json, hdr.log; blades: results/dof/blades' runs (the default, hybrid/octagon
#    and 6 blades at the four HDR views, 5 blades turned 10 degrees, the 6-blade highlights
#    screenshot and its reference, dofbench's rows; PACK_BINS adds bench/dofbench).
# The --all-methods runs use the paper's shapes and the gather alone (DOF_RADIUS_OFFSET=0,
# DOF_BOKEH=0, as the committed tables); the demo's defaults are offset 0.5 and bokeh 1 (the
# bokeh step measures those).
# Then, here: copy $OUT/hdr/* to results/ and write the tables (scripts/dof_compare.py --no-run).
set -u
D=$(cd "$(dirname "$0")" && pwd); R=$D/rt/run; O=${OUT:-/tmp/out}/hdr; mkdir -p "$O"
for g in "$D"/*.gz; do [[ -f $g ]] && { gunzip -f "$g"; chmod +x "${g%.gz}"; }; done
S="$R $D/scandof --resources $D --headless --size 1920x1080"
A="--all-methods --dof-radius-offset ${DOF_RADIUS_OFFSET:-0} --dof-bokeh ${DOF_BOKEH:-0}"
steps=${*:-sat frame verify highlights ldr hdr-views}
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  for step in $steps; do
    echo "== $step"
    case $step in
    sat)  # the CUDA and GL builds of the same frames in one run
      "$R" "$D/satbench" --sizes 1920x1080 --pixels rgba8,rgba16f --out "$O/sat" > "$O/satbench.log" 2>&1
      echo "satbench rc=$?"
      shaders=$D/glsat/shaders; [[ -d $shaders ]] || shaders=$D/shaders
      "$R" "$D/glsatbench" --shaders "$shaders" --sizes 1920x1080 --formats u32 \
        --pixels rgba8,rgba16f --out "$O/glsat" > "$O/glsatbench.log" 2>&1
      echo "glsatbench rc=$?"
      grep -E "fused" "$O/satbench.log" | grep -E "u32"; grep -E "fused|floor" "$O/glsatbench.log" ;;
    frame)  # GPU frame (scene .. tone-mapped display), medians over 300 frames
      for b in cuda gl; do
        for p in hdr ldr; do
          $S --frames 300 --backend $b --pipeline $p --method fused --report "$O/frame_${b}_$p.json" \
            2>&1 | grep -E "frame_gpu|rror"
        done
      done ;;
    verify)
      for b in cuda gl; do
        for m in paper fused fused-one-pass; do
          $S --frames 2 --backend $b --method $m --verify 2>&1 | grep -E "verify|DoF passes|rror"
        done
      done ;;
    highlights)
      $S --frames 30 --view-preset highlights $A --reference 256 \
        --report "$O/highlights.json" --method-sheet "$O/highlights_sheet.png" 2>&1 | \
        grep -E "quality|lens reference|rror|not on the GPU" ;;
    ldr)  # the LDR table of results/dof, re-measured beside the HDR one
      for view in default near-blur focus8; do
        $S --ldr --frames 30 --view-preset $view $A --reference 256 \
          --report "$O/ldr_$view.json" 2>&1 | grep -E "quality|rror|not on the GPU"
      done ;;
    hdr-views)
      $S --frames 30 --view-preset near-blur $A --reference 256 \
        --report "$O/hdr_near-blur.json" --method-sheet "$O/hdr_near-blur_sheet.png" 2>&1 | \
        grep -E "quality|rror|not on the GPU" ;;
    bokeh)  # results/dof/bokeh: every method with and without the bokeh split (gather rows), the
            # demo's radius offset, four HDR views; a threshold sweep; the CUDA frame with it
      for view in near-blur highlights default focus8; do
        for t in 0 1; do
          $S --frames 30 --view-preset $view --all-methods --dof-radius-offset 0.5 --dof-bokeh $t \
            --reference 256 --report "$O/bokeh${t}_$view.json" \
            $([[ $t == 1 && ( $view == near-blur || $view == highlights ) ]] && \
              echo --method-sheet "$O/bokeh_${view}_sheet.png") 2>&1 | grep -E "quality|rror"
        done
      done
      for view in near-blur highlights; do
        for t in 0.5 2 4; do
          $S --frames 30 --view-preset $view --dof-bokeh $t --quality --reference 256 \
            --report "$O/bokeh_t${t}_$view.json" 2>&1 | grep -E "quality|rror"
        done
      done
      for t in 0 1; do
        $S --frames 300 --backend cuda --method fused --dof-bokeh $t \
          --report "$O/bokeh_frame_cuda_t$t.json" 2>&1 | grep -E "frame_gpu|rror"
      done ;;
    blades)  # results/dof/blades: the default DoF and aperture blades, one run each
      [[ -x $D/dofbench ]] && $R "$D/dofbench" --sizes 1920x1080 --json "$O/dofbench_blades.json" \
        2>&1 | grep -E "octagon|blades"
      $S --frames 30 --view-preset highlights --dof-blades 6 --shape disc --quality --reference 256 \
        --report "$O/q_highlights_gather_6blades.json" --out "$O/highlights_6blades.png" \
        --out-reference "$O/highlights_6blades_reference.png" 2>&1 | grep -E "quality|rror"
      for view in near-blur highlights default focus8; do
        for m in "default:" "hybrid:--dof hybrid" "gather_6blades:--dof-blades 6 --shape disc" \
                 "hybrid_6blades:--dof hybrid --dof-blades 6 --shape disc" \
                 "gather_5blades:--dof-blades 5 --dof-blade-rotation 10 --shape disc"; do
          $S --frames 30 --view-preset $view ${m#*:} --quality --reference 256 \
            --report "$O/q_${view}_${m%%:*}.json" 2>&1 | grep -E "quality|rror"
        done
      done ;;
    esac
  done
} 2>&1 | tee "$O/hdr.log"
