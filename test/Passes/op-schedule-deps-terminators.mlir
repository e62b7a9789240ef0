// Terminators (docs/Passes.md, "Dependency rules"): the last op of a block
// stays last, registered or not, terminator or not, in every region kind.
// Each last op below has the largest rank, so list scheduling would
// otherwise move it up.
// RUN: opsched-opt --allow-unregistered-dialect --op-schedule %s | FileCheck %s
// RUN: opsched-opt --allow-unregistered-dialect --op-schedule='streams=4' %s | FileCheck %s
// RUN: opsched-opt --allow-unregistered-dialect --op-schedule='policy=min-memory' %s | FileCheck %s
// RUN: opsched-opt --allow-unregistered-dialect --op-schedule='cost-model=unit streams=2' %s | FileCheck %s

// An unregistered op ending a function body may be its terminator.
// CHECK-LABEL: func.func @unregistered_return
// CHECK-NEXT: arith.addf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: "foo.return"
// CHECK-NEXT: {{^ *}}}
func.func @unregistered_return(%x: f32) -> f32 {
  %a = arith.addf %x, %x {opsched.cost = 1} : f32
  %b = arith.mulf %x, %x {opsched.cost = 1} : f32
  "foo.return"(%a) {opsched.cost = 100} : (f32) -> ()
}

// A block of an unregistered op (it may be a graph region) ending with a
// registered op that is no terminator.
// CHECK-LABEL: func.func @unregistered_region
// CHECK: "foo.region"
// CHECK-NEXT: arith.addf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: arith.subf
// CHECK-NEXT: })
func.func @unregistered_region(%x: f32) -> f32 {
  %r = "foo.region"() ({
    %a = arith.addf %x, %x {opsched.cost = 1} : f32
    %b = arith.mulf %x, %x {opsched.cost = 1} : f32
    %c = arith.subf %a, %a {opsched.cost = 100} : f32
  }) : () -> f32
  return %r : f32
}

// The module body is a graph region whose last op is no terminator; its
// nested unregistered op holds a block ending in an unregistered op with
// no operands (nothing ties it to the end but the rule).
// CHECK-LABEL: func.func @unregistered_last_without_operands
// CHECK: "foo.graph"
// CHECK-NEXT: arith.addf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: "foo.end"() {opsched.cost = 100
func.func @unregistered_last_without_operands(%x: f32) {
  "foo.graph"() ({
    %a = arith.addf %x, %x {opsched.cost = 1} : f32
    %b = arith.mulf %a, %x {opsched.cost = 1} : f32
    "foo.end"() {opsched.cost = 100} : () -> ()
  }) : () -> ()
  return
}

// Registered terminators, as always.
// CHECK-LABEL: func.func @registered_terminator
// CHECK: arith.subf
// CHECK: return
func.func @registered_terminator(%x: f32) -> f32 {
  %a = arith.addf %x, %x {opsched.cost = 1} : f32
  %b = arith.mulf %x, %x {opsched.cost = 1} : f32
  %c = arith.subf %a, %a {opsched.cost = 100} : f32
  return %c : f32
}
