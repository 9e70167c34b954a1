#!/usr/bin/env bash
# One command: install what is missing, build, launch the demo. Extra arguments go to `scandof`
# (e.g. scripts/demo.sh --headless --out frame.png).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/scripts/setup.sh"
"$here/scripts/configure.sh" "$here/build/release"
cmake --build "$here/build/release" --target scandof
exec "$here/build/release/app/scandof" "$@"
