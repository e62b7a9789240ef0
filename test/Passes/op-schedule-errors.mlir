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

// One remark per function, at its first op with dynamic shapes, counting
// the others (a remark at every op took 7.6 s on 100k ops).
func.func @dynamic(%t: tensor<?x16xf32>) -> tensor<?x16xf32> {
  // expected-remark @below {{opsched: dynamic shape: the cost model counts each unknown dimension as 1 and its buffers count 'opsched.bytes' bytes (0 when absent) (here and at 1 more op of this function)}}
  %a = math.exp %t : tensor<?x16xf32>
  %b = math.sqrt %a {opsched.bytes = 4096} : tensor<?x16xf32>
  return %b : tensor<?x16xf32>
}

// -----

// The count covers the function's blocks, nested ones included (11 ops of
// the body, the scf.if among them, and 2 in its region); the remark goes to
// the first op of the first block planned (the body). The next function
// counts anew: its one op gets the plain remark.
func.func @many_dynamic(%t: tensor<?x16xf32>, %c: i1) -> tensor<?x16xf32> {
  // expected-remark @below {{opsched: dynamic shape: the cost model counts each unknown dimension as 1 and its buffers count 'opsched.bytes' bytes (0 when absent) (here and at 12 more ops of this function)}}
  %a0 = math.exp %t : tensor<?x16xf32>
  %a1 = math.sqrt %a0 : tensor<?x16xf32>
  %a2 = math.exp %a1 : tensor<?x16xf32>
  %a3 = math.sqrt %a2 : tensor<?x16xf32>
  %a4 = math.exp %a3 : tensor<?x16xf32>
  %a5 = math.sqrt %a4 : tensor<?x16xf32>
  %a6 = math.exp %a5 : tensor<?x16xf32>
  %a7 = math.sqrt %a6 : tensor<?x16xf32>
  %r = scf.if %c -> tensor<?x16xf32> {
    %b0 = math.exp %a7 : tensor<?x16xf32>
    %b1 = math.sqrt %b0 : tensor<?x16xf32>
    scf.yield %b1 : tensor<?x16xf32>
  } else {
    scf.yield %a7 : tensor<?x16xf32>
  }
  %z0 = math.exp %r : tensor<?x16xf32>
  %z1 = math.sqrt %z0 : tensor<?x16xf32>
  return %z1 : tensor<?x16xf32>
}

func.func @one_dynamic(%t: tensor<?x16xf32>, %s: tensor<16xf32>) -> (tensor<?x16xf32>, tensor<16xf32>) {
  %a = math.exp %s : tensor<16xf32>
  // expected-remark @below {{opsched: dynamic shape: the cost model counts each unknown dimension as 1 and its buffers count 'opsched.bytes' bytes (0 when absent)}}
  %b = math.exp %t : tensor<?x16xf32>
  return %b, %a : tensor<?x16xf32>, tensor<16xf32>
}
