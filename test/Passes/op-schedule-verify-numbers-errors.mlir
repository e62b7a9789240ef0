// Numbers: integer attributes are read exactly (any width) or rejected,
// never truncated; times, sizes and offsets lie in [0, 2^60-1] (docs/Passes.md
// "Numeric range"); opsched.cost and opsched.bytes are checked too; every bad
// attribute is reported, not only the first.
// RUN: opsched-opt --op-schedule-verify -split-input-file -verify-diagnostics %s
// Without splitting: all seven bad attributes of the file and the
// capacity error, in IR order.
// RUN: sed '/expected-/d' %s | not opsched-opt --op-schedule-verify 2>&1 >/dev/null | FileCheck %s --check-prefix=ALL
// ALL-COUNT-8: error: opsched-verify:
// ALL-NOT: error:

// 18446744073709551618 : i128 is not 2.
func.func @wide(%x: f32) -> (f32, f32) attributes {opsched.streams = 2 : i64} {
  // expected-error @below {{'opsched.resources' = 18446744073709551618 is beyond the signed 64-bit range; it must be an integer attribute in [1, 2^60-1]}}
  %a = arith.addf %x, %x {opsched.start = 0, opsched.end = 1, opsched.stream = 0, opsched.id = 0, opsched.resources = 18446744073709551618 : i128} : f32
  // expected-error @below {{'opsched.resources' = 9223372036854775808 is beyond the signed 64-bit range}}
  %b = arith.mulf %x, %x {opsched.start = 0, opsched.end = 1, opsched.stream = 1, opsched.id = 1, opsched.resources = 9223372036854775808 : ui64} : f32
  return %a, %b : f32, f32
}

// -----

// A wide attribute whose value fits is read exactly: 2^60-1 is the largest
// time accepted, 2^60 is not.
func.func @largest(%x: f32) -> (f32, f32) {
  %a = arith.addf %x, %x {opsched.start = 0 : i128, opsched.end = 1152921504606846975 : i128, opsched.resources = 2 : ui128} : f32
  // expected-error @below {{'opsched.end' must be an integer attribute in [0, 2^60-1]}}
  %b = arith.mulf %x, %x {opsched.start = 1152921504606846975, opsched.end = 1152921504606846976} : f32
  return %a, %b : f32, f32
}

// -----

// Wide attributes whose values fit are read exactly: demands of 2 (i128
// and ui128) exceed the two streams together.
func.func @exact(%x: f32) -> (f32, f32) attributes {opsched.streams = 2 : i64} {
  %a = arith.addf %x, %x {opsched.start = 0 : i128, opsched.end = 4 : i128, opsched.stream = 0 : i128, opsched.id = 0 : ui128, opsched.resources = 2 : i128} : f32
  // expected-error @below {{capacity exceeded at t=0: 2 running ops demand 4, above 2 ('opsched.streams')}}
  %b = arith.mulf %x, %x {opsched.start = 0, opsched.end = 4, opsched.stream = 1, opsched.id = 1, opsched.resources = 2 : ui128} : f32
  return %a, %b : f32, f32
}

// -----

// The cost and byte overrides are checked like the times; both are reported.
func.func @overrides(%x: f32) -> f32 {
  // expected-error @below {{'opsched.cost' must be an integer attribute in [0, 2^60-1]}}
  // expected-error @below {{'opsched.bytes' must be an integer attribute in [0, 2^60-1]}}
  %a = arith.addf %x, %x {opsched.start = 0, opsched.end = 1, opsched.cost = -1, opsched.bytes = "64"} : f32
  return %a : f32
}

// -----

// A bad function attribute does not hide the ops' bad attributes.
// expected-error @below {{'opsched.streams' must be an integer attribute in [1, 2^60-1]}}
func.func @bad_function(%x: f32) -> f32 attributes {opsched.streams = 0 : i64} {
  // expected-error @below {{'opsched.bytes' must be an integer attribute in [0, 2^60-1]}}
  %a = arith.addf %x, %x {opsched.start = 0, opsched.end = 1, opsched.bytes = 1152921504606846976} : f32
  return %a : f32
}
