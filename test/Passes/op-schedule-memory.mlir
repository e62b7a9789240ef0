// The memory model, rule by rule, with hand-computed byte counts (unit
// costs, one stream, so the order is the rank order).
// RUN: opsched-opt --op-schedule='cost-model=unit' %s -split-input-file | FileCheck %s

// Rules: tensor.empty allocates nothing (0); linalg.fill is its first write
// and allocates 4x4xf32 = 64; matmul writes in place into it (its init has
// no other use): still 64; collapse_shape aliases it: 64; exp allocates 64
// more (128 while it runs) and is the alias's last use, so the matmul buffer
// is freed after it: 64, the result, live until the return. The argument is
// resident: 64 bytes, not in the peak.
// CHECK-LABEL: func.func @rules
// CHECK-SAME: opsched.original_peak_memory = 128 : i64, {{.*}}opsched.peak_memory = 128 : i64, {{.*}}opsched.resident_bytes = 64 : i64
// CHECK-NEXT: arith.constant {{.*}}opsched.live_bytes = 0 : i64
// CHECK-NEXT: tensor.empty() {{.*}}opsched.live_bytes = 0 : i64
// CHECK-NEXT: linalg.fill {{.*}}opsched.live_bytes = 64 : i64
// CHECK-NEXT: linalg.matmul {{.*}}opsched.live_bytes = 64 : i64
// CHECK-NEXT: tensor.collapse_shape {{.*}}opsched.live_bytes = 64 : i64
// CHECK-NEXT: math.exp {{.*}}opsched.live_bytes = 64 : i64
func.func @rules(%a: tensor<4x4xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = tensor.collapse_shape %m [[0, 1]] : tensor<4x4xf32> into tensor<16xf32>
  %x = math.exp %r : tensor<16xf32>
  return %x : tensor<16xf32>
}

// -----

// A destination-passing op whose init is still used afterwards (here by the
// return) cannot write in place: it allocates its own 32 bytes.
// CHECK-LABEL: func.func @copy
// CHECK-SAME: opsched.peak_memory = 64 : i64
// CHECK-NEXT: math.exp {{.*}}opsched.live_bytes = 32 : i64
// CHECK-NEXT: linalg.add {{.*}}opsched.live_bytes = 64 : i64
func.func @copy(%a: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %x = math.exp %a : tensor<8xf32>
  %y = linalg.add ins(%a, %a : tensor<8xf32>, tensor<8xf32>) outs(%x : tensor<8xf32>) -> tensor<8xf32>
  return %x, %y : tensor<8xf32>, tensor<8xf32>
}

// -----

// The same op as the init's last use writes in place: 32 bytes in all.
// CHECK-LABEL: func.func @inplace
// CHECK-SAME: opsched.peak_memory = 32 : i64
// CHECK-NEXT: math.exp {{.*}}opsched.live_bytes = 32 : i64
// CHECK-NEXT: linalg.add {{.*}}opsched.live_bytes = 32 : i64
func.func @inplace(%a: tensor<8xf32>) -> tensor<8xf32> {
  %x = math.exp %a : tensor<8xf32>
  %y = linalg.add ins(%a, %a : tensor<8xf32>, tensor<8xf32>) outs(%x : tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

// Element sizes, 10 elements each: i1 takes a byte per element (10), f16 20,
// complex<f32> 80, f8E4M3FN 10, index 80, i4 a byte per element (10). All
// are results, live to the end: the running sums. Arguments: 210 resident.
// CHECK-LABEL: func.func @elements
// CHECK-SAME: opsched.peak_memory = 210 : i64, {{.*}}opsched.resident_bytes = 210 : i64
// CHECK: } {{{.*}}opsched.live_bytes = 10 : i64{{.*}}tensor<10xi1>
// CHECK: } {{{.*}}opsched.live_bytes = 30 : i64{{.*}}tensor<10xf16>
// CHECK: } {{{.*}}opsched.live_bytes = 110 : i64{{.*}}tensor<10xcomplex<f32>>
// CHECK: } {{{.*}}opsched.live_bytes = 120 : i64{{.*}}tensor<10xf8E4M3FN>
// CHECK: } {{{.*}}opsched.live_bytes = 200 : i64{{.*}}tensor<10xindex>
// CHECK: } {{{.*}}opsched.live_bytes = 210 : i64{{.*}}tensor<10xi4>
func.func @elements(%i: tensor<10xi1>, %h: tensor<10xf16>, %c: tensor<10xcomplex<f32>>, %q: tensor<10xf8E4M3FN>, %n: tensor<10xindex>, %k: tensor<10xi4>) -> (tensor<10xi1>, tensor<10xf16>, tensor<10xcomplex<f32>>, tensor<10xf8E4M3FN>, tensor<10xindex>, tensor<10xi4>) {
  %ci = arith.constant false
  %pi = tensor.pad %i low[0] high[0] { ^bb0(%x: index): tensor.yield %ci : i1 } : tensor<10xi1> to tensor<10xi1>
  %ch = arith.constant 0.0 : f16
  %ph = tensor.pad %h low[0] high[0] { ^bb0(%x: index): tensor.yield %ch : f16 } : tensor<10xf16> to tensor<10xf16>
  %cc = complex.constant [0.0 : f32, 0.0 : f32] : complex<f32>
  %pc = tensor.pad %c low[0] high[0] { ^bb0(%x: index): tensor.yield %cc : complex<f32> } : tensor<10xcomplex<f32>> to tensor<10xcomplex<f32>>
  %cq = arith.constant 0.0 : f8E4M3FN
  %pq = tensor.pad %q low[0] high[0] { ^bb0(%x: index): tensor.yield %cq : f8E4M3FN } : tensor<10xf8E4M3FN> to tensor<10xf8E4M3FN>
  %cn = arith.constant 0 : index
  %pn = tensor.pad %n low[0] high[0] { ^bb0(%x: index): tensor.yield %cn : index } : tensor<10xindex> to tensor<10xindex>
  %ck = arith.constant 0 : i4
  %pk = tensor.pad %k low[0] high[0] { ^bb0(%x: index): tensor.yield %ck : i4 } : tensor<10xi4> to tensor<10xi4>
  return %pi, %ph, %pc, %pq, %pn, %pk : tensor<10xi1>, tensor<10xf16>, tensor<10xcomplex<f32>>, tensor<10xf8E4M3FN>, tensor<10xindex>, tensor<10xi4>
}
