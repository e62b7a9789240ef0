// An output that cannot be written fails the run (non-zero exit), and is
// found before anything is scheduled: /dev/full refuses the probe write
// ("cannot write to"), a missing directory the open ("cannot open").
// RUN: not %mlir_opt --load-pass-plugin=%opsched_plugin --op-schedule='report=/dev/full' %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: not %mlir_opt --load-pass-plugin=%opsched_plugin --op-schedule='trace=/dev/full' %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=TRACE
// RUN: not %mlir_opt --load-pass-plugin=%opsched_plugin --op-schedule='summary=/dev/full' %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: not %mlir_opt --load-pass-plugin=%opsched_plugin --op-schedule='table=/nonexistent/t.txt' %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=TABLE
// RUN: not %mlir_opt --load-pass-plugin=%opsched_plugin --op-dep-graph='dot=/dev/full' %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=DOT
// The nested form too, with and without threads.
// RUN: not %mlir_opt --load-pass-plugin=%opsched_plugin --pass-pipeline='builtin.module(func.func(op-schedule{summary=/dev/full}))' %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: not %mlir_opt --load-pass-plugin=%opsched_plugin --mlir-disable-threading --pass-pipeline='builtin.module(func.func(op-schedule{report=/dev/full}))' %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REPORT
// Nothing was scheduled: no max-memory warning before the error, and the
// error carries no dump of the module.
// RUN: not %mlir_opt --load-pass-plugin=%opsched_plugin --op-schedule='max-memory=1 summary=/dev/full' %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=EARLY

// REPORT: error: op-schedule: cannot write to '/dev/full' (report): No space left on device
// TRACE: error: op-schedule: cannot write to '/dev/full' (trace)
// SUMMARY: error: op-schedule: cannot write to '/dev/full' (summary)
// TABLE: error: op-schedule: cannot open '/nonexistent/t.txt' for writing (table): No such file or directory
// DOT: error: op-dep-graph: cannot write to '/dev/full' (dot)
// EARLY-NOT: max-memory
// EARLY: error: op-schedule: cannot write to '/dev/full' (summary)
// EARLY-NOT: see current operation
// EARLY-NOT: max-memory
func.func @f(%v: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %a = linalg.add ins(%v, %v : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %a : tensor<16xf32>
}
func.func @g(%v: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %a = linalg.mul ins(%v, %v : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %a : tensor<16xf32>
}
