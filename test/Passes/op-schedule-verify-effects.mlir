// The checker accepts real op-schedule output on effectful programs (memref
// stores, loads, fills, copies, subviews, calls, alloc/dealloc) and valid
// hand-written schedules whose effects are ordered by waits, and rejects the
// same output once its waits are removed.
// RUN: opsched-opt --op-schedule='streams=4' %s | opsched-opt --op-schedule-verify | FileCheck %s --check-prefix=SCHED
// RUN: opsched-opt --op-schedule='streams=4 cost-model=unit' %s | opsched-opt --op-schedule-verify | FileCheck %s --check-prefix=SCHED
// RUN: opsched-opt --op-schedule='streams=2 cost-model=unit' %s | opsched-opt --op-schedule-verify | FileCheck %s --check-prefix=SCHED
// RUN: opsched-opt --op-schedule='streams=2 policy=min-memory' %s | opsched-opt --op-schedule-verify | FileCheck %s --check-prefix=SCHED
// SCHED-LABEL: func.func @effects
// SCHED: opsched.stream = 1
// SCHED-LABEL: func.func @ordered
// The scheduler's waits are what orders its effects: without them the
// checker reports the conflicts.
// RUN: opsched-opt --op-schedule='streams=4 cost-model=unit' %s | sed -E 's/, opsched.waits = array<i64: [0-9, ]*>//' | not opsched-opt --op-schedule-verify 2>&1 >/dev/null | FileCheck %s --check-prefix=NOWAITS
// NOWAITS: error: opsched-verify: reads memory that op 'memref.store' (id 5) writes (read after write), but no stream order or wait orders the two
// NOWAITS: error: opsched-verify: has unknown memory effects and op 'memref.load' (id 7) touches memory
// Valid hand-written schedules pass unchanged.
// RUN: opsched-opt --op-schedule-verify %s | FileCheck %s

func.func private @ext(memref<16xf32>)

// CHECK-LABEL: func.func @effects
func.func @effects(%a: memref<16xf32>, %b: memref<16xf32>, %i: index, %v: f32) -> f32 {
  %m = memref.alloc() : memref<16xf32>
  %n = memref.alloc() : memref<16xf32>
  linalg.fill ins(%v : f32) outs(%m : memref<16xf32>)
  linalg.fill ins(%v : f32) outs(%n : memref<16xf32>)
  %s = memref.subview %m[4] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1], offset: 4>>
  memref.store %v, %s[%i] : memref<8xf32, strided<[1], offset: 4>>
  %x = memref.load %m[%i] : memref<16xf32>
  %y = memref.load %n[%i] : memref<16xf32>
  memref.copy %m, %a : memref<16xf32> to memref<16xf32>
  %t = math.exp %x : f32
  %u = math.sqrt %y : f32
  memref.store %u, %b[%i] : memref<16xf32>
  func.call @ext(%b) : (memref<16xf32>) -> ()
  %z = memref.load %a[%i] : memref<16xf32>
  memref.dealloc %m : memref<16xf32>
  memref.dealloc %n : memref<16xf32>
  %r = arith.addf %t, %z : f32
  %w = arith.addf %r, %u : f32
  return %w : f32
}

// A store, then a load of the same buffer on another stream waiting on it;
// a load of a distinct allocation and a read of the same buffer need no
// wait (reads may run at once; fresh allocations do not alias).
// CHECK-LABEL: func.func @ordered
func.func @ordered(%m: memref<4xf32>, %i: index, %v: f32) -> (f32, f32, f32) attributes {opsched.streams = 3 : i64} {
  %n = memref.alloc() {opsched.start = 0, opsched.end = 0, opsched.stream = 1, opsched.id = 0} : memref<4xf32>
  memref.store %v, %m[%i] {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 1} : memref<4xf32>
  %y = memref.load %n[%i] {opsched.start = 0, opsched.end = 1, opsched.stream = 1, opsched.id = 2} : memref<4xf32>
  %x = memref.load %m[%i] {opsched.start = 1, opsched.end = 2, opsched.stream = 1, opsched.id = 3, opsched.waits = array<i64: 1>} : memref<4xf32>
  %z = memref.load %m[%i] {opsched.start = 1, opsched.end = 2, opsched.stream = 2, opsched.id = 4, opsched.waits = array<i64: 1>} : memref<4xf32>
  return %x, %y, %z : f32, f32, f32
}

// A speculatable division (constant non-zero divisor) beside an assertion.
// CHECK-LABEL: func.func @speculatable
func.func @speculatable(%a: i32, %c: i1) -> i32 attributes {opsched.streams = 2 : i64} {
  %k = arith.constant {opsched.start = 0, opsched.end = 0, opsched.stream = 1, opsched.id = 0} 7 : i32
  cf.assert %c, "never" {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 1}
  %d = arith.divsi %a, %k {opsched.start = 0, opsched.end = 1, opsched.stream = 1, opsched.id = 2} : i32
  return %d : i32
}

// Stores to two distinct allocations run at once: they do not alias. (The
// scheduler's own rules order effects per resource without alias analysis,
// so op-buffer-slots rejects this placement: stricter than needed, not a
// disagreement on what is safe; docs/Passes.md "What the checker proves".)
// CHECK-LABEL: func.func @distinct_allocs
func.func @distinct_allocs(%i: index, %v: f32) -> (memref<4xf32>, memref<4xf32>) attributes {opsched.streams = 2 : i64} {
  %m = memref.alloc() {opsched.start = 0, opsched.end = 0, opsched.stream = 0, opsched.id = 0} : memref<4xf32>
  %n = memref.alloc() {opsched.start = 0, opsched.end = 0, opsched.stream = 1, opsched.id = 1} : memref<4xf32>
  memref.store %v, %m[%i] {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 2} : memref<4xf32>
  memref.store %v, %n[%i] {opsched.start = 0, opsched.end = 1, opsched.stream = 1, opsched.id = 3} : memref<4xf32>
  return %m, %n : memref<4xf32>, memref<4xf32>
}

// An allocation does not alias an argument of the function.
// CHECK-LABEL: func.func @alloc_vs_argument
func.func @alloc_vs_argument(%a: memref<4xf32>, %i: index, %v: f32) -> (f32, memref<4xf32>) attributes {opsched.streams = 2 : i64} {
  %m = memref.alloc() {opsched.start = 0, opsched.end = 0, opsched.stream = 0, opsched.id = 0} : memref<4xf32>
  memref.store %v, %m[%i] {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 1} : memref<4xf32>
  %x = memref.load %a[%i] {opsched.start = 0, opsched.end = 1, opsched.stream = 1, opsched.id = 2} : memref<4xf32>
  return %x, %m : f32, memref<4xf32>
}
