// op-schedule through stock mlir-opt: as a flag and in a --pass-pipeline.
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --op-schedule='cost-model=unit' %s | FileCheck %s
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --pass-pipeline='builtin.module(func.func(op-schedule{cost-model=unit}))' %s | FileCheck %s

// CHECK-LABEL: func.func @chain
// CHECK-SAME: opsched.makespan = 2 : i64
// CHECK: arith.addf {{.*}}opsched.end = 1 : i64{{.*}}opsched.start = 0 : i64
// CHECK: arith.mulf {{.*}}opsched.end = 2 : i64{{.*}}opsched.start = 1 : i64
func.func @chain(%x: f32) -> f32 {
  %a = arith.addf %x, %x : f32
  %b = arith.mulf %a, %x : f32
  return %b : f32
}
