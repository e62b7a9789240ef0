// op-buffer-slots through stock mlir-opt: as a flag (this failed with
// "Unknown command line argument" when the plugin kept its own list of pass
// names) and in a --pass-pipeline. It uses only `alignment`.
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --op-buffer-slots %s | FileCheck %s
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --pass-pipeline='builtin.module(func.func(op-buffer-slots{alignment=128}))' %s | FileCheck %s --check-prefix=ALIGN
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --help | FileCheck %s --check-prefix=HELP

// CHECK-LABEL: func.func @two
// CHECK-SAME: opsched.alignment = 64 : i64, opsched.arena_size = 128 : i64
// CHECK: tensor.empty() : tensor<16xf32>
// CHECK: linalg.add {opsched.offset = array<i64: 64>, opsched.size = array<i64: 64>, opsched.slot = array<i64: 0>}
// CHECK: linalg.mul {opsched.offset = array<i64: 0>, opsched.size = array<i64: 64>, opsched.slot = array<i64: 1>}
// At 128-byte alignment the second buffer starts at 128 and the arena ends
// at its unaligned end: 128 + 64.
// ALIGN-LABEL: func.func @two
// ALIGN-SAME: opsched.alignment = 128 : i64, opsched.arena_size = 192 : i64
// ALIGN: linalg.add {opsched.offset = array<i64: 128>, opsched.size = array<i64: 64>, opsched.slot = array<i64: 0>}
// ALIGN: linalg.mul {opsched.offset = array<i64: 0>, opsched.size = array<i64: 64>, opsched.slot = array<i64: 1>}

// HELP: --op-buffer-slots
// HELP-NEXT: --alignment=<long>
// HELP-NEXT: --op-dep-graph
func.func @two(%v: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %a = linalg.add ins(%v, %v : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %e2 = tensor.empty() : tensor<16xf32>
  %b = linalg.mul ins(%a, %v : tensor<16xf32>, tensor<16xf32>) outs(%e2 : tensor<16xf32>) -> tensor<16xf32>
  return %b : tensor<16xf32>
}
