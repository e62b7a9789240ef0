// op-materialize-arena through stock mlir-opt: as a flag and in a
// --pass-pipeline, after op-schedule on bufferized code.
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --op-schedule --op-materialize-arena %s 2>/dev/null | FileCheck %s
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --pass-pipeline='builtin.module(func.func(op-schedule),op-materialize-arena)' %s 2>/dev/null | FileCheck %s
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --op-schedule --op-materialize-arena --mlir-timing %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NAME

// CHECK-LABEL: func.func @two
// CHECK:         %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<{{[0-9]+}}xi8>
// CHECK-COUNT-2: memref.view %[[ARENA]]
// CHECK-NOT:     memref.alloc
// CHECK:         memref.dealloc %[[ARENA]]
// CHECK-NEXT:    return
// NAME: OpMaterializeArenaPass
func.func @two(%in: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  memref.copy %a, %b : memref<16xf32> to memref<16xf32>
  memref.dealloc %a : memref<16xf32>
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  return
}
