// A graph region with a use-def cycle (a builtin.module nested in a
// function): that block is left in its original order with a warning and
// no attributes; the enclosing block is still scheduled.
// RUN: opsched-opt -allow-unregistered-dialect --op-schedule='cost-model=unit' --mlir-print-debuginfo --mlir-print-local-scope %s 2>&1 | FileCheck %s
// CHECK: warning: opsched: block left in its original order: its dependency graph has a cycle
// CHECK-LABEL: func.func @g
// CHECK: opsched.start = 0 : i64{{.*}}loc("add")
// CHECK: opsched.start = 1 : i64{{.*}}loc("mul")
// CHECK: builtin.module attributes {{{.*}}opsched.start = 2 : i64
// CHECK-NEXT: "foo.a"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32> loc("ga")
// CHECK-NEXT: "foo.b"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32> loc("gb")
// CHECK-NEXT: "foo.c"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32> loc("gc")
// CHECK: opsched.start = 3 : i64{{.*}}loc("sub")
func.func @g(%a: tensor<4xf32>) -> tensor<4xf32> {
  builtin.module {
    %0 = "foo.a"(%1) : (tensor<4xf32>) -> tensor<4xf32> loc("ga")
    %1 = "foo.b"(%0) : (tensor<4xf32>) -> tensor<4xf32> loc("gb")
    %2 = "foo.c"(%0) : (tensor<4xf32>) -> tensor<4xf32> loc("gc")
  }
  %0 = arith.addf %a, %a : tensor<4xf32> loc("add")
  %1 = arith.mulf %a, %a : tensor<4xf32> loc("mul")
  %2 = arith.subf %0, %1 : tensor<4xf32> loc("sub")
  return %2 : tensor<4xf32>
}
