// A multi-block CFG: every block is scheduled on its own (nothing crosses a
// block boundary, the terminators stay last), blocks with one op besides the
// terminator are left untouched, and the function's figures add up over
// its blocks (critical path 1 + 2, makespan 2 + 3).
// RUN: opsched-opt --op-schedule='cost-model=unit' --mlir-print-debuginfo --mlir-print-local-scope %s | FileCheck %s
// CHECK-LABEL: func.func @cfg
// CHECK-SAME: opsched.critical_path = 3 : i64{{.*}}opsched.lower_bound = 5 : i64{{.*}}opsched.makespan = 5 : i64
// CHECK: opsched.start = 0 : i64{{.*}}loc("a0")
// CHECK: opsched.start = 1 : i64{{.*}}loc("a1")
// CHECK-NEXT: cf.cond_br
// CHECK: ^bb1(
// s0 (rank 2, heads the chain s0 -> s1) overtakes d; d and s1 tie at rank 1
// and keep their original order:
// CHECK: opsched.start = 0 : i64{{.*}}loc("s0")
// CHECK: opsched.start = 1 : i64{{.*}}loc("d")
// CHECK: opsched.start = 2 : i64{{.*}}loc("s1")
// CHECK-NEXT: cf.br ^bb2
// CHECK: ^bb2(
// CHECK-NOT: opsched.start
// CHECK: arith.negf
// CHECK-NOT: opsched.start
// CHECK: return
func.func @cfg(%c: i1, %a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %a, %a : tensor<4xf32> loc("a0")
  %1 = arith.mulf %a, %a : tensor<4xf32> loc("a1")
  cf.cond_br %c, ^bb1(%0 : tensor<4xf32>), ^bb2(%1 : tensor<4xf32>)
^bb1(%x: tensor<4xf32>):
  %d = arith.divf %x, %1 : tensor<4xf32> loc("d")
  %2 = arith.subf %x, %1 : tensor<4xf32> loc("s0")
  %3 = arith.addf %2, %2 : tensor<4xf32> loc("s1")
  cf.br ^bb2(%3 : tensor<4xf32>)
^bb2(%y: tensor<4xf32>):
  %n = arith.negf %y : tensor<4xf32>
  return %n : tensor<4xf32>
}
