#!/usr/bin/env bash
# The predicted-vs-measured speedup table of docs/benchmarks.md §6: the
# Inception block, every corpus model and generated
# wide blocks (opsched-gen chains), each through scripts/run-model.sh on 1, 2
# and 4 streams with a calibrated device profile.
#
#   scripts/bench-speedup.sh build DIR [PROFILE]   calibrate (unless PROFILE
#       is given), then build every configuration into DIR (slow; any load)
#   scripts/bench-speedup.sh run DIR [ROUNDS=3]
#       run what DIR holds and print the table as markdown. Per input, each
#       round runs the sequential program and every scheduled one (1, 2, 4
#       streams) once, in a rotated order; at least ROUNDS rounds, more
#       while an input takes under BENCH_BUDGET (8) seconds (at most
#       8 x ROUNDS). Each run makes the calls fixed at build time (6, the
#       first dropped; 2 for alexnet, vgg16, inception_v3). Per row: the
#       median over rounds of the round's speedup, its min-max over rounds,
#       and the min-based speedup (best call against best call); see
#       scripts/bench_speedup_stats.py. Measure on a quiet machine.
# Environment: MODELS overrides the input list (paths), STREAMS the stream
# counts (default "1 2 4"), BENCH_BUDGET the seconds per input, BENCH_RT=1
# runs the programs under `chrt -f 10` (SCHED_FIFO: other processes'
# threads no longer preempt them; needs CAP_SYS_NICE; a loaded machine's
# cache and memory traffic still reach them).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${OPSCHED_BUILD_DIR:-$root/build}"
cmd="${1:-}" dir="${2:-}"
[ -n "$cmd" ] && [ -n "$dir" ] || { sed -n '2,24p' "$0" >&2; exit 2; }
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
  rounds="${3:-3}"
  budget="${BENCH_BUDGET:-8}"
  mc="$build/lib/libopsched_malloc_count.so"
  [ -f "$mc" ] || { echo "bench-speedup: build first (scripts/build.sh)" >&2; exit 2; }
  prio=()
  [ "${BENCH_RT:-0}" = 1 ] && prio=(chrt -f 10)
  mkdir -p "$dir/bench"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)${prio[*]:+ (programs run under ${prio[*]})}"
  echo
  python3 "$root/scripts/bench_speedup_stats.py" header
  for m in $(inputs); do
    base="$(basename "$m" .mlir)"
    # The programs of one input: the sequential one (each configuration
    # builds the same; the first one found runs) and one scheduled program
    # per stream count. An executable identical to an earlier stream
    # count's (4 streams planned on 2 cores often is the 2-stream program)
    # runs once and is reported for both.
    labels=() exes=() aliases="" seqexe=""
    for s in $streams_list; do
      exe="$dir/$base-s$s/sched"
      [ -x "$exe" ] || continue
      [ -n "$seqexe" ] || { seqexe="$dir/$base-s$s/seq"; labels+=(seq); exes+=("$seqexe"); }
      same=""
      for i in "${!exes[@]}"; do
        [ "${labels[$i]}" != seq ] && cmp -s "${exes[$i]}" "$exe" && same="${labels[$i]#s}"
      done
      if [ -n "$same" ]; then aliases="$aliases $s=$same"
      else labels+=("s$s"); exes+=("$exe"); fi
    done
    [ -n "$seqexe" ] || { for s in $streams_list; do echo "| $base | $s | not built |"; done; continue; }
    # Rounds: each runs every program once, in an order rotated per round
    # (none always first or last); at least ROUNDS of them, more for cheap
    # programs (up to BENCH_BUDGET seconds per input, at most 8 x ROUNDS).
    n="${#exes[@]}" want="$rounds" r=0 ok=1
    while [ "$r" -lt "$want" ]; do
      r=$((r + 1)) t0="$(date +%s.%N)"
      for k in $(seq 0 $((n - 1))); do
        i=$(((k + r) % n))
        # A hung program (an async deadlock) fails the run instead of blocking it.
        LD_PRELOAD="$mc" timeout 600 "${prio[@]}" "${exes[$i]}" \
          >"$dir/bench/$base.${labels[$i]}.$r.out" || ok=0
      done
      if [ "$r" = 1 ]; then
        want="$(python3 -c "import math,sys; t=max(1e-3, float(sys.argv[2]) - float(sys.argv[1]))
print(max($rounds, min(8 * $rounds, math.ceil($budget / t))))" "$t0" "$(date +%s.%N)")"
      fi
      [ "$ok" = 1 ] || break
    done
    if [ "$ok" != 1 ]; then echo "| $base | - | a program failed (see $dir/bench/$base.*.$r.out) |"; continue; fi
    python3 "$root/scripts/bench_speedup_stats.py" "$dir" "$base" "$r" "$streams_list" "$aliases"
  done
  echo
  echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
  ;;
*) sed -n '2,24p' "$0" >&2; exit 2 ;;
esac
