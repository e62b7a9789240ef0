// op-buffer-slots reads opsched.stream values as names: ids far apart
// (0 and 999999) give the slots and offsets of ids 0 and 1, with clocks as
// wide as the streams in use (two), not as the largest id.
// RUN: opsched-opt --op-buffer-slots --mlir-print-debuginfo --mlir-print-local-scope %s | FileCheck %s
// RUN: opsched-opt --op-buffer-slots --mlir-print-local-scope %s \
// RUN:   | sed -e 's/opsched.stream = 999999 : i64/opsched.stream = 1 : i64/g' > %t.far
// RUN: sed -e 's/opsched.stream = 999999 : i64/opsched.stream = 1 : i64/g' %s \
// RUN:   | opsched-opt --op-buffer-slots --mlir-print-local-scope > %t.near
// RUN: diff %t.far %t.near

// Nothing orders A's last reader A2 (stream 0, ends at 2) before B
// (stream 999999, starts at 5): B may not take A's memory. 4 x 64 bytes.
// CHECK-LABEL: func.func @unordered
// CHECK-SAME: opsched.arena_size = 256 : i64
// CHECK: opsched.offset = array<i64: [[A:[0-9]+]]>{{.*}}opsched.stream = 0 : i64} {{.*}}loc("A")
// CHECK: opsched.offset = array<i64: [[L:[0-9]+]]>{{.*}}opsched.stream = 999999 : i64} {{.*}}loc("L")
// CHECK: opsched.offset = array<i64: [[A2:[0-9]+]]>{{.*}}opsched.stream = 0 : i64} {{.*}}loc("A2")
// CHECK-NOT: opsched.offset = array<i64: [[A]]>
// CHECK: opsched.stream = 999999 : i64} {{.*}}loc("B")
func.func @unordered(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %0 = math.exp %x {opsched.end = 1 : i64, opsched.id = 0 : i64, opsched.start = 0 : i64, opsched.stream = 0 : i64} : tensor<16xf32> loc("A")
  %1 = math.absf %x {opsched.end = 5 : i64, opsched.id = 1 : i64, opsched.start = 0 : i64, opsched.stream = 999999 : i64} : tensor<16xf32> loc("L")
  %2 = math.sqrt %0 {opsched.end = 2 : i64, opsched.id = 2 : i64, opsched.start = 1 : i64, opsched.stream = 0 : i64} : tensor<16xf32> loc("A2")
  %3 = math.tanh %1 {opsched.end = 6 : i64, opsched.id = 3 : i64, opsched.start = 5 : i64, opsched.stream = 999999 : i64} : tensor<16xf32> loc("B")
  return %2, %3 : tensor<16xf32>, tensor<16xf32>
}
