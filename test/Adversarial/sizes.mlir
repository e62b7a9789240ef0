// Zero-sized tensors (0 bytes, but each op still pays its launch) and sizes
// whose byte counts overflow int64 (a warning per op; sizes, costs, ranks,
// times and peaks saturate at INT64_MAX instead of wrapping).
// RUN: opsched-opt --op-schedule='streams=2' %s 2>&1 | FileCheck %s
// CHECK-COUNT-7: warning: opsched: tensor size overflows 64-bit byte counts; counted as the largest size
// CHECK-LABEL: func.func @zero
// CHECK-SAME: opsched.critical_path = 10000 : i64, opsched.lower_bound = 10000 : i64, opsched.makespan = 10000 : i64, opsched.original_peak_memory = 0 : i64, opsched.peak_memory = 0 : i64, opsched.resident_bytes = 0 : i64
// CHECK-LABEL: func.func @huge
// CHECK-SAME: opsched.original_peak_memory = 9223372036854775807 : i64, opsched.peak_memory = 9223372036854775807 : i64, opsched.resident_bytes = 9223372036854775807 : i64
// CHECK-LABEL: func.func @hugemm
// CHECK-SAME: opsched.critical_path = 9223372036854775807 : i64, opsched.lower_bound = 9223372036854775807 : i64, opsched.makespan = 9223372036854775807 : i64
// CHECK: linalg.matmul
// CHECK-SAME: opsched.start = 0 : i64
// CHECK: linalg.matmul
// CHECK-SAME: opsched.end = 9223372036854775807 : i64
// CHECK-SAME: opsched.start = 9223372036854775807 : i64
func.func @zero(%a: tensor<0x16xf32>) -> tensor<0x16xf32> {
  %0 = arith.addf %a, %a : tensor<0x16xf32>
  %1 = arith.mulf %a, %a : tensor<0x16xf32>
  %2 = arith.subf %0, %1 : tensor<0x16xf32>
  return %2 : tensor<0x16xf32>
}
func.func @huge(%a: tensor<9223372036854775807x16xf32>, %b: tensor<4611686018427387904x4611686018427387904xf64>) -> (tensor<9223372036854775807x16xf32>, tensor<4611686018427387904x4611686018427387904xf64>) {
  %0 = arith.addf %a, %a : tensor<9223372036854775807x16xf32>
  %1 = arith.mulf %a, %a : tensor<9223372036854775807x16xf32>
  %2 = arith.subf %0, %1 : tensor<9223372036854775807x16xf32>
  %3 = math.exp %b : tensor<4611686018427387904x4611686018427387904xf64>
  return %2, %3 : tensor<9223372036854775807x16xf32>, tensor<4611686018427387904x4611686018427387904xf64>
}
func.func @hugemm(%a: tensor<3037000500x3037000500xf32>) -> tensor<3037000500x3037000500xf32> {
  %e = tensor.empty() : tensor<3037000500x3037000500xf32>
  %0 = linalg.matmul ins(%a, %a : tensor<3037000500x3037000500xf32>, tensor<3037000500x3037000500xf32>) outs(%e : tensor<3037000500x3037000500xf32>) -> tensor<3037000500x3037000500xf32>
  %1 = linalg.matmul ins(%0, %a : tensor<3037000500x3037000500xf32>, tensor<3037000500x3037000500xf32>) outs(%e : tensor<3037000500x3037000500xf32>) -> tensor<3037000500x3037000500xf32>
  return %1 : tensor<3037000500x3037000500xf32>
}
