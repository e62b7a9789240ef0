// RUN: opsched-opt --allow-unregistered-dialect --op-schedule -split-input-file -verify-diagnostics %s

func.func @negative_cost(%x: f32) -> f32 {
  %a = arith.addf %x, %x : f32
  // expected-error @below {{'opsched.cost' must be an integer attribute >= 0}}
  %b = arith.mulf %a, %a {opsched.cost = -3} : f32
  return %b : f32
}

// -----

func.func @string_cost(%x: f32) -> f32 {
  // expected-error @below {{'opsched.cost' must be an integer attribute >= 0}}
  %a = arith.addf %x, %x {opsched.cost = "fast"} : f32
  %b = arith.mulf %a, %a : f32
  return %b : f32
}

// -----

func.func @zero_demand(%x: f32) -> f32 {
  // expected-error @below {{'opsched.resources' must be an integer attribute >= 1}}
  %a = arith.addf %x, %x {opsched.resources = 0} : f32
  %b = arith.mulf %a, %a : f32
  return %b : f32
}

// -----

// Both overrides on one op (found with one query): both are checked.
func.func @both_invalid(%x: f32) -> f32 {
  // expected-error @below {{'opsched.cost' must be an integer attribute >= 0}}
  // expected-error @below {{'opsched.resources' must be an integer attribute >= 1}}
  %a = arith.addf %x, %x {opsched.cost = -1, opsched.resources = 0} : f32
  %b = arith.mulf %a, %a : f32
  return %b : f32
}

// -----

// An unregistered op, whose attributes are all discardable, among others.
func.func @unregistered_both_invalid(%x: f32) -> f32 {
  // expected-error @below {{'opsched.cost' must be an integer attribute >= 0}}
  // expected-error @below {{'opsched.resources' must be an integer attribute >= 1}}
  %a = "test.op"(%x) {a = 1, opsched.cost = "x", opsched.resources = -2, z = 2} : (f32) -> f32
  %b = arith.mulf %a, %a : f32
  return %b : f32
}

// -----

func.func @demand_above_capacity(%x: f32) -> f32 {
  // expected-error @below {{op demands 3 resources but the capacity ('resource-limit', default: 'streams') is 1}}
  %a = arith.addf %x, %x {opsched.resources = 3} : f32
  %b = arith.mulf %a, %a : f32
  return %b : f32
}

// -----

// A graph region whose uses form a cycle: that block keeps its order, with a
// warning at its parent; the rest of the function is still scheduled.
func.func @cycle(%x: f32) -> f32 {
  // expected-warning @below {{opsched: block left in its original order: its dependency graph has a cycle}}
  "test.graph"() ({
    %0 = "test.a"(%1) : (i32) -> i32
    %1 = "test.b"(%0) : (i32) -> i32
    "test.end"() : () -> ()
  }) : () -> ()
  %a = arith.addf %x, %x : f32
  return %a : f32
}

// -----

func.func @dynamic(%t: tensor<?x16xf32>) -> tensor<?x16xf32> {
  // expected-remark @below {{opsched: dynamic shape: the cost model counts each unknown dimension as 1 and its buffers count 'opsched.bytes' bytes (0 when absent)}}
  %a = math.exp %t : tensor<?x16xf32>
  // expected-remark @below {{opsched: dynamic shape: the cost model counts each unknown dimension as 1 and its buffers count 'opsched.bytes' bytes (0 when absent)}}
  %b = math.sqrt %a {opsched.bytes = 4096} : tensor<?x16xf32>
  return %b : tensor<?x16xf32>
}
