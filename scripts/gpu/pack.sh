#!/usr/bin/env bash
# Packs an sm_90 build for a remote GPU machine (see CONTRIBUTING.md): gzipped binaries, the demo's
# resources and the shared libraries a bare machine with the NVIDIA driver lacks (GLFW, X11 client
# libraries, glvnd's GL/EGL front ends) into one git-ignored folder to carry.
#   scripts/gpu/pack.sh [BUILD_DIR] [OUT_DIR]     (defaults build/gpu, .gpu-final)
# There, `OUT_DIR/rt/run PROGRAM ARGS...` runs a program with those libraries and the NVIDIA EGL
# vendor; `bash OUT_DIR/validate.sh` runs the tests, sanitizers, benchmarks and the headless demo.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$here/build/gpu}
out=${2:-$here/.gpu-final}
rm -rf "$out"; mkdir -p "$out"
bins=()
# PACK_BINS (paths under the build folder) picks a subset: the whole set is over the 64 MiB a call
# can carry, so tests and benchmarks travel in separate packs. PACK_BINS=tests is every GoogleTest
# executable the build made (tests/ and the demo's unit tests), the suite validate.sh runs whole.
tests=
[[ -d $build/tests ]] && tests=$(cd "$build" && find tests -maxdepth 1 -type f -perm -u+x \( -name 'test_*' -o -name 'scandof_app_tests' \
        -o -name 'demo_runtime_settings' \) | sort | tr '\n' ' ')
all="$tests bench/dofbench bench/scanbench bench/satbench bench/compactbench bench/sortbench
     bench/tune_single_pass bench/glsatbench tools/scantool/scantool app/scandof"
[[ ${PACK_BINS:-} == tests ]] && PACK_BINS="$tests app/scandof tools/scantool/scantool"
for b in ${PACK_BINS:-$all}; do
  [[ -x $build/$b ]] && bins+=("$build/$b")
done
# Every shared library the binaries link, but glibc, the C++ runtime (the target's is newer) and
# the driver's own GL/EGL/CUDA libraries; GLFW opens the X11 ones with dlopen, so ldd misses them.
mkdir -p "$out/rt/lib"
skip='^(linux-vdso|/lib64/ld-linux|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|libstdc\+\+|libgcc_s|libcuda\.so|libnvidia|libEGL|libGL|libGLX|libGLdispatch|libOpenGL)'
# awk reads to the end: an early exit would let ldconfig die of SIGPIPE, which pipefail and set -e
# turned into a silent abort of the whole pack, now and then.
lib_path() { ldconfig -p | awk -v l="$1" '$1 == l && /x86-64/ && !found {print $NF; found = 1}'; }
# copy_lib PATH NAME: once (cp -n's exit status differs between coreutils releases).
copy_lib() { [[ -e $out/rt/lib/$2 ]] || cp -L "$1" "$out/rt/lib/$2"; }
copy_deps() {  # a static binary makes ldd fail: it has nothing to copy
  { ldd "$1" 2>/dev/null || true; } | awk '/=>/ {print $1, $3}' | while read -r name path; do
    if [[ ! $name =~ $skip && -f $path ]]; then copy_lib "$path" "$name"; fi
  done
}
for b in "${bins[@]}"; do copy_deps "$b"; done
# Besides, glvnd's EGL/GL front ends: the skip list leaves the driver's GL to the target, but a bare
# machine with the NVIDIA driver may lack the vendor-neutral front ends themselves.
for lib in libX11-xcb.so.1 libXcursor.so.1 libXfixes.so.3 libXrender.so.1 libXi.so.6 libXext.so.6 \
           libXinerama.so.1 libXrandr.so.2 libXxf86vm.so.1 \
           libEGL.so.1 libGLdispatch.so.0 libGL.so.1 libGLX.so.0 libOpenGL.so.0; do
  p=$(lib_path "$lib")
  if [[ -n $p ]]; then copy_lib "$p" "$lib"; copy_deps "$p"; fi
done
cat > "$out/rt/run" <<'RUN'
#!/usr/bin/env bash
# Runs a program with the bundled libraries and the NVIDIA EGL vendor (headless OpenGL).
here=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
for f in /usr/share/glvnd/egl_vendor.d/10_nvidia.json /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json; do
  if [[ -f $f ]]; then export __EGL_VENDOR_LIBRARY_FILENAMES=${__EGL_VENDOR_LIBRARY_FILENAMES:-$f}; break; fi
done
# A machine whose driver installed no vendor file: name the driver's EGL library directly.
if [[ -z ${__EGL_VENDOR_LIBRARY_FILENAMES:-} ]]; then
  echo '{"file_format_version":"1.0.0","ICD":{"library_path":"libEGL_nvidia.so.0"}}' > /tmp/10_nvidia.json
  export __EGL_VENDOR_LIBRARY_FILENAMES=/tmp/10_nvidia.json
fi
exec "$@"
RUN
chmod +x "$out/rt/run"
for b in "${bins[@]}"; do gzip -c "$b" > "$out/$(basename "$b").gz"; done
cp -r "$build/app/shaders" "$build/app/assets" "$build/app/glsat" "$out/" 2>/dev/null ||
  { cp -r "$here/shaders" "$here/assets" "$out/"; mkdir -p "$out/glsat"; cp -r "$here/glsat/shaders" "$out/glsat/"; }
cp "$here/scripts/gpu/validate.sh" "$here/scripts/gpu/gpm.sh" "$here/scripts/gpu/gpm.c" "$here/scripts/gpu/launch.sh" "$out/"
du -sh "$out"
