// The profile's cross-stream hand-off (handoff_ns, docs/Passes.md): an op
// that waits on an op of another stream starts handoff_ns after that op's
// end (the placement counts it when it picks each op's stream), every op of
// non-zero cost takes region_ns more on several streams,
// and a plan whose charged makespan is not below the one-stream schedule's
// runs on one stream.
// RUN: opsched-opt --op-schedule='device=%S/Inputs/two-cores.profile streams=2' %s | FileCheck %s --check-prefix=NONE
// RUN: opsched-opt --op-schedule='device=%S/Inputs/handoff-10000.profile streams=2' %s | FileCheck %s --check-prefix=PAYS
// RUN: opsched-opt --op-schedule='device=%S/Inputs/handoff-10000.profile streams=4' %s | FileCheck %s --check-prefix=PAYS
// RUN: opsched-opt --op-schedule='device=%S/Inputs/handoff-300000.profile streams=2' %s | FileCheck %s --check-prefix=ONE
// RUN: not opsched-opt --op-schedule='device=%S/Inputs/negative-handoff.profile' %s 2>&1 | FileCheck %s --check-prefix=BAD

// m0 = a x b; m1 = m0 x a and m2 = m0 x b at once; their sum. A 64^3 matmul:
// 524288 FLOPs at 2 per ns + 100 ns launch = 262244 ns; the add: 4096 adds
// at 8 per ns + 100 = 612 ns. One stream: 3 x 262244 + 612 = 787344 ns.
// Without a hand-off (two-cores.profile), region_ns is in every op's cost
// (262294, 662): 2 x 262294 + 662 = 525250, speedup 787544 / 525250 =
// 1.499 (the work counts the regions too).
// NONE-LABEL: func.func @fork
// NONE-SAME:    opsched.makespan = 525250 : i64
// NONE-SAME:    opsched.speedup = 1.499{{[0-9]*}} : f64
// NONE-SAME:    opsched.streams = 2 : i64
// 10 us: m2 on the other stream starts 10000 ns after m0 (262294), ends at
// 534588; the add goes where it starts first: on m2's stream, where m1's end
// (524588) arrives 10000 ns later, at 534588 too: 534588 + 662 = 535250
// (on m1's stream, it would wait for m2 until 544588). Speedup 787344 /
// 535250 = 1.471 (the work without regions: the sequential program's).
// PAYS-LABEL: func.func @fork
// PAYS-SAME:    opsched.makespan = 535250 : i64
// PAYS-SAME:    opsched.speedup = 1.470{{[0-9]*}} : f64
// PAYS-SAME:    opsched.streams = 2 : i64
// PAYS:         linalg.matmul {{.*}}opsched.end = 262294 : i64, opsched.id = 1 : i64
// PAYS-SAME:      opsched.start = 0 : i64
// PAYS:         linalg.matmul {{.*}}opsched.end = 524588 : i64
// PAYS-SAME:      opsched.start = 262294 : i64
// PAYS-SAME:      opsched.stream = 0 : i64
// PAYS:         linalg.matmul {{.*}}opsched.end = 534588 : i64
// PAYS-SAME:      opsched.start = 272294 : i64
// PAYS-SAME:      opsched.stream = 1 : i64
// PAYS-SAME:      opsched.waits = array<i64: 1>
// PAYS:         linalg.add {{.*}}opsched.end = 535250 : i64
// PAYS-SAME:      opsched.start = 534588 : i64
// PAYS-SAME:      opsched.stream = 1 : i64
// PAYS-SAME:      opsched.waits = array<i64: 2>
// 300 us: m2 would end at 262294 + 300000 + 262294; the add at 1125250 >
// 787344: one stream, no stream attributes, the sequential times.
// ONE-LABEL: func.func @fork
// ONE-SAME:    opsched.makespan = 787344 : i64
// ONE-SAME:    opsched.speedup = 1.000000e+00 : f64
// ONE-SAME:    opsched.streams = 1 : i64
// ONE-SAME:    opsched.streams_requested = 2 : i64
// ONE-NOT:     opsched.stream =
// ONE-NOT:     opsched.waits =
// ONE:         return
func.func @fork(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %m0 = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m1 = linalg.matmul ins(%m0, %a : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m2 = linalg.matmul ins(%m0, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = linalg.add ins(%m1, %m2 : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %s : tensor<64x64xf32>
}

// BAD: invalid value '{{.*}}negative-handoff.profile' for option 'device': device profile: elementwise_flops_per_ns must be > 0, cores an integer in [1, 65536], region_ns, strided_ns, cache_bytes and handoff_ns >= 0
