#!/usr/bin/env bash
# Opens the HTML report in headless Chromium as a person would, with no
# network: dumps the DOM after the page's script ran and checks it
# (dom_check.py: no recorded errors, the three views and the summary of
# every block, numbers equal to the trace's), proves the error capture works
# on a copy with a deliberate script error, and saves a screenshot.
# Usage: browser_test.sh REPORT.html TRACE.json ARTIFACT_DIR
# Exit: 0 pass, 1 fail, 77 skipped (no chromium / python3; ctest
# SKIP_RETURN_CODE), never a silent pass. CHROMIUM=/path overrides the binary.
set -u
html=$(realpath "$1") trace=$2 outdir=$3
here=$(cd "$(dirname "$0")" && pwd)

chromium=${CHROMIUM:-}
if [ -z "$chromium" ]; then
  for c in /usr/bin/chromium /usr/bin/chromium-browser; do
    if [ -x "$c" ]; then chromium=$c; break; fi
  done
fi
if [ -z "$chromium" ] || [ ! -x "$chromium" ]; then
  echo "SKIPPED: chromium not installed (apt-get install chromium, or scripts/setup.sh)"
  exit 77
fi
if ! command -v python3 >/dev/null; then
  echo "SKIPPED: python3 not installed (needed to check the dumped DOM)"
  exit 77
fi
[ -f "$html" ] || { echo "FAIL: no report at $1"; exit 1; }
mkdir -p "$outdir"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
       --disable-background-networking --disable-component-update --disable-sync
       --disable-extensions --disable-dev-shm-usage --mute-audio
       --host-resolver-rules="MAP * ~NOTFOUND" --proxy-server=127.0.0.1:9
       --virtual-time-budget=10000)

run() { # run PROFILE_NAME ARGS... : one Chromium with a fresh profile
  local name=$1; shift
  timeout 180 "$chromium" "${flags[@]}" --user-data-dir="$work/profile-$name" "$@" \
    2>>"$work/chromium.log"
}

echo "== $($chromium --version 2>/dev/null)"
echo "== dumping the DOM of $html"
if ! run dom --dump-dom "file://$html" >"$work/dom.html" || [ ! -s "$work/dom.html" ]; then
  echo "FAIL: chromium could not dump the DOM"; tail -20 "$work/chromium.log"; exit 1
fi
cp "$work/dom.html" "$outdir/report.dom.html"
python3 "$here/dom_check.py" "$work/dom.html" "$trace" || { echo "FAIL: DOM checks"; exit 1; }

echo "== self-check: a deliberate script error must be reported"
sed 's|</body>|<script>console.error("deliberate console error");undefined_function_for_test();</script></body>|' \
  "$html" >"$work/broken.html"
run broken --dump-dom "file://$work/broken.html" >"$work/broken.dom.html"
if ! python3 "$here/dom_check.py" --expect-errors 2 "$work/broken.dom.html"; then
  echo "FAIL: the page did not record a deliberate error: the error check would pass silently"
  exit 1
fi

echo "== screenshot"
rm -f "$outdir/report.png"
run shot --hide-scrollbars --window-size=1400,2000 --screenshot="$outdir/report.png" \
  "file://$html" >/dev/null
if [ ! -s "$outdir/report.png" ] || [ "$(head -c 8 "$outdir/report.png" | od -An -tx1 | tr -d ' \n')" != 89504e470d0a1a0a ]; then
  echo "FAIL: no PNG screenshot at $outdir/report.png"; tail -20 "$work/chromium.log"; exit 1
fi
echo "screenshot: $outdir/report.png ($(stat -c %s "$outdir/report.png") bytes)"
echo "PASS"
