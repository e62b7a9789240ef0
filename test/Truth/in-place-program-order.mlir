// program-order-in-place: in-place writes decided on the input's order as
// one-shot bufferization decides them, kept valid by order edges.
// %1 (ReLU) and the fill both write %e. In the input its only reader %r
// runs before the fill, so one-shot writes both into %e's one buffer: 2
// allocations with %e2. By default the model counts 3 (no SSA path orders
// %r before the fill, so some order could clobber %1) and the scheduler
// moves the fill and the long matmul first; with the option the count is
// upstream's and the edge %r -> fill keeps the input's order of the two.
// RUN: opsched-opt --op-schedule %s | FileCheck %s --check-prefix=ANY
// RUN: opsched-opt --op-schedule=program-order-in-place=true %s | FileCheck %s --check-prefix=PROG
// RUN: %python %opsched_src/scripts/truth-check.py --opsched-opt opsched-opt --mlir-opt %mlir_opt %s | FileCheck %s --check-prefix=TRUTH-ANY
// RUN: %python %opsched_src/scripts/truth-check.py --opsched-opt opsched-opt --mlir-opt %mlir_opt --require-match --pass-options program-order-in-place=true %s | FileCheck %s --check-prefix=TRUTH-PROG
// TRUTH-ANY: | in-place-program-order.mlir | 2 | 32768 | 0 | 3 | 49152 | +50.0% | no |
// TRUTH-PROG: | in-place-program-order.mlir | 2 | 32768 | 0 | 2 | 32768 | +0.0% | yes |

// ANY: linalg.generic {{.*}}opsched.size = array<i64: 16384>
// ANY: arith.maximumf
// ANY: linalg.fill {{.*}}opsched.size = array<i64: 16384>
// ANY: linalg.matmul {{.*}}opsched.size = array<i64: -1>
// ANY: linalg.generic {{.*}}opsched.size = array<i64: 16384>
// ANY: arith.mulf

// PROG: linalg.generic {{.*}}opsched.size = array<i64: 16384>
// PROG: arith.maximumf
// PROG: linalg.generic {{.*}}opsched.size = array<i64: 16384>
// PROG: arith.mulf
// PROG: linalg.fill {{.*}}opsched.size = array<i64: -1>
// PROG: linalg.matmul {{.*}}opsched.size = array<i64: -1>

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @reuse(%a: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<64x64xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %z : f32
    linalg.yield %m : f32
  } -> tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<64x64xf32>) outs(%e2 : tensor<64x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<64x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %g = linalg.matmul ins(%a, %a : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r, %g : tensor<64x64xf32>, tensor<64x64xf32>
}
