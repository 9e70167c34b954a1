#!/usr/bin/env bash
# Installs what scandof needs that this Debian/Ubuntu machine lacks (apt-get; sudo when not root),
# and checks for the CUDA toolkit, which it does not install.
#   scripts/setup.sh            # build tools, libraries, and what the tests need (Xvfb, numpy,
#                               # matplotlib, glslang-tools: tests/tools.cmake stops the configure
#                               # without them)
#   SCANDOF_NO_CUDA=1 scripts/setup.sh   # accept a machine without nvcc (CPU-only build)
set -euo pipefail

pkgs=(cmake ninja-build g++ pkg-config ccache
      libglfw3-dev python3-glad libimgui-dev libstb-dev libegl-dev libgl-dev
      libgtest-dev libcli11-dev nlohmann-json3-dev libglm-dev
      python3-numpy python3-matplotlib
      xvfb xauth libgl1-mesa-dri libegl-mesa0
      glslang-tools)  # glslangValidator: the GL SAT shaders' subgroup variants compiled in CI
# glTF 2.0 scenes (--scene): tinygltf reads them (it pulls in its library and stb); the glTF
# corpus of the loader's tests and its fuzz test (valid and malformed files); FFmpeg's libraries
# for --record FILE.mp4.
pkgs+=(libtinygltf-dev assimp-testmodels libavcodec-dev libavformat-dev libswscale-dev)

missing=()
for p in "${pkgs[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "setup: not root and no sudo: install ${missing[*]} yourself" >&2; exit 1; }
    sudo=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -q
  "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  echo "setup: all packages present"
fi

nvcc=$(command -v nvcc || true)
[[ -z $nvcc && -x /usr/local/cuda/bin/nvcc ]] && nvcc=/usr/local/cuda/bin/nvcc
if [[ -z $nvcc ]]; then
  if [[ ${SCANDOF_NO_CUDA:-0} == 1 ]]; then
    echo "setup: no nvcc; building without CUDA (CPU references and the demo's CPU fallback only)"
  else
    cat >&2 <<'MSG'
setup: nvcc (the CUDA Toolkit) was not found on PATH or at /usr/local/cuda/bin.
  Install the CUDA Toolkit 12.x or 13.x from https://developer.nvidia.com/cuda-downloads
  (it is not in Debian's main archive), or build without CUDA: SCANDOF_NO_CUDA=1 scripts/setup.sh
MSG
    exit 1
  fi
else
  echo "setup: CUDA: $("$nvcc" --version | tail -n 1)"
fi
