/* opsched-bench: runs one benchmark subcommand of the C core. */
#include "bench.h"

#include <stdio.h>
#include <string.h>

typedef struct bench_cmd {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *help;
} bench_cmd;

/* Add a subcommand: one row here, one function in its own file. */
static const bench_cmd commands[] = {
    {"stg", bench_stg,
     "[--corpus DIR] [--csv FILE] [--json FILE] [--effort K]  "
     "multi-stream scheduling vs STG optima"},
    {"stg-mlir", bench_stg_mlir,
     "FILE.stg --streams P [--effort K] -o OUT.mlir  the graph as a module, and the core's makespan"},
    {"random-mlir", bench_random_mlir,
     "[--seed S] [--functions N] [--ops N] [-o FILE]  random valid modules for property tests\n"
     "      (--ops: random steps per function, 0-2 ops each, no cap; the op count ends the file)"},
    {"memory", bench_memory,
     "[--csv FILE] [--json FILE] [--seeds N]  peak memory of every policy and baseline"},
    {"arena", bench_arena,
     "[--csv FILE] [--seeds N] [--nodes N] [--big N] [--alignment A]  buffer offsets: arena / lower bound per packer"},
    {"calibrate", bench_calibrate,
     "[-o PROFILE] [--llvm DIR]  this machine's FLOP rate, bandwidth, per-op overhead: a device profile"},
    {"pareto", bench_pareto,
     "MODEL.mlir [--streams N] [--points K] [--opt PATH] [--options OPTS]  makespan against peak "
     "memory over max-memory budgets, through opsched-opt"},
};

static int usage(FILE *out) {
  fprintf(out, "usage: opsched-bench <command> [options]\ncommands:\n");
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    fprintf(out, "  %s %s\n", commands[i].name, commands[i].help);
  return 2;
}

int main(int argc, char **argv) {
  if (argc < 2)
    return usage(stderr);
  if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
    usage(stdout);
    return 0;
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (!strcmp(argv[1], commands[i].name))
      return commands[i].run(argc - 2, argv + 2);
  fprintf(stderr, "opsched-bench: unknown command '%s'\n", argv[1]);
  return usage(stderr);
}
