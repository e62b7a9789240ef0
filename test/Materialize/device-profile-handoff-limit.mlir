// A memory limit through the cross-stream hand-off (docs/streams.md,
// "Charging the runtime"). q (100 us) and a (100 us, 400 B) feed c; e
// (400 B) feeds f; under max-memory=460 the two 400 B buffers never
// coexist, so e waits for c to free a's. With handoff_ns 10000, c runs
// 10 us after a placed without the hand-off: re-timed on its streams, e
// (which nothing delays) started beside a's buffer (peak 848 B > 460), and
// the plan fell back to one stream (500000 ns). The charge now keeps every
// buffer freed before the next is allocated (a reuse across streams costs
// a hand-off too) and places each op where it starts first: two streams,
// 410200 ns, peak 432 B, e after c on c's stream (no reuse wait).
// RUN: opsched-opt --op-schedule='device=%S/Inputs/handoff-10000.profile streams=2 max-memory=460 alignment=4' --mlir-print-local-scope --mlir-print-debuginfo %s | FileCheck %s

// CHECK-LABEL: func.func @gate
// CHECK-SAME:    opsched.arena_size = 432 : i64
// CHECK-SAME:    opsched.makespan = 410200 : i64, opsched.memory_limit = 460 : i64
// CHECK-SAME:    opsched.peak_memory = 432 : i64
// CHECK-SAME:    opsched.streams = 2 : i64
// CHECK-SAME:    opsched.unconstrained_makespan = 300150 : i64, opsched.unconstrained_peak_memory = 848 : i64
// CHECK-SAME:    opsched.waits_after = 2 : i64
// The constant (stream 0) feeds both pads: a on stream 1 waits 10000 ns.
// CHECK:         math.exp {{.*}}opsched.start = 0 : i64, opsched.stream = 0 : i64} {{.*}}loc("q")
// CHECK:         opsched.start = 10000 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 0>} {{.*}}loc("a")
// c waits on q (ends 100050) across streams and on a (ends 110050) on its own.
// CHECK:         opsched.start = 110050 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 1>} {{.*}}loc("c")
// CHECK:         opsched.offset = array<i64: 32>, {{.*}}opsched.start = 210100 : i64, opsched.stream = 1 : i64} {{.*}}loc("e")
// CHECK:         opsched.start = 310150 : i64, opsched.stream = 1 : i64} {{.*}}loc("f")
func.func @gate(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %z = arith.constant 0.0 : f32
  %q = math.exp %x {opsched.cost = 100000} : tensor<4xf32> loc("q")
  %a = tensor.pad %x low[0] high[96] { ^bb0(%i: index): tensor.yield %z : f32 } {opsched.cost = 100000} : tensor<4xf32> to tensor<100xf32> loc("a")
  %as = tensor.extract_slice %a[0] [4] [1] {opsched.cost = 0} : tensor<100xf32> to tensor<4xf32> loc("aview")
  %c = arith.addf %as, %q {opsched.cost = 100000} : tensor<4xf32> loc("c")
  %e = tensor.pad %x low[0] high[96] { ^bb0(%i: index): tensor.yield %z : f32 } {opsched.cost = 100000} : tensor<4xf32> to tensor<100xf32> loc("e")
  %es = tensor.extract_slice %e[0] [4] [1] {opsched.cost = 0} : tensor<100xf32> to tensor<4xf32> loc("eview")
  %f = math.exp %es {opsched.cost = 100000} : tensor<4xf32> loc("f")
  return %c, %f : tensor<4xf32>, tensor<4xf32>
}
