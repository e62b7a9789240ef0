// Declarations without bodies, an empty module and an empty file: nothing to
// schedule, no attribute, no diagnostic, exit 0.
// RUN: opsched-opt --op-schedule='streams=4 summary=-' %s 2>&1 | FileCheck %s
// RUN: opsched-opt --op-schedule %S/Inputs/empty.mlir 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: printf '' | opsched-opt --op-schedule 2>&1 | FileCheck %s --check-prefix=EMPTY
// CHECK-NOT: opsched.
// CHECK-NOT: {{warning|error|remark}}
// CHECK: func.func private @decl(tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: func.func private @decl2()
// CHECK-NOT: opsched.
// EMPTY: module {
// EMPTY-NEXT: }
// EMPTY-NOT: {{.}}
func.func private @decl(tensor<4xf32>) -> tensor<4xf32>
func.func private @decl2()
