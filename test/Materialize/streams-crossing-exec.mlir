// Regression test for a deadlock of the materialized program (issue 14:
// squeezenet1_1 on 2 streams hung once). The async runtime resumes an
// awaiter inline while it holds the mutex of the token that became ready,
// and the awaiter then locks the mutex of its region's next dependency.
// Here each step of stream 0 waits on stream 1's previous step and vice
// versa, so two regions depend on the same two tokens; when they listed them
// in opposite orders (own stream first), two workers each held one token's
// mutex and waited for the other's: the generated program hung in about
// half of its runs (2 workers blocked in
// mlirAsyncRuntimeAwaitTokenAndExecute). op-materialize-streams now lists
// every region's dependencies in one global order; the program below must
// finish every run and give the sequential program's bits.
// REQUIRES: mlir-runner
// DEFINE: %{lower} = --async-to-async-runtime --async-runtime-ref-counting --async-runtime-ref-counting-opt --convert-linalg-to-loops --lower-affine --convert-scf-to-cf --expand-strided-metadata --convert-async-to-llvm --finalize-memref-to-llvm --convert-math-to-llvm --convert-arith-to-llvm --convert-index-to-llvm --convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts
// RUN: opsched-opt --op-materialize-streams %s > %t.mat.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mat.mlir
// RUN: mlir-opt-22 %{lower} %t.mat.mlir -o %t.async.mlir
// RUN: mlir-opt-22 %{lower} %s -o %t.plain.mlir
// RUN: mlir-runner %t.plain.mlir -e main -entry-point-result=void -O3 -shared-libs=%runner_libs | grep -v base@ > %t.plain.data
// RUN: timeout 120 mlir-runner %t.async.mlir -e main -entry-point-result=void -O3 -shared-libs=%runner_libs | grep -v base@ > %t.async1.data
// RUN: timeout 120 mlir-runner %t.async.mlir -e main -entry-point-result=void -O3 -shared-libs=%runner_libs | grep -v base@ > %t.async2.data
// RUN: timeout 120 mlir-runner %t.async.mlir -e main -entry-point-result=void -O3 -shared-libs=%runner_libs | grep -v base@ > %t.async3.data
// RUN: timeout 120 mlir-runner %t.async.mlir -e main -entry-point-result=void -O3 -shared-libs=%runner_libs | grep -v base@ > %t.async4.data
// RUN: timeout 120 mlir-runner %t.async.mlir -e main -entry-point-result=void -O3 -shared-libs=%runner_libs | grep -v base@ > %t.async5.data
// RUN: diff %t.plain.data %t.async1.data
// RUN: diff %t.plain.data %t.async5.data
// RUN: FileCheck %s < %t.async3.data

// The two regions of a step depend on the same two tokens, in one order.
// IR:      %[[A1:.*]] = async.execute {
// IR:      %[[B1:.*]] = async.execute {
// IR:      %[[A2:.*]] = async.execute [%[[A1]], %[[B1]]] {
// IR:      %[[B2:.*]] = async.execute [%[[A1]], %[[B1]]] {
// IR:      async.execute [%[[A2]], %[[B2]]] {
// IR:      async.execute [%[[A2]], %[[B2]]] {

// The bits of a0 + b0 after one call and after 5001 (each step rotates the
// pair (a, b), so a wrong order anywhere changes the bits).
// CHECK: [[[A:-?[0-9]+]], [[A]], [[A]], [[A]]]
// CHECK-NEXT: [[[B:-?[0-9]+]], [[B]], [[B]], [[B]]]

#id = affine_map<(d0) -> (d0)>
func.func @crossing(%a0: memref<4xf32>, %a1: memref<4xf32>, %b0: memref<4xf32>, %b1: memref<4xf32>) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 2 : i64, opsched.stream = 0 : i64} ins(%a0, %b0 : memref<4xf32>, memref<4xf32>) outs(%a1 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant 0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 3 : i64, opsched.stream = 1 : i64} ins(%b0, %a0 : memref<4xf32>, memref<4xf32>) outs(%b1 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant -0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 4 : i64, opsched.stream = 0 : i64, opsched.waits = array<i64: 3>} ins(%a1, %b1 : memref<4xf32>, memref<4xf32>) outs(%a0 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant 0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 5 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 2>} ins(%b1, %a1 : memref<4xf32>, memref<4xf32>) outs(%b0 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant -0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 6 : i64, opsched.stream = 0 : i64, opsched.waits = array<i64: 5>} ins(%a0, %b0 : memref<4xf32>, memref<4xf32>) outs(%a1 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant 0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 7 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 4>} ins(%b0, %a0 : memref<4xf32>, memref<4xf32>) outs(%b1 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant -0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 8 : i64, opsched.stream = 0 : i64, opsched.waits = array<i64: 7>} ins(%a1, %b1 : memref<4xf32>, memref<4xf32>) outs(%a0 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant 0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 9 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 6>} ins(%b1, %a1 : memref<4xf32>, memref<4xf32>) outs(%b0 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant -0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 10 : i64, opsched.stream = 0 : i64, opsched.waits = array<i64: 9>} ins(%a0, %b0 : memref<4xf32>, memref<4xf32>) outs(%a1 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant 0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 11 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 8>} ins(%b0, %a0 : memref<4xf32>, memref<4xf32>) outs(%b1 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant -0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 12 : i64, opsched.stream = 0 : i64, opsched.waits = array<i64: 11>} ins(%a1, %b1 : memref<4xf32>, memref<4xf32>) outs(%a0 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant 0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 13 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 10>} ins(%b1, %a1 : memref<4xf32>, memref<4xf32>) outs(%b0 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant -0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 14 : i64, opsched.stream = 0 : i64, opsched.waits = array<i64: 13>} ins(%a0, %b0 : memref<4xf32>, memref<4xf32>) outs(%a1 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant 0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 15 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 12>} ins(%b0, %a0 : memref<4xf32>, memref<4xf32>) outs(%b1 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant -0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 16 : i64, opsched.stream = 0 : i64, opsched.waits = array<i64: 15>} ins(%a1, %b1 : memref<4xf32>, memref<4xf32>) outs(%a0 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant 0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 17 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 14>} ins(%b1, %a1 : memref<4xf32>, memref<4xf32>) outs(%b0 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant -0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 18 : i64, opsched.stream = 0 : i64, opsched.waits = array<i64: 17>} ins(%a0, %b0 : memref<4xf32>, memref<4xf32>) outs(%a1 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant 0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 19 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 16>} ins(%b0, %a0 : memref<4xf32>, memref<4xf32>) outs(%b1 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant -0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 20 : i64, opsched.stream = 0 : i64, opsched.waits = array<i64: 19>} ins(%a1, %b1 : memref<4xf32>, memref<4xf32>) outs(%a0 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant 0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 21 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 18>} ins(%b1, %a1 : memref<4xf32>, memref<4xf32>) outs(%b0 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant -0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 22 : i64, opsched.stream = 0 : i64, opsched.waits = array<i64: 21>} ins(%a0, %b0 : memref<4xf32>, memref<4xf32>) outs(%a1 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant 0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 23 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 20>} ins(%b0, %a0 : memref<4xf32>, memref<4xf32>) outs(%b1 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant -0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 24 : i64, opsched.stream = 0 : i64, opsched.waits = array<i64: 23>} ins(%a1, %b1 : memref<4xf32>, memref<4xf32>) outs(%a0 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant 0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 25 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 22>} ins(%b1, %a1 : memref<4xf32>, memref<4xf32>) outs(%b0 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant -0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 26 : i64, opsched.stream = 0 : i64, opsched.waits = array<i64: 25>} ins(%a0, %b0 : memref<4xf32>, memref<4xf32>) outs(%a1 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant 0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 27 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 24>} ins(%b0, %a0 : memref<4xf32>, memref<4xf32>) outs(%b1 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant -0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 28 : i64, opsched.stream = 0 : i64, opsched.waits = array<i64: 27>} ins(%a1, %b1 : memref<4xf32>, memref<4xf32>) outs(%a0 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant 0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 29 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 26>} ins(%b1, %a1 : memref<4xf32>, memref<4xf32>) outs(%b0 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant -0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 30 : i64, opsched.stream = 0 : i64, opsched.waits = array<i64: 29>} ins(%a0, %b0 : memref<4xf32>, memref<4xf32>) outs(%a1 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant 0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 31 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 28>} ins(%b0, %a0 : memref<4xf32>, memref<4xf32>) outs(%b1 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant -0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 32 : i64, opsched.stream = 0 : i64, opsched.waits = array<i64: 31>} ins(%a1, %b1 : memref<4xf32>, memref<4xf32>) outs(%a0 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant 0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"], opsched.id = 33 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 30>} ins(%b1, %a1 : memref<4xf32>, memref<4xf32>) outs(%b0 : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %c1 = arith.constant 0.8 : f32
    %c2 = arith.constant -0.6 : f32
    %x = arith.mulf %p, %c1 : f32
    %y = arith.mulf %q, %c2 : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  }
  return
}

func.func private @printMemrefI32(memref<*xi32>)

func.func @print_bits(%a0: memref<4xf32>, %b0: memref<4xf32>) {
  %bits = memref.alloc() : memref<4xi32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a0, %b0 : memref<4xf32>, memref<4xf32>) outs(%bits : memref<4xi32>) {
  ^bb0(%v: f32, %w: f32, %o: i32):
    %s = arith.addf %v, %w : f32
    %b = arith.bitcast %s : f32 to i32
    linalg.yield %b : i32
  }
  %u = memref.cast %bits : memref<4xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  memref.dealloc %bits : memref<4xi32>
  return
}

func.func @main() {
  %a0 = memref.alloc() : memref<4xf32>
  %a1 = memref.alloc() : memref<4xf32>
  %b0 = memref.alloc() : memref<4xf32>
  %b1 = memref.alloc() : memref<4xf32>
  %one = arith.constant 1.0 : f32
  %two = arith.constant -2.0 : f32
  linalg.fill ins(%one : f32) outs(%a0 : memref<4xf32>)
  linalg.fill ins(%one : f32) outs(%a1 : memref<4xf32>)
  linalg.fill ins(%two : f32) outs(%b0 : memref<4xf32>)
  linalg.fill ins(%two : f32) outs(%b1 : memref<4xf32>)
  func.call @crossing(%a0, %a1, %b0, %b1) : (memref<4xf32>, memref<4xf32>, memref<4xf32>, memref<4xf32>) -> ()
  func.call @print_bits(%a0, %b0) : (memref<4xf32>, memref<4xf32>) -> ()
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 5000 : index
  scf.for %i = %c0 to %n step %c1 {
    func.call @crossing(%a0, %a1, %b0, %b1) : (memref<4xf32>, memref<4xf32>, memref<4xf32>, memref<4xf32>) -> ()
  }
  func.call @print_bits(%a0, %b0) : (memref<4xf32>, memref<4xf32>) -> ()
  memref.dealloc %a0 : memref<4xf32>
  memref.dealloc %a1 : memref<4xf32>
  memref.dealloc %b0 : memref<4xf32>
  memref.dealloc %b1 : memref<4xf32>
  return
}
