#!/bin/sh
# A scripted tour of the window under Xvfb, driven by xdotool as a person would: start, hide the
# panels (H), help (F1), the timing overlay alone, the Primitives window, a screenshot (P) and its
# toast, a drag, zoom and reset (R), then a resize to 900x560. Screenshots of the X screen go to
# OUTDIR (default results/demo). Not a CTest test (timing-dependent): run it by hand and look.
#   tests/ui_tour.sh [BINARY] [OUTDIR]
# Needs Xvfb, xdotool and ImageMagick's import. At the CPU fallback's ~1 fps every step waits 4 s.
set -eu
BIN=${1:-build/nocuda/app/scandof}
OUT=${2:-results/demo}
WAIT=${WAIT:-4}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
DISP=:${UI_TOUR_DISPLAY:-58}
Xvfb "$DISP" -screen 0 1280x720x24 >/dev/null 2>&1 &
XPID=$!
trap 'kill $APP $XPID 2>/dev/null || true' EXIT
sleep 1
export DISPLAY=$DISP
SHOTS=$(mktemp -d)
"$BIN" --size 1280x720 --no-vsync --no-animate --screenshot-dir "$SHOTS" &
APP=$!
sleep $((WAIT * 2))
WIN=$(xdotool search --name scandof | head -1)
xdotool windowfocus "$WIN"
xdotool mousemove 700 650
shot() { sleep "$WAIT"; import -window root "$OUT/$1"; echo "wrote $OUT/$1"; }
shot ui_default.png                 # start: sidebar + timing overlay, CPU fallback said once
xdotool key F1; shot ui_help.png    # help overlay
xdotool key Escape; xdotool key h; shot ui_overlay.png   # panels hidden: overlay + hint
xdotool key h
xdotool key p; sleep 2; shot ui_toast.png  # screenshot toast with the absolute path
xdotool mousemove 640 400 mousedown 1 mousemove 640 420 sleep 0.5 mousemove 640 520 sleep 0.5 \
  mouseup 1
xdotool mousemove 900 380 click 4 click 4; shot ui_drag_zoom.png
xdotool key r; sleep "$WAIT"
xdotool mousemove 30 560 click 1; sleep "$WAIT"  # the Primitives checkbox (greyed on CPU)
xdotool windowsize "$WIN" 900 560; sleep "$WAIT"
import -window root -crop 900x560+0+0 "$OUT/ui_900x560.png"; echo "wrote $OUT/ui_900x560.png"
ls "$SHOTS"
rm -rf "$SHOTS"
