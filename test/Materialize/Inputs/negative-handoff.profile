flops_per_ns 2
bytes_per_ns 1000
launch_ns 100
handoff_ns -1
