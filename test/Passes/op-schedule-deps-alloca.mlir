// Allocation scopes (docs/Passes.md, "Dependency rules"): an allocation on
// the automatic allocation scope (memref.alloca, llvm.alloca) reads the
// scope; stack save/restore and ops with unknown effects write it. So an
// alloca never moves across llvm.intr.stacksave/stackrestore or a call, in
// a function body or inside memref.alloca_scope; allocas among themselves
// move freely. Each bait has the larger rank.
// CHECK (relative order) holds under every option set; where the default
// order is checked whole (EXACT), ANY states what the other option sets must keep of it.
// RUN: opsched-opt --op-schedule %s 2>/dev/null | FileCheck %s --check-prefixes=CHECK,EXACT
// RUN: opsched-opt --op-schedule='streams=4' %s 2>/dev/null | FileCheck %s --check-prefixes=CHECK,ANY
// RUN: opsched-opt --op-schedule='policy=min-memory' %s 2>/dev/null | FileCheck %s --check-prefixes=CHECK,ANY
// RUN: opsched-opt --op-schedule='cost-model=unit streams=2' %s 2>/dev/null | FileCheck %s --check-prefixes=CHECK,ANY

func.func private @clobber()

// The save has the larger rank: without the rule the alloca would land
// between save and restore, and the restore would free it.
// CHECK-LABEL: func.func @alloca_before_stacksave
// EXACT-NEXT: memref.alloca
// EXACT-NEXT: llvm.intr.stacksave
// EXACT-NEXT: llvm.intr.stackrestore
// EXACT-NEXT: arith.constant
// EXACT-NEXT: memref.store
// EXACT-NEXT: call @clobber
// EXACT-NEXT: memref.load
// EXACT-NEXT: return
// ANY: memref.alloca
// ANY: llvm.intr.stacksave
// ANY: llvm.intr.stackrestore
func.func @alloca_before_stacksave(%n: index, %x: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloca(%n) {opsched.cost = 5} : memref<?xi32>
  %sp = llvm.intr.stacksave {opsched.cost = 10} : !llvm.ptr
  llvm.intr.stackrestore %sp {opsched.cost = 1} : !llvm.ptr
  memref.store %x, %a[%c0] {opsched.cost = 1} : memref<?xi32>
  func.call @clobber() {opsched.cost = 1} : () -> ()
  %v = memref.load %a[%c0] {opsched.cost = 1} : memref<?xi32>
  return %v : i32
}

// CHECK-LABEL: func.func @alloca_after_stackrestore
// CHECK: llvm.intr.stacksave
// CHECK: llvm.intr.stackrestore
// CHECK: memref.alloca
func.func @alloca_after_stackrestore(%n: index, %x: i32) -> (memref<?xi32>, i32) {
  %sp = llvm.intr.stacksave {opsched.cost = 1} : !llvm.ptr
  llvm.intr.stackrestore %sp {opsched.cost = 1} : !llvm.ptr
  %a = memref.alloca(%n) {opsched.cost = 50} : memref<?xi32>
  %y = arith.addi %x, %x {opsched.cost = 1} : i32
  return %a, %y : memref<?xi32>, i32
}

// llvm.alloca is an allocation on the same scope.
// CHECK-LABEL: func.func @llvm_alloca
// CHECK: llvm.alloca
// CHECK: llvm.intr.stacksave
// CHECK: llvm.intr.stackrestore
func.func @llvm_alloca(%n: i32) -> !llvm.ptr {
  %p = llvm.alloca %n x i32 {opsched.cost = 5} : (i32) -> !llvm.ptr
  %sp = llvm.intr.stacksave {opsched.cost = 10} : !llvm.ptr
  llvm.intr.stackrestore %sp {opsched.cost = 1} : !llvm.ptr
  return %p : !llvm.ptr
}

// Inside an alloca_scope the same rule holds between its ops.
// CHECK-LABEL: func.func @alloca_scope_body
// CHECK: memref.alloca_scope
// CHECK: memref.alloca
// CHECK: llvm.intr.stacksave
// CHECK: llvm.intr.stackrestore
func.func @alloca_scope_body(%n: index, %x: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %r = memref.alloca_scope -> i32 {
    %a = memref.alloca(%n) {opsched.cost = 5} : memref<?xi32>
    %sp = llvm.intr.stacksave {opsched.cost = 10} : !llvm.ptr
    llvm.intr.stackrestore %sp {opsched.cost = 1} : !llvm.ptr
    memref.store %x, %a[%c0] {opsched.cost = 1} : memref<?xi32>
    %v = memref.load %a[%c0] {opsched.cost = 1} : memref<?xi32>
    memref.alloca_scope.return %v : i32
  }
  return %r : i32
}

// A call (unknown effects: it may save and restore the stack itself)
// orders against an alloca too.
// CHECK-LABEL: func.func @alloca_after_call
// CHECK: call @clobber
// CHECK: memref.alloca
func.func @alloca_after_call(%n: index) -> memref<?xi32> {
  func.call @clobber() {opsched.cost = 1} : () -> ()
  %a = memref.alloca(%n) {opsched.cost = 50} : memref<?xi32>
  return %a : memref<?xi32>
}

// Two allocas do not order each other.
// CHECK-LABEL: func.func @allocas_reorder
// EXACT-NEXT: %[[B:.*]] = memref.alloca(%arg0) {opsched.cost = 50
// EXACT-NEXT: %[[A:.*]] = memref.alloca(%arg0) {opsched.cost = 1
// EXACT-NEXT: return %[[A]], %[[B]]
// ANY-COUNT-2: memref.alloca(%arg0)
func.func @allocas_reorder(%n: index) -> (memref<?xi32>, memref<?xi32>) {
  %a = memref.alloca(%n) {opsched.cost = 1} : memref<?xi32>
  %b = memref.alloca(%n) {opsched.cost = 50} : memref<?xi32>
  return %a, %b : memref<?xi32>, memref<?xi32>
}
