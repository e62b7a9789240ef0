"""A bench directory with known call times (test/Materialize/bench-stats.test):
scripts/bench-speedup.sh's layout, DIR/NAME-sS/ per configuration and
DIR/bench/NAME.LABEL.ROUND.out per run, each run's output as the harness's
`main` prints it (heap bytes, first call's seconds, result bits, the other
calls' seconds)."""
import os
import sys

d = sys.argv[1]
os.makedirs(os.path.join(d, "bench"), exist_ok=True)
# Per label, per round: the calls after the first (the first, 1.0 s, is dropped).
times = {
    "seq": [[0.10, 0.12, 0.11], [0.20, 0.22, 0.21]],
    "s1": [[0.10, 0.10, 0.10], [0.20, 0.20, 0.20]],
    "s2": [[0.05, 0.06, 0.055], [0.08, 0.09, 0.085]],
}
heap = {"seq": 2000, "s1": 1000, "s2": 1000}
for label, rounds in times.items():
    for r, calls in enumerate(rounds, 1):
        with open(os.path.join(d, "bench", "chains.%s.%d.out" % (label, r)), "w") as f:
            f.write("%d\n1.0\n[1, 2]\n%s\n" % (heap[label], "\n".join("%g" % t for t in calls)))
for s, speedup in (("1", 1.0), ("2", 2.0), ("4", 2.0)):
    cfg = os.path.join(d, "chains-s%s" % s)
    os.makedirs(cfg, exist_ok=True)
    open(os.path.join(cfg, "sched"), "w").close()
    with open(os.path.join(cfg, "sched.memref.mlir"), "w") as f:
        f.write("func.func @chains() attributes {opsched.arena_size = 1024 : i64, "
                "opsched.makespan = %d : i64, opsched.speedup = %s : f64} {\n  return\n}\n"
                % (100000000 / speedup, speedup))
    with open(os.path.join(cfg, "sched.mat.mlir"), "w") as f:
        f.write("%alloc = memref.alloc() {alignment = 64 : i64} : memref<1024xi8>\n")
