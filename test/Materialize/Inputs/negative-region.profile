flops_per_ns 2
bytes_per_ns 4
launch_ns 100
region_ns -1
