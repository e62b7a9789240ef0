// RUN: opsched-opt --op-schedule %s | FileCheck %s
// Idempotence: a second run over the annotated output changes nothing.
// RUN: opsched-opt --op-schedule %s | opsched-opt --op-schedule | FileCheck %s

// A diamond plus an independent op. Costs (ns) come from opsched.cost:
// a=2 -> b=5 -> d=3 -> e=1, a -> c=1 -> d, s=1 -> e.
// Upward ranks: e=1, d=4, b=9, c=5, a=11, s=2; critical path a-b-d-e = 11.
// List scheduling by rank moves `s` from second to fifth place.
// CHECK-LABEL: func.func @diamond
// CHECK-SAME: attributes {opsched.critical_path = 11 : i64, {{.*}}opsched.lower_bound = 13 : i64, {{.*}}opsched.makespan = 13 : i64, {{.*}}opsched.speedup = 1.000000e+00 : f64, {{.*}}opsched.streams = 1 : i64, {{.*}}opsched.waits_after = 0 : i64, {{.*}}opsched.waits_before = 0 : i64}
// CHECK-NEXT: %[[A:.*]] = arith.addf {{.*}} {opsched.cost = 2 : i64, opsched.critical, opsched.end = 2 : i64, {{.*}}opsched.rank = 11 : i64, {{.*}}opsched.start = 0 : i64}
// CHECK-NEXT: %[[B:.*]] = arith.mulf %[[A]], %[[A]] {opsched.cost = 5 : i64, opsched.critical, opsched.end = 7 : i64, {{.*}}opsched.rank = 9 : i64, {{.*}}opsched.start = 2 : i64}
// CHECK-NEXT: %[[C:.*]] = arith.subf %[[A]], %[[A]] {opsched.cost = 1 : i64, opsched.end = 8 : i64, {{.*}}opsched.rank = 5 : i64, {{.*}}opsched.start = 7 : i64}
// CHECK-NEXT: %[[D:.*]] = arith.addf %[[B]], %[[C]] {opsched.cost = 3 : i64, opsched.critical, opsched.end = 11 : i64, {{.*}}opsched.rank = 4 : i64, {{.*}}opsched.start = 8 : i64}
// CHECK-NEXT: %[[S:.*]] = arith.mulf %arg0, %arg0 {opsched.cost = 1 : i64, opsched.end = 12 : i64, {{.*}}opsched.rank = 2 : i64, {{.*}}opsched.start = 11 : i64}
// CHECK-NEXT: %[[E:.*]] = arith.addf %[[D]], %[[S]] {opsched.cost = 1 : i64, opsched.critical, opsched.end = 13 : i64, {{.*}}opsched.rank = 1 : i64, {{.*}}opsched.start = 12 : i64}
// CHECK-NEXT: return %[[E]]
func.func @diamond(%x: f32) -> f32 {
  %a = arith.addf %x, %x {opsched.cost = 2} : f32
  %s = arith.mulf %x, %x {opsched.cost = 1} : f32
  %b = arith.mulf %a, %a {opsched.cost = 5} : f32
  %c = arith.subf %a, %a {opsched.cost = 1} : f32
  %d = arith.addf %b, %c {opsched.cost = 3} : f32
  %e = arith.addf %d, %s {opsched.cost = 1} : f32
  return %e : f32
}

// %v is used only inside the loop body: the capture is a dependency, so the
// loop (rank 21) still waits for %v although nothing at its own level uses it.
// CHECK-LABEL: func.func @nested_capture
// CHECK-NEXT: %[[V:.*]] = arith.mulf %arg0, %arg0 {opsched.cost = 1 : i64, opsched.critical, opsched.end = 1 : i64, {{.*}}opsched.rank = 22 : i64, {{.*}}opsched.start = 0 : i64}
// CHECK-NEXT: arith.constant {{.*}} 0 : index
// CHECK-NEXT: arith.constant {{.*}} 1 : index
// CHECK-NEXT: %[[R:.*]] = scf.for
// CHECK-NEXT: arith.addf %{{.*}}, %[[V]] : f32
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } {opsched.cost = 1 : i64, opsched.critical, opsched.end = 2 : i64, {{.*}}opsched.rank = 21 : i64, {{.*}}opsched.start = 1 : i64}
// CHECK-NEXT: arith.mulf %[[R]], %[[R]] {opsched.cost = 20 : i64, opsched.critical, opsched.end = 22 : i64, {{.*}}opsched.rank = 20 : i64, {{.*}}opsched.start = 2 : i64}
// CHECK-NEXT: arith.addf %arg0, %arg0 {opsched.cost = 10 : i64, opsched.end = 32 : i64, {{.*}}opsched.rank = 10 : i64, {{.*}}opsched.start = 22 : i64}
// CHECK-NEXT: arith.addf
// CHECK-NEXT: return
func.func @nested_capture(%x: f32, %n: index) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = arith.mulf %x, %x {opsched.cost = 1} : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> f32 {
    %t = arith.addf %acc, %v : f32
    scf.yield %t : f32
  } {opsched.cost = 1}
  %big = arith.addf %x, %x {opsched.cost = 10} : f32
  %y = arith.mulf %r, %r {opsched.cost = 20} : f32
  %z = arith.addf %y, %big : f32
  return %z, %y : f32, f32
}

// Effectful ops keep their relative order; pure ops move around them.
// cf.assert writes the default resource, so "one" stays before "two"; the
// heavy pure %p (rank 8) goes first and %q (rank 1) before the asserts.
// CHECK-LABEL: func.func @effects
// CHECK-NEXT: %[[P:.*]] = arith.mulf
// CHECK-SAME: opsched.rank = 8 : i64
// CHECK-NEXT: arith.addf %[[P]]
// CHECK-NEXT: cf.assert %arg0, "one"
// CHECK-NEXT: cf.assert %arg0, "two"
// CHECK-NEXT: return
func.func @effects(%c: i1, %x: f32) -> f32 {
  cf.assert %c, "one"
  %p = arith.mulf %x, %x {opsched.cost = 7} : f32
  cf.assert %c, "two"
  %q = arith.addf %p, %x {opsched.cost = 1} : f32
  return %q : f32
}

// Reads of one memref may swap (RAR); the store waits for both (WAR); the
// last load stays after the store (RAW) although its rank is the highest.
// CHECK-LABEL: func.func @memory
// CHECK-NEXT: %[[C0:.*]] = arith.constant {{.*}} 0 : index
// CHECK-NEXT: memref.load %arg0[%[[C0]]] {opsched.cost = 5 : i64
// CHECK-NEXT: memref.load %arg0[%[[C0]]] {opsched.cost = 1 : i64
// CHECK-NEXT: memref.store
// CHECK-NEXT: memref.load %arg0[%[[C0]]] {opsched.cost = 9 : i64
// CHECK-NEXT: return
func.func @memory(%m: memref<4xf32>, %f: f32) -> (f32, f32, f32) {
  %c0 = arith.constant 0 : index
  %l1 = memref.load %m[%c0] {opsched.cost = 1} : memref<4xf32>
  %l2 = memref.load %m[%c0] {opsched.cost = 5} : memref<4xf32>
  memref.store %f, %m[%c0] {opsched.cost = 1} : memref<4xf32>
  %l3 = memref.load %m[%c0] {opsched.cost = 9} : memref<4xf32>
  return %l1, %l2, %l3 : f32, f32, f32
}

// Each block of a CFG is scheduled on its own; the function's makespan and
// critical path add up its blocks' (3 + 4 and 2 + 4); so does the lower
// bound, max(critical path, work) per block on one stream (3 + 4).
// CHECK-LABEL: func.func @blocks
// CHECK-SAME: attributes {opsched.critical_path = 6 : i64, {{.*}}opsched.lower_bound = 7 : i64, {{.*}}opsched.makespan = 7 : i64
// CHECK-NEXT: arith.mulf {{.*}}opsched.cost = 2 : i64
// CHECK-NEXT: arith.addf {{.*}}opsched.cost = 1 : i64
// CHECK-NEXT: cf.br ^bb1
// CHECK: ^bb1
// CHECK-NEXT: arith.subf {{.*}}opsched.cost = 4 : i64
// CHECK-NEXT: arith.divf {{.*}}opsched.cost = 0 : i64
// CHECK-NEXT: return
func.func @blocks(%x: f32) -> (f32, f32) {
  %a = arith.addf %x, %x {opsched.cost = 1} : f32
  %b = arith.mulf %x, %x {opsched.cost = 2} : f32
  cf.br ^bb1(%a : f32)
^bb1(%y: f32):
  %d = arith.divf %y, %y {opsched.cost = 0} : f32
  %s = arith.subf %y, %b {opsched.cost = 4} : f32
  return %d, %s : f32, f32
}

// Declarations, empty bodies and single-op blocks are left untouched.
// CHECK-LABEL: func.func private @declaration(f32) -> f32
// CHECK-NOT: opsched
// CHECK-LABEL: func.func @empty() {
// CHECK-NEXT: return
// CHECK-LABEL: func.func @single(%arg0: f32) -> f32 {
// CHECK-NEXT: %0 = arith.addf %arg0, %arg0 : f32
// CHECK-NEXT: return
func.func private @declaration(f32) -> f32
func.func @empty() {
  return
}
func.func @single(%x: f32) -> f32 {
  %a = arith.addf %x, %x : f32
  return %a : f32
}
