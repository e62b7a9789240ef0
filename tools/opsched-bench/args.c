#include "args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const bench_arg *find_arg(const bench_arg *args, int n, const char *name) {
  for (int k = 0; k < n; k++)
    if (!strcmp(args[k].name, name))
      return &args[k];
  return NULL;
}

int bench_parse_args(const bench_arg *args, int n, int argc, char **argv, const char *usage) {
  for (int i = 0; i < argc; i++) {
    const bench_arg *a = find_arg(args, n, argv[i]);
    if (!a || i + 1 >= argc) {
      fprintf(stderr, "%s\n", usage);
      return 2;
    }
    const char *v = argv[++i];
    switch (a->kind) {
    case BENCH_ARG_STR: *(const char **)a->dst = v; break;
    case BENCH_ARG_INT: *(int *)a->dst = atoi(v); break;
    case BENCH_ARG_I64: *(int64_t *)a->dst = atoll(v); break;
    }
  }
  return 0;
}
