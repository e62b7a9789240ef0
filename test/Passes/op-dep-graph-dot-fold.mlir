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

// A chain of folded views of a computed value, each read: every reader
// gets a dashed edge from the value, its other predecessors first (the
// walk crosses the chain in one step: it was walked from every reader,
// quadratic; docs/benchmarks-scale.md, "Round 28").
// FOLD-LABEL: label="@chain: block of func.func
// FOLD-NEXT:  /* 3 zero-cost ops folded; dashed edges pass through them */
// FOLD-COUNT-6: [label=
// FOLD-NEXT:  n[[C:[0-9]+]]_0 -> n[[C]]_2 [color=red, penwidth=2];
// FOLD-NEXT:  n[[C]]_2 -> n[[C]]_4 [color=red, penwidth=2];
// FOLD-NEXT:  n[[C]]_0 -> n[[C]]_4 [style=dashed];
// FOLD-NEXT:  n[[C]]_6 -> n[[C]]_7;
// FOLD-NEXT:  n[[C]]_0 -> n[[C]]_7 [style=dashed];
// FOLD-NEXT:  n[[C]]_4 -> n[[C]]_8 [color=red, penwidth=2];
// FOLD-NEXT:  n[[C]]_7 -> n[[C]]_8;
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

func.func @chain(%a: tensor<8xf32>) -> tensor<8xf32> {
  %t = math.tanh %a : tensor<8xf32> loc("t")
  %v1 = tensor.extract_slice %t[0] [8] [1] : tensor<8xf32> to tensor<8xf32> loc("v1")
  %r1 = arith.addf %v1, %a : tensor<8xf32> loc("r1")
  %v2 = tensor.extract_slice %v1[0] [8] [1] : tensor<8xf32> to tensor<8xf32> loc("v2")
  %r2 = arith.addf %v2, %r1 : tensor<8xf32> loc("r2")
  %v3 = tensor.extract_slice %v2[0] [8] [1] : tensor<8xf32> to tensor<8xf32> loc("v3")
  %s = math.exp %a : tensor<8xf32> loc("s")
  %r3 = arith.addf %v3, %s : tensor<8xf32> loc("r3")
  %r4 = arith.addf %r3, %r2 : tensor<8xf32> loc("r4")
  return %r4 : tensor<8xf32>
}
