// Options that cannot change the result get a warning at the function (a
// remark when it depends on the function: no buffers to count). Detected
// from the options and the figures alone, without another scheduling run.
// RUN: opsched-opt --op-schedule='makespan-tolerance=5' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=TOL
// RUN: opsched-opt --op-schedule='strict-memory' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=STRICT
// RUN: opsched-opt --op-schedule='buffer-slots=false alignment=128' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ALIGN
// RUN: opsched-opt --op-schedule='streams=2 max-memory=1KiB policy=min-memory' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOBUF
// RUN: opsched-opt --op-schedule='streams=2 effort=2 makespan-tolerance=5' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONE

// TOL-COUNT-2: warning: opsched: 'makespan-tolerance' has no effect: it applies on several streams, without max-memory, with the critical-path policy, to blocks with buffers
// STRICT: warning: opsched: 'strict-memory' has no effect without 'max-memory'
// ALIGN: warning: opsched: 'alignment' has no effect with buffer-slots=false
// NOBUF: remark: opsched: 'max-memory' has no effect here: no block of this function has buffers to count
// NOBUF: remark: opsched: 'policy' has no effect here: no block of this function has buffers to count
// NOBUF-NOT: remark
// Several streams: effort and the tolerance apply; only @scalars (no buffers)
// gets the tolerance warning.
// NONE: 21:1: warning: opsched: 'makespan-tolerance' has no effect
// NONE-NOT: warning

func.func @scalars(%x: f32) -> (f32, f32) {
  %a = arith.addf %x, %x {opsched.cost = 1} : f32
  %b = arith.mulf %x, %x {opsched.cost = 2} : f32
  return %a, %b : f32, f32
}

func.func @tensors(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %a = math.exp %x {opsched.cost = 1} : tensor<4xf32>
  %b = math.log %x {opsched.cost = 2} : tensor<4xf32>
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}
