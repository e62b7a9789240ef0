// op-materialize-arena: buffers with an opsched.offset become views into one
// arena allocation; escaping buffers and dynamic sizes keep their own.
// RUN: opsched-opt --op-materialize-arena -verify-diagnostics %s | FileCheck %s
// Scheduled and materialized from bufferized code: one arena, no other
// allocation but the returned buffer.
// RUN: opsched-opt --one-shot-bufferize=bufferize-function-boundaries --op-schedule --op-materialize-arena %S/Inputs/materialize-chain.mlir 2>/dev/null | FileCheck %s --check-prefix=PIPE

// CHECK-LABEL: func.func @two
// CHECK-NEXT:    %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<192xi8>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C128:.*]] = arith.constant 128 : index
// CHECK-NEXT:    %[[A:.*]] = memref.view %[[ARENA]][%[[C0]]][] {opsched.id = 0 : i64, opsched.slot = array<i64: 0>, opsched.stream = 0 : i64} : memref<192xi8> to memref<16xf32>
// CHECK-NEXT:    %[[B:.*]] = memref.view %[[ARENA]][%[[C128]]][] {opsched.slot = array<i64: 1>} : memref<192xi8> to memref<4x4xf32>
// CHECK-NEXT:    %[[R:.*]] = memref.alloc() {opsched.offset = array<i64: 0>, opsched.size = array<i64: 64>, opsched.slot = array<i64: 2>} : memref<16xf32>
// CHECK-NEXT:    memref.copy %arg0, %[[A]]
// CHECK-NEXT:    %[[E:.*]] = memref.expand_shape %[[A]]
// CHECK-NEXT:    memref.copy %[[E]], %[[B]]
// CHECK-NEXT:    %[[C:.*]] = memref.collapse_shape %[[B]]
// CHECK-NEXT:    memref.copy %[[C]], %[[R]]
// CHECK-NEXT:    memref.dealloc %[[ARENA]] : memref<192xi8>
// CHECK-NEXT:    return %[[R]]
func.func @two(%in: memref<16xf32>) -> memref<16xf32> attributes {opsched.arena_size = 192 : i64, opsched.alignment = 64 : i64} {
  %a = memref.alloc() {alignment = 64 : i64, opsched.offset = array<i64: 0>, opsched.size = array<i64: 64>, opsched.slot = array<i64: 0>, opsched.stream = 0 : i64, opsched.id = 0 : i64} : memref<16xf32>
  %b = memref.alloc() {opsched.offset = array<i64: 128>, opsched.size = array<i64: 64>, opsched.slot = array<i64: 1>} : memref<4x4xf32>
  // expected-remark @below {{the buffer escapes (returned, yielded, stored or passed to a call): it keeps its own allocation}}
  %r = memref.alloc() {opsched.offset = array<i64: 0>, opsched.size = array<i64: 64>, opsched.slot = array<i64: 2>} : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  %e = memref.expand_shape %a [[0, 1]] output_shape [4, 4] : memref<16xf32> into memref<4x4xf32>
  memref.copy %e, %b : memref<4x4xf32> to memref<4x4xf32>
  %c = memref.collapse_shape %b [[0, 1]] : memref<4x4xf32> into memref<16xf32>
  memref.copy %c, %r : memref<16xf32> to memref<16xf32>
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<4x4xf32>
  return %r : memref<16xf32>
}

// A buffer passed to a call, one escaping through a cast, a dynamic size
// and an allocation in a nested region keep their memory; the arena is
// freed before each return of a multi-block body.
// CHECK-LABEL: func.func @kept
// CHECK-NEXT:    %[[ARENA:.*]] = memref.alloc() {alignment = 128 : i64} : memref<256xi8>
// CHECK-NEXT:    %[[C128:.*]] = arith.constant 128 : index
// CHECK-NEXT:    %[[V:.*]] = memref.view %[[ARENA]][%[[C128]]][] : memref<256xi8> to memref<8xf64>
// CHECK-NEXT:    %[[CALLED:.*]] = memref.alloc() {{.*}} : memref<8xf32>
// CHECK-NEXT:    %[[CASTED:.*]] = memref.alloc() {{.*}} : memref<8xf32>
// CHECK-NEXT:    memref.cast %[[CASTED]]
// CHECK-NEXT:    %[[DYN:.*]] = memref.alloc(%arg0) {{.*}} : memref<?xf32>
// CHECK-NEXT:    call @use(%[[CALLED]])
// CHECK-NEXT:    scf.execute_region {
// CHECK-NEXT:      memref.alloc() {{.*}} : memref<4xf32>
// CHECK:         memref.store %{{.*}}, %[[V]]
// CHECK-NEXT:    cf.cond_br %arg1, ^bb1, ^bb2
// CHECK-NEXT:  ^bb1:
// CHECK-NEXT:    memref.dealloc %[[ARENA]]
// CHECK-NEXT:    return
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:    memref.dealloc %[[ARENA]]
// CHECK-NEXT:    return
func.func private @use(memref<8xf32>)
func.func @kept(%n: index, %flag: i1) -> memref<8xf32, strided<[1], offset: ?>> attributes {opsched.arena_size = 256 : i64, opsched.alignment = 128 : i64} {
  %v = memref.alloc() {opsched.offset = array<i64: 128>, opsched.size = array<i64: 64>} : memref<8xf64>
  // One remark per kind and function, counting the others: %casted escapes too.
  // expected-remark @below {{the buffer escapes (returned, yielded, stored or passed to a call): it keeps its own allocation (here and at 1 more allocation of this function)}}
  %called = memref.alloc() {opsched.offset = array<i64: 0>, opsched.size = array<i64: 32>} : memref<8xf32>
  %casted = memref.alloc() {opsched.offset = array<i64: 0>, opsched.size = array<i64: 32>} : memref<8xf32>
  %cast = memref.cast %casted : memref<8xf32> to memref<8xf32, strided<[1], offset: ?>>
  // expected-remark @below {{dynamic size: the buffer keeps its own allocation}}
  %dyn = memref.alloc(%n) {opsched.offset = array<i64: -2>, opsched.size = array<i64: -1>} : memref<?xf32>
  call @use(%called) : (memref<8xf32>) -> ()
  scf.execute_region {
    %inner = memref.alloc() {opsched.offset = array<i64: 0>, opsched.size = array<i64: 16>} : memref<4xf32>
    scf.yield
  }
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f64
  memref.store %f, %v[%c0] : memref<8xf64>
  cf.cond_br %flag, ^a, ^b
^a:
  return %cast : memref<8xf32, strided<[1], offset: ?>>
^b:
  return %cast : memref<8xf32, strided<[1], offset: ?>>
}

// Two buffers that share memory (one dies before the other is written) use
// one offset constant; an allocation asking for more alignment than its
// offset gives keeps its memory.
// CHECK-LABEL: func.func @reuse
// CHECK-NEXT:    %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    memref.view %[[ARENA]][%[[C0]]][] : memref<128xi8> to memref<16xf32>
// CHECK-NEXT:    memref.view %[[ARENA]][%[[C0]]][] : memref<128xi8> to memref<16xi32>
// CHECK-NEXT:    memref.alloc() {alignment = 128 : i64, {{.*}}} : memref<16xf32>
func.func @reuse(%x: memref<16xf32>, %y: memref<16xi32>) attributes {opsched.arena_size = 128 : i64, opsched.alignment = 64 : i64} {
  %a = memref.alloc() {opsched.offset = array<i64: 0>, opsched.size = array<i64: 64>} : memref<16xf32>
  %b = memref.alloc() {opsched.offset = array<i64: 0>, opsched.size = array<i64: 64>} : memref<16xi32>
  // expected-remark @below {{the allocation asks for alignment 128, which offset 64 in the arena does not give: it keeps its own allocation}}
  %c = memref.alloc() {alignment = 128 : i64, opsched.offset = array<i64: 64>, opsched.size = array<i64: 64>} : memref<16xf32>
  memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  memref.copy %a, %c : memref<16xf32> to memref<16xf32>
  memref.copy %y, %b : memref<16xi32> to memref<16xi32>
  return
}

// A buffer turned back into a tensor escapes the analysis: kept, and with
// nothing left to place no arena is made.
// CHECK-LABEL: func.func @to_tensor
// CHECK-NEXT:    memref.alloc() {{.*}} : memref<4xf32>
// CHECK-NOT:     memref.view
// CHECK:         return
func.func @to_tensor() -> tensor<4xf32> attributes {opsched.arena_size = 64 : i64} {
  // expected-remark @below {{the buffer escapes}}
  %a = memref.alloc() {opsched.offset = array<i64: 0>, opsched.size = array<i64: 16>} : memref<4xf32>
  %t = bufferization.to_tensor %a : memref<4xf32> to tensor<4xf32>
  return %t : tensor<4xf32>
}

// No allocation: nothing to do, no arena.
// CHECK-LABEL: func.func @none
// CHECK-NOT:     memref.alloc
// CHECK:         return
func.func @none(%x: f32) -> f32 {
  return %x : f32
}

// PIPE-LABEL: func.func @chain
// PIPE-SAME:      opsched.arena_size = [[SIZE:[0-9]+]]
// PIPE-NEXT:    memref.alloc() {alignment = 64 : i64} : memref<[[SIZE]]xi8>
// PIPE-NOT:     memref.alloc() {{.*}}xf32>
// PIPE:         %[[OUT:.*]] = memref.alloc() {{.*}} : memref<64xf32>
// PIPE-NOT:     memref.alloc
// PIPE:         memref.dealloc %alloc
// PIPE-NEXT:    return %[[OUT]]

// One remark per kind and function, at the first allocation of the kind,
// counting the others (a remark at each took 2.8 s on 30,000).
// CHECK-LABEL: func.func @many_dynamic
// CHECK-COUNT-12: memref.alloc(%{{.*}}) {opsched.offset = array<i64: -2>
// CHECK-NOT: memref.alloc
// CHECK: return
func.func @many_dynamic(%n: index) {
  // expected-remark @below {{opsched: dynamic size: the buffer keeps its own allocation (here and at 11 more allocations of this function)}}
  %d0 = memref.alloc(%n) {opsched.offset = array<i64: -2>, opsched.size = array<i64: 0>} : memref<?xf32>
  %d1 = memref.alloc(%n) {opsched.offset = array<i64: -2>, opsched.size = array<i64: 0>} : memref<?xf32>
  %d2 = memref.alloc(%n) {opsched.offset = array<i64: -2>, opsched.size = array<i64: 0>} : memref<?xf32>
  %d3 = memref.alloc(%n) {opsched.offset = array<i64: -2>, opsched.size = array<i64: 0>} : memref<?xf32>
  %d4 = memref.alloc(%n) {opsched.offset = array<i64: -2>, opsched.size = array<i64: 0>} : memref<?xf32>
  %d5 = memref.alloc(%n) {opsched.offset = array<i64: -2>, opsched.size = array<i64: 0>} : memref<?xf32>
  %d6 = memref.alloc(%n) {opsched.offset = array<i64: -2>, opsched.size = array<i64: 0>} : memref<?xf32>
  %d7 = memref.alloc(%n) {opsched.offset = array<i64: -2>, opsched.size = array<i64: 0>} : memref<?xf32>
  %d8 = memref.alloc(%n) {opsched.offset = array<i64: -2>, opsched.size = array<i64: 0>} : memref<?xf32>
  %d9 = memref.alloc(%n) {opsched.offset = array<i64: -2>, opsched.size = array<i64: 0>} : memref<?xf32>
  %d10 = memref.alloc(%n) {opsched.offset = array<i64: -2>, opsched.size = array<i64: 0>} : memref<?xf32>
  %d11 = memref.alloc(%n) {opsched.offset = array<i64: -2>, opsched.size = array<i64: 0>} : memref<?xf32>
  return
}
