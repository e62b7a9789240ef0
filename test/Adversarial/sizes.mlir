// Zero-sized tensors (0 bytes, but each op still pays its launch) and sizes
// whose byte counts overflow int64 (a warning per function, at its first
// such op, counting the others; sizes, costs, ranks,
// times and peaks saturate instead of wrapping, and are written as
// 2^60 - 1 = 1152921504606846975, the range op-schedule-verify accepts).
// RUN: opsched-opt --op-schedule='streams=2 buffer-slots=false' %s 2>/dev/null | opsched-opt --op-schedule-verify -o /dev/null
// RUN: opsched-opt --op-schedule %s 2>/dev/null | opsched-opt --op-schedule-verify -o /dev/null
// The schedule and its figures (buffer slots off):
// RUN: opsched-opt --op-schedule='streams=2 buffer-slots=false' %s 2>&1 | FileCheck %s
// With buffer slots (the default) buffers whose size saturates cannot get
// 64-bit offsets: those blocks keep their schedule and figures, without
// slots, with a warning; other blocks get slots as usual.
// RUN: opsched-opt --op-schedule='streams=2' %s 2>&1 | FileCheck %s --check-prefix=SLOTS
// SLOTS: warning: opsched: buffer sizes overflow 64-bit arena offsets; no slots assigned in this block
// SLOTS-LABEL: func.func @zero
// SLOTS-SAME: opsched.arena_size = 0 : i64
// SLOTS: opsched.slot
// SLOTS-LABEL: func.func @huge
// SLOTS-NOT: opsched.slot
// SLOTS-LABEL: func.func @hugemm
// CHECK: warning: opsched: tensor size overflows 64-bit byte counts; counted as the largest size (here and at 3 more ops of this function)
// CHECK: warning: opsched: tensor size overflows 64-bit byte counts; counted as the largest size (here and at 2 more ops of this function)
// CHECK: warning: opsched: tensor size overflows 64-bit byte counts; counted as the largest size (here and at 4 more ops of this function)
// CHECK-NOT: overflows 64-bit byte counts
// CHECK-LABEL: func.func @zero
// CHECK-SAME: opsched.critical_path = 10000 : i64{{.*}}opsched.lower_bound = 10000 : i64{{.*}}opsched.makespan = 10000 : i64{{.*}}opsched.original_peak_memory = 0 : i64{{.*}}opsched.peak_memory = 0 : i64{{.*}}opsched.resident_bytes = 0 : i64
// CHECK-LABEL: func.func @huge
// CHECK-SAME: opsched.original_peak_memory = 1152921504606846975 : i64{{.*}}opsched.peak_memory = 1152921504606846975 : i64{{.*}}opsched.resident_bytes = 1152921504606846975 : i64
// CHECK-LABEL: func.func @hugemm
// CHECK-SAME: opsched.critical_path = 1152921504606846975 : i64{{.*}}opsched.lower_bound = 1152921504606846975 : i64{{.*}}opsched.makespan = 1152921504606846975 : i64
// CHECK: linalg.matmul
// CHECK-SAME: opsched.start = 0 : i64
// CHECK: linalg.matmul
// CHECK-SAME: opsched.end = 1152921504606846975 : i64
// CHECK-SAME: opsched.start = 1152921504606846975 : i64
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
// Two blocks whose makespans each saturate: the function's sums (makespan,
// critical path, lower bound, allocated bytes) saturate too. Regression: UBSan
// reported signed overflow in lib/mlir/driver.c gather_figures.
// CHECK-LABEL: func.func @hugecfg
// CHECK-SAME: opsched.critical_path = 1152921504606846975 : i64
// CHECK-SAME: opsched.makespan = 1152921504606846975 : i64
func.func @hugecfg(%c: i1, %a: tensor<3037000500x3037000500xf32>) -> tensor<3037000500x3037000500xf32> {
  %e = tensor.empty() : tensor<3037000500x3037000500xf32>
  %0 = linalg.matmul ins(%a, %a : tensor<3037000500x3037000500xf32>, tensor<3037000500x3037000500xf32>) outs(%e : tensor<3037000500x3037000500xf32>) -> tensor<3037000500x3037000500xf32>
  %1 = linalg.matmul ins(%a, %a : tensor<3037000500x3037000500xf32>, tensor<3037000500x3037000500xf32>) outs(%e : tensor<3037000500x3037000500xf32>) -> tensor<3037000500x3037000500xf32>
  cf.cond_br %c, ^bb1, ^bb2(%0 : tensor<3037000500x3037000500xf32>)
^bb1:
  %2 = linalg.matmul ins(%1, %a : tensor<3037000500x3037000500xf32>, tensor<3037000500x3037000500xf32>) outs(%e : tensor<3037000500x3037000500xf32>) -> tensor<3037000500x3037000500xf32>
  %3 = linalg.matmul ins(%2, %a : tensor<3037000500x3037000500xf32>, tensor<3037000500x3037000500xf32>) outs(%e : tensor<3037000500x3037000500xf32>) -> tensor<3037000500x3037000500xf32>
  cf.br ^bb2(%3 : tensor<3037000500x3037000500xf32>)
^bb2(%r: tensor<3037000500x3037000500xf32>):
  return %r : tensor<3037000500x3037000500xf32>
}
