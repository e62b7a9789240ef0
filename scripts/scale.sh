#!/usr/bin/env bash
# Scale benchmark (docs/benchmarks-scale.md): for every generator family
# (tools/opsched-gen/opsched-gen.py dag, blocks, wide, nested; and `random` =
# opsched-bench random-mlir --functions 1 --ops N) at each size and stream
# count, stock mlir-opt parse+print vs opsched-opt --op-schedule='streams=S
# $SCALE_OPTIONS': wall time and peak RSS (/usr/bin/time -v), the pass alone
# (--mlir-timing, same run), and stock mlir-opt parse+print of opsched's output
# (what MLIR pays to hold the attributes). Ends with the growth exponent of
# the pass time from the smallest to the largest size. Not part of the test
# command except --smoke (10k ops, one run, checks the output parses).
# Usage: scripts/scale.sh [--smoke] [SIZES...]   (default sizes 10000 100000 1000000)
# Env: OPSCHED_BUILD_DIR (default build/), SCALE_OPTIONS (more pass options,
# default none: the default options), SCALE_STREAMS (default "1 4 16"),
# SCALE_KINDS (default "dag blocks wide nested random"), SCALE_RAW (a file
# that keeps the raw rows, appended), SCALE_OUTPUT=0 (skip the parse+print of
# the output: half the time at 1M; its columns are then 0), SCALE_REPEAT
# (samples per row, default 1: each is a raw row; --summary takes medians).
# scripts/scale.sh --table RAW... prints the tables again from raw rows;
# scripts/scale.sh --summary RAW... the one-row-per-configuration table.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${OPSCHED_BUILD_DIR:-$root/build}"
opt=/usr/lib/llvm-22/bin/mlir-opt
sched="$build/bin/opsched-opt"
extra="${SCALE_OPTIONS:-}"
gen="$root/tools/opsched-gen/opsched-gen.py"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
raw="${SCALE_RAW:-$work/raw}"

measure() { # cmd... -> prints "seconds kbytes cpu-seconds"; stderr kept in $work/err
  /usr/bin/time -v -o "$work/time" "$@" 2>"$work/err" >/dev/null || { cat "$work/err" >&2; exit 1; }
  local s m c
  s=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,a,":"); t=0; for(i=1;i<=n;i++) t=t*60+a[i]; print t}' "$work/time")
  m=$(awk -F': ' '/Maximum resident/ {print $2}' "$work/time")
  c=$(awk -F': ' '/(User|System) time/ {t += $2} END {print t}' "$work/time")
  echo "$s $m $c"
}

# Raw rows: kind streams size ops pp_s pp_kb sched_s sched_kb pass_s out_s out_kb pp_cpu sched_cpu
# [own_s] (own_s: the pass's phase timers without MLIR's verifier; older rows lack it)
table() {
  # The machine may be shared: wall times then stretch with the load, CPU
  # times (user + system) much less. "pass cpu s" scales the pass's wall
  # time (--mlir-timing) by the process's CPU / wall ratio.
  printf '| input | streams | size | ops | parse+print s | cpu s | MB | opsched-opt s | cpu s | MB | pass s | pass cpu s | pass cpu / parse+print cpu | own cpu s | own / parse+print cpu | mlir-opt on output s | MB | bytes/op over output |\n'
  printf '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n'
  awk '{ pc = $13 > 0 ? $9 * $13 / $7 : 0; os = "-"; om = "-"; ob = "-"; oc = "-"; orat = "-"
         if ($11 > 0) { os = sprintf("%.2f", $10); om = sprintf("%.0f", $11 / 1024); ob = sprintf("%.0f", ($8 - $11) * 1024 / $4) }
         if (NF >= 14 && $13 > 0) { v = $14 * $13 / $7; oc = sprintf("%.2f", v); if ($12 > 0) orat = sprintf("%.2fx", v / $12) }
         printf "| %s | %d | %d | %d | %.2f | %.2f | %.0f | %.2f | %.2f | %.0f | %.2f | %.2f | %.2fx | %s | %s | %s | %s | %s |\n",
           $1, $2, $3, $4, $5, $12, $6 / 1024, $7, $13, $8 / 1024, $9, pc, ($12 > 0 ? pc / $12 : 0), oc, orat, os, om, ob }' "$@"
  # Growth of the pass's CPU time (and parse+print's) from the smallest to
  # the largest size of each family and stream count, as an exponent of the
  # op count (target <= 1.15).
  printf '\n| input | streams | ops | pass cpu s | growth exponent | parse+print cpu growth |\n|---|---|---|---|---|---|\n'
  awk '{ c = $1" "$2; p = $13 > 0 ? $9 * $13 / $7 : $9; b = $12 > 0 ? $12 : $5
         if (!(c in o0) || $4 < o0[c]) { o0[c] = $4; p0[c] = p; b0[c] = b }
         if (!(c in o1)) key[++k] = c; if (!(c in o1) || $4 > o1[c]) { o1[c] = $4; p1[c] = p; b1[c] = b } }
    END { for (i = 1; i <= k; i++) { c = key[i]; if (o1[c] == o0[c]) continue; split(c, f, " ")
      printf "| %s | %s | %d -> %d | %.2f -> %.2f | %.2f | %.2f |\n", f[1], f[2], o0[c], o1[c], p0[c], p1[c],
        log(p1[c] / p0[c]) / log(o1[c] / o0[c]), log(b1[c] / b0[c]) / log(o1[c] / o0[c]) } }' "$@"
}

generate() { # kind n -> $work/in.mlir
  if [ "$1" = random ]; then
    "$build/bin/opsched-bench" random-mlir --functions 1 --ops "$2" -o "$work/in.mlir"
  else
    python3 "$gen" "$1" "$2" > "$work/in.mlir"
  fi
}

# One row per family, size and stream count (docs/benchmarks-scale.md, "As
# of now"): CPU seconds of parse+print, of the pass's own phases and of the
# OpSchedulePass line (which also counts MLIR's verifier), each over
# parse+print; the growth exponent of the own time from the family's
# smallest size to this one; peak MB; and the pass run's peak RSS over
# stock mlir-opt parse+print of its output, per op ("-" when not measured).
summary() {
  printf '| input | ops | streams | samples | parse+print cpu s | own cpu s | own / parse+print | samples own / parse+print | pass line cpu s | pass line / parse+print | own growth from smallest | peak MB | bytes/op over output |\n'
  printf '|---|---|---|---|---|---|---|---|---|---|---|---|---|\n'
  # Each raw row is one sample; a configuration's figures are the medians of
  # its samples, column by column (the VM's speed moves between runs), and
  # the ratios are those of the medians. "samples own / parse+print" is the
  # lowest and highest ratio of a single sample (own and parse+print of the
  # same round): how far the machine's state moves a row's verdict.
  sort -k1,1 -k3,3n -k2,2n "$@" | awk '
    function median(list,   v, n, i, j, t) {
      n = split(list, v, " ")
      for (i = 2; i <= n; i++) { t = v[i] + 0; for (j = i - 1; j >= 1 && v[j] + 0 > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
      return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    NF >= 14 && $13 > 0 {
      c = $1" "$2" "$3
      if (!(c in n)) { key[++k] = c; ops[c] = $4 }
      n[c]++
      o1 = $14 * $13 / $7
      own[c] = own[c] " " o1; pass[c] = pass[c] " " $9 * $13 / $7; pp[c] = pp[c] " " $12
      if ($12 > 0) {
        r = o1 / $12
        if (!(c in rlo) || r < rlo[c]) rlo[c] = r
        if (!(c in rhi) || r > rhi[c]) rhi[c] = r
      }
      mb[c] = mb[c] " " $8 / 1024
      if ($11 > 0) over[c] = over[c] " " ($8 - $11) * 1024 / $4
    }
    END {
      for (i = 1; i <= k; i++) {
        c = key[i]; split(c, f, " "); fam = f[1]" "f[2]
        o = median(own[c]); p = median(pass[c]); b = median(pp[c])
        g = "-"
        if (!(fam in o0)) { o0[fam] = ops[c]; w0[fam] = o }
        else if (ops[c] > o0[fam] && o > 0 && w0[fam] > 0) g = sprintf("%.2f", log(o / w0[fam]) / log(ops[c] / o0[fam]))
        ob = (c in over) ? sprintf("%.0f", median(over[c])) : "-"
        rr = (c in rlo) ? sprintf("%.2f-%.2fx", rlo[c], rhi[c]) : "-"
        printf "| %s | %d | %d | %d | %.2f | %.2f | %.2fx | %s | %.2f | %.2fx | %s | %.0f | %s |\n",
          f[1], ops[c], f[2], n[c], b, o, o / b, rr, p, p / b, g, median(mb[c]), ob
      }
    }'
}

if [ "${1:-}" = "--table" ]; then
  shift
  table "$@"
  exit 0
fi
if [ "${1:-}" = "--summary" ]; then
  shift
  summary "$@"
  exit 0
fi
if [ "${1:-}" = "--smoke" ]; then
  python3 "$gen" dag 10000 > "$work/in.mlir"
  "$sched" --op-schedule="streams=4 max-memory=64MiB" "$work/in.mlir" -o "$work/out.mlir"
  "$opt" "$work/out.mlir" -o /dev/null
  echo "scale smoke: 10k ops scheduled"
  exit 0
fi
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(10000 100000 1000000)
for kind in ${SCALE_KINDS:-dag blocks wide nested random}; do
  for n in "${sizes[@]}"; do
   generate "$kind" "$n"
   # Ops: every line that starts with an op name (after an optional result).
   ops=$(grep -cE '^ *(%[^ ]+ = )?"?[a-z_]+\.[a-z_.]+' "$work/in.mlir" || true)
   for _ in $(seq "${SCALE_REPEAT:-1}"); do
   read -r bs bm bc < <(measure "$opt" "$work/in.mlir" -o /dev/null)
   for streams in ${SCALE_STREAMS:-1 4 16}; do
    # One run gives wall, peak and CPU (time -v) and the pass (--mlir-timing).
    read -r ss sm sc < <(measure "$sched" --op-schedule="streams=$streams $extra" "$work/in.mlir" \
                          -o "$work/out.mlir" --mlir-timing)
    ps=$(awk '/OpSchedulePass/ {print $1; exit}' "$work/err")
    # The pass's own work: its top-level phase timers. OpSchedulePass also
    # counts MLIR's verifier, which the pass manager runs on the module after
    # the pass and before the pass's timer stops (--verify-each, default on).
    po=$(awk '/\(A\) opsched: (plan|attributes|reports)$/ {t += $1} END {printf "%.4f", t}' "$work/err")
    os=0 om=0
    [ "${SCALE_OUTPUT:-1}" = 0 ] || read -r os om _ < <(measure "$opt" "$work/out.mlir" -o /dev/null)
    rm -f "$work/out.mlir"
    echo "$kind $streams $n $ops $bs $bm $ss $sm $ps $os $om $bc $sc $po" >> "$raw"
    echo "$kind $streams $n $ops $bs $bm $ss $sm $ps $os $om $bc $sc $po" >&2
   done
   done
  done
done
table "$raw"
