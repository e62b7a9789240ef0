// RUN: opsched-opt --op-schedule='streams=2' --mlir-print-debuginfo --mlir-print-local-scope %s | FileCheck %s
// RUN: opsched-opt --op-schedule='streams=4' --mlir-print-debuginfo --mlir-print-local-scope %s | FileCheck %s --check-prefix=FOUR

// Fork-join: src(1) -> b1(4), b2(4) -> join(1). Two streams run the
// branches together: makespan 6 = critical path; work 10 -> speedup 10/6.
// b2 crosses to stream 1 and waits on src (id 0); join waits on b2 (id 2).
// CHECK-LABEL: func.func @fork_join
// CHECK-SAME: {{.*}}opsched.critical_path = 6 : i64, {{.*}}opsched.lower_bound = 6 : i64, {{.*}}opsched.makespan = 6 : i64, {{.*}}opsched.speedup = 1.6666666666666667 : f64, {{.*}}opsched.streams = 2 : i64, {{.*}}opsched.waits_after = 2 : i64, {{.*}}opsched.waits_before = 2 : i64}
// CHECK-NEXT: arith.addf {{.*}}opsched.end = 1 : i64, {{.*}}opsched.id = 0 : i64, opsched.rank = 6 : i64, {{.*}}opsched.start = 0 : i64, opsched.stream = 0 : i64} : f32 loc("src")
// CHECK-NEXT: arith.mulf {{.*}}opsched.end = 5 : i64, {{.*}}opsched.id = 1 : i64, opsched.rank = 5 : i64, {{.*}}opsched.start = 1 : i64, opsched.stream = 0 : i64} : f32 loc("b1")
// CHECK-NEXT: arith.subf {{.*}}opsched.end = 5 : i64, {{.*}}opsched.id = 2 : i64, opsched.rank = 5 : i64, {{.*}}opsched.start = 1 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 0>} : f32 loc("b2")
// CHECK-NEXT: arith.addf {{.*}}opsched.end = 6 : i64, {{.*}}opsched.id = 3 : i64, opsched.rank = 1 : i64, {{.*}}opsched.start = 5 : i64, opsched.stream = 0 : i64, opsched.waits = array<i64: 2>} : f32 loc("join")
func.func @fork_join(%x: f32) -> f32 {
  %s = arith.addf %x, %x {opsched.cost = 1} : f32 loc("src")
  %b1 = arith.mulf %s, %s {opsched.cost = 4} : f32 loc("b1")
  %b2 = arith.subf %s, %s {opsched.cost = 4} : f32 loc("b2")
  %j = arith.addf %b1, %b2 {opsched.cost = 1} : f32 loc("join")
  return %j : f32
}

// A chain has no parallelism: it stays on one stream, with no waits, even
// with four streams available.
// FOUR-LABEL: func.func @chain
// FOUR-SAME: opsched.makespan = 6 : i64, {{.*}}opsched.speedup = 1.000000e+00 : f64, {{.*}}opsched.streams = 1 : i64, opsched.streams_requested = 4 : i64, {{.*}}opsched.waits_after = 0 : i64, {{.*}}opsched.waits_before = 0 : i64
// FOUR-COUNT-3: opsched.stream = 0 : i64} : f32
// FOUR-NOT: opsched.waits =
// FOUR: return
func.func @chain(%x: f32) -> f32 {
  %a = arith.addf %x, %x {opsched.cost = 1} : f32 loc("c1")
  %b = arith.mulf %a, %a {opsched.cost = 2} : f32 loc("c2")
  %c = arith.subf %b, %b {opsched.cost = 3} : f32 loc("c3")
  return %c : f32
}

// A(1) -> B(1); C(1) and X(5) both read A and B. After B, stream 0 takes C
// (the stream of its producers) and X goes to stream 1. X's two dependencies
// cross streams, but waiting on B implies A (A precedes B on stream 0), so
// the reduction keeps one wait of two.
// CHECK-LABEL: func.func @reduced
// CHECK-SAME: opsched.makespan = 7 : i64, {{.*}}opsched.speedup = 1.1428571428571428 : f64, {{.*}}opsched.streams = 2 : i64, {{.*}}opsched.waits_after = 1 : i64, {{.*}}opsched.waits_before = 2 : i64
// CHECK-NEXT: {{.*}}opsched.id = 0 : i64, {{.*}}opsched.start = 0 : i64, opsched.stream = 0 : i64} : f32 loc("A")
// CHECK-NEXT: {{.*}}opsched.id = 1 : i64, {{.*}}opsched.start = 1 : i64, opsched.stream = 0 : i64} : f32 loc("B")
// CHECK-NEXT: {{.*}}opsched.id = 2 : i64, {{.*}}opsched.start = 2 : i64, opsched.stream = 0 : i64} : f32 loc("C")
// CHECK-NEXT: {{.*}}opsched.id = 3 : i64, {{.*}}opsched.start = 2 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 1>} : f32 loc("X")
func.func @reduced(%x: f32) -> (f32, f32) {
  %a = arith.addf %x, %x {opsched.cost = 1} : f32 loc("A")
  %b = arith.mulf %a, %a {opsched.cost = 1} : f32 loc("B")
  %c = arith.subf %a, %b {opsched.cost = 1} : f32 loc("C")
  %y = arith.divf %a, %b {opsched.cost = 5} : f32 loc("X")
  return %c, %y : f32, f32
}

// Capacity: two independent ops each demand 2 of the 2 units, so they
// serialize although two streams are free: 0-4 then 4-8.
// CHECK-LABEL: func.func @capacity
// CHECK-SAME: opsched.makespan = 8 : i64
// CHECK-NEXT: {{.*}}opsched.end = 4 : i64, {{.*}}opsched.id = 0 : i64, opsched.rank = 4 : i64, opsched.resources = 2 : i64, opsched.start = 0 : i64{{.*}} loc("big1")
// CHECK-NEXT: {{.*}}opsched.end = 8 : i64, {{.*}}opsched.id = 1 : i64, opsched.rank = 4 : i64, opsched.resources = 2 : i64, opsched.start = 4 : i64{{.*}} loc("big2")
func.func @capacity(%x: f32) -> (f32, f32) {
  %a = arith.addf %x, %x {opsched.cost = 4, opsched.resources = 2} : f32 loc("big1")
  %b = arith.mulf %x, %x {opsched.cost = 4, opsched.resources = 2} : f32 loc("big2")
  return %a, %b : f32, f32
}

// The memory limit holds in time. m1 and m2 (10 ns each) are independent and
// each allocate 100 bytes (25xf32); r1 and r2 (1 ns) read a 1-element view
// of them into 4-byte results that live to the end. Two streams overlap m1
// and m2: 200 bytes live at once (208 with the results).
// RUN: opsched-opt --op-schedule='streams=2' --mlir-print-debuginfo --mlir-print-local-scope %s | FileCheck %s --check-prefix=OVERLAP
// RUN: opsched-opt --op-schedule='streams=2 max-memory=150' --mlir-print-debuginfo --mlir-print-local-scope %s 2>&1 | FileCheck %s --check-prefix=APART
// OVERLAP-LABEL: func.func @memory_in_time
// OVERLAP-SAME: opsched.makespan = 11 : i64
// OVERLAP-SAME: opsched.peak_memory = 208 : i64
// OVERLAP: opsched.start = 0 : i64{{.*}}loc("m1")
// OVERLAP: opsched.start = 0 : i64{{.*}}loc("m2")
// Under max-memory=150 they cannot overlap: m1 runs 0-10, r1 10-11 frees it,
// only then does m2 fit (4 + 100 <= 150): 11-21, then r2 21-22. Peak 108.
// The arena cannot fit 150 bytes at 64-byte aligned offsets (128 + 64 + 4,
// a 4-byte result on top): that, and only that, is warned about.
// APART: warning: opsched: the buffer arena does not fit max-memory = 150 bytes: the smallest arena found is 196 bytes (peak live bytes 108)
// APART-NOT: warning
// APART-LABEL: func.func @memory_in_time(%arg0
// APART-SAME: opsched.makespan = 22 : i64, {{.*}}opsched.memory_limit = 150 : i64
// APART-SAME: opsched.peak_memory = 108 : i64
// APART: opsched.start = 0 : i64{{.*}}loc("m1")
// APART: opsched.start = 10 : i64{{.*}}loc("r1")
// APART: opsched.start = 11 : i64{{.*}}loc("m2")
// APART: opsched.start = 21 : i64{{.*}}loc("r2")
func.func @memory_in_time(%x: tensor<25xf32>) -> (tensor<1xf32>, tensor<1xf32>) {
  %m1 = math.exp %x {opsched.cost = 10} : tensor<25xf32> loc("m1")
  %m2 = math.sqrt %x {opsched.cost = 10} : tensor<25xf32> loc("m2")
  %r1 = tensor.extract_slice %m1[0] [1] [1] : tensor<25xf32> to tensor<1xf32> loc("v1")
  %c1 = math.absf %r1 {opsched.cost = 1} : tensor<1xf32> loc("r1")
  %r2 = tensor.extract_slice %m2[0] [1] [1] : tensor<25xf32> to tensor<1xf32> loc("v2")
  %c2 = math.absf %r2 {opsched.cost = 1} : tensor<1xf32> loc("r2")
  return %c1, %c2 : tensor<1xf32>, tensor<1xf32>
}
