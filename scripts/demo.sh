#!/usr/bin/env bash
# The README's first command: install, build, and schedule the bundled
# example network, printing a short summary.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh" >/dev/null
out="$root/out/demo"
mkdir -p "$out"
model="$root/examples/models/inception_block.mlir"
plugin="$root/build/lib/libopsched.so"

echo "== stock mlir-opt with the plugin: critical-path list scheduling"
/usr/lib/llvm-22/bin/mlir-opt --load-pass-plugin="$plugin" --op-schedule \
  "$model" -o "$out/scheduled.mlir"
"$root/build/bin/opsched-opt" --op-schedule='summary=-' "$model" -o /dev/null
echo "== opsched-opt, 4 streams on an h100 profile"
"$root/build/bin/opsched-opt" --op-schedule='device=h100 streams=4 summary=-' \
  "$model" -o "$out/scheduled-4-streams.mlir"
echo "== the seed's six-op demo (unit costs, capacity 2)"
"$root/build/bin/opsched-opt" --op-schedule='cost-model=unit streams=2 table=-' \
  "$root/examples/models/seed_demo.mlir" -o /dev/null
echo "scheduled modules: $out"
