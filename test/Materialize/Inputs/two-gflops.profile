# a hand-written profile: 2 GFLOP/s, 4 GB/s, 100 ns per op
name handmade
flops_per_ns 2
bytes_per_ns 4
launch_ns 100
