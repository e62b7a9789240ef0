// RUN: opsched-opt --op-schedule='cost-model=unit' %s | FileCheck %s --check-prefix=UNIT
// RUN: opsched-opt --op-schedule %s | FileCheck %s --check-prefix=ROOF
// RUN: opsched-opt --op-schedule='device=h100' %s | FileCheck %s --check-prefix=H100

// A two-op chain on a small vector and one large matmul. Under
// cost-model=unit every op costs 1, so the longer chain goes first; under the
// roofline the matmul dominates and goes first.
//
// Roofline on the generic device (10000 flop/ns, 500 B/ns, 5000 ns launch):
//   matmul 512^3: 2 * 512^3 = 268435456 flop / 10000 = 26843.5 ns;
//     3 * 512*512*4 B = 3145728 B / 500 = 6291.5 ns; ceil(26843.5) + 5000 = 31844.
//   linalg.add/mul on 16xf32: 16 flop, 192 B / 500 = 0.4 ns -> 1 + 5000 = 5001.
// On h100 (494000 flop/ns, 3350 B/ns, 2000 ns): the matmul is memory bound:
//   3145728 / 3350 = 939.02 -> 940 + 2000 = 2940.

// UNIT-LABEL: func.func @unit_vs_roofline
// UNIT-SAME: opsched.critical_path = 3 : i64, {{.*}}opsched.lower_bound = 5 : i64, {{.*}}opsched.makespan = 5 : i64
// UNIT-NEXT: tensor.empty() {opsched.critical, opsched.end = 1 : i64, {{.*}}opsched.rank = 3 : i64, {{.*}}opsched.start = 0 : i64} : tensor<16xf32>
// UNIT-NEXT: linalg.add {opsched.critical, opsched.end = 2 : i64, {{.*}}opsched.rank = 2 : i64, {{.*}}opsched.start = 1 : i64}
// UNIT-NEXT: tensor.empty() {opsched.end = 3 : i64, {{.*}}opsched.rank = 2 : i64, {{.*}}opsched.start = 2 : i64} : tensor<512x512xf32>
// UNIT-NEXT: linalg.mul {opsched.critical, opsched.end = 4 : i64, {{.*}}opsched.rank = 1 : i64, {{.*}}opsched.start = 3 : i64}
// UNIT-NEXT: linalg.matmul {opsched.end = 5 : i64, {{.*}}opsched.rank = 1 : i64, {{.*}}opsched.start = 4 : i64}

// ROOF-LABEL: func.func @unit_vs_roofline
// ROOF-SAME: opsched.critical_path = 31844 : i64, {{.*}}opsched.lower_bound = 41846 : i64, {{.*}}opsched.makespan = 41846 : i64
// ROOF-NEXT: tensor.empty() {opsched.critical, opsched.end = 0 : i64, {{.*}}opsched.rank = 31844 : i64, {{.*}}opsched.start = 0 : i64} : tensor<512x512xf32>
// ROOF-NEXT: linalg.matmul {opsched.critical, opsched.end = 31844 : i64, {{.*}}opsched.rank = 31844 : i64, {{.*}}opsched.start = 0 : i64}
// ROOF-NEXT: tensor.empty() {opsched.end = 31844 : i64, {{.*}}opsched.rank = 10002 : i64, {{.*}}opsched.start = 31844 : i64} : tensor<16xf32>
// ROOF-NEXT: linalg.add {opsched.end = 36845 : i64, {{.*}}opsched.rank = 10002 : i64, {{.*}}opsched.start = 31844 : i64}
// ROOF-NEXT: linalg.mul {opsched.end = 41846 : i64, {{.*}}opsched.rank = 5001 : i64, {{.*}}opsched.start = 36845 : i64}

// On h100 the 2000 ns launches of the chain outweigh the fast matmul, so the
// device flips the order back: chain 2 * (1 + 2000) = 4002 > 2940.
// H100-LABEL: func.func @unit_vs_roofline
// H100-SAME: opsched.critical_path = 4002 : i64, {{.*}}opsched.lower_bound = 6942 : i64, {{.*}}opsched.makespan = 6942 : i64
// H100-NEXT: tensor.empty() {{.*}} : tensor<16xf32>
// H100-NEXT: linalg.add {opsched.critical, opsched.end = 2001 : i64, {{.*}}opsched.rank = 4002 : i64, {{.*}}opsched.start = 0 : i64}
// H100-NEXT: tensor.empty() {{.*}} : tensor<512x512xf32>
// H100-NEXT: linalg.matmul {opsched.end = 4941 : i64, {{.*}}opsched.rank = 2940 : i64, {{.*}}opsched.start = 2001 : i64}
// H100-NEXT: linalg.mul

func.func @unit_vs_roofline(%a: tensor<512x512xf32>, %v: tensor<16xf32>) -> (tensor<16xf32>, tensor<512x512xf32>) {
  %e0 = tensor.empty() : tensor<16xf32>
  %s1 = linalg.add ins(%v, %v : tensor<16xf32>, tensor<16xf32>) outs(%e0 : tensor<16xf32>) -> tensor<16xf32>
  %s2 = linalg.mul ins(%s1, %s1 : tensor<16xf32>, tensor<16xf32>) outs(%e0 : tensor<16xf32>) -> tensor<16xf32>
  %e1 = tensor.empty() : tensor<512x512xf32>
  %m = linalg.matmul ins(%a, %a : tensor<512x512xf32>, tensor<512x512xf32>) outs(%e1 : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %s2, %m : tensor<16xf32>, tensor<512x512xf32>
}

// Work measured per op kind (generic device). conv_2d_nchw_fchw 1x8x16x16
// from 1x4x18x18 with 8x4x3x3: 1*8*16*16*4*3*3 = 73728 MACs = 147456 flop
// -> 14.7 ns; bytes (1296 + 288 + 2048) * 4 = 14528 -> 29.06 ns;
// ceil(29.06) + 5000 = 5030. A generic with 3 body ops on 8x32 = 768 flop;
// bytes 2 * 1024 = 2048 -> 4.096 -> 5005. Reshapes are free (0).
// ROOF-LABEL: func.func @kinds
// ROOF: linalg.conv_2d_nchw_fchw {{.*}}opsched.end = 5030 : i64
// ROOF: linalg.generic {{.*}} attrs = {opsched.end = 10035 : i64, {{.*}}opsched.rank = 5005 : i64, {{.*}}opsched.start = 5030 : i64}
// The payload costs nothing under the roofline: left as it is.
// ROOF-NEXT: ^bb0
// ROOF-NEXT: arith.mulf %in, %in : f32
// ROOF: tensor.collapse_shape {{.*}} {opsched.critical, opsched.end = 10035 : i64, {{.*}}opsched.rank = 0 : i64, {{.*}}opsched.start = 10035 : i64}
func.func @kinds(%x: tensor<1x4x18x18xf32>, %w: tensor<8x4x3x3xf32>, %g: tensor<8x32xf32>) -> (tensor<8x256xf32>, tensor<8x32xf32>) {
  %e = tensor.empty() : tensor<1x8x16x16xf32>
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x4x18x18xf32>, tensor<8x4x3x3xf32>) outs(%e : tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32>
  %r = tensor.collapse_shape %c [[0, 1], [2, 3]] : tensor<1x8x16x16xf32> into tensor<8x256xf32>
  %eg = tensor.empty() : tensor<8x32xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%g : tensor<8x32xf32>) outs(%eg : tensor<8x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %in : f32
    %1 = arith.addf %0, %in : f32
    %2 = arith.maximumf %1, %in : f32
    linalg.yield %2 : f32
  } -> tensor<8x32xf32>
  return %r, %y : tensor<8x256xf32>, tensor<8x32xf32>
}
