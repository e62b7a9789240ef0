// Dependency rules through nested regions (docs/Passes.md, "Dependency
// rules"): what an op does at any depth inside a region op counts for the
// region op, at every level. lib/mlir/op_facts.c summarizes each region op
// once, from its nested ops' summaries; these cases put the fact three
// levels down and check the outer order, and the order inside the middle
// level (the same summaries asked again). Each bait has the larger rank, so
// list scheduling would hoist it without the rule; the `*_moves` cases check
// that a summary does not claim more than is there.
// RUN: opsched-opt --op-schedule %s | FileCheck %s --check-prefixes=CHECK,EXACT
// RUN: opsched-opt --op-schedule='streams=4' %s | FileCheck %s --check-prefixes=CHECK,ANY
// RUN: opsched-opt --op-schedule='policy=min-memory' %s | FileCheck %s --check-prefixes=CHECK,ANY

func.func private @maybe_exit(i32)

// A store three levels down writes %m: the load stays after the outer if,
// and, one level in, after the inner if.
// CHECK-LABEL: func.func @deep_store_orders_load
// CHECK: scf.if
// CHECK: scf.if
// CHECK: scf.if
// CHECK-NEXT: memref.store %{{.*}}, %arg0
// CHECK: memref.load %arg0
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: memref.store %{{.*}}, %arg1
// CHECK: memref.load %arg0
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: return
func.func @deep_store_orders_load(%m: memref<4xf32>, %out: memref<4xf32>, %c: i1,
                                  %i: index, %v: f32) -> f32 {
  scf.if %c {
    scf.if %c {
      scf.if %c {
        memref.store %v, %m[%i] {opsched.cost = 1} : memref<4xf32>
      }
    } {opsched.cost = 1}
    %x = memref.load %m[%i] {opsched.cost = 1} : memref<4xf32>
    %y = arith.mulf %x, %x {opsched.cost = 50} : f32
    memref.store %y, %out[%i] {opsched.cost = 1} : memref<4xf32>
  } {opsched.cost = 1}
  %x = memref.load %m[%i] {opsched.cost = 1} : memref<4xf32>
  %y = arith.mulf %x, %x {opsched.cost = 50} : f32
  return %y : f32
}

// A division three levels down may trap: the if stays after the call that
// may not return.
// CHECK-LABEL: func.func @deep_division_stays
// CHECK: call @maybe_exit
// CHECK: scf.if
// CHECK: scf.if
// CHECK: scf.if
// CHECK-NEXT: arith.divsi
// CHECK: return
func.func @deep_division_stays(%a: i32, %b: i32, %c: i1) -> i32 {
  func.call @maybe_exit(%b) {opsched.cost = 1} : (i32) -> ()
  %r = scf.if %c -> i32 {
    %r1 = scf.if %c -> i32 {
      %r2 = scf.if %c -> i32 {
        %q = arith.divsi %a, %b : i32
        scf.yield %q : i32
      } else {
        scf.yield %a : i32
      }
      scf.yield %r2 : i32
    } else {
      scf.yield %a : i32
    }
    scf.yield %r1 : i32
  } else {
    scf.yield %a : i32
  } {opsched.cost = 50}
  return %r : i32
}

// The same nest dividing by 2 cannot trap: the if moves above the call.
// CHECK-LABEL: func.func @deep_safe_division_moves
// EXACT: scf.if
// EXACT: arith.divsi
// EXACT: call @maybe_exit
// EXACT-NEXT: return
func.func @deep_safe_division_moves(%a: i32, %b: i32, %c: i1) -> i32 {
  %two = arith.constant 2 : i32
  func.call @maybe_exit(%b) {opsched.cost = 1} : (i32) -> ()
  %r = scf.if %c -> i32 {
    %r1 = scf.if %c -> i32 {
      %r2 = scf.if %c -> i32 {
        %q = arith.divsi %a, %two : i32
        scf.yield %q : i32
      } else {
        scf.yield %a : i32
      }
      scf.yield %r2 : i32
    } else {
      scf.yield %a : i32
    }
    scf.yield %r1 : i32
  } else {
    scf.yield %a : i32
  } {opsched.cost = 50}
  return %r : i32
}

// A while loop three levels down may not end: a division that may trap
// stays after the outer if.
// CHECK-LABEL: func.func @deep_loop_orders_division
// CHECK: scf.if
// CHECK: scf.if
// CHECK: scf.if
// CHECK: scf.while
// CHECK: arith.divsi
// CHECK-NEXT: arith.muli
// CHECK-NEXT: return
func.func @deep_loop_orders_division(%a: i32, %b: i32, %c: i1) -> i32 {
  scf.if %c {
    scf.if %c {
      scf.if %c {
        scf.while : () -> () {
          scf.condition(%c)
        } do {
          scf.yield
        }
      }
    }
  } {opsched.cost = 1}
  %q = arith.divsi %a, %b {opsched.cost = 1} : i32
  %r = arith.muli %q, %q {opsched.cost = 50} : i32
  return %r : i32
}

// A value used three levels down orders its definition first (a captured
// value); a value defined inside the nest orders nothing outside it: the
// outer if, the larger rank, comes first.
// CHECK-LABEL: func.func @deep_use_orders_definition
// EXACT-NEXT: arith.muli
// ANY: arith.muli
// CHECK-NEXT: scf.if
// CHECK-NEXT: scf.if
// CHECK-NEXT: scf.if
// CHECK-NEXT: arith.addi
// EXACT: arith.subi
// EXACT-NEXT: arith.addi
// EXACT-NEXT: return
func.func @deep_use_orders_definition(%a: i32, %b: i32, %c: i1) -> i32 {
  %s = arith.subi %a, %b {opsched.cost = 1} : i32
  %d = arith.muli %a, %b {opsched.cost = 1} : i32
  %r = scf.if %c -> i32 {
    %r1 = scf.if %c -> i32 {
      %r2 = scf.if %c -> i32 {
        %e = arith.addi %d, %a : i32
        scf.yield %e : i32
      } else {
        scf.yield %a : i32
      }
      scf.yield %r2 : i32
    } else {
      scf.yield %a : i32
    }
    scf.yield %r1 : i32
  } else {
    scf.yield %a : i32
  } {opsched.cost = 50}
  %t = arith.addi %r, %s {opsched.cost = 1} : i32
  return %t : i32
}

// An element read at an index not known in bounds three levels down may
// trap (after bufferization a load an earlier check may guard), though MLIR
// calls every op of the nest speculatable: the if stays after the call.
// CHECK-LABEL: func.func @deep_extract_stays
// CHECK: call @maybe_exit
// CHECK: scf.if
// CHECK: scf.if
// CHECK: scf.if
// CHECK-NEXT: tensor.extract
// CHECK: return
func.func @deep_extract_stays(%t: tensor<4xi32>, %i: index, %a: i32, %b: i32,
                              %c: i1) -> i32 {
  func.call @maybe_exit(%b) {opsched.cost = 1} : (i32) -> ()
  %r = scf.if %c -> i32 {
    %r1 = scf.if %c -> i32 {
      %r2 = scf.if %c -> i32 {
        %e = tensor.extract %t[%i] : tensor<4xi32>
        scf.yield %e : i32
      } else {
        scf.yield %a : i32
      }
      scf.yield %r2 : i32
    } else {
      scf.yield %a : i32
    }
    scf.yield %r1 : i32
  } else {
    scf.yield %a : i32
  } {opsched.cost = 50}
  return %r : i32
}
