// 'effort' cannot change a one-stream schedule: a warning at each function
// (op-schedule-no-effect.mlir has the other options without effect).
// RUN: opsched-opt --op-schedule='effort=2' -split-input-file -verify-diagnostics %s -o /dev/null

// expected-warning @below {{'effort' has no effect on one stream: the makespan is the total work whatever the order}}
func.func @scalars(%x: f32) -> (f32, f32) {
  %a = arith.addf %x, %x {opsched.cost = 1} : f32
  %b = arith.mulf %x, %x {opsched.cost = 2} : f32
  return %a, %b : f32, f32
}

// -----

// expected-warning @below {{'effort' has no effect on one stream}}
func.func @tensors(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %a = math.exp %x {opsched.cost = 1} : tensor<4xf32>
  %b = math.log %x {opsched.cost = 2} : tensor<4xf32>
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}
