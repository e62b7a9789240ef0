/* tools/opsched-bench/args.h - the subcommands' "--name VALUE" options,
 * parsed from one table so every subcommand reads and rejects them alike. */
#ifndef OPSCHED_BENCH_ARGS_H
#define OPSCHED_BENCH_ARGS_H

#include <stdint.h>

typedef enum bench_arg_kind { BENCH_ARG_STR, BENCH_ARG_INT, BENCH_ARG_I64 } bench_arg_kind;

typedef struct bench_arg {
  const char *name; /* "--csv" */
  bench_arg_kind kind;
  void *dst; /* const char **, int * or int64_t * by kind */
} bench_arg;

/* Reads argv against the `n` entries of `args` (each takes one value).
 * Returns 0, or 2 after printing `usage` to stderr for an unknown option or
 * a missing value. */
int bench_parse_args(const bench_arg *args, int n, int argc, char **argv, const char *usage);

#endif /* OPSCHED_BENCH_ARGS_H */
