flops_per_ns 2
bytes_per_ns fast
launch_ns 100
