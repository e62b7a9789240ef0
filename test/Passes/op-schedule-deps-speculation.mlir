// Speculation (docs/Passes.md, "Dependency rules"): an op that may trap (not
// speculatable: integer division by a divisor that may be 0 or -1, element
// access at an index not known in bounds, MLIR's ConditionallySpeculatable
// saying no, recursively through regions) keeps its order with every op
// that may not return or is observable (calls of any kind, cf.assert,
// writes such as vector.print, loops that may not end). Each bait op below
// has the larger rank, so list scheduling would hoist it without the rule.
// CHECK holds under every option set; where the default order is checked
// whole (EXACT), ANY states what the other option sets must keep of it.
// RUN: opsched-opt --op-schedule %s | FileCheck %s --check-prefixes=CHECK,EXACT
// RUN: opsched-opt --op-schedule='streams=4' %s | FileCheck %s --check-prefixes=CHECK,ANY
// RUN: opsched-opt --op-schedule='policy=min-memory' %s | FileCheck %s --check-prefixes=CHECK,ANY
// RUN: opsched-opt --op-schedule='cost-model=unit streams=2' %s | FileCheck %s --check-prefixes=CHECK,ANY

func.func private @maybe_exit(i32)
func.func private @get(i32) -> i32
llvm.func @llvm_exit(i32)

// CHECK-LABEL: func.func @div_after_call
// CHECK-NEXT: call @maybe_exit
// CHECK-NEXT: arith.divsi
// CHECK-NEXT: arith.muli
// CHECK-NEXT: return
func.func @div_after_call(%a: i32, %b: i32) -> i32 {
  func.call @maybe_exit(%b) {opsched.cost = 1} : (i32) -> ()
  %q = arith.divsi %a, %b {opsched.cost = 1} : i32
  %r = arith.muli %q, %q {opsched.cost = 50} : i32
  return %r : i32
}

// CHECK-LABEL: func.func @rem_after_assert
// CHECK-NEXT: cf.assert
// CHECK-NEXT: arith.remui
// CHECK-NEXT: arith.muli
// CHECK-NEXT: return
func.func @rem_after_assert(%a: i32, %b: i32, %ok: i1) -> i32 {
  cf.assert %ok, "divisor is zero"
  %q = arith.remui %a, %b {opsched.cost = 1} : i32
  %r = arith.muli %q, %q {opsched.cost = 50} : i32
  return %r : i32
}

// The other direction: a call does not move above a division that may trap.
// CHECK-LABEL: func.func @call_after_div
// CHECK-NEXT: arith.ceildivsi
// CHECK-NEXT: call @get
// CHECK-NEXT: arith.muli
// CHECK-NEXT: arith.addi
// CHECK-NEXT: return
func.func @call_after_div(%a: i32, %b: i32) -> i32 {
  %q = arith.ceildivsi %a, %b {opsched.cost = 1} : i32
  %c = func.call @get(%a) {opsched.cost = 1} : (i32) -> i32
  %r = arith.muli %c, %c {opsched.cost = 50} : i32
  %s = arith.addi %r, %q {opsched.cost = 1} : i32
  return %s : i32
}

// Division by a constant other than 0 and -1 cannot trap: it moves (this
// also shows the speculatability query answers "yes" on a real op).
// CHECK-LABEL: func.func @div_by_constant_moves
// EXACT-NEXT: arith.constant {{.*}} 2 : i32
// EXACT-NEXT: arith.divsi
// EXACT-NEXT: arith.muli
// EXACT-NEXT: call @maybe_exit
// EXACT-NEXT: return
func.func @div_by_constant_moves(%a: i32, %b: i32) -> i32 {
  %two = arith.constant 2 : i32
  func.call @maybe_exit(%b) {opsched.cost = 1} : (i32) -> ()
  %q = arith.divsi %a, %two {opsched.cost = 1} : i32
  %r = arith.muli %q, %q {opsched.cost = 50} : i32
  return %r : i32
}

// INT_MIN / -1 traps: signed division by -1 stays.
// CHECK-LABEL: func.func @div_by_minus_one_stays
// CHECK: call @maybe_exit
// CHECK: arith.divsi
// CHECK-NEXT: arith.muli
// CHECK-NEXT: return
func.func @div_by_minus_one_stays(%a: i32, %b: i32) -> i32 {
  %m1 = arith.constant -1 : i32
  func.call @maybe_exit(%b) {opsched.cost = 1} : (i32) -> ()
  %q = arith.divsi %a, %m1 {opsched.cost = 1} : i32
  %r = arith.muli %q, %q {opsched.cost = 50} : i32
  return %r : i32
}

// Unsigned division by all ones cannot trap.
// CHECK-LABEL: func.func @divui_by_all_ones_moves
// EXACT-NEXT: arith.constant {{.*}} -1 : i32
// EXACT-NEXT: arith.divui
// EXACT-NEXT: arith.muli
// EXACT-NEXT: call @maybe_exit
// EXACT-NEXT: return
func.func @divui_by_all_ones_moves(%a: i32, %b: i32) -> i32 {
  %m1 = arith.constant -1 : i32
  func.call @maybe_exit(%b) {opsched.cost = 1} : (i32) -> ()
  %q = arith.divui %a, %m1 {opsched.cost = 1} : i32
  %r = arith.muli %q, %q {opsched.cost = 50} : i32
  return %r : i32
}

// Nested ops count for their parent: the generic dividing stays after the
// assert, the one adding moves above it.
// CHECK-LABEL: func.func @generic_payload
// EXACT-NEXT: tensor.empty
// EXACT-NEXT: linalg.generic
// EXACT-NEXT: ^bb0
// EXACT-NEXT: arith.addi
// EXACT-NEXT: linalg.yield
// EXACT-NEXT: }
// EXACT-NEXT: arith.addi
// EXACT-NEXT: cf.assert
// EXACT-NEXT: linalg.generic
// EXACT-NEXT: ^bb0
// EXACT-NEXT: arith.floordivsi
// ANY: cf.assert
// ANY: arith.floordivsi
// CHECK: return
func.func @generic_payload(%t: tensor<4xi32>, %b: i32, %ok: i1) -> (tensor<4xi32>, tensor<4xi32>) {
  %e = tensor.empty() : tensor<4xi32>
  cf.assert %ok, "divisor is zero"
  %d = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%t : tensor<4xi32>) outs(%e : tensor<4xi32>) attrs = {opsched.cost = 1} {
  ^bb0(%x: i32, %o: i32):
    %y = arith.floordivsi %x, %b : i32
    linalg.yield %y : i32
  } -> tensor<4xi32>
  %s = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%t : tensor<4xi32>) outs(%e : tensor<4xi32>) attrs = {opsched.cost = 1} {
  ^bb0(%x: i32, %o: i32):
    %y = arith.addi %x, %b : i32
    linalg.yield %y : i32
  } -> tensor<4xi32>
  %d2 = arith.addi %d, %d {opsched.cost = 50} : tensor<4xi32>
  %s2 = arith.addi %s, %s {opsched.cost = 100} : tensor<4xi32>
  return %d2, %s2 : tensor<4xi32>, tensor<4xi32>
}

// A loop whose body calls a function that may exit may not return.
// CHECK-LABEL: func.func @loop_calls
// CHECK: scf.for
// CHECK-NEXT: func.call @maybe_exit
// CHECK-NEXT: }
// CHECK-NEXT: arith.divui
// CHECK-NEXT: arith.muli
// CHECK-NEXT: return
func.func @loop_calls(%a: i32, %b: i32, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    func.call @maybe_exit(%a) : (i32) -> ()
  } {opsched.cost = 1}
  %q = arith.divui %a, %b {opsched.cost = 1} : i32
  %r = arith.muli %q, %q {opsched.cost = 50} : i32
  return %r : i32
}

// Output a trap would cut off: the division stays after the print.
// CHECK-LABEL: func.func @print_then_div
// CHECK-NEXT: vector.print
// CHECK-NEXT: arith.remsi
// CHECK-NEXT: arith.muli
// CHECK-NEXT: return
func.func @print_then_div(%a: i32, %b: i32) -> i32 {
  vector.print %a : i32
  %q = arith.remsi %a, %b {opsched.cost = 1} : i32
  %r = arith.muli %q, %q {opsched.cost = 50} : i32
  return %r : i32
}

// CHECK-LABEL: func.func @llvm_call
// CHECK-NEXT: llvm.call @llvm_exit
// CHECK-NEXT: arith.divsi
// CHECK-NEXT: arith.muli
// CHECK-NEXT: return
func.func @llvm_call(%a: i32, %b: i32) -> i32 {
  llvm.call @llvm_exit(%b) {opsched.cost = 1} : (i32) -> ()
  %q = arith.divsi %a, %b {opsched.cost = 1} : i32
  %r = arith.muli %q, %q {opsched.cost = 50} : i32
  return %r : i32
}

// A while loop may not end (MLIR cannot prove it speculatable).
// CHECK-LABEL: func.func @while_may_not_end
// CHECK-NEXT: scf.while
// CHECK: arith.divsi
// CHECK-NEXT: arith.muli
// CHECK-NEXT: arith.addi
// CHECK-NEXT: return
func.func @while_may_not_end(%a: i32, %b: i32, %go: i1) -> i32 {
  %w = scf.while (%x = %a) : (i32) -> i32 {
    scf.condition(%go) %x : i32
  } do {
  ^bb0(%x: i32):
    scf.yield %x : i32
  } attributes {opsched.cost = 1}
  %q = arith.divsi %a, %b {opsched.cost = 1} : i32
  %r = arith.muli %q, %q {opsched.cost = 50} : i32
  %s = arith.addi %r, %w {opsched.cost = 1} : i32
  return %s : i32
}

// tensor.extract at an index the assert guards stays after it (MLIR marks
// it Pure, but after bufferization it is a load that may be out of
// bounds); at a constant index inside the static shape it moves.
// CHECK-LABEL: func.func @extract_after_assert
// EXACT-NEXT: arith.constant {{.*}} 3 : index
// EXACT-NEXT: tensor.extract %{{.*}}[%c3]
// EXACT-NEXT: arith.mulf
// EXACT-NEXT: cf.assert
// EXACT-NEXT: tensor.extract %{{.*}}[%arg1]
// ANY: cf.assert
// ANY: tensor.extract %{{.*}}[%arg1]
// CHECK: return
func.func @extract_after_assert(%t: tensor<8xf32>, %i: index, %ok: i1) -> f32 {
  %c3 = arith.constant 3 : index
  cf.assert %ok, "index out of bounds"
  %x = tensor.extract %t[%i] {opsched.cost = 1} : tensor<8xf32>
  %k = tensor.extract %t[%c3] {opsched.cost = 1} : tensor<8xf32>
  %y = arith.mulf %x, %x {opsched.cost = 50} : f32
  %z = arith.mulf %k, %k {opsched.cost = 100} : f32
  %s = arith.addf %y, %z {opsched.cost = 1} : f32
  return %s : f32
}

// Two ops that may only trap may swap (the first division's chain is
// longer): no order between them, only against barriers.
// EXACT-LABEL: func.func @traps_swap
// EXACT-NEXT: arith.divsi %arg0, %arg2
// EXACT-NEXT: arith.muli
// EXACT-NEXT: arith.divsi %arg0, %arg1
// EXACT-NEXT: arith.addi
// EXACT-NEXT: return
func.func @traps_swap(%a: i32, %b: i32, %c: i32) -> i32 {
  %q = arith.divsi %a, %b {opsched.cost = 1} : i32
  %p = arith.divsi %a, %c {opsched.cost = 1} : i32
  %r = arith.muli %p, %p {opsched.cost = 50} : i32
  %s = arith.addi %r, %q {opsched.cost = 1} : i32
  return %s : i32
}

// scf.for is RecursivelySpeculatable with a constant non-zero step: the
// loop adding moves above the call; the loop whose step may be 0 (it may
// never end) stays after it.
// CHECK-LABEL: func.func @loops_and_steps
// EXACT-NEXT: arith.constant {{.*}} 0 : index
// EXACT-NEXT: arith.constant {{.*}} 1 : index
// EXACT-NEXT: scf.for %{{.*}} = %c0 to %arg1 step %c1
// EXACT: call @maybe_exit
// EXACT-NEXT: scf.for %{{.*}} = %c0 to %arg1 step %arg2
// ANY: call @maybe_exit
// ANY: step %arg2
// CHECK: return
func.func @loops_and_steps(%a: i32, %n: index, %s: index) -> (i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  func.call @maybe_exit(%a) {opsched.cost = 1} : (i32) -> ()
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a) -> i32 {
    %y = arith.addi %x, %x : i32
    scf.yield %y : i32
  } {opsched.cost = 1}
  %q = scf.for %i = %c0 to %n step %s iter_args(%x = %a) -> i32 {
    %y = arith.addi %x, %x : i32
    scf.yield %y : i32
  } {opsched.cost = 1}
  %r2 = arith.muli %r, %r {opsched.cost = 100} : i32
  %q2 = arith.muli %q, %q {opsched.cost = 50} : i32
  return %r2, %q2 : i32, i32
}
