// RUN: opsched-opt --op-schedule='streams=2' --mlir-print-debuginfo --mlir-print-local-scope %s | FileCheck %s
// RUN: opsched-opt --op-schedule='streams=4' --mlir-print-debuginfo --mlir-print-local-scope %s | FileCheck %s --check-prefix=FOUR

// Fork-join: src(1) -> b1(4), b2(4) -> join(1). Two streams run the
// branches together: makespan 6 = critical path; work 10 -> speedup 10/6.
// b2 crosses to stream 1 and waits on src (id 0); join waits on b2 (id 2).
// CHECK-LABEL: func.func @fork_join
// CHECK-SAME: {opsched.critical_path = 6 : i64, opsched.lower_bound = 6 : i64, opsched.makespan = 6 : i64, opsched.speedup = 1.6666666666666667 : f64, opsched.streams = 2 : i64, opsched.waits_after = 2 : i64, opsched.waits_before = 2 : i64}
// CHECK-NEXT: arith.addf {{.*}}opsched.end = 1 : i64, {{.*}}opsched.id = 0 : i64, opsched.rank = 6 : i64, opsched.start = 0 : i64, opsched.stream = 0 : i64} : f32 loc("src")
// CHECK-NEXT: arith.mulf {{.*}}opsched.end = 5 : i64, {{.*}}opsched.id = 1 : i64, opsched.rank = 5 : i64, opsched.start = 1 : i64, opsched.stream = 0 : i64} : f32 loc("b1")
// CHECK-NEXT: arith.subf {{.*}}opsched.end = 5 : i64, {{.*}}opsched.id = 2 : i64, opsched.rank = 5 : i64, opsched.start = 1 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 0>} : f32 loc("b2")
// CHECK-NEXT: arith.addf {{.*}}opsched.end = 6 : i64, {{.*}}opsched.id = 3 : i64, opsched.rank = 1 : i64, opsched.start = 5 : i64, opsched.stream = 0 : i64, opsched.waits = array<i64: 2>} : f32 loc("join")
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
// FOUR-SAME: opsched.makespan = 6 : i64, opsched.speedup = 1.000000e+00 : f64, opsched.streams = 4 : i64, opsched.waits_after = 0 : i64, opsched.waits_before = 0 : i64
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
// CHECK-SAME: opsched.makespan = 7 : i64, opsched.speedup = 1.1428571428571428 : f64, opsched.streams = 2 : i64, opsched.waits_after = 1 : i64, opsched.waits_before = 2 : i64
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
