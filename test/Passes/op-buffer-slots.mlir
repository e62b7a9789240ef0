// Buffer slots and arena offsets (op-schedule runs the assignment; the
// op-buffer-slots pass does it alone under the schedule the IR carries).
// Every buffer below is 16 x f32 = 64 bytes.
// RUN: opsched-opt --op-schedule='streams=2' --mlir-print-debuginfo --mlir-print-local-scope %s | FileCheck %s --check-prefixes=CHECK,SYNC
// RUN: opsched-opt --op-schedule='streams=2 sync-reuse=false' --mlir-print-debuginfo --mlir-print-local-scope %s | FileCheck %s --check-prefixes=CHECK,STRICT
// The standalone pass reads op-schedule's placement and waits back: same
// slots (with no arena, op-schedule adds no reuse waits: the strict layout).
// RUN: opsched-opt --op-schedule='streams=2 buffer-slots=false' --mlir-print-debuginfo %s | opsched-opt --op-buffer-slots --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s --check-prefixes=CHECK,STRICT
// RUN: opsched-opt --op-schedule='streams=2' --mlir-print-debuginfo %s | opsched-opt --op-buffer-slots --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s --check-prefixes=CHECK,SYNC
// On unscheduled IR it takes the IR order on one stream.
// RUN: opsched-opt --op-buffer-slots --mlir-print-debuginfo --mlir-print-local-scope %s | FileCheck %s --check-prefix=IRORDER
// RUN: not opsched-opt --op-schedule='alignment=48' %s 2>&1 | FileCheck %s --check-prefix=ALIGN
// RUN: not opsched-opt --op-buffer-slots='alignment=0' %s 2>&1 | FileCheck %s --check-prefix=ALIGN0

// ALIGN: invalid value '48' for option 'alignment'; accepted: a power of two from 1 to 1073741824
// ALIGN0: error: op-buffer-slots: invalid value '0' for option 'alignment'

// Reuse after a last use: a (slot 0) is last read by b, so c reuses its
// memory at offset 0; b's view carries b's slot and owns nothing (-1).
// Slots are numbered by first use in the block's order (idempotence).
// CHECK-LABEL: func.func @reuse
// CHECK-SAME: opsched.alignment = 64 : i64, {{.*}}opsched.arena_size = 128 : i64
// CHECK: opsched.offset = array<i64: 0>, {{.*}}opsched.size = array<i64: 64>, opsched.slot = array<i64: 0>{{.*}}loc("a")
// CHECK: opsched.offset = array<i64: 64>, {{.*}}opsched.size = array<i64: 64>, opsched.slot = array<i64: 1>{{.*}}loc("b")
// CHECK: opsched.offset = array<i64: -1>, {{.*}}opsched.size = array<i64: -1>, opsched.slot = array<i64: 1>{{.*}}loc("view")
// CHECK: opsched.offset = array<i64: 0>, {{.*}}opsched.size = array<i64: 64>, opsched.slot = array<i64: 2>{{.*}}loc("c")
// IRORDER-LABEL: func.func @reuse
// IRORDER-SAME: opsched.arena_size = 128 : i64
// IRORDER: opsched.offset = array<i64: 0>, opsched.size = array<i64: 64>, opsched.slot = array<i64: 0>} {{.*}}loc("a")
// IRORDER: opsched.offset = array<i64: 0>, opsched.size = array<i64: 64>, opsched.slot = array<i64: 2>} {{.*}}loc("c")

// Two streams, no synchronisation between A's last reader A2 (stream 0,
// ends at 2) and B (stream 1, starts at 5): B may not reuse A's memory even
// though their times never overlap. No reuse at all: 4 x 64 bytes.
// STRICT-LABEL: func.func @unordered
// STRICT-NOT: opsched.reuse_waits
// STRICT-SAME: opsched.arena_size = 256 : i64
// STRICT-SAME: opsched.waits_after = 0 : i64
// STRICT: opsched.offset = array<i64: 128>{{.*}}opsched.start = 0 : i64, opsched.stream = 0 : i64} {{.*}}loc("A")
// STRICT: opsched.offset = array<i64: 64>{{.*}}opsched.start = 5 : i64, opsched.stream = 1 : i64} {{.*}}loc("B")
// With sync-reuse (the default) the packer orders them itself: A2 ends
// (2) before B starts (5) and comes first, so B waits on A2 (id 2) and
// takes A's memory; one wait added, 3 x 64 bytes, no time changed.
// SYNC-LABEL: func.func @unordered
// SYNC-SAME: opsched.arena_size = 192 : i64
// SYNC-SAME: opsched.makespan = 6 : i64
// SYNC-SAME: opsched.reuse_waits = 1 : i64
// SYNC-SAME: opsched.waits_after = 1 : i64
// SYNC: opsched.offset = array<i64: [[A:[0-9]+]]>{{.*}}opsched.start = 0 : i64, opsched.stream = 0 : i64} {{.*}}loc("A")
// SYNC: opsched.id = 2 : i64{{.*}}opsched.stream = 0 : i64} {{.*}}loc("A2")
// SYNC: opsched.offset = array<i64: [[A]]>{{.*}}opsched.start = 5 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 2>} {{.*}}loc("B")

// The same once a wait orders them: B (stream 1) waits on A2 (id 2), so
// every use of A happens before B and B takes A's memory (offset 64).
// CHECK-LABEL: func.func @ordered_by_wait
// CHECK-SAME: opsched.arena_size = 256 : i64
// CHECK: opsched.id = 0 : i64{{.*}}opsched.offset = array<i64: 64>{{.*}}opsched.stream = 0 : i64} {{.*}}loc("A")
// CHECK: opsched.id = 2 : i64{{.*}}opsched.stream = 0 : i64} {{.*}}loc("A2")
// CHECK: opsched.offset = array<i64: 192>{{.*}}opsched.stream = 1 : i64} {{.*}}loc("L2")
// CHECK: opsched.offset = array<i64: 64>{{.*}}opsched.stream = 1 : i64, opsched.waits = array<i64: 2>} {{.*}}loc("B")

func.func @reuse(%x: tensor<16xf32>) -> tensor<4x4xf32> {
  %a = math.exp %x {opsched.cost = 1} : tensor<16xf32> loc("a")
  %b = math.sqrt %a {opsched.cost = 1} : tensor<16xf32> loc("b")
  %v = tensor.expand_shape %b [[0, 1]] output_shape [4, 4] : tensor<16xf32> into tensor<4x4xf32> loc("view")
  %c = math.absf %v {opsched.cost = 1} : tensor<4x4xf32> loc("c")
  return %c : tensor<4x4xf32>
}
func.func @unordered(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %a = math.exp %x {opsched.cost = 1} : tensor<16xf32> loc("A")
  %a2 = math.sqrt %a {opsched.cost = 1} : tensor<16xf32> loc("A2")
  %l = math.absf %x {opsched.cost = 5} : tensor<16xf32> loc("L")
  %b = math.tanh %l {opsched.cost = 1} : tensor<16xf32> loc("B")
  return %a2, %b : tensor<16xf32>, tensor<16xf32>
}
func.func @ordered_by_wait(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %a = math.exp %x {opsched.cost = 1} : tensor<16xf32> loc("A")
  %a2 = math.sqrt %a {opsched.cost = 1} : tensor<16xf32> loc("A2")
  %l = math.absf %x {opsched.cost = 5} : tensor<16xf32> loc("L")
  %l2 = math.tanh %l {opsched.cost = 1} : tensor<16xf32> loc("L2")
  %b = math.fma %l, %l2, %a2 {opsched.cost = 1} : tensor<16xf32> loc("B")
  return %a2, %b : tensor<16xf32>, tensor<16xf32>
}
