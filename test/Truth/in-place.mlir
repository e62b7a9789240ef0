// In-place rules of the tensor-level memory model (lib/mlir/buffers.c), each
// the decision one-shot bufferization makes (the second RUN checks the same
// file against upstream: equal allocation count and bytes).
// - @elementwise: a tensor.empty's writers share its one home buffer; the
//   ReLU reads the value that buffer holds at the elements it writes, which
//   one-shot allows (element-wise access): 1 allocation.
// - @transposed: the same ReLU reading through a transposed map would
//   overwrite elements it still reads: the bias broadcast allocates apart.
// - @last_reader: the last of two readers of a fill writes over it in place,
//   since the first reader precedes it in every order.
// RUN: opsched-opt --op-schedule %s | FileCheck %s
// RUN: %python %opsched_src/scripts/truth-check.py --opsched-opt opsched-opt --mlir-opt %mlir_opt --require-match %s | FileCheck %s --check-prefix=TRUTH
// TRUTH: | in-place.mlir | 5 | 1280 | 1 | 5 | 1280 | +0.0% | yes |

// CHECK-LABEL: func.func @elementwise
// CHECK: linalg.generic {{.*}}opsched.size = array<i64: 256>
// CHECK: linalg.generic {{.*}}opsched.size = array<i64: -1>
// CHECK: linalg.generic {{.*}}opsched.size = array<i64: -1>
// CHECK-LABEL: func.func @transposed
// CHECK: linalg.generic {{.*}}opsched.size = array<i64: 256>
// CHECK: linalg.generic {{.*}}opsched.size = array<i64: -1>
// CHECK: linalg.generic {{.*}}opsched.size = array<i64: 256>
// CHECK-LABEL: func.func @last_reader
// CHECK: linalg.fill {{.*}}opsched.size = array<i64: 256>
// CHECK: linalg.generic {{.*}}opsched.size = array<i64: 256>
// CHECK: linalg.generic {{.*}}opsched.size = array<i64: -1>
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @elementwise(%a: tensor<8x8xf32>, %b: tensor<8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %1 = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<8x8xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x8xf32>) outs(%1 : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  %3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %z = arith.constant 0.0 : f32
    %m = arith.maximumf %in, %z : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}
func.func @transposed(%a: tensor<8x8xf32>, %b: tensor<8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %1 = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<8x8xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x8xf32>) outs(%1 : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  %3 = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %z = arith.constant 0.0 : f32
    %m = arith.maximumf %in, %z : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}
func.func @last_reader(%a: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %e = tensor.empty() : tensor<8x8xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.mulf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  return %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>
}
