// Report options in the nested form: each function's output is collected and
// the module's files are written in IR order, the same bytes as the flag
// (module) form, with and without threads.
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --op-schedule='cost-model=unit summary=%t.flag.txt table=%t.flag.table dot=%t.flag.dot' %s -o /dev/null
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --pass-pipeline='builtin.module(func.func(op-schedule{cost-model=unit summary=%t.nested.txt table=%t.nested.table dot=%t.nested.dot}))' %s -o /dev/null
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --mlir-disable-threading --pass-pipeline='builtin.module(func.func(op-schedule{cost-model=unit summary=%t.serial.txt table=%t.serial.table dot=%t.serial.dot}))' %s -o /dev/null
// RUN: diff %t.flag.txt %t.nested.txt
// RUN: diff %t.flag.txt %t.serial.txt
// RUN: diff %t.flag.table %t.nested.table
// RUN: diff %t.flag.dot %t.nested.dot
// RUN: diff %t.flag.dot %t.serial.dot
// RUN: FileCheck %s < %t.nested.txt
// The HTML report and trace in the nested form hold every function.
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --pass-pipeline='builtin.module(func.func(op-schedule{cost-model=unit report=%t.html trace=%t.json}))' %s -o /dev/null
// RUN: FileCheck %s --check-prefix=HTML < %t.html
// RUN: FileCheck %s --check-prefix=TRACE < %t.json
// Two pass-manager runs of one pass object: test/capi (test_pipeline).

// CHECK: @a: 2 ops
// CHECK-NEXT: @b: 3 ops
// CHECK-NEXT: @c: 2 ops
// HTML: @a
// HTML: @b
// HTML: @c
// TRACE: @a
// TRACE: @c
func.func @a(%x: f32) -> f32 {
  %0 = arith.addf %x, %x : f32
  %1 = arith.mulf %0, %x : f32
  return %1 : f32
}
func.func @b(%x: f32) -> f32 {
  %0 = arith.addf %x, %x : f32
  %1 = arith.mulf %0, %x : f32
  %2 = arith.subf %1, %x : f32
  return %2 : f32
}
func.func @c(%x: f32) -> f32 {
  %0 = arith.divf %x, %x : f32
  %1 = arith.mulf %0, %x : f32
  return %1 : f32
}
