// op-dep-graph through stock mlir-opt: as a flag and in a --pass-pipeline.
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --op-dep-graph='cost-model=unit' %s | FileCheck %s
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --pass-pipeline='builtin.module(func.func(op-dep-graph{cost-model=unit}))' %s | FileCheck %s

// CHECK-LABEL: func.func @chain
// CHECK-SAME: attributes {opsched.critical_path = 2 : i64}
// CHECK: arith.addf %arg0, %arg0 {opsched.critical, opsched.rank = 2 : i64}
// CHECK: arith.mulf %0, %arg0 {opsched.critical, opsched.rank = 1 : i64}
func.func @chain(%x: f32) -> f32 {
  %a = arith.addf %x, %x : f32
  %b = arith.mulf %a, %x : f32
  return %b : f32
}
