// op-buffer-slots reads the schedule the IR carries; a placement or waits
// that do not form a schedule are errors at the block's first op.
// RUN: opsched-opt --op-buffer-slots -split-input-file -verify-diagnostics %s

// A dependency that starts before its producer ends.
func.func @placement(%x: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{opsched: the block's opsched.start/end/stream attributes are not a valid schedule}}
  %a = math.exp %x {opsched.start = 0 : i64, opsched.end = 4 : i64} : tensor<16xf32>
  %b = math.sqrt %a {opsched.start = 2 : i64, opsched.end = 3 : i64} : tensor<16xf32>
  return %b : tensor<16xf32>
}

// -----

// A wait on an id no op of the block carries.
func.func @unknown_id(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  // expected-error @+1 {{opsched: the block's opsched.waits do not follow its schedule}}
  %a = math.exp %x {opsched.id = 0 : i64, opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 0 : i64} : tensor<16xf32>
  %b = math.sqrt %x {opsched.id = 1 : i64, opsched.start = 0 : i64, opsched.end = 1 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 7>} : tensor<16xf32>
  return %a, %b : tensor<16xf32>, tensor<16xf32>
}

// -----

// A wait on an op that is still running when the waiting op starts: the
// placement's times cannot both hold.
func.func @against_time(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  // expected-error @+1 {{opsched: the block's opsched.waits do not follow its schedule}}
  %a = math.exp %x {opsched.id = 0 : i64, opsched.start = 0 : i64, opsched.end = 4 : i64, opsched.stream = 0 : i64} : tensor<16xf32>
  %b = math.sqrt %x {opsched.id = 1 : i64, opsched.start = 1 : i64, opsched.end = 2 : i64, opsched.stream = 1 : i64, opsched.waits = array<i64: 0>} : tensor<16xf32>
  return %a, %b : tensor<16xf32>, tensor<16xf32>
}
