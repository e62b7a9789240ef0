// Valid annotated modules pass op-schedule-verify unchanged.
// RUN: opsched-opt --allow-unregistered-dialect --op-schedule-verify %s | FileCheck %s
// RUN: opsched-opt --allow-unregistered-dialect %s > %t.plain
// RUN: opsched-opt --allow-unregistered-dialect --op-schedule-verify %s > %t.verified
// RUN: diff %t.plain %t.verified
// The same through stock mlir-opt and the plugin.
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --allow-unregistered-dialect --op-schedule-verify %s | FileCheck %s
// The pass shows its own name in timings, not its C++ type's.
// RUN: opsched-opt --allow-unregistered-dialect --mlir-timing --op-schedule-verify %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIMING
// TIMING-NOT: anonymous
// TIMING: {{ }}OpScheduleVerifyPass{{$}}
//
// The scheduler's own output verifies: the example model on 1, 2 and 4
// streams (with a memory limit it meets), and this directory's scheduling
// tests; effort=1 on inception_block once guarded a bug (a pooling window's
// tensor.empty placed in the arena from its reader's time, not its own).
// RUN: opsched-opt --op-schedule='streams=2 effort=1' %opsched_src/examples/models/inception_block.mlir | opsched-opt --op-schedule-verify | FileCheck %s --check-prefix=INCEPTION
// RUN: opsched-opt --op-schedule='streams=3 effort=1 resource-limit=2' %opsched_src/examples/models/inception_block.mlir | opsched-opt --op-schedule-verify | FileCheck %s --check-prefix=INCEPTION
// RUN: opsched-opt --op-schedule='streams=4' %opsched_src/examples/models/inception_block.mlir | opsched-opt --op-schedule-verify | FileCheck %s --check-prefix=INCEPTION
// RUN: opsched-opt --op-schedule %opsched_src/examples/models/inception_block.mlir | opsched-opt --op-schedule-verify | FileCheck %s --check-prefix=INCEPTION
// RUN: opsched-opt --op-schedule='streams=2 max-memory=1600KiB' %opsched_src/examples/models/inception_block.mlir | opsched-opt --op-schedule-verify | FileCheck %s --check-prefix=INCEPTION
// RUN: opsched-opt --op-schedule='streams=4 resource-limit=2' %opsched_src/examples/models/inception_block.mlir | opsched-opt --op-schedule-verify | FileCheck %s --check-prefix=INCEPTION
// RUN: opsched-opt --op-schedule='streams=2 cost-model=unit' %opsched_src/examples/models/seed_demo.mlir | opsched-opt --op-schedule-verify | FileCheck %s --check-prefix=SEED
// RUN: opsched-opt --op-schedule='streams=4' %S/op-schedule-streams.mlir | opsched-opt --op-schedule-verify | FileCheck %s --check-prefix=STREAMS
// RUN: opsched-opt --op-schedule='streams=2 max-memory=150' %S/op-schedule-streams.mlir 2>/dev/null | opsched-opt --op-schedule-verify | FileCheck %s --check-prefix=STREAMS
// RUN: opsched-opt --allow-unregistered-dialect --op-schedule='streams=3' %S/op-schedule.mlir | opsched-opt --allow-unregistered-dialect --op-schedule-verify | FileCheck %s --check-prefix=DIAMOND
// RUN: opsched-opt --op-schedule='streams=2' %S/op-schedule-memory.mlir 2>/dev/null | opsched-opt --op-schedule-verify > /dev/null
// INCEPTION: func.func @inception_block
// SEED: func.func @seed
// STREAMS: func.func @fork_join
// DIAMOND: func.func @diamond

// One stream: IR order is the order. %v is a view of a's buffer (slot 0, no
// offset of its own), so b reading %v is a holder of slot 0; c reuses those
// bytes after b, a's last holder. Peak 128 (during b and during c).
// CHECK-LABEL: func.func @one_stream
// CHECK-SAME: opsched.arena_size = 128 : i64, {{.*}}opsched.memory_limit = 128 : i64
// CHECK-NEXT: math.exp {{.*}}opsched.offset = array<i64: 0>, opsched.size = array<i64: 64>, opsched.slot = array<i64: 0>, opsched.start = 0 : i64}
// CHECK-NEXT: tensor.cast
// CHECK-NEXT: math.sqrt
// CHECK-NEXT: math.exp {{.*}}opsched.offset = array<i64: 0>, opsched.size = array<i64: 64>, opsched.slot = array<i64: 2>
// CHECK-NEXT: return
func.func @one_stream(%x: tensor<16xf32>) -> tensor<?xf32> attributes {opsched.arena_size = 128 : i64, opsched.memory_limit = 128 : i64, opsched.streams = 1 : i64} {
  %a = math.exp %x {opsched.start = 0, opsched.end = 1, opsched.slot = array<i64: 0>, opsched.offset = array<i64: 0>, opsched.size = array<i64: 64>} : tensor<16xf32>
  %v = tensor.cast %a {opsched.start = 1, opsched.end = 1, opsched.slot = array<i64: 0>, opsched.offset = array<i64: -1>, opsched.size = array<i64: -1>} : tensor<16xf32> to tensor<?xf32>
  %b = math.sqrt %v {opsched.start = 1, opsched.end = 2, opsched.slot = array<i64: 1>, opsched.offset = array<i64: 64>, opsched.size = array<i64: 64>} : tensor<?xf32>
  %c = math.exp %b {opsched.start = 2, opsched.end = 3, opsched.slot = array<i64: 2>, opsched.offset = array<i64: 0>, opsched.size = array<i64: 64>} : tensor<?xf32>
  return %c : tensor<?xf32>
}

// Two streams (fork-join): b2 crosses to stream 1 waiting on s (id 0); j
// waits on b2 (id 2). j reuses s's bytes: s's holders b1 (stream 0, before j)
// and b2 (waited on) all happen before j. In time: s, b1, b2 live at once
// (192 bytes at t=1); s is freed at t=5 before j allocates.
// CHECK-LABEL: func.func @two_streams
// CHECK-COUNT-4: opsched.stream
// CHECK: return
func.func @two_streams(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) attributes {opsched.arena_size = 192 : i64, opsched.memory_limit = 192 : i64, opsched.streams = 2 : i64} {
  %s = math.exp %x {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 0, opsched.slot = array<i64: 0>, opsched.offset = array<i64: 0>, opsched.size = array<i64: 64>} : tensor<16xf32>
  %b1 = math.sqrt %s {opsched.start = 1, opsched.end = 5, opsched.stream = 0, opsched.id = 1, opsched.slot = array<i64: 1>, opsched.offset = array<i64: 64>, opsched.size = array<i64: 64>} : tensor<16xf32>
  %b2 = math.exp %s {opsched.start = 1, opsched.end = 5, opsched.stream = 1, opsched.id = 2, opsched.waits = array<i64: 0>, opsched.slot = array<i64: 2>, opsched.offset = array<i64: 128>, opsched.size = array<i64: 64>} : tensor<16xf32>
  %j = arith.addf %b1, %b2 {opsched.start = 5, opsched.end = 6, opsched.stream = 0, opsched.id = 3, opsched.waits = array<i64: 2>, opsched.slot = array<i64: 3>, opsched.offset = array<i64: 0>, opsched.size = array<i64: 64>} : tensor<16xf32>
  return %j, %b2 : tensor<16xf32>, tensor<16xf32>
}

// A wait implied transitively: X (stream 1) depends on A and B (stream 0)
// but waits only on B, which follows A on stream 0. Zero-duration ops (the
// constant) may share an instant with others on their stream.
// CHECK-LABEL: func.func @transitive
func.func @transitive(%x: f32) -> (f32, f32) attributes {opsched.streams = 2 : i64} {
  %k = arith.constant {opsched.start = 0, opsched.end = 0, opsched.stream = 0, opsched.id = 0} 1.0 : f32
  %a = arith.addf %x, %k {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 1} : f32
  %b = arith.mulf %a, %a {opsched.start = 1, opsched.end = 2, opsched.stream = 0, opsched.id = 2} : f32
  %c = arith.subf %a, %b {opsched.start = 2, opsched.end = 3, opsched.stream = 0, opsched.id = 3} : f32
  %y = arith.divf %a, %b {opsched.start = 2, opsched.end = 7, opsched.stream = 1, opsched.id = 4, opsched.waits = array<i64: 2>} : f32
  return %c, %y : f32, f32
}

// Captures: the region op reads %a from inside its body, after a ends. The
// nested block has no attributes and is skipped; so is the unannotated
// function below.
// CHECK-LABEL: func.func @capture
func.func @capture(%x: f32) -> f32 {
  %a = arith.addf %x, %x {opsched.start = 0, opsched.end = 4} : f32
  %r = "test.region"() ({
    %y = arith.mulf %a, %a : f32
    "test.yield"(%y) : (f32) -> ()
  }) {opsched.start = 4, opsched.end = 5} : () -> f32
  return %r : f32
}

// CHECK-LABEL: func.func @plain
func.func @plain(%x: f32) -> f32 {
  %a = arith.addf %x, %x : f32
  %b = arith.mulf %a, %a : f32
  return %b : f32
}
