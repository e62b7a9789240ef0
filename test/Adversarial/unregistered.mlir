// Unregistered ops have unknown effects: they keep their relative order (and
// order against every effectful op), pure ops move around them; an
// unregistered op that ends a block may be its terminator and stays last.
// RUN: opsched-opt -allow-unregistered-dialect --op-schedule='cost-model=unit' --mlir-print-debuginfo --mlir-print-local-scope %s | FileCheck %s
// Without -allow-unregistered-dialect the parser refuses the input:
// RUN: not opsched-opt --op-schedule %s 2>&1 | FileCheck %s --check-prefix=PARSE
// CHECK-LABEL: func.func @unreg
// foo.first, foo.second and foo.region (unknown effects) stay in order; the
// pure chain c1-c3 interleaves by rank (c1 ties with foo.first at rank 5, the
// earlier one wins):
// CHECK: "foo.first"{{.*}}opsched.start = 0 : i64{{.*}}loc("first")
// CHECK: opsched.start = 1 : i64{{.*}}loc("c1")
// CHECK: "foo.second"{{.*}}opsched.start = 2 : i64{{.*}}loc("second")
// CHECK: opsched.start = 3 : i64{{.*}}loc("c2")
// CHECK: opsched.start = 4 : i64{{.*}}loc("c3")
// CHECK: opsched.start = 5 : i64{{.*}}loc("join0")
// CHECK: opsched.start = 6 : i64{{.*}}loc("join")
// Inside the region: r0 (rank 3) before r1 (rank 2); foo.end stays last.
// CHECK: "foo.region"
// CHECK: opsched.start = 0 : i64{{.*}}loc("r0")
// CHECK: opsched.start = 1 : i64{{.*}}loc("r1")
// CHECK: opsched.start = 2 : i64{{.*}}loc("r2")
// CHECK-NEXT: "foo.end"{{.*}}loc("end")
// CHECK-NEXT: }) {{.*}}opsched.start = 7 : i64
// CHECK-NEXT: return
// PARSE: error: operation being parsed with an unregistered dialect
func.func @unreg(%a: tensor<4xf32>) -> tensor<4xf32> {
  %f = "foo.first"(%a) : (tensor<4xf32>) -> tensor<4xf32> loc("first")
  %s = "foo.second"(%a) : (tensor<4xf32>) -> tensor<4xf32> loc("second")
  %c1 = arith.mulf %a, %a : tensor<4xf32> loc("c1")
  %c2 = arith.mulf %c1, %c1 : tensor<4xf32> loc("c2")
  %c3 = arith.mulf %c2, %c2 : tensor<4xf32> loc("c3")
  %j0 = arith.addf %f, %s : tensor<4xf32> loc("join0")
  %j = arith.addf %j0, %c3 : tensor<4xf32> loc("join")
  "foo.region"() ({
    %r1 = arith.mulf %a, %a : tensor<4xf32> loc("r1")
    %r0 = arith.addf %j, %j : tensor<4xf32> loc("r0")
    %r2 = arith.addf %r0, %r0 : tensor<4xf32> loc("r2")
    "foo.end"(%r1, %r2) : (tensor<4xf32>, tensor<4xf32>) -> () loc("end")
  }) : () -> ()
  return %j : tensor<4xf32>
}
