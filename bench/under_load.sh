#!/bin/bash
# Issue 11's acceptance: a fresh clone of this repository runs `python build.py test` three
# times in a row while two CPU-bound processes (`yes > /dev/null`) run beside it.
#   bench/under_load.sh [--remove-chromium] [OUT_DIR]
# --remove-chromium (as root, Debian): apt-get remove chromium first, so that the first run
# has to install it itself. Logs: OUT_DIR/run<N>.log and OUT_DIR/summary.log (default /tmp/under_load).
set -u
REMOVE=0
if [ "${1:-}" = "--remove-chromium" ]; then REMOVE=1; shift; fi
OUT=${1:-/tmp/under_load}
REPO=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$OUT"
SUMMARY="$OUT/summary.log"
echo "=== $(date -u +%T) start; commit $(git -C "$REPO" rev-parse --short HEAD)" >>"$SUMMARY"
if [ $REMOVE -eq 1 ]; then
  apt-get remove -y chromium >/dev/null 2>&1
  echo "chromium after remove: $(command -v chromium || echo absent)" >>"$SUMMARY"
fi
CLONE=$(mktemp -d)/pyrules
git clone -q "$REPO" "$CLONE" && cd "$CLONE" || exit 1
yes >/dev/null & Y1=$!
yes >/dev/null & Y2=$!
trap 'kill $Y1 $Y2 2>/dev/null' EXIT
for i in 1 2 3; do
  s=$(date +%s); python build.py test >"$OUT/run$i.log" 2>&1; rc=$?; e=$(date +%s)
  {
    echo "run $i: rc=$rc wall=$((e - s)) s; $(grep -E '(passed|failed)' "$OUT/run$i.log" | tail -1)"
    grep "time per part" "$OUT/run$i.log" | tail -1
  } >>"$SUMMARY"
done
echo "=== $(date -u +%T) end" >>"$SUMMARY"
