// RUN: opsched-opt --op-schedule %s | FileCheck %s

// Two linalg.generic ops alike in all but their indexing maps and iterator
// types (properties): same operand types, same body, no attributes. The
// cost model memoizes each op's indexing maps by name, properties,
// attributes and operand types; the contraction must get its own maps.
// Roofline on the generic device (10000 flop/ns, 500 B/ns, 5000 ns launch):
//   contraction 512^3 x 2 body ops = 268435456 flop -> 26843.5 ns; 3 MiB read
//     -> 6291.5 ns; ceil(26843.5) + 5000 = 31844.
//   element-wise 512^2 x 2 = 524288 flop -> 52.4 ns; 3 MiB -> 6291.5 ns;
//     ceil(6291.5) + 5000 = 11292.
// The longer contraction goes first.

// CHECK-LABEL: func.func @same_types_other_maps
// CHECK-SAME: opsched.critical_path = 31844 : i64, {{.*}}opsched.makespan = 43136 : i64
// CHECK: linalg.generic {{.*}}"reduction"]{{.*}}opsched.end = 31844 : i64, {{.*}}opsched.rank = 31844 : i64, {{.*}}opsched.start = 0 : i64
// CHECK: linalg.generic {{.*}}"parallel"]{{.*}}opsched.end = 43136 : i64, {{.*}}opsched.rank = 11292 : i64, {{.*}}opsched.start = 31844 : i64
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @same_types_other_maps(%x: tensor<512x512xf32>, %y: tensor<512x512xf32>, %z: tensor<512x512xf32>) -> (tensor<512x512xf32>, tensor<512x512xf32>) {
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<512x512xf32>, tensor<512x512xf32>) outs(%z : tensor<512x512xf32>) {
  ^bb0(%p: f32, %q: f32, %r: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %r, %m : f32
    linalg.yield %s : f32
  } -> tensor<512x512xf32>
  %1 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : tensor<512x512xf32>, tensor<512x512xf32>) outs(%z : tensor<512x512xf32>) {
  ^bb0(%p: f32, %q: f32, %r: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %r, %m : f32
    linalg.yield %s : f32
  } -> tensor<512x512xf32>
  return %0, %1 : tensor<512x512xf32>, tensor<512x512xf32>
}
