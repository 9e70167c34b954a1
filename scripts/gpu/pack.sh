#!/usr/bin/env bash
# Packs an sm_90 build for the lent GPU machine (see DEVELOPERS.md): gzipped binaries, the demo's
# resources and the runtime libraries the GPU machine lacks, into one git-ignored folder to carry.
#   scripts/gpu/pack.sh [BUILD_DIR] [OUT_DIR]     (defaults build/gpu, .gpu-final)
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$here/build/gpu}
out=${2:-$here/.gpu-final}
bundle=${BUNDLE_RUNTIME:-$here/../shared/device/bundle-runtime.sh}
rm -rf "$out"; mkdir -p "$out"
bins=()
# PACK_BINS (paths under the build folder) picks a subset: the whole set is over the 64 MiB a call
# can carry, so tests and benchmarks travel in separate packs.
all="tests/test_scan tests/test_scan_gold tests/test_scan_large tests/test_sat tests/test_sat_gold
     tests/test_compact tests/test_compact_large tests/test_sort tests/test_sort_large tests/test_npy
     tests/test_sat_interleaved tests/test_dof_cuda tests/test_dof_gold tests/test_image_metrics
     tests/test_gl_sat bench/dofbench bench/scanbench bench/satbench bench/compactbench bench/sortbench
     bench/tune_single_pass bench/glsatbench tools/scantool/scantool app/scandof"
for b in ${PACK_BINS:-$all}; do
  [[ -x $build/$b ]] && bins+=("$build/$b")
done
"$bundle" "$out/rt" "${bins[@]}"
# glvnd's EGL/GL front ends: bundle-runtime.sh leaves them to the target, which lacks them.
for lib in libEGL.so.1 libGLdispatch.so.0 libGL.so.1 libGLX.so.0 libOpenGL.so.0; do
  # awk reads to the end: an early exit would let ldconfig die of SIGPIPE, which pipefail and
  # set -e turned into a silent abort of the whole pack, now and then.
  p=$(ldconfig -p | awk -v l="$lib" '$1 == l && /x86-64/ && !found {print $NF; found = 1}')
  [[ -n $p ]] && cp -L "$p" "$out/rt/lib/$lib"
done
for b in "${bins[@]}"; do gzip -c "$b" > "$out/$(basename "$b").gz"; done
cp -r "$build/app/shaders" "$build/app/assets" "$build/app/glsat" "$out/" 2>/dev/null ||
  { cp -r "$here/shaders" "$here/assets" "$out/"; mkdir -p "$out/glsat"; cp -r "$here/glsat/shaders" "$out/glsat/"; }
cp "$here/scripts/gpu/validate.sh" "$here/scripts/gpu/frame.sh" "$here/scripts/gpu/dof.sh" "$out/"
du -sh "$out"
