// Aliases across bufferization (docs/Passes.md, "Dependency rules"): a
// tensor made by bufferization.to_tensor shares memory with its memref, and
// so does a tensor a bufferization.to_buffer turns into a memref; every op
// touching such a tensor, or a tensor derived from it, reads the memref (or
// writes it, writing the tensor in place) for ordering against memref
// writes and deallocation. Each bait (store, dealloc) has the larger rank.
// CHECK holds under every option set; where the default order is checked
// whole (EXACT), ANY states what the other option sets must keep of it.
// RUN: opsched-opt --op-schedule %s | FileCheck %s --check-prefixes=CHECK,EXACT
// RUN: opsched-opt --op-schedule='streams=4' %s | FileCheck %s --check-prefixes=CHECK,ANY
// RUN: opsched-opt --op-schedule='policy=min-memory' %s | FileCheck %s --check-prefixes=CHECK,ANY
// RUN: opsched-opt --op-schedule='cost-model=unit streams=2' %s | FileCheck %s --check-prefixes=CHECK,ANY

// The reader of the tensor stays before the dealloc of its memref.
// CHECK-LABEL: func.func @read_after_dealloc
// CHECK-NEXT: bufferization.to_tensor
// CHECK-NEXT: arith.addf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: memref.dealloc
// CHECK-NEXT: return
func.func @read_after_dealloc(%m: memref<4xf32>) -> tensor<4xf32> {
  %t = bufferization.to_tensor %m restrict {opsched.cost = 1} : memref<4xf32> to tensor<4xf32>
  %s = arith.addf %t, %t {opsched.cost = 1} : tensor<4xf32>
  %r = arith.mulf %s, %s {opsched.cost = 50} : tensor<4xf32>
  memref.dealloc %m {opsched.cost = 100} : memref<4xf32>
  return %r : tensor<4xf32>
}

// Through a memref view and a tensor slice: the slice and its reader are
// readers of %m, so the store to %m waits for them.
// CHECK-LABEL: func.func @view_of_view
// CHECK: memref.subview
// CHECK: bufferization.to_tensor
// CHECK-NEXT: tensor.extract_slice
// CHECK-NEXT: arith.addf
// CHECK: memref.store
// CHECK-NEXT: return
func.func @view_of_view(%m: memref<8xf32>, %x: f32) -> tensor<2xf32> {
  %c0 = arith.constant 0 : index
  %v = memref.subview %m[2] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>
  %t = bufferization.to_tensor %v restrict {opsched.cost = 1} : memref<4xf32, strided<[1], offset: 2>> to tensor<4xf32>
  %e = tensor.extract_slice %t[1] [2] [1] {opsched.cost = 1} : tensor<4xf32> to tensor<2xf32>
  %s = arith.addf %e, %e {opsched.cost = 1} : tensor<2xf32>
  %r = arith.mulf %s, %s {opsched.cost = 50} : tensor<2xf32>
  memref.store %x, %m[%c0] {opsched.cost = 100} : memref<8xf32>
  return %r : tensor<2xf32>
}

// A tensor that to_buffer exposes: its reader stays before the store
// through the memref.
// CHECK-LABEL: func.func @write_through_to_buffer
// EXACT-NEXT: arith.addf
// EXACT-NEXT: arith.mulf
// EXACT-NEXT: bufferization.to_buffer
// EXACT-NEXT: arith.constant
// EXACT-NEXT: memref.store
// EXACT-NEXT: return
// ANY: arith.addf
// ANY: memref.store
// ANY-NEXT: return
func.func @write_through_to_buffer(%t: tensor<4xf32>, %x: f32) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %s = arith.addf %t, %t {opsched.cost = 1} : tensor<4xf32>
  %r = arith.mulf %s, %s {opsched.cost = 50} : tensor<4xf32>
  %m = bufferization.to_buffer %t {opsched.cost = 1} : tensor<4xf32> to memref<4xf32>
  memref.store %x, %m[%c0] {opsched.cost = 100} : memref<4xf32>
  return %r : tensor<4xf32>
}

// Tensors that share no memory with a memref still move freely (a tensor
// argument might: this function takes a memref).
// CHECK-LABEL: func.func @unrelated_tensor_moves
// EXACT-NEXT: tensor.splat
// EXACT-NEXT: arith.addf
// EXACT-NEXT: arith.mulf
// EXACT-NEXT: bufferization.to_tensor
// EXACT-NEXT: arith.addf
// EXACT-NEXT: arith.mulf
// EXACT-NEXT: memref.dealloc
// EXACT-NEXT: return
// ANY: bufferization.to_tensor
// ANY: arith.addf %{{.*}}, %{{.*}} {
// ANY: memref.dealloc
func.func @unrelated_tensor_moves(%m: memref<4xf32>, %f: f32) -> (tensor<4xf32>, tensor<4xf32>) {
  %u = tensor.splat %f {opsched.cost = 1} : tensor<4xf32>
  %t = bufferization.to_tensor %m restrict {opsched.cost = 1} : memref<4xf32> to tensor<4xf32>
  %s = arith.addf %t, %t {opsched.cost = 1} : tensor<4xf32>
  %r = arith.mulf %s, %s {opsched.cost = 50} : tensor<4xf32>
  memref.dealloc %m {opsched.cost = 100} : memref<4xf32>
  %k = arith.addf %u, %u {opsched.cost = 1} : tensor<4xf32>
  %l = arith.mulf %k, %k {opsched.cost = 200} : tensor<4xf32>
  return %r, %l : tensor<4xf32>, tensor<4xf32>
}

// A to_tensor nested in a region: the region op's tensors share memory
// with the memref (its result is read after the dealloc otherwise).
// CHECK-LABEL: func.func @nested_to_tensor
// CHECK: scf.execute_region
// CHECK: bufferization.to_tensor
// CHECK: arith.addf
// CHECK: memref.dealloc
// CHECK-NEXT: return
func.func @nested_to_tensor(%m: memref<4xf32>) -> tensor<4xf32> {
  %t = scf.execute_region -> tensor<4xf32> {
    %i = bufferization.to_tensor %m restrict : memref<4xf32> to tensor<4xf32>
    scf.yield %i : tensor<4xf32>
  } {opsched.cost = 1}
  %s = arith.addf %t, %t {opsched.cost = 1} : tensor<4xf32>
  %r = arith.mulf %s, %s {opsched.cost = 50} : tensor<4xf32>
  memref.dealloc %m {opsched.cost = 100} : memref<4xf32>
  return %r : tensor<4xf32>
}

// A linalg op writing a memory-backed tensor in place writes the memref:
// a load of the memref stays on its side.
// CHECK-LABEL: func.func @in_place_write
// CHECK: linalg.fill
// CHECK: memref.load
// CHECK: return
func.func @in_place_write(%m: memref<4xf32>, %x: f32) -> (tensor<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %t = bufferization.to_tensor %m restrict writable {opsched.cost = 1} : memref<4xf32> to tensor<4xf32>
  %f = linalg.fill {opsched.cost = 1} ins(%x : f32) outs(%t : tensor<4xf32>) -> tensor<4xf32>
  %v = memref.load %m[%c0] {opsched.cost = 100} : memref<4xf32>
  return %f, %v : tensor<4xf32>, f32
}

// A memory-backed tensor captured by a loop body: in the body's block the
// read of %t stays before the store to %m.
// CHECK-LABEL: func.func @captured_in_loop
// CHECK: scf.for
// CHECK: tensor.extract_slice
// CHECK: arith.addf
// CHECK: memref.store
// CHECK: scf.yield
func.func @captured_in_loop(%m: memref<4xf32>, %n: index, %x: f32) -> tensor<2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = bufferization.to_tensor %m restrict : memref<4xf32> to tensor<4xf32>
  %z = tensor.empty() : tensor<2xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> tensor<2xf32> {
    %e = tensor.extract_slice %t[1] [2] [1] {opsched.cost = 1} : tensor<4xf32> to tensor<2xf32>
    %s = arith.addf %e, %acc {opsched.cost = 1} : tensor<2xf32>
    %p = arith.mulf %s, %s {opsched.cost = 50} : tensor<2xf32>
    memref.store %x, %m[%c0] {opsched.cost = 100} : memref<4xf32>
    scf.yield %p : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// A function taking a memref may get a tensor made from it: the reader of
// the tensor argument stays before the store.
// CHECK-LABEL: func.func @argument_may_alias
// CHECK: arith.addf
// CHECK: memref.store
// CHECK-NEXT: return
func.func @argument_may_alias(%m: memref<4xf32>, %t: tensor<4xf32>, %x: f32) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %s = arith.addf %t, %t {opsched.cost = 1} : tensor<4xf32>
  %r = arith.mulf %s, %s {opsched.cost = 50} : tensor<4xf32>
  memref.store %x, %m[%c0] {opsched.cost = 100} : memref<4xf32>
  return %r : tensor<4xf32>
}

// Without memrefs in sight, a tensor argument is no memory: its reader
// moves past a call.
// EXACT-LABEL: func.func @tensor_only_moves
// EXACT-NEXT: arith.addf
// EXACT-NEXT: arith.mulf
// EXACT-NEXT: call @side_effect
// EXACT-NEXT: return
func.func private @side_effect()
func.func @tensor_only_moves(%t: tensor<4xf32>) -> tensor<4xf32> {
  func.call @side_effect() {opsched.cost = 1} : () -> ()
  %s = arith.addf %t, %t {opsched.cost = 1} : tensor<4xf32>
  %r = arith.mulf %s, %s {opsched.cost = 50} : tensor<4xf32>
  return %r : tensor<4xf32>
}
