// The checker sees effects: on several streams, two ops the IR's values do
// not order but that must not run at once (memory effects per buffer and
// alias, unknown effects, allocation scope, speculation, the block's last
// op) need stream order or waits between them; otherwise the error is at
// the later op with a note at the other.
// RUN: opsched-opt --allow-unregistered-dialect --op-schedule-verify -split-input-file -verify-diagnostics %s

// Read after write on one buffer (issue 12 class 5).
func.func @store_load(%m: memref<4xf32>, %i: index, %v: f32) -> f32 attributes {opsched.streams = 2 : i64} {
  // expected-note @below {{the other op is here}}
  memref.store %v, %m[%i] {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 0} : memref<4xf32>
  // expected-error @below {{opsched-verify: reads memory that op 'memref.store' (id 0) writes (read after write), but no stream order or wait orders the two (streams 1 and 0)}}
  %x = memref.load %m[%i] {opsched.start = 0, opsched.end = 1, opsched.stream = 1, opsched.id = 1} : memref<4xf32>
  return %x : f32
}

// -----

// Write after read.
func.func @load_store(%m: memref<4xf32>, %i: index, %v: f32) -> f32 attributes {opsched.streams = 2 : i64} {
  // expected-note @below {{the other op is here}}
  %x = memref.load %m[%i] {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 0} : memref<4xf32>
  // expected-error @below {{writes memory that op 'memref.load' (id 0) reads (write after read)}}
  memref.store %v, %m[%i] {opsched.start = 1, opsched.end = 2, opsched.stream = 1, opsched.id = 1} : memref<4xf32>
  return %x : f32
}

// -----

// Write after write: two fills of one buffer.
func.func @two_fills(%m: memref<4xf32>, %a: f32, %b: f32) attributes {opsched.streams = 2 : i64} {
  // expected-note @below {{the other op is here}}
  linalg.fill {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 0} ins(%a : f32) outs(%m : memref<4xf32>)
  // expected-error @below {{writes memory that op 'linalg.fill' (id 0) also writes (write after write)}}
  linalg.fill {opsched.start = 0, opsched.end = 1, opsched.stream = 1, opsched.id = 1} ins(%b : f32) outs(%m : memref<4xf32>)
  return
}

// -----

// A load and the dealloc of its buffer: the dealloc waits on the alloc only.
func.func @load_dealloc(%i: index) -> f32 attributes {opsched.streams = 2 : i64} {
  %m = memref.alloc() {opsched.start = 0, opsched.end = 0, opsched.stream = 0, opsched.id = 0} : memref<4xf32>
  // expected-note @below {{the other op is here}}
  %x = memref.load %m[%i] {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 1} : memref<4xf32>
  // expected-error @below {{frees memory that op 'memref.load' (id 1) accesses, but no stream order or wait orders the two}}
  memref.dealloc %m {opsched.start = 0, opsched.end = 1, opsched.stream = 1, opsched.id = 2, opsched.waits = array<i64: 0>} : memref<4xf32>
  return %x : f32
}

// -----

// Use after free: the load comes after the dealloc in the IR, unordered.
func.func @use_after_free(%i: index) -> f32 attributes {opsched.streams = 2 : i64} {
  %m = memref.alloc() {opsched.start = 0, opsched.end = 0, opsched.stream = 0, opsched.id = 0} : memref<4xf32>
  // expected-note @below {{the other op is here}}
  memref.dealloc %m {opsched.start = 0, opsched.end = 1, opsched.stream = 1, opsched.id = 1, opsched.waits = array<i64: 0>} : memref<4xf32>
  // expected-error @below {{accesses memory that op 'memref.dealloc' (id 1) frees (use after free)}}
  %x = memref.load %m[%i] {opsched.start = 1, opsched.end = 2, opsched.stream = 0, opsched.id = 2} : memref<4xf32>
  return %x : f32
}

// -----

// A store and a call with unknown effects (to another buffer: unknown
// effects may touch any).
func.func private @ext(memref<4xf32>)
func.func @store_call(%m: memref<4xf32>, %n: memref<4xf32>, %i: index, %v: f32) attributes {opsched.streams = 2 : i64} {
  // expected-note @below {{the other op is here}}
  memref.store %v, %m[%i] {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 0} : memref<4xf32>
  // expected-error @below {{has unknown memory effects and op 'memref.store' (id 0) touches memory}}
  func.call @ext(%n) {opsched.start = 0, opsched.end = 1, opsched.stream = 1, opsched.id = 1} : (memref<4xf32>) -> ()
  return
}

// -----

// Aliasing through a subview and a cast: the store writes a view of %m.
func.func @subview(%m: memref<8xf32>, %i: index, %v: f32) -> f32 attributes {opsched.streams = 2 : i64} {
  %s = memref.subview %m[2] [4] [1] {opsched.start = 0, opsched.end = 0, opsched.stream = 0, opsched.id = 0} : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>
  %c = memref.cast %s {opsched.start = 0, opsched.end = 0, opsched.stream = 0, opsched.id = 1} : memref<4xf32, strided<[1], offset: 2>> to memref<?xf32, strided<[1], offset: 2>>
  // expected-note @below {{the other op is here}}
  memref.store %v, %c[%i] {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 2} : memref<?xf32, strided<[1], offset: 2>>
  // expected-error @below {{reads memory that op 'memref.store' (id 2) writes (read after write)}}
  %x = memref.load %m[%i] {opsched.start = 0, opsched.end = 1, opsched.stream = 1, opsched.id = 3} : memref<8xf32>
  return %x : f32
}

// -----

// Bufferization boundary: the tensor made from %m is read from %m's memory,
// so its reader and %m's dealloc must be ordered.
func.func @to_tensor(%m: memref<4xf32>, %i: index) -> f32 attributes {opsched.streams = 2 : i64} {
  %t = bufferization.to_tensor %m {opsched.start = 0, opsched.end = 0, opsched.stream = 0, opsched.id = 0} : memref<4xf32> to tensor<4xf32>
  // expected-note @below {{the other op is here}}
  %x = tensor.extract %t[%i] {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 1} : tensor<4xf32>
  // expected-error @below {{frees memory that op 'tensor.extract' (id 1) accesses}}
  memref.dealloc %m {opsched.start = 1, opsched.end = 2, opsched.stream = 1, opsched.id = 2, opsched.waits = array<i64: 0>} : memref<4xf32>
  return %x : f32
}

// -----

// Speculation: a division that may trap runs at once with the assertion
// guarding it.
func.func @divide(%a: i32, %b: i32, %c: i1) -> i32 attributes {opsched.streams = 2 : i64} {
  // expected-note @below {{the other op is here}}
  cf.assert %c, "b is zero" {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 0}
  // expected-error @below {{is not speculatable and op 'cf.assert' (id 0) may not return (a call, an assertion or unknown effects), but no stream order or wait orders the two}}
  %d = arith.divsi %a, %b {opsched.start = 0, opsched.end = 1, opsched.stream = 1, opsched.id = 1} : i32
  return %d : i32
}

// -----

// Speculation, the other way round in the IR: the division comes first.
func.func private @maybe_exit(i32)
func.func @divide_call(%a: i32, %b: i32) -> i32 attributes {opsched.streams = 2 : i64} {
  // expected-note @below {{the other op is here}}
  %d = arith.divsi %a, %b {opsched.start = 0, opsched.end = 1, opsched.stream = 1, opsched.id = 0} : i32
  // expected-error @below {{may not return (a call, an assertion or unknown effects) and op 'arith.divsi' (id 0) is not speculatable}}
  func.call @maybe_exit(%b) {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 1} : (i32) -> ()
  return %d : i32
}

// -----

// Allocation scope: the alloca may land between the stack save and restore.
func.func @alloca(%i: index) attributes {opsched.streams = 2 : i64} {
  // expected-note @below {{the other op is here}}
  %s = llvm.intr.stacksave {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 0} : !llvm.ptr
  // expected-error @below {{allocates on the stack while op 'llvm.intr.stacksave' (id 0) saves, restores or may change it (allocation scope)}}
  // expected-note @below {{the other op is here}}
  %a = memref.alloca() {opsched.start = 0, opsched.end = 1, opsched.stream = 1, opsched.id = 1} : memref<4xf32>
  // expected-error @below {{saves, restores or may change the stack while op 'memref.alloca' (id 1) allocates on it (allocation scope)}}
  llvm.intr.stackrestore %s {opsched.start = 1, opsched.end = 2, opsched.stream = 0, opsched.id = 2} : !llvm.ptr
  return
}

// -----

// The block's last op (an unregistered op that may be its terminator)
// carries a schedule but does not run after b.
func.func @last_op(%x: f32) attributes {opsched.streams = 2 : i64} {
  "test.graph"() ({
    %a = arith.addf %x, %x {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 0} : f32
    // expected-note @below {{the other op is here}}
    %b = arith.mulf %x, %x {opsched.start = 0, opsched.end = 1, opsched.stream = 1, opsched.id = 1} : f32
    // expected-error @below {{the block's last op must run after every other op, but op 'arith.mulf' (id 1) (stream 1) is not ordered before it by stream order or waits}}
    "test.end"(%a) {opsched.start = 1, opsched.end = 2, opsched.stream = 0, opsched.id = 2} : (f32) -> ()
  }) : () -> ()
  return
}

// -----

// A wait on an op that has not ended when the waiting op starts.
func.func @wait_early(%m: memref<4xf32>, %i: index, %v: f32) -> f32 attributes {opsched.streams = 2 : i64} {
  // expected-note @below {{the op waited on is here}}
  memref.store %v, %m[%i] {opsched.start = 0, opsched.end = 4, opsched.stream = 0, opsched.id = 0} : memref<4xf32>
  // expected-error @below {{'opsched.waits' names op 'memref.store' (id 0), which ends at 4, after this op starts at 1: waits must follow the timeline}}
  %x = memref.load %m[%i] {opsched.start = 1, opsched.end = 2, opsched.stream = 1, opsched.id = 1, opsched.waits = array<i64: 0>} : memref<4xf32>
  return %x : f32
}

// -----

// An allocation reaches another value through an op the checker does not
// see through (scf.if's result): the two may alias.
func.func @through_if(%c: i1, %n: memref<4xf32>, %i: index, %v: f32) -> f32 attributes {opsched.streams = 2 : i64} {
  %m = memref.alloc() {opsched.start = 0, opsched.end = 0, opsched.stream = 0, opsched.id = 0} : memref<4xf32>
  %r = scf.if %c -> memref<4xf32> {
    scf.yield %m : memref<4xf32>
  } else {
    scf.yield %n : memref<4xf32>
  } {opsched.start = 0, opsched.end = 0, opsched.stream = 0, opsched.id = 1}
  // expected-note @below {{the other op is here}}
  memref.store %v, %r[%i] {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 2} : memref<4xf32>
  // expected-error @below {{reads memory that op 'memref.store' (id 2) writes (read after write)}}
  %x = memref.load %m[%i] {opsched.start = 0, opsched.end = 1, opsched.stream = 1, opsched.id = 3, opsched.waits = array<i64: 0>} : memref<4xf32>
  return %x : f32
}

// -----

// Inside a loop the carried buffer may be the allocation passed in.
func.func @iter_args(%i: index, %v: f32) -> f32 attributes {opsched.streams = 2 : i64} {
  %c0 = arith.constant {opsched.start = 0, opsched.end = 0, opsched.stream = 0, opsched.id = 0} 0 : index
  %c1 = arith.constant {opsched.start = 0, opsched.end = 0, opsched.stream = 0, opsched.id = 1} 1 : index
  %m = memref.alloc() {opsched.start = 0, opsched.end = 0, opsched.stream = 0, opsched.id = 2} : memref<4xf32>
  // expected-note @below {{the other op is here}}
  %r = scf.for %k = %c0 to %c1 step %c1 iter_args(%b = %m) -> memref<4xf32> {
    memref.store %v, %b[%i] : memref<4xf32>
    scf.yield %b : memref<4xf32>
  } {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 3}
  // expected-error @below {{reads memory that op 'scf.for' (id 3) writes (read after write)}}
  %x = memref.load %m[%i] {opsched.start = 0, opsched.end = 1, opsched.stream = 1, opsched.id = 4, opsched.waits = array<i64: 2>} : memref<4xf32>
  return %x : f32
}

// -----

// Effects nested two deep count for the op that holds them, and for a
// second op of the same name (whose effects the checker composes from its
// nested ops once the first showed that scf.for recurses).
func.func @nested_deep(%m: memref<4xf32>, %n: memref<4xf32>, %c: i1, %i: index, %v: f32, %lb: index, %ub: index) -> f32 attributes {opsched.streams = 2 : i64} {
  // expected-note @below {{the other op is here}}
  scf.for %k = %lb to %ub step %ub {
    scf.if %c {
      memref.store %v, %m[%i] : memref<4xf32>
    }
  } {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 0}
  // expected-error @below {{reads memory that op 'scf.for' (id 0) writes (read after write)}}
  %x = memref.load %m[%i] {opsched.start = 0, opsched.end = 1, opsched.stream = 1, opsched.id = 1} : memref<4xf32>
  // expected-note @below {{the other op is here}}
  scf.for %k = %lb to %ub step %ub {
    scf.if %c {
      scf.if %c {
        memref.store %v, %n[%i] : memref<4xf32>
      }
    }
  } {opsched.start = 1, opsched.end = 2, opsched.stream = 0, opsched.id = 2, opsched.waits = array<i64: 1>}
  // expected-error @below {{reads memory that op 'scf.for' (id 2) writes (read after write)}}
  %y = memref.load %n[%i] {opsched.start = 1, opsched.end = 2, opsched.stream = 1, opsched.id = 3} : memref<4xf32>
  %s = arith.addf %x, %y {opsched.start = 2, opsched.end = 3, opsched.stream = 0, opsched.id = 4, opsched.waits = array<i64: 1, 3>} : f32
  return %s : f32
}

// -----

// An op with both its own effects and a region (linalg.generic on memrefs):
// its own effects, its payload adds none.
func.func @generic_own(%m: memref<4xf32>, %n: memref<4xf32>, %i: index) -> f32 attributes {opsched.streams = 2 : i64} {
  // expected-note @below {{the other op is here}}
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 0} ins(%m : memref<4xf32>) outs(%n : memref<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }
  // expected-error @below {{reads memory that op 'linalg.generic' (id 0) writes (read after write)}}
  %x = memref.load %n[%i] {opsched.start = 0, opsched.end = 1, opsched.stream = 1, opsched.id = 1} : memref<4xf32>
  return %x : f32
}

// -----

// A loop is speculatable only when everything in it is: a division nested
// two deep makes the outer loop not speculatable.
func.func @nested_speculation(%c: i1, %j: i32) attributes {opsched.streams = 2 : i64} {
  %c0 = arith.constant {opsched.start = 0, opsched.end = 0, opsched.stream = 0, opsched.id = 0} 0 : index
  %c1 = arith.constant {opsched.start = 0, opsched.end = 0, opsched.stream = 1, opsched.id = 1} 1 : index
  // expected-note @below {{the other op is here}}
  cf.assert %c, "x" {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 2}
  // expected-error @below {{is not speculatable and op 'cf.assert' (id 2) may not return}}
  scf.for %k = %c0 to %c1 step %c1 {
    scf.for %q = %c0 to %c1 step %c1 {
      %d = arith.divsi %j, %j : i32
    }
  } {opsched.start = 0, opsched.end = 1, opsched.stream = 1, opsched.id = 3, opsched.waits = array<i64: 0>}
  // A loop of speculatable ops is speculatable: no error.
  scf.for %k = %c0 to %c1 step %c1 {
    scf.for %q = %c0 to %c1 step %c1 {
      %d = arith.addi %j, %j : i32
    }
  } {opsched.start = 1, opsched.end = 2, opsched.stream = 1, opsched.id = 4}
  return
}
