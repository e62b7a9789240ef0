// The exact command users type: stock mlir-opt, the plugin, the pass as a flag.
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --op-schedule %s | FileCheck %s
// Input from stdin, output to a file:
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --op-schedule < %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// Options on the flag:
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --op-schedule='cost-model=unit' %s | FileCheck %s --check-prefix=UNIT
// Other flags keep working alongside (here the generic printer):
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --op-schedule --mlir-print-op-generic %s | FileCheck %s --check-prefix=GENERIC
// --help lists our passes and their options:
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --help | FileCheck %s --check-prefix=HELP
// A bad option value: the diagnostic and a non-zero exit, as for any pass.
// RUN: not %mlir_opt --load-pass-plugin=%opsched_plugin --op-schedule='device=tpu' %s 2>&1 | FileCheck %s --check-prefix=BADOPT
// An unknown flag is still reported exactly as stock mlir-opt reports it.
// RUN: not %mlir_opt --load-pass-plugin=%opsched_plugin --op-schedule --no-such-flag %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// A pass failure keeps its location and exit code through the re-exec.
// RUN: not %mlir_opt --load-pass-plugin=%opsched_plugin --op-schedule %S/Inputs/bad-cost.mlir 2>&1 | FileCheck %s --check-prefix=PASSFAIL
// The pipeline form needs no re-exec and gives the same result.
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --pass-pipeline='builtin.module(func.func(op-schedule))' %s | FileCheck %s
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --pass-pipeline='builtin.module(func.func(op-schedule{cost-model=unit}))' %s | FileCheck %s --check-prefix=UNIT
// The analysis pass as a flag, too.
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --op-dep-graph %s | FileCheck %s --check-prefix=DEP

// CHECK-LABEL: func.func @two_chains
// CHECK-SAME: opsched.critical_path = 31844 : i64
// CHECK-NEXT: tensor.empty() {{.*}} : tensor<512x512xf32>
// CHECK-NEXT: linalg.matmul
// CHECK-NEXT: tensor.empty() {{.*}} : tensor<16xf32>
// CHECK-NEXT: linalg.add
// CHECK-NEXT: linalg.mul
// CHECK-NEXT: return

// UNIT-LABEL: func.func @two_chains
// UNIT-SAME: opsched.critical_path = 3 : i64, {{.*}}opsched.lower_bound = 5 : i64, {{.*}}opsched.makespan = 5 : i64
// UNIT-NEXT: tensor.empty() {{.*}} : tensor<16xf32>
// UNIT-NEXT: linalg.add

// GENERIC: "linalg.matmul"
// GENERIC: }) {opsched.critical, opsched.end = 31844 : i64, {{.*}}opsched.rank = 31844 : i64, {{.*}}opsched.start = 0 : i64}

// HELP: --op-dep-graph
// HELP-NEXT: --cost-model=<string>
// HELP-NEXT: --device=<string>
// HELP-NEXT: --dot=<string>
// HELP: --op-schedule
// HELP: --streams=<long>

// BADOPT: error: op-schedule: invalid value 'tpu' for option 'device'; accepted: generic, h100, a100, cpu

// UNKNOWN: Unknown command line argument '--no-such-flag'.

// PASSFAIL: bad-cost.mlir:3:8: error: 'opsched.cost' must be an integer attribute >= 0

// DEP-LABEL: func.func @two_chains
// DEP-SAME: attributes {opsched.critical_path = 31844 : i64}
// DEP-NEXT: tensor.empty() {opsched.rank = 10002 : i64} : tensor<16xf32>
// DEP-NEXT: linalg.add {opsched.rank = 10002 : i64}

func.func @two_chains(%a: tensor<512x512xf32>, %v: tensor<16xf32>) -> (tensor<16xf32>, tensor<512x512xf32>) {
  %e0 = tensor.empty() : tensor<16xf32>
  %s1 = linalg.add ins(%v, %v : tensor<16xf32>, tensor<16xf32>) outs(%e0 : tensor<16xf32>) -> tensor<16xf32>
  %s2 = linalg.mul ins(%s1, %s1 : tensor<16xf32>, tensor<16xf32>) outs(%e0 : tensor<16xf32>) -> tensor<16xf32>
  %e1 = tensor.empty() : tensor<512x512xf32>
  %m = linalg.matmul ins(%a, %a : tensor<512x512xf32>, tensor<512x512xf32>) outs(%e1 : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %s2, %m : tensor<16xf32>, tensor<512x512xf32>
}
