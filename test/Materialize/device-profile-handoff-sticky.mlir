// The sticky charged placement (docs/streams.md, "Charging the runtime"):
// two chains of two 64^3 matmul + relu steps joined by an add
// (tools/opsched-gen/opsched-gen.py chains 2 2 64 0), 2 streams, a hand-off
// of 10 us. The placement with the hand-off put each chain's second matmul
// on the other stream (the stream free 10 us first): both waited on the
// other stream's relu, in lockstep, makespan 547904. Sticky, each op stays
// on its heaviest predecessor's stream when it starts there within the
// hand-off: the chains run on their own streams and only the add waits
// (on the other chain's last relu), makespan 537075.
// RUN: opsched-opt --op-schedule='device=%S/Inputs/handoff-10000.profile streams=2' %s | FileCheck %s
// CHECK-LABEL: func.func @chains
// CHECK-SAME:    opsched.makespan = 537075 : i64
// CHECK:         %[[M0:.*]] = linalg.matmul {{.*}}opsched.stream = 0 : i64} ins(%arg0, %arg1
// CHECK:         %[[M1:.*]] = linalg.matmul {{.*}}opsched.stream = 1 : i64, opsched.waits = array<i64: 4>} ins(%arg0, %arg3
// CHECK:         %[[R0:.*]] = linalg.generic {{.*}} ins(%[[M0]] : {{.*}}opsched.id = 8 : i64{{.*}}opsched.stream = 0 : i64} {
// CHECK:         linalg.matmul {{.*}}opsched.stream = 0 : i64} ins(%[[R0]], %arg2
// CHECK:         %[[R1:.*]] = linalg.generic {{.*}} ins(%[[M1]] : {{.*}}opsched.stream = 1 : i64} {
// CHECK:         linalg.matmul {{.*}}opsched.stream = 1 : i64} ins(%[[R1]], %arg4
// CHECK:         linalg.generic {{.*}}opsched.id = 18 : i64{{.*}}opsched.stream = 0 : i64} {
// CHECK:         linalg.generic {{.*}}opsched.id = 20 : i64{{.*}}opsched.stream = 1 : i64} {
// CHECK:         linalg.add {{.*}}opsched.stream = 1 : i64, opsched.waits = array<i64: 18>}
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @chains(%x: tensor<64x64xf32>, %w0_0: tensor<64x64xf32>, %w0_1: tensor<64x64xf32>, %w1_0: tensor<64x64xf32>, %w1_1: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %c0_0e = tensor.empty() : tensor<64x64xf32>
  %c0_0z = linalg.fill ins(%zero : f32) outs(%c0_0e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c0_0m = linalg.matmul ins(%x, %w0_0 : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c0_0z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c0_0r = tensor.empty() : tensor<64x64xf32>
  %c0_0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%c0_0m : tensor<64x64xf32>) outs(%c0_0r : tensor<64x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  %c0_1e = tensor.empty() : tensor<64x64xf32>
  %c0_1z = linalg.fill ins(%zero : f32) outs(%c0_1e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c0_1m = linalg.matmul ins(%c0_0, %w0_1 : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c0_1z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c0_1r = tensor.empty() : tensor<64x64xf32>
  %c0_1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%c0_1m : tensor<64x64xf32>) outs(%c0_1r : tensor<64x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  %c1_0e = tensor.empty() : tensor<64x64xf32>
  %c1_0z = linalg.fill ins(%zero : f32) outs(%c1_0e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c1_0m = linalg.matmul ins(%x, %w1_0 : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c1_0z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c1_0r = tensor.empty() : tensor<64x64xf32>
  %c1_0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%c1_0m : tensor<64x64xf32>) outs(%c1_0r : tensor<64x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  %c1_1e = tensor.empty() : tensor<64x64xf32>
  %c1_1z = linalg.fill ins(%zero : f32) outs(%c1_1e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c1_1m = linalg.matmul ins(%c1_0, %w1_1 : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c1_1z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c1_1r = tensor.empty() : tensor<64x64xf32>
  %c1_1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%c1_1m : tensor<64x64xf32>) outs(%c1_1r : tensor<64x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  %j0e = tensor.empty() : tensor<64x64xf32>
  %j0 = linalg.add ins(%c0_1, %c1_1 : tensor<64x64xf32>, tensor<64x64xf32>) outs(%j0e : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %j0 : tensor<64x64xf32>
}
