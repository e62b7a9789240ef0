// Budgeted multi-stream runs (lib/core/schedule.c order windows,
// lib/core/frontier.c): a looser budget must not give a slower schedule.
// a (4 ns, 8 B) -> c (4 ns, 64 B, read through a view) -> e (5 ns, 8 B),
// a -> e; b (3 ns, 4 B) and d (3 ns, 480 B, unused) are free; e and b live
// to the end. Critical path a c e = 13 ns. One-stream min-memory peak: d
// alone, 480 B; under it d overlaps nothing (16 ns). With 8 B more, d runs
// beside a: 13 ns at 488 B. The gated list scheduler alone, under 518 B,
// started b beside a, then d at 3 holding 480 B until 6, so c (64 B) waited
// for it: 15 ns at 492 B (and the default returned the unconstrained 556 B).
// RUN: opsched-opt --op-schedule='streams=2' --mlir-print-local-scope --mlir-print-debuginfo %s | FileCheck %s --check-prefix=DEFAULT
// RUN: opsched-opt --op-schedule='streams=2 max-memory=518 alignment=8' %s 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: opsched-opt --op-schedule='streams=2 max-memory=480 alignment=8' %s 2>&1 | FileCheck %s --check-prefix=FLOOR

// DEFAULT-LABEL: func.func @window
// DEFAULT-SAME: opsched.makespan = 13 : i64, opsched.original_peak_memory = 556 : i64, opsched.peak_memory = 488 : i64, {{.*}}opsched.unconstrained_makespan = 13 : i64, opsched.unconstrained_peak_memory = 556 : i64
// DEFAULT: opsched.start = 0 : i64, opsched.stream = 0 : i64{{.*}}loc("d")
// DEFAULT: opsched.start = 0 : i64, opsched.stream = 1 : i64{{.*}}loc("a")
// DEFAULT: opsched.start = 4 : i64, opsched.stream = 0 : i64{{.*}}loc("c")
// DEFAULT: opsched.start = 8 : i64, opsched.stream = 0 : i64{{.*}}loc("b")
// DEFAULT: opsched.start = 8 : i64, opsched.stream = 1 : i64{{.*}}loc("e")

// LIMIT-NOT: warning
// LIMIT: opsched.arena_size = 488 : i64, {{.*}}opsched.makespan = 13 : i64, opsched.memory_limit = 518 : i64, {{.*}}opsched.peak_memory = 488 : i64

// FLOOR-NOT: warning
// FLOOR: opsched.arena_size = 480 : i64, {{.*}}opsched.makespan = 16 : i64, opsched.memory_limit = 480 : i64, {{.*}}opsched.peak_memory = 480 : i64

func.func @window(%x: tensor<1xf32>) -> (tensor<2xf32>, tensor<1xf32>) {
  %z = arith.constant 0.0 : f32
  %a = tensor.pad %x low[0] high[1] { ^bb0(%i: index): tensor.yield %z : f32 } {opsched.cost = 4} : tensor<1xf32> to tensor<2xf32> loc("a")
  %b = math.exp %x {opsched.cost = 3} : tensor<1xf32> loc("b")
  %c = tensor.pad %a low[0] high[14] { ^bb0(%i: index): tensor.yield %z : f32 } {opsched.cost = 4} : tensor<2xf32> to tensor<16xf32> loc("c")
  %cv = tensor.extract_slice %c[0] [2] [1] {opsched.cost = 0} : tensor<16xf32> to tensor<2xf32> loc("cview")
  %d = tensor.pad %x low[0] high[119] { ^bb0(%i: index): tensor.yield %z : f32 } {opsched.cost = 3} : tensor<1xf32> to tensor<120xf32> loc("d")
  %e = arith.addf %a, %cv {opsched.cost = 5} : tensor<2xf32> loc("e")
  return %e, %b : tensor<2xf32>, tensor<1xf32>
}
