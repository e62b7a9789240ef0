// RUN: opsched-opt --allow-unregistered-dialect --op-schedule-verify -split-input-file -verify-diagnostics %s
// RUN: not opsched-opt --allow-unregistered-dialect --op-schedule-verify %s -split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=EXIT
// EXIT: error: opsched-verify:

// 1. Order: in a graph region (no dominance), b reads a, which comes later.
func.func @use_before_def() attributes {opsched.streams = 2 : i64} {
  "test.graph"() ({
    // expected-error @below {{opsched-verify: uses a value of op 'test.a' (id 1), which comes later in the block}}
    // expected-note @below {{the other op is here}}
    %1 = "test.b"(%0) {opsched.start = 1, opsched.end = 2, opsched.stream = 0, opsched.id = 0} : (i32) -> i32
    // expected-note @below {{the producer is here}}
    // expected-error @below {{has unknown memory effects and op 'test.b' (id 0) touches memory, but no stream order or wait orders the two (streams 1 and 0)}}
    %0 = "test.a"() {opsched.start = 0, opsched.end = 1, opsched.stream = 1, opsched.id = 1} : () -> i32
    "test.end"() : () -> ()
  }) : () -> ()
  return
}

// -----

// 1. Time: b starts before its producer ends (the wait orders them, the
// times do not; so the wait does not follow the timeline either).
func.func @time(%x: f32) -> f32 attributes {opsched.streams = 2 : i64} {
  // expected-note @below {{the op waited on is here}}
  // expected-note @below {{the producer is here}}
  %a = arith.addf %x, %x {opsched.start = 0, opsched.end = 3, opsched.stream = 0, opsched.id = 0} : f32
  // expected-error @below {{'opsched.waits' names op 'arith.addf' (id 0), which ends at 3, after this op starts at 2: waits must follow the timeline}}
  // expected-error @below {{starts at 2 but its dependency op 'arith.addf' (id 0) ends at 3}}
  %b = arith.mulf %a, %a {opsched.start = 2, opsched.end = 4, opsched.stream = 1, opsched.id = 1, opsched.waits = array<i64: 0>} : f32
  return %b : f32
}

// -----

// 1. Time through a capture: the region op reads %a inside its body.
func.func @capture(%x: f32) -> f32 attributes {opsched.streams = 2 : i64} {
  // expected-note @below {{the op waited on is here}}
  // expected-note @below {{the producer is here}}
  %a = arith.addf %x, %x {opsched.start = 0, opsched.end = 4, opsched.stream = 0, opsched.id = 0} : f32
  // expected-error @below {{'opsched.waits' names op 'arith.addf' (id 0), which ends at 4, after this op starts at 2}}
  // expected-error @below {{starts at 2 but its dependency op 'arith.addf' (id 0) ends at 4}}
  %r = "test.region"() ({
    %y = arith.mulf %a, %a : f32
    "test.yield"(%y) : (f32) -> ()
  }) {opsched.start = 2, opsched.end = 5, opsched.stream = 1, opsched.id = 1, opsched.waits = array<i64: 0>} : () -> f32
  return %r : f32
}

// -----

// 2. A user edited op-schedule's fork-join output (streams=2): join lost its
// wait on b2, so nothing orders b2 (stream 1) before it.
func.func @fork_join(%arg0: f32) -> f32 attributes {opsched.streams = 2 : i64} {
  %0 = arith.addf %arg0, %arg0 {opsched.end = 1 : i64, opsched.id = 0 : i64, opsched.start = 0 : i64, opsched.stream = 0 : i64} : f32
  %1 = arith.mulf %0, %0 {opsched.end = 5 : i64, opsched.id = 1 : i64, opsched.start = 1 : i64, opsched.stream = 0 : i64} : f32
  // expected-note @below {{the producer is here}}
  %2 = arith.subf %0, %0 {opsched.end = 5 : i64, opsched.id = 2 : i64, opsched.start = 1 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 0>} : f32
  // expected-error @below {{dependency on op 'arith.subf' (id 2) on stream 1 is not covered by stream order or waits}}
  %3 = arith.addf %1, %2 {opsched.end = 6 : i64, opsched.id = 3 : i64, opsched.start = 5 : i64, opsched.stream = 0 : i64} : f32
  return %3 : f32
}

// -----

// 2. Coverage is transitive only through real chains: c waits on b
// (stream 1), which never waited on a (stream 2).
func.func @not_transitive(%x: f32) -> f32 attributes {opsched.streams = 3 : i64} {
  // expected-note @below {{the producer is here}}
  %a = arith.addf %x, %x {opsched.start = 0, opsched.end = 1, opsched.stream = 2, opsched.id = 0} : f32
  %b = arith.mulf %x, %x {opsched.start = 0, opsched.end = 1, opsched.stream = 1, opsched.id = 1} : f32
  // expected-error @below {{dependency on op 'arith.addf' (id 0) on stream 2 is not covered by stream order or waits}}
  %c = arith.subf %a, %b {opsched.start = 1, opsched.end = 2, opsched.stream = 0, opsched.id = 2, opsched.waits = array<i64: 1>} : f32
  return %c : f32
}

// -----

// 2. A wait on an id that does not exist.
func.func @wait_missing(%x: f32) -> f32 attributes {opsched.streams = 2 : i64} {
  %a = arith.addf %x, %x {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 0} : f32
  // expected-error @below {{'opsched.waits' names op 7, which does not exist in this block}}
  %b = arith.mulf %a, %a {opsched.start = 1, opsched.end = 2, opsched.stream = 0, opsched.id = 1, opsched.waits = array<i64: 7>} : f32
  return %b : f32
}

// -----

// 2. A wait on a later op.
func.func @wait_later(%x: f32) -> (f32, f32) attributes {opsched.streams = 2 : i64} {
  // expected-error @below {{'opsched.waits' names op 'arith.mulf' (id 1), which does not come before this op}}
  %a = arith.addf %x, %x {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 0, opsched.waits = array<i64: 1>} : f32
  // expected-note @below {{the op waited on is here}}
  %b = arith.mulf %x, %x {opsched.start = 0, opsched.end = 1, opsched.stream = 1, opsched.id = 1} : f32
  return %a, %b : f32, f32
}

// -----

// 2. Ids are unique within a block.
func.func @duplicate_id(%x: f32) -> (f32, f32) attributes {opsched.streams = 2 : i64} {
  // expected-note @below {{the earlier op is here}}
  %a = arith.addf %x, %x {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 0} : f32
  // expected-error @below {{'opsched.id' 0 is also the id of an earlier op in this block (op 'arith.addf' (id 0))}}
  %b = arith.mulf %x, %x {opsched.start = 0, opsched.end = 1, opsched.stream = 1, opsched.id = 0} : f32
  return %a, %b : f32, f32
}

// -----

// 3. Two buffers overlap while both can be live: b1 and b2 run at once on
// two streams, and a user moved b2 onto b1's bytes.
func.func @overlap(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) attributes {opsched.streams = 2 : i64} {
  %s = math.exp %x {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 0, opsched.slot = array<i64: 0>, opsched.offset = array<i64: 0>, opsched.size = array<i64: 64>} : tensor<16xf32>
  // expected-note @below {{the other buffer's owner is here}}
  %b1 = math.sqrt %s {opsched.start = 1, opsched.end = 5, opsched.stream = 0, opsched.id = 1, opsched.slot = array<i64: 1>, opsched.offset = array<i64: 64>, opsched.size = array<i64: 64>} : tensor<16xf32>
  // expected-error @below {{slot 2 (bytes [96, 160)) overlaps slot 1 (bytes [64, 128)) of op 'math.sqrt' (id 1) but both can be live at once}}
  %b2 = math.exp %s {opsched.start = 1, opsched.end = 5, opsched.stream = 1, opsched.id = 2, opsched.waits = array<i64: 0>, opsched.slot = array<i64: 2>, opsched.offset = array<i64: 96>, opsched.size = array<i64: 64>} : tensor<16xf32>
  return %b1, %b2 : tensor<16xf32>, tensor<16xf32>
}

// -----

// 3. Reuse needs happens-before, not just time: c (stream 1) starts after
// b ends, but nothing orders b before c, so c may not take s's bytes.
func.func @reuse_unordered(%x: tensor<16xf32>) -> tensor<16xf32> attributes {opsched.streams = 2 : i64} {
  // expected-note @below {{the other buffer's owner is here}}
  %s = math.exp %x {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 0, opsched.slot = array<i64: 0>, opsched.offset = array<i64: 0>, opsched.size = array<i64: 64>} : tensor<16xf32>
  %b = math.sqrt %s {opsched.start = 1, opsched.end = 2, opsched.stream = 0, opsched.id = 1, opsched.slot = array<i64: 1>, opsched.offset = array<i64: 64>, opsched.size = array<i64: 64>} : tensor<16xf32>
  // expected-error @below {{slot 2 (bytes [0, 64)) overlaps slot 0 (bytes [0, 64)) of op 'math.exp' (id 0) but both can be live at once}}
  %c = math.exp %x {opsched.start = 3, opsched.end = 4, opsched.stream = 1, opsched.id = 2, opsched.slot = array<i64: 2>, opsched.offset = array<i64: 0>, opsched.size = array<i64: 64>} : tensor<16xf32>
  return %b : tensor<16xf32>
}

// -----

// 3. Bytes keep their own latest holder: b takes the first half of a's
// bytes after a on stream 0, c the second half on stream 1 with no wait,
// so c and a can be live at once though b, the latest buffer in that
// range, is not in c's bytes.
func.func @overlap_older(%x: tensor<32xf32>, %y: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) attributes {opsched.streams = 2 : i64} {
  // expected-note @below {{the other buffer's owner is here}}
  %a = math.exp %x {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 0, opsched.slot = array<i64: 0>, opsched.offset = array<i64: 0>, opsched.size = array<i64: 128>} : tensor<32xf32>
  %b = math.exp %y {opsched.start = 1, opsched.end = 2, opsched.stream = 0, opsched.id = 1, opsched.slot = array<i64: 1>, opsched.offset = array<i64: 0>, opsched.size = array<i64: 64>} : tensor<16xf32>
  // expected-error @below {{slot 2 (bytes [64, 128)) overlaps slot 0 (bytes [0, 128)) of op 'math.exp' (id 0) but both can be live at once}}
  %c = math.sqrt %y {opsched.start = 1, opsched.end = 2, opsched.stream = 1, opsched.id = 2, opsched.slot = array<i64: 2>, opsched.offset = array<i64: 64>, opsched.size = array<i64: 64>} : tensor<16xf32>
  return %b, %c : tensor<16xf32>, tensor<16xf32>
}

// -----

// 3. Every holder of a buffer's bytes counts, not only the first: c takes
// b's bytes after b on stream 0 and a's, on stream 1, with no wait.
func.func @overlap_two_holders(%x: tensor<16xf32>, %z: tensor<32xf32>) -> tensor<32xf32> attributes {opsched.streams = 2 : i64} {
  // expected-note @below {{the other buffer's owner is here}}
  %a = math.exp %x {opsched.start = 0, opsched.end = 1, opsched.stream = 1, opsched.id = 0, opsched.slot = array<i64: 0>, opsched.offset = array<i64: 64>, opsched.size = array<i64: 64>} : tensor<16xf32>
  %b = math.sqrt %x {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 1, opsched.slot = array<i64: 1>, opsched.offset = array<i64: 0>, opsched.size = array<i64: 64>} : tensor<16xf32>
  // expected-error @below {{slot 2 (bytes [0, 128)) overlaps slot 0 (bytes [64, 128)) of op 'math.exp' (id 0) but both can be live at once}}
  %c = math.exp %z {opsched.start = 1, opsched.end = 2, opsched.stream = 0, opsched.id = 2, opsched.slot = array<i64: 2>, opsched.offset = array<i64: 0>, opsched.size = array<i64: 128>} : tensor<32xf32>
  return %c : tensor<32xf32>
}

// -----

// 3. A buffer the terminator uses lives to the end: b may not reuse it.
func.func @live_out(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  // expected-note @below {{the other buffer's owner is here}}
  %a = math.exp %x {opsched.start = 0, opsched.end = 1, opsched.slot = array<i64: 0>, opsched.offset = array<i64: 0>, opsched.size = array<i64: 64>} : tensor<16xf32>
  // expected-error @below {{slot 1 (bytes [32, 96)) overlaps slot 0 (bytes [0, 64)) of op 'math.exp' (position 0) but both can be live at once}}
  %b = math.exp %x {opsched.start = 1, opsched.end = 2, opsched.slot = array<i64: 1>, opsched.offset = array<i64: 32>, opsched.size = array<i64: 64>} : tensor<16xf32>
  return %a, %b : tensor<16xf32>, tensor<16xf32>
}

// -----

// 4. The arena is too small for the offsets.
// expected-error @below {{'opsched.arena_size' is 100 bytes but slot 1 ends at byte 128}}
func.func @arena(%x: tensor<16xf32>) -> tensor<16xf32> attributes {opsched.arena_size = 100 : i64} {
  %a = math.exp %x {opsched.start = 0, opsched.end = 1, opsched.slot = array<i64: 0>, opsched.offset = array<i64: 0>, opsched.size = array<i64: 64>} : tensor<16xf32>
  %b = math.sqrt %a {opsched.start = 1, opsched.end = 2, opsched.slot = array<i64: 1>, opsched.offset = array<i64: 64>, opsched.size = array<i64: 64>} : tensor<16xf32>
  return %b : tensor<16xf32>
}

// -----

// 4. One stream: live bytes in IR order peak at 128 during op 1.
// expected-error @below {{live bytes reach 128 during op 1, above 'opsched.memory_limit' = 100}}
func.func @memory_order(%x: tensor<16xf32>) -> tensor<16xf32> attributes {opsched.memory_limit = 100 : i64} {
  %a = math.exp %x {opsched.start = 0, opsched.end = 1, opsched.slot = array<i64: 0>, opsched.offset = array<i64: 0>, opsched.size = array<i64: 64>} : tensor<16xf32>
  %b = math.sqrt %a {opsched.start = 1, opsched.end = 2, opsched.slot = array<i64: 1>, opsched.offset = array<i64: 64>, opsched.size = array<i64: 64>} : tensor<16xf32>
  return %b : tensor<16xf32>
}

// -----

// 4. Two streams: live bytes in time; a and b run at once from t=0.
// expected-error @below {{live bytes reach 128 at t=0, above 'opsched.memory_limit' = 100}}
func.func @memory_time(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) attributes {opsched.memory_limit = 100 : i64, opsched.streams = 2 : i64} {
  %a = math.exp %x {opsched.start = 0, opsched.end = 4, opsched.stream = 0, opsched.id = 0, opsched.slot = array<i64: 0>, opsched.offset = array<i64: 0>, opsched.size = array<i64: 64>} : tensor<16xf32>
  %b = math.sqrt %x {opsched.start = 0, opsched.end = 4, opsched.stream = 1, opsched.id = 1, opsched.slot = array<i64: 1>, opsched.offset = array<i64: 64>, opsched.size = array<i64: 64>} : tensor<16xf32>
  return %a, %b : tensor<16xf32>, tensor<16xf32>
}

// -----

// 5. Capacity: two ops demanding 2 each run at once on 2 streams.
func.func @capacity(%x: f32) -> (f32, f32) attributes {opsched.streams = 2 : i64} {
  %a = arith.addf %x, %x {opsched.start = 0, opsched.end = 4, opsched.stream = 0, opsched.id = 0, opsched.resources = 2} : f32
  // expected-error @below {{capacity exceeded at t=0: 2 running ops demand 4, above 2 ('opsched.streams')}}
  %b = arith.mulf %x, %x {opsched.start = 0, opsched.end = 4, opsched.stream = 1, opsched.id = 1, opsched.resources = 2} : f32
  return %a, %b : f32, f32
}

// -----

// 5. Capacity from 'opsched.resource_limit' when present.
func.func @resource_limit(%x: f32) -> (f32, f32) attributes {opsched.resource_limit = 3 : i64, opsched.streams = 4 : i64} {
  %a = arith.addf %x, %x {opsched.start = 0, opsched.end = 4, opsched.stream = 0, opsched.id = 0, opsched.resources = 2} : f32
  // expected-error @below {{capacity exceeded at t=2: 2 running ops demand 4, above 3 ('opsched.resource_limit')}}
  %b = arith.mulf %x, %x {opsched.start = 2, opsched.end = 6, opsched.stream = 1, opsched.id = 1, opsched.resources = 2} : f32
  return %a, %b : f32, f32
}

// -----

// 5. Two ops of one stream overlap in time.
func.func @stream_overlap(%x: f32) -> (f32, f32) attributes {opsched.streams = 2 : i64} {
  // expected-note @below {{the previous op of the stream is here}}
  %a = arith.addf %x, %x {opsched.start = 0, opsched.end = 4, opsched.stream = 0, opsched.id = 0} : f32
  // expected-error @below {{starts at 2 on stream 0 before op 'arith.addf' (id 0), the previous op of that stream, ends at 4}}
  %b = arith.mulf %x, %x {opsched.start = 2, opsched.end = 5, opsched.stream = 0, opsched.id = 1} : f32
  return %a, %b : f32, f32
}

// -----

// 5. One stream (no stream attributes): ops run one at a time in IR order.
func.func @one_stream_overlap(%x: f32) -> (f32, f32) {
  // expected-note @below {{the previous op of the stream is here}}
  %a = arith.addf %x, %x {opsched.start = 0, opsched.end = 4} : f32
  // expected-error @below {{starts at 0 on stream 0 before op 'arith.addf' (position 0), the previous op of that stream, ends at 4}}
  %b = arith.mulf %x, %x {opsched.start = 0, opsched.end = 4} : f32
  return %a, %b : f32, f32
}

// -----

// 6. Malformed: a string time.
func.func @string_time(%x: f32) -> f32 {
  // expected-error @below {{'opsched.start' must be an integer attribute in [0, 2^60-1]}}
  %a = arith.addf %x, %x {opsched.start = "early", opsched.end = 1} : f32
  %b = arith.mulf %a, %a {opsched.start = 1, opsched.end = 2} : f32
  return %b : f32
}

// -----

// 6. Malformed: end before start.
func.func @end_before_start(%x: f32) -> f32 {
  // expected-error @below {{'opsched.end' (1) is before 'opsched.start' (3)}}
  %a = arith.addf %x, %x {opsched.start = 3, opsched.end = 1} : f32
  %b = arith.mulf %a, %a {opsched.start = 3, opsched.end = 4} : f32
  return %b : f32
}

// -----

// 6. Malformed: a stream the function does not have.
func.func @stream_range(%x: f32) -> f32 attributes {opsched.streams = 2 : i64} {
  %a = arith.addf %x, %x {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 0} : f32
  // expected-error @below {{'opsched.stream' is 2 but the function has 'opsched.streams' = 2}}
  %b = arith.mulf %a, %a {opsched.start = 1, opsched.end = 2, opsched.stream = 2, opsched.id = 1} : f32
  return %b : f32
}

// -----

// 6. Malformed: waits that are not an array<i64>.
func.func @waits_type(%x: f32) -> f32 attributes {opsched.streams = 2 : i64} {
  %a = arith.addf %x, %x {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 0} : f32
  // expected-error @below {{'opsched.waits' must be an array<i64> of op ids}}
  %b = arith.mulf %a, %a {opsched.start = 1, opsched.end = 2, opsched.stream = 1, opsched.id = 1, opsched.waits = [0]} : f32
  return %b : f32
}

// -----

// 6. Malformed: one slot entry per result.
func.func @slot_count(%x: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @below {{'opsched.slot' has 2 entries but the op has 1 result}}
  %a = math.exp %x {opsched.start = 0, opsched.end = 1, opsched.slot = array<i64: 0, 1>, opsched.offset = array<i64: 0>, opsched.size = array<i64: 64>} : tensor<16xf32>
  return %a : tensor<16xf32>
}

// -----

// 6. Malformed: a negative size.
func.func @negative_size(%x: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @below {{result #0: negative or huge 'opsched.size' -64 for a buffer at offset 0}}
  %a = math.exp %x {opsched.start = 0, opsched.end = 1, opsched.slot = array<i64: 0>, opsched.offset = array<i64: 0>, opsched.size = array<i64: -64>} : tensor<16xf32>
  return %a : tensor<16xf32>
}

// -----

// 6. Malformed: a view of a slot nobody owns.
func.func @no_owner(%x: tensor<16xf32>) -> tensor<?xf32> {
  // expected-error @below {{result #0 carries slot 5, which no result of this block owns}}
  %v = tensor.cast %x {opsched.start = 0, opsched.end = 0, opsched.slot = array<i64: 5>, opsched.offset = array<i64: -1>, opsched.size = array<i64: -1>} : tensor<16xf32> to tensor<?xf32>
  return %v : tensor<?xf32>
}

// -----

// 6. Malformed: two owners of one slot.
func.func @two_owners(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  // expected-note @below {{the other owner is here}}
  %a = math.exp %x {opsched.start = 0, opsched.end = 1, opsched.slot = array<i64: 0>, opsched.offset = array<i64: 0>, opsched.size = array<i64: 64>} : tensor<16xf32>
  // expected-error @below {{result #0 owns slot 0, which an earlier result of this block owns too}}
  %b = math.exp %x {opsched.start = 1, opsched.end = 2, opsched.slot = array<i64: 0>, opsched.offset = array<i64: 64>, opsched.size = array<i64: 64>} : tensor<16xf32>
  return %a, %b : tensor<16xf32>, tensor<16xf32>
}

// -----

// 6. Malformed: a bad function attribute.
// expected-error @below {{'opsched.memory_limit' must be an integer attribute in [0, 2^60-1]}}
func.func @bad_limit(%x: f32) -> f32 attributes {opsched.memory_limit = "1MiB"} {
  %a = arith.addf %x, %x {opsched.start = 0, opsched.end = 1} : f32
  %b = arith.mulf %a, %a {opsched.start = 1, opsched.end = 2} : f32
  return %b : f32
}

// -----

// Partially annotated: one op lost its times.
func.func @partial(%x: f32) -> f32 {
  %a = arith.addf %x, %x {opsched.start = 0, opsched.end = 1} : f32
  // expected-error @below {{partially annotated block: this op has no 'opsched.start'/'opsched.end' but others in its block do}}
  %b = arith.mulf %a, %a : f32
  %c = arith.subf %b, %b {opsched.start = 2, opsched.end = 3} : f32
  return %c : f32
}

// -----

// Partially annotated: streams on some ops only.
func.func @partial_streams(%x: f32) -> f32 attributes {opsched.streams = 2 : i64} {
  %a = arith.addf %x, %x {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 0} : f32
  // expected-error @below {{partially annotated block: this op has no 'opsched.stream' but others in its block do}}
  %b = arith.mulf %a, %a {opsched.start = 1, opsched.end = 2, opsched.id = 1} : f32
  return %b : f32
}
