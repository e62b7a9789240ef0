#!/bin/bash
# Runs PROGRAM (an MLIR module with a `main` that prints) natively,
# unoptimised, before and after op-schedule under each option set, and
# requires the same stdout and exit status each time. The native -O0 build
# matters: the JIT's optimiser may sink or delete a trapping division and
# hide a reordering bug (/work/shared/notes/execution.md).
#   run_pair.sh OPSCHED_OPT LLVM_BIN WORKDIR PROGRAM OPTIONS...
# Prints "reference: exit N, L lines", then per option set "ok <options>"
# or "MISMATCH <options>" with the difference; exits 1 on a mismatch or a
# failing tool.
set -u
opt_bin=$1 llvm_bin=$2 work=$3 prog=$4
shift 4
lib=$(dirname "$llvm_bin")/lib
mkdir -p "$work"

# lower IN.mlir to an executable OUT
build() {
  "$llvm_bin/mlir-opt" "$1" --convert-elementwise-to-linalg \
    --one-shot-bufferize=bufferize-function-boundaries \
    --convert-linalg-to-loops --convert-scf-to-cf --expand-strided-metadata --lower-affine \
    --finalize-memref-to-llvm --convert-vector-to-llvm --convert-math-to-llvm \
    --convert-arith-to-llvm --convert-index-to-llvm --convert-func-to-llvm \
    --convert-cf-to-llvm --reconcile-unrealized-casts -o "$2.ll.mlir" &&
    "$llvm_bin/mlir-translate" --mlir-to-llvmir "$2.ll.mlir" -o "$2.ll" &&
    "$llvm_bin/llc" -O0 -relocation-model=pic "$2.ll" -o "$2.s" &&
    cc "$2.s" -o "$2" -L"$lib" -lmlir_c_runner_utils -lmlir_runner_utils -Wl,-rpath,"$lib"
}

# runs OUT; stdout (addresses masked) to OUT.stdout, status to OUT.status
execute() {
  # Unbuffered, so what a program prints before it traps or aborts counts;
  # the outer braces keep the shell's own "Floating point exception" quiet.
  { (cd "$work" && exec stdbuf -o0 "$1" > "$1.raw" 2> "$1.stderr"); } 2> /dev/null
  echo $? > "$1.status"
  sed -E 's/0x[0-9a-f]+/ADDR/g' "$1.raw" > "$1.stdout"
}

ref=$work/reference
if ! build "$prog" "$ref"; then
  echo "FAILED: lowering $prog"
  exit 1
fi
execute "$ref"
echo "reference: exit $(cat "$ref.status"), $(wc -l < "$ref.stdout") lines"
status=0
i=0
for options in "$@"; do
  i=$((i + 1))
  out=$work/scheduled$i
  if ! "$opt_bin" --op-schedule="$options" "$prog" -o "$out.mlir" 2> "$out.diag" ||
     ! "$opt_bin" --op-schedule-verify "$out.mlir" -o /dev/null 2>> "$out.diag" ||
     ! build "$out.mlir" "$out"; then
    echo "FAILED: $options"
    cat "$out.diag"
    status=1
    continue
  fi
  execute "$out"
  if cmp -s "$ref.stdout" "$out.stdout" && cmp -s "$ref.status" "$out.status"; then
    echo "ok $options"
  else
    echo "MISMATCH $options: exit $(cat "$out.status") (reference $(cat "$ref.status"))"
    diff "$ref.stdout" "$out.stdout" | head -20
    status=1
  fi
done
exit $status
