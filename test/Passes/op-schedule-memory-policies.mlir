// Memory policies and limits on two chains. q1 (cost 5) allocates 500 bytes,
// q2 (cost 5) reads a view of it and allocates 8; s (cost 1) allocates 1000,
// p (cost 1) reads a view of it and allocates 8. Both results live to the end.
//   critical-path (ranks q1 10, q2 5, s 2, p 1): q1 q2 s p; peaks 500, 508,
//     1008, 1016 -> 1016 (also the program order's);
//   min-memory: s p q1 q2; peaks 1000, 1008, 508, 516 -> 1008.
// RUN: opsched-opt --op-schedule --mlir-print-debuginfo --mlir-print-local-scope %s | FileCheck %s --check-prefix=CP
// RUN: opsched-opt --op-schedule='policy=min-memory' --mlir-print-debuginfo --mlir-print-local-scope %s | FileCheck %s --check-prefix=MIN
// A limit of 1010 is met by reordering, with the default critical-path policy;
// the arena cannot fit it (1000 and 8 bytes at 64-byte aligned offsets take
// 1024 + 8, the arena ending at its top buffer's unaligned end), which is
// the only warning:
// RUN: opsched-opt --op-schedule='max-memory=1010' --mlir-print-debuginfo --mlir-print-local-scope %s 2>&1 | FileCheck %s --check-prefix=MET
// 1000 cannot be met (s alone plus p's 8): a warning and the lowest peak;
// RUN: opsched-opt --op-schedule='max-memory=1000' %s 2>&1 | FileCheck %s --check-prefix=UNMET
// under strict-memory an error and a non-zero exit:
// RUN: not opsched-opt --op-schedule='max-memory=1000 strict-memory' %s 2>&1 | FileCheck %s --check-prefix=STRICT
// Sizes in other units, and bad sizes:
// RUN: opsched-opt --op-schedule='max-memory=1KiB' %s 2>&1 | FileCheck %s --check-prefix=KIB
// RUN: not opsched-opt --op-schedule='max-memory=12XB' %s 2>&1 | FileCheck %s --check-prefix=BADSIZE
// RUN: not opsched-opt --op-schedule='max-memory=-5' %s 2>&1 | FileCheck %s --check-prefix=NEGSIZE
// RUN: not opsched-opt --op-schedule='max-memory=99999999999GiB' %s 2>&1 | FileCheck %s --check-prefix=HUGESIZE
// RUN: not opsched-opt --op-schedule='policy=lowest' %s 2>&1 | FileCheck %s --check-prefix=BADPOLICY

// CP-LABEL: func.func @chains
// CP-SAME: opsched.original_peak_memory = 1016 : i64, {{.*}}opsched.peak_memory = 1016 : i64
// CP: loc("q1")
// CP: loc("q1view")
// CP: opsched.live_bytes = 8 : i64{{.*}}loc("q2")
// CP: opsched.live_bytes = 1008 : i64{{.*}}loc("s")
// CP: loc("sview")
// CP: opsched.live_bytes = 16 : i64{{.*}}loc("p")

// MIN-LABEL: func.func @chains
// MIN-SAME: opsched.original_peak_memory = 1016 : i64, {{.*}}opsched.peak_memory = 1008 : i64
// MIN: loc("s")
// MIN: loc("sview")
// MIN: loc("p")
// MIN: loc("q1")
// MIN: loc("q1view")
// MIN: loc("q2")

// MET: warning: opsched: the buffer arena does not fit max-memory = 1010 bytes: the smallest arena found is 1032 bytes (peak live bytes 1008)
// MET-NOT: warning
// MET-LABEL: func.func @chains(%arg0
// MET-SAME: opsched.memory_limit = 1010 : i64, {{.*}}opsched.original_peak_memory = 1016 : i64, {{.*}}opsched.peak_memory = 1008 : i64
// MET: loc("s")

// UNMET: warning: opsched: cannot meet max-memory = 1000 bytes: the lowest peak found is 1008 bytes
// UNMET: opsched.memory_limit = 1000 : i64, opsched.original_peak_memory = 1016 : i64, opsched.peak_memory = 1008 : i64

// STRICT: error: opsched: cannot meet max-memory = 1000 bytes: the lowest peak found is 1008 bytes

// 1KiB = 1024 bytes: the critical-path order (1016) fits, but no arena does
// at 64-byte alignment (1024 + 64 + 8 for it, 1024 + 8 for min-memory's
// 1008): a warning, and the order with the smaller arena.
// KIB: warning: opsched: the buffer arena does not fit max-memory = 1024 bytes: the smallest arena found is 1032 bytes (peak live bytes 1008)
// KIB: opsched.memory_limit = 1024 : i64, opsched.original_peak_memory = 1016 : i64, opsched.peak_memory = 1008 : i64
// BADSIZE: invalid value '12XB' for option 'max-memory'; accepted: a size such as 0 (no limit), 4096, 512KiB, 64MiB, 2GiB
// NEGSIZE: invalid value '-5' for option 'max-memory'
// HUGESIZE: invalid value '99999999999GiB' for option 'max-memory'
// BADPOLICY: invalid value 'lowest' for option 'policy'; accepted: critical-path, min-memory, program-order, exact, xla-list, xla-dfs, xla-postorder, inductor-lpmf, inductor-bfs, inductor-dfs, sethi-ullman

func.func @chains(%x: tensor<1xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %z = arith.constant 0.0 : f32
  %q1 = tensor.pad %x low[0] high[124] { ^bb0(%i: index): tensor.yield %z : f32 } {opsched.cost = 5} : tensor<1xf32> to tensor<125xf32> loc("q1")
  %sq = tensor.extract_slice %q1[0] [2] [1] {opsched.cost = 0} : tensor<125xf32> to tensor<2xf32> loc("q1view")
  %q2 = math.exp %sq {opsched.cost = 5} : tensor<2xf32> loc("q2")
  %s = tensor.pad %x low[0] high[249] { ^bb0(%i: index): tensor.yield %z : f32 } {opsched.cost = 1} : tensor<1xf32> to tensor<250xf32> loc("s")
  %ss = tensor.extract_slice %s[0] [2] [1] {opsched.cost = 0} : tensor<250xf32> to tensor<2xf32> loc("sview")
  %p = math.exp %ss {opsched.cost = 1} : tensor<2xf32> loc("p")
  return %q2, %p : tensor<2xf32>, tensor<2xf32>
}
