// Real pass names (not "{anonymous}::OpSchedulePass") in --mlir-timing and
// --mlir-print-ir-after-all, and the driver's phases as nested timers: a
// block's graph, schedule and arena phases from 128 ops (a smaller block is
// counted in `opsched: plan` only: MLIR's timer events cost about 20 us a
// block, docs/Passes.md).
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --mlir-disable-threading --mlir-timing --op-schedule='report=%t.html' %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --mlir-print-ir-after-all --op-dep-graph --op-buffer-slots --op-schedule-verify %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PRINT
// RUN: %python %S/Inputs/chain_block.py 128 > %t.128.mlir
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --mlir-disable-threading --mlir-timing --op-schedule %t.128.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --mlir-disable-threading --mlir-timing --op-buffer-slots %t.128.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=SLOTS
// RUN: %python %S/Inputs/chain_block.py 127 > %t.127.mlir
// RUN: %mlir_opt --load-pass-plugin=%opsched_plugin --mlir-disable-threading --mlir-timing --op-schedule %t.127.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=SMALL

// CHECK: OpSchedulePass
// CHECK-NEXT: {{^ .*  }}(A) opsched: plan
// CHECK-NEXT: {{^ .*  }}(A) opsched: attributes
// CHECK-NEXT: {{^ .*  }}(A) opsched: reports
// CHECK-NEXT: {{^ .*  }}(A) opsched: output files
// CHECK-NOT: anonymous

// BIG: OpSchedulePass
// BIG-NEXT: {{^ .*  }}(A) opsched: plan
// BIG-NEXT: {{^ .*    }}(A) opsched: graph
// BIG-NEXT: {{^ .*    }}(A) opsched: schedule (order, memory, streams)
// BIG-NEXT: {{^ .*    }}(A) opsched: arena
// BIG-NEXT: {{^ .*  }}(A) opsched: attributes
// BIG-NEXT: {{^ .*  }}Output

// SLOTS: OpBufferSlotsPass
// SLOTS-NEXT: {{^ .*  }}(A) opsched: plan
// SLOTS-NEXT: {{^ .*    }}(A) opsched: graph
// SLOTS-NEXT: {{^ .*    }}(A) opsched: schedule (order, memory, streams)
// SLOTS-NEXT: {{^ .*    }}(A) opsched: arena
// SLOTS-NEXT: {{^ .*  }}(A) opsched: attributes

// SMALL: OpSchedulePass
// SMALL-NEXT: {{^ .*  }}(A) opsched: plan
// SMALL-NEXT: {{^ .*  }}(A) opsched: attributes
// SMALL-NEXT: {{^ .*  }}Output

// PRINT: IR Dump After OpDepGraphPass (op-dep-graph)
// PRINT: IR Dump After OpBufferSlotsPass (op-buffer-slots)
// PRINT: IR Dump After OpScheduleVerifyPass (op-schedule-verify)
func.func @f(%v: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %a = linalg.add ins(%v, %v : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %a : tensor<16xf32>
}

// A function with a linalg body (a block of its own, planned before the
// function's block): the tree above is unchanged, every phase closed
// before the attributes.
#id = affine_map<(d0) -> (d0)>
func.func @g(%v: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%v : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %x : f32
    %m = arith.mulf %s, %x : f32
    linalg.yield %m : f32
  } -> tensor<16xf32>
  %b = linalg.add ins(%a, %v : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %b : tensor<16xf32>
}
