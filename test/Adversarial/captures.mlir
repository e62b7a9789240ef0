// An op with a region capturing outer values (%w inside scf.for, %k inside
// linalg.generic): the capture is a dependency, so the producer of %w
// stays before the loop even though the loop ranks higher; the one-op loop
// body is left untouched.
// RUN: opsched-opt --op-schedule='cost-model=unit' --mlir-print-debuginfo --mlir-print-local-scope %s | FileCheck %s
// CHECK-LABEL: func.func @cap
// CHECK: opsched.rank = 3 : i64{{.*}}opsched.start = 2 : i64{{.*}}loc("w")
// CHECK: opsched.rank = 2 : i64{{.*}}opsched.start = 3 : i64{{.*}}loc("k")
// CHECK: scf.for
// CHECK-NOT: opsched.start
// CHECK: scf.yield
// CHECK: opsched.start = 4 : i64{{.*}}loc("loop")
// CHECK: linalg.generic
// CHECK-SAME: opsched.start = 5 : i64
// CHECK: arith.mulf %in, %1
// CHECK: loc("gen")
// CHECK: return
#id = affine_map<(d0) -> (d0)>
func.func @cap(%a: tensor<8xf32>, %n: index, %s: f32) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = arith.mulf %s, %s : f32 loc("k")
  %w = arith.mulf %a, %a : tensor<8xf32> loc("w")
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> tensor<8xf32> {
    %t = arith.addf %acc, %w : tensor<8xf32>
    scf.yield %t : tensor<8xf32>
  } loc("loop")
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%r : tensor<8xf32>) outs(%a : tensor<8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %k : f32
    linalg.yield %m : f32
  } -> tensor<8xf32> loc("gen")
  return %g : tensor<8xf32>
}
