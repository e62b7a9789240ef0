#!/usr/bin/env bash
# Runs a model's schedule for real and compares it with the plain program.
#
#   scripts/run-model.sh MODEL.mlir [--streams N] [--max-memory SIZE] [--policy P]
#                        [--device D] [--cost-model M] [--repeats R] [--seed S]
#                        [--out DIR] [--keep]
#                        [--profile] [--trace] [--build-only | --run-only [--rounds K]]
#
# MODEL is linalg on tensors with one public function (static f32 shapes).
# Scheduled program (docs/materialize.md has the pipeline):
#   op-schedule on tensors -> one-shot-bufferize -> op-schedule on memrefs
#   (streams, slots) -> op-schedule-verify -> op-materialize-arena
#   -> op-materialize-streams
#   -> async runtime lowering -> native executable
# Sequential program: one-shot-bufferize -> buffer-deallocation-pipeline ->
#   the same lowering. Both get the same `main` (seeded random inputs and
#   weights: the model's splat constants become arguments), run natively with
#   tools/malloc-count, and the script prints predicted vs measured figures.
# --profile also times every op of the scheduled function on one thread
#   (arena only, IR order) and prints predicted vs measured time per op class.
# --trace also builds the scheduled program with tools/opsched-trace calls
#   around every op and runs it once: which thread ran which op, how long two
#   ops ran at once and how long threads idled (per-thread evidence that
#   host load does not blur the way wall times do).
# --build-only builds both programs into --out DIR and stops; --run-only runs
#   the programs built there (same options) without rebuilding: measure on a
#   quiet machine what was built earlier. --rounds K runs the two programs K
#   times alternately (each run makes R calls) and pools the timings.
# Exit status: 0 when the outputs are bit-identical, 1 when they differ,
# 2 on a usage or pipeline error.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${OPSCHED_BUILD_DIR:-$root/build}"
llvm=/usr/lib/llvm-22
streams=2 maxmem=0 policy=critical-path device=cpu cost=roofline repeats=5 seed=1 out="" keep=0 prof=0 phase=all rounds=1 tr=0
usage() { sed -n '2,30p' "$0" >&2; exit 2; }
model="${1:-}"; [ -n "$model" ] && [ -f "$model" ] || usage; shift
while [ $# -gt 0 ]; do
  case "$1" in
    --streams) streams="$2"; shift 2 ;;
    --max-memory) maxmem="$2"; shift 2 ;;
    --policy) policy="$2"; shift 2 ;;
    --device) device="$2"; shift 2 ;;
    --cost-model) cost="$2"; shift 2 ;;
    --repeats) repeats="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    --profile) prof=1; shift ;;
    --trace) tr=1; shift ;;
    --build-only) phase=build; shift ;;
    --run-only) phase=run; shift ;;
    --rounds) rounds="$2"; shift 2 ;;
    *) usage ;;
  esac
done
opt="$build/bin/opsched-opt"
mc="$build/lib/libopsched_malloc_count.so"
[ -x "$opt" ] && [ -f "$mc" ] || { echo "run-model: build first (scripts/build.sh)" >&2; exit 2; }
[ "$phase" = all ] || [ -n "$out" ] || { echo "run-model: --build-only/--run-only need --out DIR" >&2; exit 2; }
if [ -z "$out" ]; then out="$(mktemp -d)"; [ "$keep" = 1 ] || trap 'rm -rf "$out"' EXIT; fi
mkdir -p "$out"
py="python3 $root/scripts/run_model_harness.py"
sched="cost-model=$cost device=$device streams=$streams max-memory=$maxmem policy=$policy"
bufferize='--one-shot-bufferize=bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map'
lower=(--async-to-async-runtime --async-runtime-ref-counting --async-runtime-ref-counting-opt
       --convert-linalg-to-loops --lower-affine --convert-scf-to-cf --expand-strided-metadata
       --convert-async-to-llvm --finalize-memref-to-llvm --convert-math-to-llvm
       --convert-arith-to-llvm --convert-index-to-llvm --convert-func-to-llvm
       --convert-cf-to-llvm --reconcile-unrealized-casts)

step() { echo "run-model: $*" >&2; }
native() { # $1 = LLVM-dialect module, $2 = executable
  "$llvm/bin/mlir-translate" --mlir-to-llvmir "$1" -o "$2.ll"
  # opt runs the coroutine passes the async runtime lowering needs; -lm for
  # the math ops lowered to libm calls (math.tanh -> tanhf).
  "$llvm/bin/opt" -O2 "$2.ll" -o "$2.bc"
  "$llvm/bin/llc" -O2 -relocation-model=pic "$2.bc" -o "$2.s"
  cc "$2.s" -o "$2" "${@:3}" -L"$build/lib" -lopsched_malloc_count -L"$llvm/lib" \
    -lmlir_async_runtime -lmlir_c_runner_utils -lmlir_runner_utils -lm \
    -Wl,-rpath,"$build/lib" -Wl,-rpath,"$llvm/lib"
}

if [ "$phase" != run ]; then
step "prepare $(basename "$model"): splat weights become seeded random arguments"
$py prep "$model" "$out/model.mlir" "$out/args.json"
mlir-opt-22 --convert-elementwise-to-linalg "$out/model.mlir" -o "$out/model.linalg.mlir"

step "scheduled: op-schedule{$sched} on tensors, bufferize, op-schedule on memrefs, materialize"
"$opt" --op-schedule="$sched" "$out/model.linalg.mlir" -o "$out/sched.tensor.mlir"
mlir-opt-22 "$bufferize" "$out/sched.tensor.mlir" -o "$out/sched.buf.mlir"
# The independent checker proves the plan before it is materialized.
"$opt" --op-schedule="$sched" --op-schedule-verify "$out/sched.buf.mlir" -o "$out/sched.memref.mlir" ||
  { echo "run-model: op-schedule or op-schedule-verify failed" >&2; exit 2; }
mat=(--op-materialize-arena)
# A plan on several streams that does not pay (the device's handoff_ns)
# falls back to one stream: no op carries opsched.stream, nothing to run async.
[ "$streams" -gt 1 ] && grep -q 'opsched.stream = ' "$out/sched.memref.mlir" &&
  mat+=(--op-materialize-streams)
"$opt" "${mat[@]}" "$out/sched.memref.mlir" -o "$out/sched.mat.mlir" 2>"$out/sched.remarks"
$py main "$out/sched.mat.mlir" "$out/args.json" "$out/sched.main.mlir" "$seed" "$repeats"
mlir-opt-22 "${lower[@]}" "$out/sched.main.mlir" -o "$out/sched.ll.mlir"
native "$out/sched.ll.mlir" "$out/sched"

step "sequential: bufferize, buffer-deallocation-pipeline"
mlir-opt-22 "$bufferize" --buffer-deallocation-pipeline "$out/model.linalg.mlir" -o "$out/seq.buf.mlir"
$py main "$out/seq.buf.mlir" "$out/args.json" "$out/seq.main.mlir" "$seed" "$repeats"
mlir-opt-22 "${lower[@]}" "$out/seq.main.mlir" -o "$out/seq.ll.mlir"
native "$out/seq.ll.mlir" "$out/seq"

fi
build_trace() { # the scheduled program with opsched_trace calls around its ops
  cc -std=c11 -O2 -shared -fPIC "$root/tools/opsched-trace/opsched_trace.c" -o "$out/libopsched_trace.so"
  $py trace "$out/sched.mat.mlir" "$out/trace.mat.mlir"
  $py main "$out/trace.mat.mlir" "$out/args.json" "$out/trace.main.mlir" "$seed" "$repeats"
  mlir-opt-22 "${lower[@]}" "$out/trace.main.mlir" -o "$out/trace.ll.mlir"
  native "$out/trace.ll.mlir" "$out/trace" -L"$out" -lopsched_trace -Wl,-rpath,"$out"
}
if [ "$tr" = 1 ] && [ "$phase" != run ]; then step "trace: the scheduled program with opsched_trace calls"; build_trace; fi
[ "$phase" != build ] || exit 0
[ -x "$out/seq" ] && [ -x "$out/sched" ] || { echo "run-model: nothing built in $out" >&2; exit 2; }
step "run both (LD_PRELOAD malloc-count), $rounds round(s)"
seqs="" scheds=""
for r in $(seq 1 "$rounds"); do
  # A hung program (an async deadlock) fails the run instead of blocking it.
  LD_PRELOAD="$mc" timeout 600 "$out/seq" >"$out/seq.$r.out"
  LD_PRELOAD="$mc" timeout 600 "$out/sched" >"$out/sched.$r.out"
  seqs="$seqs${seqs:+,}$out/seq.$r.out" scheds="$scheds${scheds:+,}$out/sched.$r.out"
done
echo "model:                      $(basename "$model") (streams=$streams max-memory=$maxmem policy=$policy device=$device)"
status=0
$py report "$out/sched.memref.mlir" "$seqs" "$scheds" "$out/sched.mat.mlir" || status=$?
if [ "$tr" = 1 ]; then
  [ -x "$out/trace" ] || { step "trace: the scheduled program with opsched_trace calls"; build_trace; }
  step "trace: one run of the traced scheduled program"
  OPSCHED_TRACE="$out/trace.records" LD_PRELOAD="$mc" timeout 600 "$out/trace" >"$out/trace.out"
  $py trace-report "$out/trace.records"
fi
if [ "$prof" = 1 ] && [ "$phase" = all ]; then
  step "profile: every op of the scheduled function timed on one thread"
  "$opt" --op-materialize-arena "$out/sched.memref.mlir" -o "$out/prof.arena.mlir" 2>/dev/null
  $py profile "$out/prof.arena.mlir" "$out/prof.mlir"
  $py main "$out/prof.mlir" "$out/args.json" "$out/prof.main.mlir" "$seed" "$repeats"
  mlir-opt-22 "${lower[@]}" "$out/prof.main.mlir" -o "$out/prof.ll.mlir"
  native "$out/prof.ll.mlir" "$out/prof"
  "$out/prof" >"$out/prof.out"
  $py profile-report "$out/prof.arena.mlir" "$out/prof.out"
fi
exit "$status"
