// op-materialize-streams through stock mlir-opt: as a flag and in a
// --pass-pipeline, after op-schedule on two streams.
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --op-schedule='streams=2 cost-model=unit' --op-materialize-streams %s | FileCheck %s
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --pass-pipeline='builtin.module(func.func(op-schedule{streams=2 cost-model=unit}),op-materialize-streams)' %s | FileCheck %s
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --op-schedule='streams=2 cost-model=unit' --op-materialize-streams --mlir-timing %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NAME

// CHECK-LABEL: func.func @two
// CHECK: async.execute
// CHECK: async.execute
// CHECK: async.await
// CHECK: return
// NAME: OpMaterializeStreamsPass
func.func @two(%x: f32, %y: f32) -> (f32, f32) {
  %a = arith.mulf %x, %x : f32
  %b = arith.mulf %y, %y : f32
  %c = arith.addf %a, %a : f32
  %d = arith.addf %b, %b : f32
  return %c, %d : f32, f32
}
