// A calibrated profile's optional keys (opsched-bench calibrate writes
// them): reductions run at flops_per_ns, ops without a reduction at
// elementwise_flops_per_ns; `cores` caps how many ops run at once however
// many streams the plan has; `region_ns` is added to every op on several
// streams (its async.execute region); a loop striding across an operand
// larger than cache_bytes pays strided_ns per iteration.
// RUN: opsched-opt --op-schedule='device=%S/Inputs/two-cores.profile' %s | FileCheck %s --check-prefix=ONE
// RUN: opsched-opt --op-schedule='device=%S/Inputs/two-cores.profile streams=4' %s | FileCheck %s --check-prefix=FOUR
// RUN: opsched-opt --op-schedule='device=%S/Inputs/two-cores.profile streams=4 resource-limit=3' %s | FileCheck %s --check-prefix=LIMIT
// RUN: not opsched-opt --op-schedule='device=%S/Inputs/fractional-cores.profile' %s 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not opsched-opt --op-schedule='device=%S/Inputs/negative-region.profile' %s 2>&1 | FileCheck %s --check-prefix=BAD

// Four independent 64^3 matmuls: 524288 FLOPs at 2 per ns + 100 ns launch
// = 262244 ns each on one stream.
// ONE-LABEL: func.func @wide
// ONE-SAME:    opsched.makespan = 1048976 : i64
// ONE-NOT:     opsched.resource_limit
// ONE-SAME:    opsched.speedup = 1.000000e+00 : f64
// On four streams of a 2-core device: capacity 2, each op 50 ns dearer
// (262294 ns), two waves: makespan 2 * 262294, speedup 2, never 4.
// FOUR-LABEL: func.func @wide
// FOUR-SAME:    opsched.makespan = 524588 : i64
// FOUR-SAME:    opsched.resource_limit = 2 : i64
// FOUR-SAME:    opsched.speedup = 2.000000e+00 : f64
// FOUR-SAME:    opsched.streams = 2 : i64
// FOUR-SAME:    opsched.streams_requested = 4 : i64
// An explicit resource-limit wins over the profile's cores.
// LIMIT-LABEL: func.func @wide
// LIMIT-SAME:    opsched.resource_limit = 3 : i64
// LIMIT-SAME:    opsched.streams = 3 : i64
func.func @wide(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) {
  %e = tensor.empty() : tensor<64x64xf32>
  %m0 = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m1 = linalg.matmul ins(%b, %a : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m2 = linalg.matmul ins(%a, %a : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m3 = linalg.matmul ins(%b, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %m0, %m1, %m2, %m3 : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
}

// A relu (no reduction): 2 ops x 4096 elements at 8 per ns = 1024 ns, more
// than 32 KiB at 1000 bytes per ns; + 100 ns launch. At the reduction rate
// it would be 4196 ns.
// ONE-LABEL: func.func @relu
// ONE-SAME:    opsched.makespan = 1124 : i64
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @relu(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    %c = arith.cmpf ogt, %in, %z : f32
    %s = arith.select %c, %in, %z : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// Transposes: the innermost loop walks the input down its columns. A
// 4 KiB stride over an operand larger than cache_bytes (32 KiB) misses on
// every iteration: 16x1024 (64 KiB, stride 4096 B): 16384 x 10 ns + 128 KiB
// at 1000 bytes per ns (132 ns) + 100 ns launch = 164072 ns. Other strides
// miss only over 8 x cache_bytes: 128x128 (64 KiB, stride 512 B) costs
// 132 + 100 ns; 288x288 (324 KiB) 82944 x 10 + 664 + 100 ns.
#tr = affine_map<(d0, d1) -> (d1, d0)>
// ONE-LABEL: func.func @tr_aligned
// ONE-SAME:    opsched.makespan = 164072 : i64
func.func @tr_aligned(%a: tensor<16x1024xf32>) -> tensor<1024x16xf32> {
  %e = tensor.empty() : tensor<1024x16xf32>
  %t = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<16x1024xf32>) outs(%e : tensor<1024x16xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<1024x16xf32>
  return %t : tensor<1024x16xf32>
}
// ONE-LABEL: func.func @tr_small
// ONE-SAME:    opsched.makespan = 232 : i64
func.func @tr_small(%a: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %e = tensor.empty() : tensor<128x128xf32>
  %t = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<128x128xf32>) outs(%e : tensor<128x128xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<128x128xf32>
  return %t : tensor<128x128xf32>
}
// ONE-LABEL: func.func @tr_large
// ONE-SAME:    opsched.makespan = 830204 : i64
func.func @tr_large(%a: tensor<288x288xf32>) -> tensor<288x288xf32> {
  %e = tensor.empty() : tensor<288x288xf32>
  %t = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<288x288xf32>) outs(%e : tensor<288x288xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<288x288xf32>
  return %t : tensor<288x288xf32>
}

// BAD: invalid value '{{.*}}.profile' for option 'device': device profile: elementwise_flops_per_ns must be > 0, cores an integer in [1, 65536], region_ns, strided_ns, cache_bytes and handoff_ns >= 0
