#!/usr/bin/env bash
# Scale benchmark (docs/benchmarks-scale.md): for every generator family of
# tools/opsched-gen/opsched-gen.py (dag, blocks, wide, nested) at 10k, 100k
# and 1M ops and each stream count, stock mlir-opt parse+print vs
# opsched-opt --op-schedule='streams=S $SCALE_OPTIONS', wall time and peak
# RSS from /usr/bin/time -v. Not part of the test command except --smoke
# (10k ops, one run each, checks that the pass succeeds and the output parses).
# Usage: scripts/scale.sh [--smoke] [SIZES...]   (default sizes 10000 100000 1000000)
# Env: OPSCHED_BUILD_DIR (default build/), SCALE_OPTIONS (more pass options,
# default none: the default options), SCALE_STREAMS (default "1 4 16"),
# SCALE_KINDS (default "dag blocks wide nested").
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${OPSCHED_BUILD_DIR:-$root/build}"
opt=/usr/lib/llvm-22/bin/mlir-opt
sched="$build/bin/opsched-opt"
extra="${SCALE_OPTIONS:-}"
options="streams=4 max-memory=64MiB"  # --smoke only
gen="$root/tools/opsched-gen/opsched-gen.py"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

measure() { # label cmd... -> prints "seconds kbytes"
  /usr/bin/time -v "$@" -o /dev/null 2>"$work/time" >/dev/null || { cat "$work/time"; exit 1; }
  local s m
  s=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,a,":"); t=0; for(i=1;i<=n;i++) t=t*60+a[i]; print t}' "$work/time")
  m=$(awk -F': ' '/Maximum resident/ {print $2}' "$work/time")
  echo "$s $m"
}

if [ "${1:-}" = "--smoke" ]; then
  python3 "$gen" dag 10000 > "$work/in.mlir"
  "$sched" --op-schedule="$options" "$work/in.mlir" -o "$work/out.mlir"
  "$opt" "$work/out.mlir" -o /dev/null
  echo "scale smoke: 10k ops scheduled"
  exit 0
fi
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(10000 100000 1000000)
# Columns: stock mlir-opt parse+print of the input; opsched-opt with the pass;
# their difference (the issue's "added" figures); the pass alone from
# --mlir-timing (opsched's own work, attribute creation included); and stock
# mlir-opt parse+print of opsched's *output*, i.e. what MLIR itself pays to
# carry the ~11 attributes per op (time and memory), so that the last column
# is the scheduler's own peak memory per op beyond holding its annotations.
printf '| input | streams | ops | mlir-opt parse+print s | MB | opsched-opt s | MB | added s | added / parse+print | extra bytes/op | pass s | pass / parse+print | mlir-opt on output s | MB | bytes/op over output |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n'
for kind in ${SCALE_KINDS:-dag blocks wide nested}; do
  for n in "${sizes[@]}"; do
   python3 "$gen" "$kind" "$n" > "$work/in.mlir"
   read -r bs bm < <(measure "$opt" "$work/in.mlir")
   for streams in ${SCALE_STREAMS:-1 4 16}; do
    options="streams=$streams $extra"
    read -r ss sm < <(measure "$sched" --op-schedule="$options" "$work/in.mlir")
    "$sched" --op-schedule="$options" "$work/in.mlir" -o "$work/out.mlir" --mlir-timing 2>"$work/timing"
    ps=$(awk '/OpSchedulePass/ {print $1; exit}' "$work/timing")
    read -r os om < <(measure "$opt" "$work/out.mlir")
    rm -f "$work/out.mlir"
    awk -v k="$kind" -v st="$streams" -v n="$n" -v bs="$bs" -v bm="$bm" -v ss="$ss" -v sm="$sm" -v ps="$ps" \
        -v os="$os" -v om="$om" 'BEGIN {
      printf "| %s | %d | %d | %.2f | %.0f | %.2f | %.0f | %.2f | %.2fx | %.0f | %.2f | %.2fx | %.2f | %.0f | %.0f |\n",
        k, st, n, bs, bm/1024, ss, sm/1024, ss-bs, (ss-bs)/bs, (sm-bm)*1024/n, ps, ps/bs,
        os, om/1024, (sm-om)*1024/n }'
   done
  done
done
