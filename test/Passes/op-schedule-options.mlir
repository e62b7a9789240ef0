// Every option value is validated: the error names the option and what it
// accepts, and the exit code is non-zero.
// RUN: not opsched-opt --op-schedule='cost-model=fast' %s 2>&1 | FileCheck %s --check-prefix=COST
// RUN: not opsched-opt --op-schedule='device=tpu' %s 2>&1 | FileCheck %s --check-prefix=DEVICE
// RUN: not opsched-opt --op-schedule='priority=random' %s 2>&1 | FileCheck %s --check-prefix=PRIO
// RUN: not opsched-opt --op-schedule='streams=0' %s 2>&1 | FileCheck %s --check-prefix=STREAMS0
// RUN: not opsched-opt --op-schedule='streams=-2' %s 2>&1 | FileCheck %s --check-prefix=STREAMSNEG
// RUN: not opsched-opt --op-schedule='streams=abc' %s 2>&1 | FileCheck %s --check-prefix=STREAMSABC
// RUN: not opsched-opt --op-schedule='resource-limit=-1' %s 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: not opsched-opt --op-schedule='effort=-5' %s 2>&1 | FileCheck %s --check-prefix=EFFORT
// RUN: not opsched-opt --op-dep-graph='device=x' %s 2>&1 | FileCheck %s --check-prefix=DEPDEV
// Report files work in the nested form too; a bad path is an error, not a crash.
// RUN: opsched-opt --pass-pipeline='builtin.module(func.func(op-schedule{cost-model=unit table=%t}))' %s -o /dev/null
// RUN: FileCheck %s --check-prefix=NESTED < %t
// RUN: not opsched-opt --op-dep-graph='dot=/nonexistent/dir/g.dot' %s 2>&1 | FileCheck %s --check-prefix=BADPATH

// COST: error: op-schedule: invalid value 'fast' for option 'cost-model'; accepted: roofline, unit
// DEVICE: error: op-schedule: invalid value 'tpu' for option 'device'; accepted: generic, h100, a100, cpu
// PRIO: error: op-schedule: invalid value 'random' for option 'priority'; accepted: critical-path, program-order
// STREAMS0: error: op-schedule: invalid value '0' for option 'streams'; accepted: an integer from 1 to 1000000
// STREAMSNEG: error: op-schedule: invalid value '-2' for option 'streams'; accepted: an integer from 1 to 1000000
// STREAMSABC: for the --streams option: 'abc' value invalid for long argument
// LIMIT: error: op-schedule: invalid value '-1' for option 'resource-limit'; accepted: 0 (= streams) or an integer up to 1000000
// EFFORT: error: op-schedule: invalid value '-5' for option 'effort'; accepted: an integer from 0 to 1000000
// DEPDEV: error: op-dep-graph: invalid value 'x' for option 'device'
// NESTED: makespan:
// BADPATH: error: op-dep-graph: cannot open '/nonexistent/dir/g.dot' for writing

func.func @f(%x: f32) -> f32 {
  %a = arith.addf %x, %x : f32
  %b = arith.mulf %a, %x : f32
  return %b : f32
}
