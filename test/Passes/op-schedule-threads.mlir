// Same output with and without threads: functions are scheduled in
// parallel, reports and diagnostics are still written in module order.
// RUN: opsched-opt --op-schedule='table=%t.table.threads' %s -o %t.threads.mlir
// RUN: opsched-opt --op-schedule='table=%t.table.serial' --mlir-disable-threading %s -o %t.serial.mlir
// RUN: diff %t.threads.mlir %t.serial.mlir
// RUN: diff %t.table.threads %t.table.serial
// RUN: FileCheck %s --check-prefix=TABLE < %t.table.threads

// TABLE: w1 0 3
// TABLE: makespan: 4
// TABLE: w2 0 3
// TABLE: w3 0 3
// TABLE: w4 0 3

func.func @f1(%x: f32) -> f32 {
  %a = arith.addf %x, %x {opsched.cost = 1} : f32 loc("v1")
  %b = arith.mulf %x, %x {opsched.cost = 3} : f32 loc("w1")
  %c = arith.addf %a, %b : f32
  return %c : f32
}
func.func @f2(%x: f32) -> f32 {
  %a = arith.addf %x, %x {opsched.cost = 1} : f32 loc("v2")
  %b = arith.mulf %x, %x {opsched.cost = 3} : f32 loc("w2")
  %c = arith.addf %a, %b : f32
  return %c : f32
}
func.func @f3(%x: f32) -> f32 {
  %a = arith.addf %x, %x {opsched.cost = 1} : f32 loc("v3")
  %b = arith.mulf %x, %x {opsched.cost = 3} : f32 loc("w3")
  %c = arith.addf %a, %b : f32
  return %c : f32
}
func.func @f4(%x: f32) -> f32 {
  %a = arith.addf %x, %x {opsched.cost = 1} : f32 loc("v4")
  %b = arith.mulf %x, %x {opsched.cost = 3} : f32 loc("w4")
  %c = arith.addf %a, %b : f32
  return %c : f32
}
