// opsched.* results on ops a run does not schedule (terminators, one-op
// blocks, zero-cost payloads) are removed, not kept from an earlier run.
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --op-schedule %s | FileCheck %s
// op-dep-graph removes only what it writes (ranks, slots).
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --op-dep-graph %s | FileCheck %s --check-prefix=DEP

// CHECK-LABEL: func.func @one_op
// CHECK-NEXT: tensor.empty() : tensor<16xf32>
// CHECK-NEXT: return %{{.*}} : tensor<16xf32>
// DEP-LABEL: func.func @one_op
// DEP-NEXT: tensor.empty() {opsched.end = 3 : i64, opsched.start = 2 : i64} : tensor<16xf32>
// DEP-NEXT: return {opsched.start = 9 : i64} %{{.*}} : tensor<16xf32>
func.func @one_op() -> tensor<16xf32> {
  %e = tensor.empty() {opsched.rank = 7 : i64, opsched.critical, opsched.start = 2 : i64, opsched.end = 3 : i64, opsched.slot = array<i64: 4>} : tensor<16xf32>
  return {opsched.rank = 1 : i64, opsched.start = 9 : i64} %e : tensor<16xf32>
}

// CHECK-LABEL: func.func @terminator
// CHECK: linalg.add
// CHECK: return %{{[0-9]+}} : tensor<16xf32>
// CHECK-NEXT: }
func.func @terminator(%v: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %a = linalg.add ins(%v, %v : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return {opsched.id = 3 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 0>, opsched.start = 4 : i64} %a : tensor<16xf32>
}
