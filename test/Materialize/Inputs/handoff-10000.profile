# two-cores.profile with a cross-stream hand-off: a hand-written calibrated profile: reductions 2 GFLOP/s, elementwise
# 8 GFLOP/s, 1000 GB/s, 100 ns per op, 2 cores, 50 ns per async region
# and a hand-off of 10000 ns between streams
name handmade
flops_per_ns 2
bytes_per_ns 1000
launch_ns 100
elementwise_flops_per_ns 8
cores 2
region_ns 50
# a loop striding across an operand over 32 KiB: 10 ns per iteration
strided_ns 10
cache_bytes 32768
handoff_ns 10000
