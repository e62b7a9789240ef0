// Executes a two-stream schedule materialized by op-materialize-streams on
// the async runtime's thread pool, and the same function run as written;
// the printed bits must be identical. Two independent matmuls run on two
// streams, then a sum waits on the other stream; the second call's inputs
// depend on the first call's result (a wrong order would change the bits).
// REQUIRES: mlir-runner
// DEFINE: %{lower} = --async-to-async-runtime --async-runtime-ref-counting --async-runtime-ref-counting-opt --convert-linalg-to-loops --lower-affine --convert-scf-to-cf --expand-strided-metadata --convert-async-to-llvm --finalize-memref-to-llvm --convert-math-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts
// RUN: opsched-opt --op-materialize-streams %s | mlir-opt-22 %{lower} -o %t.async.mlir
// RUN: mlir-runner %t.async.mlir -e main -entry-point-result=void -O3 -shared-libs=%runner_libs > %t.async.out
// RUN: mlir-opt-22 %{lower} %s -o %t.plain.mlir
// RUN: mlir-runner %t.plain.mlir -e main -entry-point-result=void -O3 -shared-libs=%runner_libs > %t.plain.out
// RUN: grep -v base@ %t.plain.out > %t.plain.data
// RUN: grep -v base@ %t.async.out > %t.async.data
// RUN: diff %t.plain.data %t.async.data
// RUN: FileCheck %s < %t.async.out

// CHECK: Unranked Memref {{.*}} rank = 2 offset = 0 sizes = [8, 8]
// CHECK-COUNT-8: [

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @two_streams(%x: memref<8x8xf32>, %w1: memref<8x8xf32>, %w2: memref<8x8xf32>, %out: memref<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %arena = memref.alloc() {alignment = 64 : i64} : memref<512xi8>
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %a = memref.view %arena[%c0][] {opsched.id = 0 : i64, opsched.stream = 0 : i64} : memref<512xi8> to memref<8x8xf32>
  %b = memref.view %arena[%c256][] {opsched.id = 1 : i64, opsched.stream = 1 : i64} : memref<512xi8> to memref<8x8xf32>
  linalg.fill {opsched.id = 2 : i64, opsched.stream = 0 : i64} ins(%zero : f32) outs(%a : memref<8x8xf32>)
  linalg.fill {opsched.id = 3 : i64, opsched.stream = 1 : i64} ins(%zero : f32) outs(%b : memref<8x8xf32>)
  linalg.matmul {opsched.id = 4 : i64, opsched.stream = 0 : i64} ins(%x, %w1 : memref<8x8xf32>, memref<8x8xf32>) outs(%a : memref<8x8xf32>)
  linalg.matmul {opsched.id = 5 : i64, opsched.stream = 1 : i64} ins(%x, %w2 : memref<8x8xf32>, memref<8x8xf32>) outs(%b : memref<8x8xf32>)
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"], opsched.id = 6 : i64, opsched.stream = 0 : i64, opsched.waits = array<i64: 5>} ins(%a, %b : memref<8x8xf32>, memref<8x8xf32>) outs(%out : memref<8x8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.subf %p, %q : f32
    %m = arith.mulf %s, %p : f32
    linalg.yield %m : f32
  }
  memref.dealloc %arena : memref<512xi8>
  return
}

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %x = memref.alloc() : memref<8x8xf32>
  %w1 = memref.alloc() : memref<8x8xf32>
  %w2 = memref.alloc() : memref<8x8xf32>
  %out = memref.alloc() : memref<8x8xf32>
  %bits = memref.alloc() : memref<8x8xi32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} outs(%x, %w1, %w2 : memref<8x8xf32>, memref<8x8xf32>, memref<8x8xf32>) {
  ^bb0(%o1: f32, %o2: f32, %o3: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %fj = arith.sitofp %jj : i32 to f32
    %c = arith.constant 0.37 : f32
    %d = arith.constant 1.13 : f32
    %v1 = arith.mulf %fi, %c : f32
    %v2 = arith.subf %v1, %fj : f32
    %v3 = arith.mulf %fj, %d : f32
    %v4 = arith.addf %v3, %c : f32
    %v5 = arith.subf %v4, %fi : f32
    linalg.yield %v2, %v4, %v5 : f32, f32, f32
  }
  call @two_streams(%x, %w1, %w2, %out) : (memref<8x8xf32>, memref<8x8xf32>, memref<8x8xf32>, memref<8x8xf32>) -> ()
  call @two_streams(%out, %w1, %w2, %x) : (memref<8x8xf32>, memref<8x8xf32>, memref<8x8xf32>, memref<8x8xf32>) -> ()
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : memref<8x8xf32>) outs(%bits : memref<8x8xi32>) {
  ^bb0(%v: f32, %o: i32):
    %b = arith.bitcast %v : f32 to i32
    linalg.yield %b : i32
  }
  %u = memref.cast %bits : memref<8x8xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  memref.dealloc %x : memref<8x8xf32>
  memref.dealloc %w1 : memref<8x8xf32>
  memref.dealloc %w2 : memref<8x8xf32>
  memref.dealloc %out : memref<8x8xf32>
  memref.dealloc %bits : memref<8x8xi32>
  return
}
