/* tools/opsched-bench/bench.h - the subcommands of opsched-bench.
 * Each takes the arguments after its name and returns the process exit
 * code (0 ok, 1 failure, 2 usage error). */
#ifndef OPSCHED_BENCH_H
#define OPSCHED_BENCH_H

/* `stg`: list scheduling and improvement vs published STG optima. */
int bench_stg(int argc, char **argv);

/* `stg-mlir`: one STG graph as an MLIR module, plus the core's makespan. */
int bench_stg_mlir(int argc, char **argv);

/* `random-mlir`: random valid modules of tensor ops (property tests). */
int bench_random_mlir(int argc, char **argv);

/* `memory`: peak memory of every memory policy and baseline. */
int bench_memory(int argc, char **argv);

/* `arena`: buffer assignment, arena / lower bound per packer, 1 and 4 streams. */
int bench_arena(int argc, char **argv);

/* `calibrate`: measures this machine (small linalg kernels lowered and run
 * natively) and writes a device profile for `op-schedule device=FILE`. */
int bench_calibrate(int argc, char **argv);
/* `pareto`: makespan against peak over a sweep of max-memory budgets, by
 * running opsched-opt on an MLIR model. */
int bench_pareto(int argc, char **argv);

#endif
