#!/usr/bin/env bash
# Regenerates the screenshots of docs/report.md from real reports: the
# demo's three modes (and the default on 4 streams: the frontier) on
# examples/models/inception_block.mlir and a 1000-op
# generated model (tools/opsched-gen), each view alone in headless Chromium
# (no network, fresh profile). Needs a build (scripts/build.sh) and chromium.
# Usage: scripts/report-screenshots.sh [OUTDIR]   (default docs/img)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
img="${1:-$root/docs/img}"
opt="$root/build/bin/opsched-opt"
model="$root/examples/models/inception_block.mlir"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$img"

report() { # report NAME MODEL OPTIONS
  "$opt" --op-schedule="$3 report=$work/$1.html" "$2" -o /dev/null
}
report critical-path "$model" "device=h100"
report memory-limit "$model" "device=h100 max-memory=1400KiB"
report streams "$model" "device=h100 streams=4 max-memory=2MiB"
report frontier "$model" "device=h100 streams=4"
# dag 820 gives a block of 993 ops.
python3 "$root/tools/opsched-gen/opsched-gen.py" dag 820 > "$work/dag1000.mlir"
report dag1000 "$work/dag1000.mlir" "streams=4"

shot() { # shot REPORT VIEW_SELECTOR PNG WIDTH HEIGHT: one view of block 0 alone
  local page="$work/$1-$3.html"
  sed "s|</style>|header,nav,h2,.block>h3,.view{display:none}main{padding:0}\
.block{border:0;margin:0;padding:6px}$2{display:block;margin:0}</style>|" "$work/$1.html" >"$page"
  timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$work/profile-$3" --hide-scrollbars --virtual-time-budget=5000 \
    --window-size="$4,$5" --screenshot="$img/$3" "file://$page" >/dev/null 2>&1
  echo "$img/$3"
}
shot critical-path '#summary-view-0' report-summary.png 1000 420
shot critical-path '#graph-0' report-graph.png 1150 700
shot critical-path '#memory-0' report-memory.png 1150 940
shot memory-limit '#memory-0' report-memory-limit.png 1150 900
shot streams '#memory-0' report-memory-streams.png 1150 1060
shot streams '#gantt-0' report-gantt.png 1150 300
shot dag1000 '#graph-0' report-1000-graph.png 1150 260
shot dag1000 '#memory-0' report-1000-memory.png 1150 1080
shot dag1000 '#gantt-0' report-1000-gantt.png 1150 300
shot frontier '#frontier-0' report-frontier.png 1150 690
