// op-schedule reads a device profile file (opsched-bench calibrate writes
// one) through device=PATH: the roofline uses its rates and overhead.
// RUN: opsched-opt --op-schedule='device=%S/Inputs/two-gflops.profile' %s | FileCheck %s
// RUN: not opsched-opt --op-schedule='device=%S/Inputs/malformed.profile' %s 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: not opsched-opt --op-schedule='device=%S/Inputs/incomplete.profile' %s 2>&1 | FileCheck %s --check-prefix=INCOMPLETE
// RUN: not opsched-opt --op-schedule='device=%S/Inputs/missing.profile' %s 2>&1 | FileCheck %s --check-prefix=MISSING
// The calibration itself writes a profile op-schedule accepts:
// REQUIRES: mlir-runner, cc
// RUN: opsched-bench calibrate -o %t.profile
// RUN: FileCheck %s --check-prefix=CALIBRATED < %t.profile
// RUN: opsched-opt --op-schedule='device=%t.profile' %s -o /dev/null

// 64x64x64 matmul: 2 * 64^3 = 524288 FLOPs at 2 per ns = 262144 ns, more
// than 3 * 16 KiB at 4 bytes per ns; plus 100 ns of launch.
// CHECK-LABEL: func.func @mm
// CHECK:         linalg.matmul {{.*}}opsched.end = 262244 : i64
// CHECK:         linalg.matmul {{.*}}opsched.end = 524488 : i64
func.func @mm(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %n = linalg.matmul ins(%m, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %n : tensor<64x64xf32>
}

// MALFORMED: invalid value '{{.*}}malformed.profile' for option 'device': device profile line 2: want 'flops_per_ns X', 'bytes_per_ns Y', 'launch_ns Z', 'elementwise_flops_per_ns E', 'cores C', 'region_ns R', 'strided_ns S', 'cache_bytes B', 'handoff_ns H', 'name N' or '# comment'
// INCOMPLETE: invalid value '{{.*}}incomplete.profile' for option 'device': device profile needs flops_per_ns > 0, bytes_per_ns > 0 and launch_ns >= 0
// MISSING: invalid value '{{.*}}missing.profile' for option 'device': cannot open the device profile
// CALIBRATED: # opsched device profile: opsched-bench calibrate
// CALIBRATED: flops_per_ns {{[0-9.]+}}
// CALIBRATED-NEXT: bytes_per_ns {{[0-9.]+}}
// CALIBRATED-NEXT: launch_ns {{[0-9]+}}
// CALIBRATED-NEXT: elementwise_flops_per_ns {{[0-9.]+}}
// CALIBRATED-NEXT: cores {{[1-9][0-9]*}}
// CALIBRATED-NEXT: region_ns {{[0-9]+}}
// CALIBRATED-NEXT: strided_ns {{[0-9.]+}}
// CALIBRATED-NEXT: cache_bytes {{[1-9][0-9]*}}
