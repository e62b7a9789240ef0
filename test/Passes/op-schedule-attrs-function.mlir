// RUN: opsched-opt --op-schedule='streams=2 max-memory=4096' %s | FileCheck %s --check-prefix=FIRST
// RUN: opsched-opt --op-schedule='streams=2 max-memory=4096' %s | opsched-opt --op-schedule=streams=1 | FileCheck %s --check-prefix=AGAIN

// The function's figures are written in one dictionary update (about twenty
// attributes): they merge with the function's own attributes, names of other
// dialects and opsched names the pass does not write (opsched.m) are kept,
// and stale figures of an earlier run are replaced (memory_limit 5) or
// removed (reuse_waits 9). The second run, on one stream and without a
// limit, drops the memory limit, the resource limit and the unconstrained
// figures the first wrote. Every dictionary is checked whole.
func.func @figures(%x: tensor<16xf32>) -> tensor<16xf32> attributes {a.first = 1 : i64, opsched.memory_limit = 5 : i64, opsched.m = "keep", opsched.reuse_waits = 9 : i64, zz.last} {
  %a = arith.addf %x, %x : tensor<16xf32>
  %b = arith.mulf %x, %x : tensor<16xf32>
  %c = arith.subf %a, %b : tensor<16xf32>
  return %c : tensor<16xf32>
}

// FIRST-LABEL: func.func @figures(%arg0: tensor<16xf32>) -> tensor<16xf32> attributes {a.first = 1 : i64, opsched.alignment = 64 : i64, opsched.arena_size = 192 : i64, opsched.critical_path = 10002 : i64, opsched.fragmentation = 0.000000e+00 : f64, opsched.lower_bound = 10002 : i64, opsched.m = "keep", opsched.makespan = 10002 : i64, opsched.memory_limit = 4096 : i64, opsched.original_peak_memory = 192 : i64, opsched.peak_memory = 192 : i64, opsched.resident_bytes = 64 : i64, opsched.resource_limit = 2 : i64, opsched.speedup = 1.500000e+00 : f64, opsched.streams = 2 : i64, opsched.streams_requested = 2 : i64, opsched.unconstrained_makespan = 10002 : i64, opsched.unconstrained_peak_memory = 192 : i64, opsched.waits_after = 1 : i64, opsched.waits_before = 1 : i64, zz.last} {

// AGAIN-LABEL: func.func @figures(%arg0: tensor<16xf32>) -> tensor<16xf32> attributes {a.first = 1 : i64, opsched.alignment = 64 : i64, opsched.arena_size = 192 : i64, opsched.critical_path = 10002 : i64, opsched.fragmentation = 0.000000e+00 : f64, opsched.lower_bound = 15003 : i64, opsched.m = "keep", opsched.makespan = 15003 : i64, opsched.original_peak_memory = 192 : i64, opsched.peak_memory = 192 : i64, opsched.resident_bytes = 64 : i64, opsched.speedup = 1.000000e+00 : f64, opsched.streams = 1 : i64, opsched.streams_requested = 1 : i64, opsched.waits_after = 0 : i64, opsched.waits_before = 0 : i64, zz.last} {
