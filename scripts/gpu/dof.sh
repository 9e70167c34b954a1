#!/usr/bin/env bash
# Depth of field against the lens reference for results/dof/, on the GPU machine from a
# folder made by pack.sh (copy this file next to it):
#   bash .gpu-final/dof.sh        -> $OUT/dof/{default,near-blur,focus8}.json and _sheet.png,
#                                    msaa4_near-blur.json, dof.log (8 files: what comes back)
# Then, here: copy $OUT/dof/* to results/dof/ and make the figures and tables:
#   /usr/bin/python3 scripts/dof_compare.py --no-run --out results/dof
# (the sheets hold every image at 480x270: sharp, reference, each method beside its error map).
# Each view: every method x shape (--all-methods), 30 measured frames each (medians), scored against
# a 256-sample lens reference at 1920x1080 (rendered once per view: a still scene). Then the
# reference's own time at 1080p (5 renders, each logged), MSAA 4x, and --verify.
set -u
D=$(cd "$(dirname "$0")" && pwd); R=$D/rt/run; O=${OUT:-/tmp/out}/dof; mkdir -p "$O"
for g in "$D"/*.gz; do [[ -f $g ]] && { gunzip -f "$g"; chmod +x "${g%.gz}"; }; done
# The committed tables are the paper's shapes (offset 0) and the gather alone; the demo's
# defaults are offset 0.5 (DOF_RADIUS_OFFSET=0.5 for results/dof/engine's "area_" tables) and
# the bokeh from highlights (DOF_BOKEH=1; results/dof/bokeh).
S="$R $D/scandof --resources $D --headless --dof-radius-offset ${DOF_RADIUS_OFFSET:-0} --dof-bokeh ${DOF_BOKEH:-0}"
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  for view in ${VIEWS:-default near-blur focus8}; do  # VIEWS="near-blur" for one call per view
    echo "== $view"
    $S --size 1920x1080 --frames 30 --view-preset $view --all-methods --reference 256 \
      --report "$O/$view.json" --method-sheet "$O/${view}_sheet.png" 2>&1 | \
      grep -E "quality|lens reference|rror|not on the GPU"
  done
  echo "== reference time, 1920x1080, 256 samples (each line one render + read back)"
  for i in 1 2 3 4 5; do
    $S --size 1920x1080 --frames 1 --view-preset near-blur --reference 256 2>&1 | grep "lens reference"
  done
  echo "== MSAA 4x, near-blur, spread/disc"
  $S --size 1920x1080 --frames 30 --view-preset near-blur --msaa 4 --dof spread --shape disc \
    --reference 256 --report "$O/msaa4_near-blur.json" 2>&1 | grep -E "quality|rror"
  echo "== verify (SAT exact, compute == fragment gather/box)"
  $S --size 1920x1080 --frames 2 --verify --dof layered 2>&1 | grep -E "verify|DoF passes|rror"
} 2>&1 | tee "$O/dof.log"
