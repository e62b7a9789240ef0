// A pass flag before --load-pass-plugin: mlir-opt has already rejected it
// when the plugin loads, so the run must fail and say how to fix it (it
// used to exit 0 with the IR unchanged).
// RUN: not %mlir_opt --op-schedule --load-pass-plugin=%opsched_plugin %s 2>&1 | FileCheck %s
// RUN: not %mlir_opt --op-buffer-slots='alignment=32' --load-pass-plugin %opsched_plugin %s 2>&1 | FileCheck %s --check-prefix=SLOTS
// After the plugin the same flag works.
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --op-schedule %s | FileCheck %s --check-prefix=OK

// CHECK: opsched: '--op-schedule' comes before --load-pass-plugin{{.*}}Put --load-pass-plugin=<libopsched.so> first.
// SLOTS: opsched: '--op-buffer-slots=alignment=32' comes before --load-pass-plugin
// OK: opsched.critical_path
func.func @f(%v: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %a = linalg.add ins(%v, %v : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %a : tensor<16xf32>
}
