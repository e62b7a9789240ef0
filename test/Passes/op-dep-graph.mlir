// RUN: opsched-opt --op-dep-graph='dot=%t.dot cost-model=unit' --mlir-print-debuginfo --mlir-print-local-scope %s | FileCheck %s
// RUN: FileCheck %s --check-prefix=DOT < %t.dot
// Nothing moves: the output order is the input order.
// RUN: opsched-opt --op-dep-graph --mlir-print-debuginfo --mlir-print-local-scope %s | FileCheck %s --check-prefix=ORDER

// Unit costs: a -> b -> d, a -> c -> d, d -> e, d -> f (the seed's graph).
// Ranks: e=f=1, d=2, b=c=3, a=4; every op lies on a critical path.
// CHECK-LABEL: func.func @seed
// CHECK-SAME: attributes {opsched.critical_path = 4 : i64}
// CHECK-NEXT: arith.addf {{.*}} {opsched.critical, opsched.rank = 4 : i64} : f32 loc("a")
// CHECK-NEXT: arith.mulf {{.*}} {opsched.critical, opsched.rank = 3 : i64} : f32 loc("b")
// CHECK-NEXT: arith.subf {{.*}} {opsched.critical, opsched.rank = 3 : i64} : f32 loc("c")
// CHECK-NEXT: arith.addf {{.*}} {opsched.critical, opsched.rank = 2 : i64} : f32 loc("d")
// CHECK-NEXT: arith.mulf {{.*}} {opsched.critical, opsched.rank = 1 : i64} : f32 loc("e")
// CHECK-NEXT: arith.subf {{.*}} {opsched.critical, opsched.rank = 1 : i64} : f32 loc("f")
// CHECK-NOT: opsched.start

// DOT: digraph opsched {
// DOT: subgraph cluster_0 {
// DOT-NEXT: label="@seed: block of func.func (critical path 4)";
// DOT-NEXT: n0_0 [label="0: a\ncost 1 rank 4", color=red, penwidth=2];
// DOT-NEXT: n0_1 [label="1: b\ncost 1 rank 3", color=red, penwidth=2];
// DOT-NEXT: n0_2 [label="2: c\ncost 1 rank 3", color=red, penwidth=2];
// DOT-NEXT: n0_3 [label="3: d\ncost 1 rank 2", color=red, penwidth=2];
// DOT-NEXT: n0_4 [label="4: e\ncost 1 rank 1", color=red, penwidth=2];
// DOT-NEXT: n0_5 [label="5: f\ncost 1 rank 1", color=red, penwidth=2];
// DOT-NEXT: n0_0 -> n0_1 [color=red, penwidth=2];
// DOT-NEXT: n0_0 -> n0_2 [color=red, penwidth=2];
// DOT-NEXT: n0_1 -> n0_3 [color=red, penwidth=2];
// DOT-NEXT: n0_2 -> n0_3 [color=red, penwidth=2];
// DOT-NEXT: n0_3 -> n0_4 [color=red, penwidth=2];
// DOT-NEXT: n0_3 -> n0_5 [color=red, penwidth=2];
// DOT-NEXT: }
// Functions follow in module order, one cluster per scheduled block.
// DOT-NEXT: subgraph cluster_65536 {
// DOT-NEXT: label="@uneven: block of func.func (critical path 3)";
// DOT: n65536_0 -> n65536_2;
// DOT: }
// DOT-NEXT: }

// ORDER-LABEL: func.func @uneven
// ORDER-NEXT: arith.addf {{.*}} loc("x")
// ORDER-NEXT: arith.mulf {{.*}} loc("y")
// ORDER-NEXT: arith.subf {{.*}} loc("z")

func.func @seed(%x: f32) -> (f32, f32) {
  %a = arith.addf %x, %x : f32 loc("a")
  %b = arith.mulf %a, %a : f32 loc("b")
  %c = arith.subf %a, %a : f32 loc("c")
  %d = arith.addf %b, %c : f32 loc("d")
  %e = arith.mulf %d, %d : f32 loc("e")
  %f = arith.subf %d, %d : f32 loc("f")
  return %e, %f : f32, f32
}

// x is off the critical path y -> z: its node and edge stay black.
func.func @uneven(%v: f32) -> f32 {
  %x = arith.addf %v, %v {opsched.cost = 1} : f32 loc("x")
  %y = arith.mulf %v, %v {opsched.cost = 2} : f32 loc("y")
  %z = arith.subf %y, %x {opsched.cost = 1} : f32 loc("z")
  return %z : f32
}
