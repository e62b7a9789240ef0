// op-schedule-verify through stock mlir-opt: as a flag and in a
// --pass-pipeline, on op-schedule's output (accepted) and on a broken one.
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --op-schedule='cost-model=unit' %s | %mlir_opt --load-pass-plugin=%opsched_plugin --op-schedule-verify | FileCheck %s
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --pass-pipeline='builtin.module(func.func(op-schedule{cost-model=unit}),op-schedule-verify)' %s | FileCheck %s
// RUN: not %mlir_opt --load-pass-plugin=%opsched_plugin --op-schedule-verify %S/Inputs/overlap.mlir 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK-LABEL: func.func @chain
// CHECK-SAME: opsched.makespan = 2
// BAD: error: opsched-verify:
func.func @chain(%x: f32) -> f32 {
  %a = arith.addf %x, %x : f32
  %b = arith.mulf %a, %x : f32
  return %b : f32
}
