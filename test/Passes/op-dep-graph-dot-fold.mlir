// dot-fold: zero-cost ops (constants, empty tensors, views) are left out of
// the Graphviz graph and edges pass through them; without it, every op.
// RUN: opsched-opt --op-dep-graph='dot=%t.fold.dot dot-fold=true' %s -o /dev/null
// RUN: FileCheck %s --check-prefix=FOLD < %t.fold.dot
// RUN: opsched-opt --op-dep-graph='dot=%t.all.dot' %s -o /dev/null
// RUN: FileCheck %s --check-prefix=ALL < %t.all.dot
// RUN: opsched-opt --op-schedule='dot=%t.sched.dot dot-fold=true' %s -o /dev/null
// RUN: FileCheck %s --check-prefix=FOLD < %t.sched.dot

// FOLD-LABEL: label="@fold: block of func.func
// FOLD-NEXT:  /* 3 zero-cost ops folded; dashed edges pass through them */
// FOLD-NEXT:  n0_2 [label="{{[0-9]+}}: add\ncost 5001 rank 10002"
// FOLD-NEXT:  n0_4 [label="{{[0-9]+}}: neg\ncost 5001 rank 5001"
// FOLD-NEXT:  n0_2 -> n0_4 [color=red, penwidth=2];
// FOLD-NEXT: }

// ALL-LABEL: label="@fold: block of func.func
// ALL-COUNT-5: [label=
// ALL: n0_2 -> n0_3
// ALL: n0_3 -> n0_4
func.func @fold(%a: tensor<4x4xf32>) -> tensor<16xf32> {
  %c = arith.constant dense<1.0> : tensor<4x4xf32> loc("c")
  %e = tensor.empty() : tensor<4x4xf32> loc("e")
  %m = linalg.add ins(%a, %c : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32> loc("add")
  %r = tensor.collapse_shape %m [[0, 1]] : tensor<4x4xf32> into tensor<16xf32> loc("view")
  %x = arith.negf %r : tensor<16xf32> loc("neg")
  return %x : tensor<16xf32>
}
