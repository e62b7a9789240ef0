// RUN: opsched-opt --op-dep-graph -split-input-file -verify-diagnostics %s

func.func @bad_cost(%x: f32) -> f32 {
  // expected-error @below {{'opsched.cost' must be an integer attribute >= 0}}
  %a = arith.addf %x, %x {opsched.cost = 1.5} : f32
  %b = arith.mulf %a, %a : f32
  return %b : f32
}

// -----

func.func @bad_demand(%x: f32) -> f32 {
  // expected-error @below {{'opsched.resources' must be an integer attribute >= 1}}
  %a = arith.addf %x, %x {opsched.resources = -1} : f32
  %b = arith.mulf %a, %a : f32
  return %b : f32
}
