// Dynamic and unranked shapes: each unknown dimension counts as 1 (one
// remark, at the function's first such op, counting the others), the block
// is still scheduled, and buffers of dynamic size count 0 bytes.
// RUN: opsched-opt --op-schedule='cost-model=unit' --mlir-print-debuginfo --mlir-print-local-scope %s 2>&1 | FileCheck %s
// CHECK: remark: loc("add"): opsched: dynamic shape: the cost model counts each unknown dimension as 1 and its buffers count 'opsched.bytes' bytes (0 when absent) (here and at 3 more ops of this function)
// CHECK-NOT: remark
// CHECK-LABEL: func.func @dyn
// CHECK-SAME: opsched.critical_path = 3 : i64{{.*}}opsched.lower_bound = 4 : i64{{.*}}opsched.makespan = 4 : i64{{.*}}opsched.original_peak_memory = 0 : i64{{.*}}opsched.peak_memory = 0 : i64
// CHECK: opsched.start = 0 : i64{{.*}}loc("add")
// CHECK: opsched.start = 1 : i64{{.*}}loc("mul")
// CHECK: opsched.start = 2 : i64{{.*}}loc("exp")
// CHECK: opsched.start = 3 : i64{{.*}}loc("sub")
func.func @dyn(%a: tensor<?x4xf32>, %u: tensor<*xf32>) -> (tensor<?x4xf32>, tensor<*xf32>) {
  %0 = arith.addf %a, %a : tensor<?x4xf32> loc("add")
  %1 = arith.mulf %0, %a : tensor<?x4xf32> loc("mul")
  %2 = math.exp %u : tensor<*xf32> loc("exp")
  %3 = arith.subf %1, %0 : tensor<?x4xf32> loc("sub")
  return %3, %2 : tensor<?x4xf32>, tensor<*xf32>
}
