// Running op-schedule on its own output changes nothing, and attributes of
// an earlier run (here stale and wrong: a stream that does not exist, waits
// on ids that do not exist, a critical mark on a non-critical op, a bogus
// function figure) are overwritten: the result equals that of a clean input.
// RUN: opsched-opt --op-schedule='streams=2' %s -o %t.once
// RUN: opsched-opt --op-schedule='streams=2' %t.once -o %t.twice
// RUN: diff %t.once %t.twice
// RUN: opsched-opt --op-schedule='streams=2' %S/Inputs/clean.mlir -o %t.clean
// RUN: diff %t.once %t.clean
// RUN: FileCheck %s < %t.once
// The ranks are recomputed, not read back:
// CHECK: func.func @stale
// CHECK-NOT: opsched.stream = 7
// CHECK-NOT: array<i64: 99>
// CHECK-NOT: opsched.makespan = 12345
// CHECK: return
func.func @stale(%a: tensor<64x64xf32>) -> tensor<64x64xf32> attributes {opsched.makespan = 12345 : i64, opsched.speedup = 9.0 : f64} {
  %e = tensor.empty() : tensor<64x64xf32>
  %0 = linalg.matmul {opsched.stream = 7 : i64, opsched.id = 42 : i64, opsched.waits = array<i64: 99>} ins(%a, %a : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = arith.addf %a, %a {opsched.critical, opsched.rank = 5 : i64, opsched.start = 3 : i64, opsched.end = 1 : i64} : tensor<64x64xf32>
  %2 = linalg.matmul ins(%0, %1 : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %3 = arith.mulf %a, %a : tensor<64x64xf32>
  %4 = arith.addf %2, %3 : tensor<64x64xf32>
  return %4 : tensor<64x64xf32>
}
