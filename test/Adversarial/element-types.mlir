// i1, f8, f4, complex and index element types. The cost model counts bits
// rounded up to whole bytes per tensor; buffers (what bufferized code
// allocates) take whole bytes per element: 7xi1 = 7, 5xf8 = 5,
// 3xcomplex<f32> = 24, 2xindex = 16, 3xf4 = 3 bytes (resident 55).
// RUN: opsched-opt --op-schedule='cost-model=unit' %s | FileCheck %s
// CHECK-LABEL: func.func @types
// CHECK-SAME: opsched.original_peak_memory = 59 : i64{{.*}}opsched.peak_memory = 59 : i64{{.*}}opsched.resident_bytes = 55 : i64
// CHECK: arith.xori {{.*}}opsched.live_bytes = 7 : i64
// CHECK: arith.addf {{.*}}opsched.live_bytes = 12 : i64
// The generic's init is a function argument (not writable in place, as in
// one-shot-bufferize): it gets a new 24-byte buffer. The peak, 59, is while
// andi runs (52 live + its 7).
// CHECK: linalg.generic {{.*}}opsched.live_bytes = 36 : i64{{.*}}opsched.size = array<i64: 24>
// CHECK: arith.addi {{.*}}opsched.live_bytes = 52 : i64{{.*}}opsched.size = array<i64: 16>
// CHECK: arith.andi {{.*}}opsched.live_bytes = 52 : i64{{.*}}opsched.size = array<i64: 7>
// CHECK: arith.mulf {{.*}}opsched.live_bytes = 55 : i64{{.*}}opsched.size = array<i64: 3>
// Roofline on the cpu profile (50 bytes/ns, 50 ns launch), 800 elements:
// f4 mulf reads and writes 3 x 400 bytes (24 ns), i1 xori 3 x 100 (6 ns).
// RUN: opsched-opt --op-schedule='device=cpu' %S/Inputs/subbyte.mlir | FileCheck %s --check-prefix=ROOF
// ROOF: arith.mulf {{.*}}opsched.end = 74 : i64{{.*}}opsched.start = 0 : i64
// ROOF: arith.xori {{.*}}opsched.end = 130 : i64{{.*}}opsched.start = 74 : i64
#id = affine_map<(d0) -> (d0)>
func.func @types(%b: tensor<7xi1>, %f: tensor<5xf8E4M3FN>, %c: tensor<3xcomplex<f32>>, %i: tensor<2xindex>, %h: tensor<3xf4E2M1FN>) -> (tensor<7xi1>, tensor<5xf8E4M3FN>, tensor<3xcomplex<f32>>, tensor<2xindex>, tensor<3xf4E2M1FN>) {
  %0 = arith.xori %b, %b : tensor<7xi1>
  %1 = arith.addf %f, %f : tensor<5xf8E4M3FN>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%c : tensor<3xcomplex<f32>>) outs(%c : tensor<3xcomplex<f32>>) {
  ^bb0(%x: complex<f32>, %y: complex<f32>):
    %s = complex.add %x, %x : complex<f32>
    linalg.yield %s : complex<f32>
  } -> tensor<3xcomplex<f32>>
  %3 = arith.addi %i, %i : tensor<2xindex>
  %4 = arith.andi %0, %b : tensor<7xi1>
  %5 = arith.mulf %h, %h : tensor<3xf4E2M1FN>
  return %4, %1, %2, %3, %5 : tensor<7xi1>, tensor<5xf8E4M3FN>, tensor<3xcomplex<f32>>, tensor<2xindex>, tensor<3xf4E2M1FN>
}
