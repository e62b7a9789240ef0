flops_per_ns 2
launch_ns 100
