// SSA edges come from a map of the block's op results (an operand's
// producer found without reading the producer): block arguments and values
// of an enclosing block are in no block's map (no edge), results past the
// sixth (stored out of line, before the inline ones) are.
// RUN: opsched-opt --op-dep-graph='dot=%t.dot cost-model=unit' %s -o /dev/null
// RUN: FileCheck %s < %t.dot
// The same on a block of 33,001 ops (>= 32,768: the maps place keys by
// address): exactly b(k-1) -> m(k), m(k) -> b(k) and m(k) -> c(k) per k.
// RUN: %python -c "import sys; n = 11000; print('func.func @large(%%x: f32) -> f32 {'); print('  %%b0 = arith.addf %%x, %%x : f32'); [print(f'  %%m{k}:8 = builtin.unrealized_conversion_cast %%b{k-1} : f32 to f32, f32, f32, f32, f32, f32, f32, f32\n  %%b{k} = arith.mulf %%m{k}#7, %%m{k}#6 : f32\n  %%c{k} = arith.subf %%m{k}#0, %%x : f32') for k in range(1, n + 1)]; print(f'  return %%b{n} : f32'); print('}')" > %t.large.mlir
// RUN: opsched-opt --op-dep-graph='dot=%t.large.dot cost-model=unit' %t.large.mlir -o /dev/null
// RUN: grep -c ' -> ' %t.large.dot | FileCheck %s --check-prefix=COUNT
// RUN: FileCheck %s --check-prefix=LARGE < %t.large.dot
// COUNT: 33000
// LARGE-DAG: n0_0 -> n0_1 [
// LARGE-DAG: n0_1 -> n0_2 [
// LARGE-DAG: n0_1 -> n0_3;
// LARGE-DAG: n0_2 -> n0_4 [
// LARGE-DAG: n0_30001 -> n0_30002 [
// LARGE-DAG: n0_30001 -> n0_30003;
// LARGE-DAG: n0_32998 -> n0_32999 [
// LARGE-DAG: n0_32998 -> n0_33000 [

// CHECK-LABEL: label="@results: block of func.func (critical path 6)";
// CHECK:      n0_0 -> n0_1 [color=red, penwidth=2];
// CHECK-NEXT: n0_1 -> n0_2;
// CHECK-NEXT: n0_1 -> n0_3 [color=red, penwidth=2];
// CHECK-NEXT: n0_1 -> n0_4;
// CHECK-NEXT: n0_1 -> n0_6;
// CHECK-NEXT: n0_2 -> n0_5;
// CHECK-NEXT: n0_3 -> n0_4 [color=red, penwidth=2];
// CHECK-NEXT: n0_4 -> n0_5 [color=red, penwidth=2];
// CHECK-NEXT: n0_5 -> n0_7 [color=red, penwidth=2];
// CHECK-NEXT: n0_6 -> n0_7;
// CHECK-NEXT: }
// The region's block: %y, %c, %m#5 and %x come from outside it.
// CHECK-NEXT: subgraph cluster_1 {
// CHECK-NEXT: label="@results: block of scf.execute_region (critical path 3)";
// CHECK:      n1_0 -> n1_1 [color=red, penwidth=2];
// CHECK-NEXT: n1_1 -> n1_2 [color=red, penwidth=2];
// CHECK-NEXT: }

func.func @results(%x: f32, %y: f32) -> f32 {
  %a = arith.addf %x, %y : f32 loc("a")
  %m:8 = builtin.unrealized_conversion_cast %a : f32 to f32, f32, f32, f32, f32, f32, f32, f32 loc("m")
  %b = arith.mulf %m#7, %m#6 : f32 loc("b")
  %c = arith.subf %m#0, %x : f32 loc("c")
  %d = scf.execute_region -> f32 {
    %i = arith.addf %y, %c : f32 loc("i")
    %j = arith.mulf %i, %m#5 : f32 loc("j")
    %k = arith.mulf %j, %x : f32 loc("k")
    scf.yield %k : f32
  } loc("d")
  %e = arith.addf %b, %d : f32 loc("e")
  %f = arith.addf %m#3, %m#4 : f32 loc("f")
  %g = arith.addf %e, %f : f32 loc("g")
  return %g : f32
}
