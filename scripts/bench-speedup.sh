#!/usr/bin/env bash
# The predicted-vs-measured speedup table of docs/benchmarks.md §6: the
# Inception block, every corpus model and generated
# wide blocks (opsched-gen chains), each through scripts/run-model.sh on 1, 2
# and 4 streams with a calibrated device profile.
#
#   scripts/bench-speedup.sh build DIR [PROFILE]   calibrate (unless PROFILE
#       is given), then build every configuration into DIR (slow; any load)
#   scripts/bench-speedup.sh run DIR [ROUNDS=2] [REPEATS_NOTE]
#       run what DIR holds (ROUNDS alternate runs of each program, the
#       calls each run makes were fixed at build time: 6, the first dropped;
#       2 for alexnet, vgg16 and inception_v3)
#       and print the table as markdown; measure on a quiet machine
# Environment: MODELS overrides the input list (paths), STREAMS the stream
# counts (default "1 2 4").
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${OPSCHED_BUILD_DIR:-$root/build}"
cmd="${1:-}" dir="${2:-}"
[ -n "$cmd" ] && [ -n "$dir" ] || { sed -n '2,15p' "$0" >&2; exit 2; }
streams_list="${STREAMS:-1 2 4}"
# The 224x224 and 299x299 models take seconds per call through these naive
# loops (vgg16 the longest): their programs make 2 calls per run (the first
# dropped) instead of 6.
SLOW_MODELS="alexnet vgg16 inception_v3"
calls_for() { # $1 = model path
  case " $SLOW_MODELS " in *" $(basename "$1" .mlir) "*) echo 2 ;; *) echo 6 ;; esac
}
gen="python3 $root/tools/opsched-gen/opsched-gen.py"

inputs() {
  if [ -n "${MODELS:-}" ]; then echo "$MODELS"; return; fi
  echo "$root/examples/models/inception_block.mlir"
  for m in squeezenet1_1 resnet18 mobilenet_v2 googlenet resnet50 $SLOW_MODELS; do
    [ -f "$root/../shared/corpus/models/$m.mlir" ] && echo "$root/../shared/corpus/models/$m.mlir"
  done
  echo "$dir/gen/chains-2x2-256.mlir $dir/gen/chains-3x2-256.mlir"
  echo "$dir/gen/chains-4x3-256.mlir $dir/gen/chains-6x4-192-s7.mlir"
}

case "$cmd" in
build)
  mkdir -p "$dir/gen"
  # Wide blocks: K chains of L matmul+relu steps (NxN), joined by adds.
  $gen chains 2 2 256 0 >"$dir/gen/chains-2x2-256.mlir"
  $gen chains 3 2 256 0 >"$dir/gen/chains-3x2-256.mlir"
  $gen chains 4 3 256 0 >"$dir/gen/chains-4x3-256.mlir"
  $gen chains 6 4 192 7 >"$dir/gen/chains-6x4-192-s7.mlir"   # unequal lengths
  if [ -n "${3:-}" ]; then cp "$3" "$dir/device.profile"
  else "$build/bin/opsched-bench" calibrate -o "$dir/device.profile"; fi
  build_one() { # $1 = model, $2 = streams
    local name; name="$(basename "$1" .mlir)-s$2"
    echo "bench-speedup: build $name" >&2
    "$root/scripts/run-model.sh" "$1" --streams "$2" --device "$dir/device.profile" \
      --repeats "$(calls_for "$1")" --out "$dir/$name" --build-only 2>"$dir/$name.build.log" ||
      echo "bench-speedup: $name failed to build (see $dir/$name.build.log)" >&2
  }
  # Two builds at a time (the machine's two cores).
  for m in $(inputs); do
    for s in $streams_list; do
      build_one "$m" "$s" &
      while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n || true; done
    done
  done
  wait
  ;;
run)
  rounds="${3:-2}"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  echo "| input | streams | predicted speedup | measured speedup | error | bit-identical | predicted time | measured time | measured / 1-stream plan | peak heap seq / arena program | arena (B) |"
  echo "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|"
  for m in $(inputs); do
    one=""   # the 1-stream plan's measured time, for the speedup of the streams alone
    for s in $streams_list; do
      name="$(basename "$m" .mlir)-s$s"
      [ -x "$dir/$name/sched" ] || { echo "| $name | $s | not built |"; continue; }
      r="$("$root/scripts/run-model.sh" "$m" --streams "$s" --device "$dir/device.profile" \
           --out "$dir/$name" --run-only --rounds "$rounds" 2>/dev/null || true)"
      echo "$r" >"$dir/$name.report"
      row="$(python3 - "$r" "$(basename "$m" .mlir)" "$s" "$one" <<'PY'
import re, sys
r, name, s, one = sys.argv[1:]
def g(p, cast=float):
    m = re.search(p, r)
    return cast(m.group(1)) if m else None
pred = g(r"predicted speedup ([0-9.]+)")
meas = g(r"measured speedup:\s+([0-9.]+)")
same = g(r"bit-identical:\s+(\w+)", str)
mk = g(r"predicted makespan:\s+(\d+) ns")
ts = g(r"scheduled ([0-9.]+) s, sequential")
n = g(r"\(median of (\d+)\)", int)
heap = g(r"ratio seq/sched ([0-9.]+)")
arena = g(r"predicted arena_size:\s+(\d+)", int)
pred = pred if pred is not None else 1.0
err = "%+.0f%%" % (100 * (pred - meas) / meas) if meas else "?"
vs1 = "%.3f" % (float(one) / ts) if one and ts else "-"
print("| %s | %s | %.3f | %s | %s | %s | %s | %s | %s | %s | %s |" % (
    name, s, pred, "%.3f (%d)" % (meas, n) if meas else "?", err, same or "?",
    "%.4f s" % (mk / 1e9) if mk else "?", "%.4f s" % ts if ts else "?", vs1,
    "%.2f" % heap if heap else "?", arena if arena is not None else "?"))
PY
)"
      echo "$row"
      if [ "$s" = 1 ]; then one="$(echo "$row" | awk -F'|' '{gsub(/[ s]/, "", $9); print $9}')"; fi
    done
  done
  echo
  echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
  ;;
*) sed -n '2,15p' "$0" >&2; exit 2 ;;
esac
