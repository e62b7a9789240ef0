// The HTML report's frontier view (docs/report.md, "Makespan vs peak
// memory"). The two chains of op-schedule-frontier.mlir: unconstrained on two
// streams makespan 1001, peak 2008; the one-stream min-memory floor 1016,
// under that budget makespan 1003 (within 2% of 1001: 1001 + 20 = 1021).
// RUN: opsched-opt --op-schedule='streams=2 report=%t.html' %s -o /dev/null
// RUN: FileCheck %s --check-prefix=TWO < %t.html
// One stream: no sweep, and the page says why instead of drawing a chart.
// RUN: opsched-opt --op-schedule='streams=1 report=%t.one.html' %s -o /dev/null
// RUN: FileCheck %s --check-prefix=ONE < %t.one.html
// A block over the frontier's 5000 ops (opsched-gen dag 4300: 5079 ops) is
// scheduled in one run, and the page says so.
// RUN: %python %opsched_src/tools/opsched-gen/opsched-gen.py dag 4300 > %t.big.mlir
// RUN: opsched-opt --op-schedule='streams=4 report=%t.big.html' %t.big.mlir -o /dev/null
// RUN: FileCheck %s --check-prefix=BIG < %t.big.html
// With max-memory: the limit is drawn, the tolerance band is not (it did
// not choose); the first candidate (budget 1100) is the fastest that fits.
// RUN: opsched-opt --op-schedule='streams=2 max-memory=1100 report=%t.lim.html' %s -o /dev/null 2>&1
// RUN: FileCheck %s --check-prefix=LIM < %t.lim.html

// TWO: <tr data-key="free-makespan"><th>Unconstrained makespan</th><td id="free-makespan-0" data-value="1001">1001 ns</td><td class="note">no memory limit, critical path; chosen makespan +0.20%</td></tr>
// TWO-NEXT: <tr data-key="free-peak"><th>Unconstrained peak</th><td id="free-peak-0" data-value="2008">1.96 KiB</td><td class="note">chosen peak -49.4%</td></tr>
// TWO: <div class="view frontier" id="frontier-0" data-points="2" data-chosen="1"><h4>Makespan vs peak memory</h4>
// TWO-NEXT: Rule: the lowest peak among the candidates within 2% of the best makespan (makespan-tolerance).
// TWO: <rect class="band" {{.*}} data-best="1001" data-top="1021"/>
// TWO: <line class="floor" {{.*}} data-value="1016"/>
// TWO-NOT: class="limit"
// TWO: <polyline class="pareto" points="[[PX1:[0-9.]+]],[[PY1:[0-9.]+]] [[PX0:[0-9.]+]],[[PY0:[0-9.]+]]"/>
// TWO: <circle id="frontier-pt-0-0" class="pt pareto free" cx="[[PX0]]" cy="[[PY0]]" r="5" data-i="0" data-makespan="1001" data-peak="2008"
// TWO: <circle class="ring" cx="[[PX1]]" cy="[[PY1]]" r="11"/><circle id="frontier-pt-0-1" class="pt pareto chosen" cx="[[PX1]]" cy="[[PY1]]" r="7" data-i="1" data-makespan="1003" data-peak="1016"
// TWO-NOT: class="ring"
// TWO: >chosen: 1003 ns, 1016 B</text>
// TWO: >unconstrained: 1001 ns, 1.96 KiB</text>
// TWO: <tr class="" data-i="0"><td>1</td><td data-value="0">none</td><td>critical-path</td><td data-value="1001">
// TWO: <tr class="chosen" data-i="1"><td>2</td><td data-value="1016">
// TWO: "frontier":{"points":{{\[\[}}1001,2008,0,"critical-path",null],[1003,1016,1016,"critical-path",{{[0-9]+}}]],"chosen":1,"unconstrained":0,"floor_peak":1016,"limit":0,"tolerance":0.02,"not_run":null}

// ONE-NOT: data-key="free-makespan"
// ONE: <p class="none" id="frontier-none-0">No frontier to draw: one stream (streams=1)
// ONE-NOT: <svg class="frontier"
// ONE: "frontier":{"points":{{\[\[}}1003,2008,0,"critical-path",{{[0-9]+}}]],"chosen":0,"unconstrained":-1,"floor_peak":-1,"limit":0,"tolerance":null,"not_run":"one stream

// BIG: <p class="none" id="frontier-none-0">No frontier to draw: the block has 5079 ops, more than the 5000 the frontier sweeps.
// BIG-NOT: <svg class="frontier"

// LIM: Rule: the fastest candidate whose peak (and arena, when packed) fits max-memory.
// LIM-NOT: class="band"
// LIM: <line class="limit" {{.*}} data-value="1100"/>
// LIM: id="frontier-pt-0-1" class="pt pareto free" {{.*}} data-makespan="1001" data-peak="2008"
// LIM: id="frontier-pt-0-0" class="pt pareto chosen" {{.*}} data-makespan="1003" data-peak="1016"
// LIM: "chosen":0,"unconstrained":1,"floor_peak":-1,"limit":1100,"tolerance":null,"not_run":null}

func.func @two_chains(%x: tensor<1xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %z = arith.constant 0.0 : f32
  %a1 = tensor.pad %x low[0] high[249] { ^bb0(%i: index): tensor.yield %z : f32 } {opsched.cost = 1000} : tensor<1xf32> to tensor<250xf32> loc("a1")
  %av = tensor.extract_slice %a1[0] [2] [1] {opsched.cost = 0} : tensor<250xf32> to tensor<2xf32> loc("a1view")
  %a2 = math.exp %av {opsched.cost = 1} : tensor<2xf32> loc("a2")
  %b1 = tensor.pad %x low[0] high[249] { ^bb0(%i: index): tensor.yield %z : f32 } {opsched.cost = 1} : tensor<1xf32> to tensor<250xf32> loc("b1")
  %bv = tensor.extract_slice %b1[0] [2] [1] {opsched.cost = 0} : tensor<250xf32> to tensor<2xf32> loc("b1view")
  %b2 = math.exp %bv {opsched.cost = 1} : tensor<2xf32> loc("b2")
  return %a2, %b2 : tensor<2xf32>, tensor<2xf32>
}
