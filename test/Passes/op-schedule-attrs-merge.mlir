// RUN: opsched-opt --op-schedule=streams=2 %s | FileCheck %s --check-prefix=FIRST
// RUN: opsched-opt --op-schedule=streams=2 %s | opsched-opt --op-schedule=streams=1 | FileCheck %s --check-prefix=AGAIN

// The attribute writer merges its attributes into each op's own: names of
// other dialects and opsched names it does not write (opsched.d, opsched.j,
// opsched.sa, opsched.x) sort between its own and are kept with their values,
// stale results of an earlier run (id 99, stream 7, waits [5], rank 1234,
// critical on a non-critical op, slot/offset/size [8]/[9]/[10], live_bytes 77)
// are replaced or removed. The second run, on one stream, drops the ids,
// streams and waits the first wrote. Every dictionary is checked whole.
func.func @merge(%x: tensor<16xf32>) -> tensor<16xf32> {
  %a = arith.addf %x, %x {a.first = 1 : i64, opsched.cost = 4 : i64, opsched.d = "keep", opsched.id = 99 : i64, opsched.j = 3 : i64, opsched.rank = 1234 : i64, opsched.sa = 4 : i64, opsched.stream = 7 : i64, opsched.waits = array<i64: 5>, opsched.x = 6 : i64, zz.last} : tensor<16xf32>
  %b = arith.mulf %x, %x {opsched.cost = 2 : i64, opsched.critical, opsched.slot = array<i64: 8>, opsched.offset = array<i64: 9>, opsched.size = array<i64: 10>} : tensor<16xf32>
  %t = tensor.empty() {b.mid = 0 : i64, opsched.live_bytes = 77 : i64} : tensor<16xf32>
  %c = arith.subf %a, %b {opsched.cost = 1 : i64} : tensor<16xf32>
  return %c : tensor<16xf32>
}

// FIRST-LABEL: func.func @merge
// FIRST-NEXT: %0 = arith.mulf %arg0, %arg0 {opsched.cost = 2 : i64, opsched.end = 2 : i64, opsched.id = 0 : i64, opsched.live_bytes = 128 : i64, opsched.offset = array<i64: 64>, opsched.rank = 3 : i64, opsched.size = array<i64: 64>, opsched.slot = array<i64: 0>, opsched.start = 0 : i64, opsched.stream = 0 : i64} : tensor<16xf32>
// FIRST-NEXT: %1 = arith.addf %arg0, %arg0 {a.first = 1 : i64, opsched.cost = 4 : i64, opsched.critical, opsched.d = "keep", opsched.end = 4 : i64, opsched.id = 1 : i64, opsched.j = 3 : i64, opsched.live_bytes = 128 : i64, opsched.offset = array<i64: 128>, opsched.rank = 5 : i64, opsched.sa = 4 : i64, opsched.size = array<i64: 64>, opsched.slot = array<i64: 1>, opsched.start = 0 : i64, opsched.stream = 1 : i64, opsched.x = 6 : i64, zz.last} : tensor<16xf32>
// FIRST-NEXT: %2 = tensor.empty() {b.mid = 0 : i64, opsched.end = 2 : i64, opsched.id = 2 : i64, opsched.live_bytes = 128 : i64, opsched.rank = 0 : i64, opsched.start = 2 : i64, opsched.stream = 0 : i64} : tensor<16xf32>
// FIRST-NEXT: %3 = arith.subf %1, %0 {opsched.cost = 1 : i64, opsched.critical, opsched.end = 5 : i64, opsched.id = 3 : i64, opsched.live_bytes = 64 : i64, opsched.offset = array<i64: 0>, opsched.rank = 1 : i64, opsched.size = array<i64: 64>, opsched.slot = array<i64: 2>, opsched.start = 4 : i64, opsched.stream = 0 : i64, opsched.waits = array<i64: 1>} : tensor<16xf32>

// AGAIN-LABEL: func.func @merge
// AGAIN-NEXT: %0 = arith.addf %arg0, %arg0 {a.first = 1 : i64, opsched.cost = 4 : i64, opsched.critical, opsched.d = "keep", opsched.end = 4 : i64, opsched.j = 3 : i64, opsched.live_bytes = 64 : i64, opsched.offset = array<i64: 64>, opsched.rank = 5 : i64, opsched.sa = 4 : i64, opsched.size = array<i64: 64>, opsched.slot = array<i64: 0>, opsched.start = 0 : i64, opsched.x = 6 : i64, zz.last} : tensor<16xf32>
// AGAIN-NEXT: %1 = arith.mulf %arg0, %arg0 {opsched.cost = 2 : i64, opsched.end = 6 : i64, opsched.live_bytes = 128 : i64, opsched.offset = array<i64: 128>, opsched.rank = 3 : i64, opsched.size = array<i64: 64>, opsched.slot = array<i64: 1>, opsched.start = 4 : i64} : tensor<16xf32>
// AGAIN-NEXT: %2 = arith.subf %0, %1 {opsched.cost = 1 : i64, opsched.critical, opsched.end = 7 : i64, opsched.live_bytes = 64 : i64, opsched.offset = array<i64: 0>, opsched.rank = 1 : i64, opsched.size = array<i64: 64>, opsched.slot = array<i64: 2>, opsched.start = 6 : i64} : tensor<16xf32>
// AGAIN-NEXT: %3 = tensor.empty() {b.mid = 0 : i64, opsched.end = 7 : i64, opsched.live_bytes = 64 : i64, opsched.rank = 0 : i64, opsched.start = 7 : i64} : tensor<16xf32>
