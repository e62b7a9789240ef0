#!/usr/bin/env bash
# Measures what op-materialize-streams buys on a wide block: W independent
# NxN matmuls annotated round-robin on S streams (the plan op-schedule makes
# for such a block), materialized into async.execute regions, against the
# same function run sequentially. Prints the median wall time of each and
# the speedup; outputs are compared bit for bit.
#   [DEVICE=cpu|PROFILE] scripts/bench-streams-wide.sh [W=4] [N=192] [S=2] [REPEATS=5]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${OPSCHED_BUILD_DIR:-$root/build}"
llvm=/usr/lib/llvm-22
W="${1:-4}" N="${2:-192}" S="${3:-2}" R="${4:-5}"
out="$(mktemp -d)"; trap 'rm -rf "$out"' EXIT
python3 - "$W" "$N" "$S" "$R" > "$out/wide.mlir" <<'PY'
import sys
W, N, S, R = map(int, sys.argv[1:])
t = "memref<%dx%dxf32>" % (N, N)
args = ", ".join("%%o%d: %s" % (i, t) for i in range(W))
print("func.func @wide(%%x: %s, %%y: %s, %s) {" % (t, t, args))
for i in range(W):
    print("  linalg.matmul {opsched.id = %d : i64, opsched.stream = %d : i64} ins(%%x, %%y : %s, %s) outs(%%o%d : %s)" % (i, i % S, t, t, i, t))
print("  return\n}")
print("func.func private @rtclock() -> f64\nfunc.func private @printF64(f64)\nfunc.func private @printNewline()\nfunc.func private @printMemrefI32(memref<*xi32>)")
print("func.func @main() -> i32 {\n  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %cr = arith.constant " + str(R) + " : index")
print("  %x = memref.alloc() : " + t + "\n  %y = memref.alloc() : " + t)
for i in range(W):
    print("  %%o%d = memref.alloc() : %s" % (i, t))
print("  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = [\"parallel\", \"parallel\"]} outs(%x, %y : " + t + ", " + t + ") {")
print("  ^bb0(%a: f32, %b: f32):\n    %i = linalg.index 0 : index\n    %j = linalg.index 1 : index\n    %s = arith.addi %i, %j : index\n    %k = arith.index_cast %s : index to i32\n    %f = arith.sitofp %k : i32 to f32\n    %c = arith.constant 0.001 : f32\n    %v = arith.mulf %f, %c : f32\n    %w = arith.subf %c, %v : f32\n    linalg.yield %v, %w : f32, f32\n  }")
print("  scf.for %it = %c0 to %cr step %c1 {\n    %t0 = func.call @rtclock() : () -> f64")
print("    func.call @wide(%%x, %%y, %s) : (%s) -> ()" % (", ".join("%%o%d" % i for i in range(W)), ", ".join([t] * (W + 2))))
print("    %t1 = func.call @rtclock() : () -> f64\n    %d = arith.subf %t1, %t0 : f64\n    func.call @printF64(%d) : (f64) -> ()\n    func.call @printNewline() : () -> ()\n  }")
for i in range(W):
    bt = t.replace("f32", "i32")
    print("  %%b%d = memref.alloc() : %s" % (i, bt))
    print("  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = [\"parallel\", \"parallel\"]} ins(%%o%d : %s) outs(%%b%d : %s) {\n  ^bb0(%%p: f32, %%q: i32):\n    %%z = arith.bitcast %%p : f32 to i32\n    linalg.yield %%z : i32\n  }" % (i, t, i, bt))
    print("  %%u%d = memref.cast %%b%d : %s to memref<*xi32>\n  func.call @printMemrefI32(%%u%d) : (memref<*xi32>) -> ()" % (i, i, bt, i))
print("  %ok = arith.constant 0 : i32\n  return %ok : i32\n}")
PY
lower=(--async-to-async-runtime --async-runtime-ref-counting --async-runtime-ref-counting-opt
       --convert-linalg-to-loops --lower-affine --convert-scf-to-cf --expand-strided-metadata
       --convert-async-to-llvm --finalize-memref-to-llvm --convert-math-to-llvm
       --convert-arith-to-llvm --convert-index-to-llvm --convert-func-to-llvm
       --convert-cf-to-llvm --reconcile-unrealized-casts)
native() {
  mlir-opt-22 "${lower[@]}" "$1" -o "$2.ll.mlir"
  "$llvm/bin/mlir-translate" --mlir-to-llvmir "$2.ll.mlir" -o "$2.ll"
  "$llvm/bin/opt" -O2 "$2.ll" -o "$2.bc"
  "$llvm/bin/llc" -O2 -relocation-model=pic "$2.bc" -o "$2.s"
  cc "$2.s" -o "$2" -L"$llvm/lib" -lmlir_async_runtime -lmlir_c_runner_utils -lmlir_runner_utils -Wl,-rpath,"$llvm/lib"
}
"$build/bin/opsched-opt" --op-materialize-streams "$out/wide.mlir" -o "$out/wide.async.mlir"
# The prediction: the same block on tensors (SSA dependencies only),
# scheduled by op-schedule on S streams with DEVICE (a name or a profile
# from opsched-bench calibrate).
python3 - "$W" "$N" > "$out/wide.tensor.mlir" <<'PY'
import sys
W, N = map(int, sys.argv[1:])
t = "tensor<%dx%dxf32>" % (N, N)
print("func.func @wide(%%x: %s, %%y: %s) -> (%s) {" % (t, t, ", ".join([t] * W)))
print("  %%e = tensor.empty() : %s" % t)
for i in range(W):
    print("  %%m%d = linalg.matmul ins(%%x, %%y : %s, %s) outs(%%e : %s) -> %s" % (i, t, t, t, t))
print("  return %s : %s\n}" % (", ".join("%%m%d" % i for i in range(W)), ", ".join([t] * W)))
PY
predicted="$("$build/bin/opsched-opt" --op-schedule="streams=$S device=${DEVICE:-cpu}" "$out/wide.tensor.mlir" |
  grep -o 'opsched.speedup = [0-9.e+-]*' | head -1 | sed 's/.*= //')"
native "$out/wide.mlir" "$out/seq"
native "$out/wide.async.mlir" "$out/par"
"$out/seq" > "$out/seq.out"
"$out/par" > "$out/par.out"
python3 - "$out/seq.out" "$out/par.out" "$W" "$N" "$S" "$predicted" <<'PY'
import re, statistics, sys
def load(p):
    t, bits = [], []
    for l in open(p):
        if re.match(r"^\d+\.\d+(e[-+]?\d+)?$", l.strip()): t.append(float(l))
        elif "base@" not in l: bits.append(l)
    return t, bits
(ts, bs), (tp, bp) = load(sys.argv[1]), load(sys.argv[2])
ms, mp = statistics.median(ts[1:] or ts), statistics.median(tp[1:] or tp)
W, N, S = sys.argv[3:6]
print("wide block: %s matmuls %sx%s on %s streams" % (W, N, N, S))
print("bit-identical: %s" % ("yes" if bs == bp and bs else "NO"))
print("sequential %.4f s, streams %.4f s, measured speedup %.2f, predicted (op-schedule on tensors) %.2f" % (ms, mp, ms / mp, float(sys.argv[6])))
sys.exit(0 if bs == bp and bs else 1)
PY
