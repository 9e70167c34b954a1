#!/usr/bin/env bash
# glTF scenes on the GPU machine, from a folder made by scripts/gpu/pack.sh plus models/ and
# scandof_make_glb: the 1,002,528-triangle grid's load (3 runs) and 1080p frame (120 frames, the
# teapots beside it), corpus models at 1080p with DoF (DoF and sharp frames).
#   bash .gpu-gltf/gltf.sh   -> $OUT/gltf.tgz (log, reports, sharp frames) + $OUT/*_dof.png
set -u
D=$(cd "$(dirname "$0")" && pwd); R=$D/rt/run; O=/tmp/gltf-out/gltf
rm -rf /tmp/gltf-out; mkdir -p "$O"
for g in "$D"/*.gz; do [[ -f $g ]] && { gunzip -f "$g"; chmod +x "${g%.gz}"; }; done
S="$R $D/scandof --resources $D --headless --no-animate --size 1920x1080"
M=$D/models
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  "$D/scandof_make_glb" 709 /tmp/grid1m.glb
  echo "== load of the 1M-triangle grid (3 runs; read = file + tinygltf + checks + flatten, upload = GL buffers, glFinish'd)"
  for i in 1 2 3; do $S --frames 1 --scene /tmp/grid1m.glb 2>&1 | grep -E "scene /tmp"; done
  echo "== frame, teapots (default scene), 1080p, 120 frames"
  $S --frames 120 --report "$O/frame_teapots.json" 2>&1 | grep -E "^\[scandof\] (work|scene)"
  echo "== frame, 1M-triangle grid, 1080p, 120 frames"
  $S --frames 120 --scene /tmp/grid1m.glb --report "$O/frame_grid1m.json" --out "$O/grid1m_dof.png" \
     --out-frame "$O/grid1m_sharp.png" 2>&1 | grep -E "^\[scandof\] (work|scene)"
  for c in "box|BoxTextured.glb|" "engine|2CylinderEngine.glb|--scene-camera 0" \
           "clearcoat|ClearCoat-glTF/ClearCoatTest.gltf|" "texture|textureTransform/TextureTransformTest.gltf|"; do
    IFS='|' read -r n f x <<< "$c"
    echo "== $n: $f $x, 1080p, 60 frames"
    $S --frames 60 --aperture 16 $x --scene "$M/$f" --report "$O/frame_$n.json" --out "$O/${n}_dof.png" \
       --out-frame "$O/${n}_sharp.png" 2>&1 | grep -E "^\[scandof\] (work|scene)|error"
  done
  echo "== lens reference through the loaded scene (64 samples, engine)"
  $S --frames 2 --aperture 16 --scene-camera 0 --scene "$M/2CylinderEngine.glb" --reference 64 --quality \
     --report "$O/engine_quality.json" 2>&1 | grep -E "lens reference|error"
  echo "== malformed: exit status and message"
  $S --frames 1 --scene "$M/IndexOutOfRange/IndexOutOfRange.gltf" > /tmp/bad.log 2>&1; echo "exit $?"; tail -1 /tmp/bad.log
} 2>&1 | tee "$O/gltf.log"
for n in grid1m box engine clearcoat texture; do [[ -f $O/${n}_dof.png ]] && mv "$O/${n}_dof.png" "${OUT:-/tmp}/"; done
(cd /tmp/gltf-out && tar czf "${OUT:-/tmp}/gltf.tgz" gltf)
