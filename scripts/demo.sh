#!/usr/bin/env bash
# The README's first command: install what is missing, build, schedule the
# bundled example network in the seed's three modes, write a report and a
# trace for each, and print the summary numbers.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh" >/dev/null
out="$root/out/demo"
mkdir -p "$out"
model="$root/examples/models/inception_block.mlir"
plugin="$root/build/lib/libopsched.so"
opt="$root/build/bin/opsched-opt"

echo "== stock mlir-opt 22 with the plugin, the pass as a flag"
/usr/lib/llvm-22/bin/mlir-opt --load-pass-plugin="$plugin" --op-schedule \
  "$model" -o "$out/scheduled.mlir"
echo "   wrote $out/scheduled.mlir"

run() { # run NAME OPTIONS: one configuration, with its report and trace
  local name=$1 options=$2
  echo "== $name: --op-schedule='$options'"
  "$opt" --op-schedule="$options summary=- report=$out/$name.html trace=$out/$name.json" \
    "$model" -o "$out/$name.mlir"
  echo "   report $out/$name.html, trace $out/$name.json (open in ui.perfetto.dev)"
}
run 1-critical-path "device=h100"
run 2-memory-limit "device=h100 max-memory=1400KiB"
run 3-streams "device=h100 streams=4 max-memory=2MiB"

echo "== the seed's six-op demo (unit costs, capacity 2)"
"$opt" --op-schedule='cost-model=unit streams=2 table=-' \
  "$root/examples/models/seed_demo.mlir" -o /dev/null
