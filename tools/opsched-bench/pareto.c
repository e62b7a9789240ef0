/* opsched-bench pareto: the makespan / peak-memory frontier of a model,
 * through the pass. The bench does not parse MLIR, so it runs opsched-opt
 * (next to this binary, or --opt) once per point and reads the function's
 * attributes back: the one-stream min-memory peak (the frontier's low end),
 * the unconstrained makespan and peak (opsched.unconstrained_*), `--points`
 * + 1 budgets from the low end to that peak (max-memory, so each point's
 * arena is bounded too), the fastest schedule (makespan-tolerance=0) and the
 * pass's default choice. The first function with an opsched.makespan
 * is the one reported. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct point {
  long long makespan, peak, arena, streams, free_makespan, free_peak;
  int warned; /* the pass warned (a limit it could not meet) */
} point;

/* Appends `s` single-quoted for sh. */
static void quote(char *out, size_t size, const char *s) {
  size_t n = strlen(out);
  if (n + 1 < size)
    out[n++] = '\'';
  for (; *s && n + 5 < size; s++) {
    if (*s == '\'') {
      memcpy(out + n, "'\\''", 4);
      n += 4;
    } else {
      out[n++] = *s;
    }
  }
  if (n + 1 < size)
    out[n++] = '\'';
  out[n] = '\0';
}

static long long attr(const char *line, const char *name) {
  char key[96];
  snprintf(key, sizeof key, "opsched.%s = ", name);
  const char *p = strstr(line, key);
  return p ? atoll(p + strlen(key)) : -1;
}

/* Runs the pass with `options` on `model`; 0 on success. */
static int run_point(const char *opt, const char *model, const char *options, point *pt) {
  char cmd[8192] = "";
  quote(cmd, sizeof cmd, opt);
  strncat(cmd, " --op-schedule=", sizeof cmd - strlen(cmd) - 1);
  quote(cmd, sizeof cmd, options);
  strncat(cmd, " ", sizeof cmd - strlen(cmd) - 1);
  quote(cmd, sizeof cmd, model);
  strncat(cmd, " 2>&1", sizeof cmd - strlen(cmd) - 1);
  FILE *p = popen(cmd, "r");
  if (!p)
    return 1;
  memset(pt, 0, sizeof *pt);
  pt->makespan = -1;
  static char line[1 << 16];
  while (fgets(line, sizeof line, p)) {
    if (strstr(line, "warning: opsched:"))
      pt->warned = 1;
    if (pt->makespan >= 0 || !strstr(line, "func.func") || attr(line, "makespan") < 0)
      continue;
    pt->makespan = attr(line, "makespan");
    pt->peak = attr(line, "peak_memory");
    pt->arena = attr(line, "arena_size");
    pt->streams = attr(line, "streams");
    pt->free_makespan = attr(line, "unconstrained_makespan");
    pt->free_peak = attr(line, "unconstrained_peak_memory");
  }
  int rc = pclose(p);
  if (rc != 0 || pt->makespan < 0) {
    fprintf(stderr, "opsched-bench pareto: '%s' failed on %s\n", options, model);
    return 1;
  }
  return 0;
}

static void print_point(const char *label, const point *pt, const point *free_pt,
                        long long floor_peak) {
  printf("%-30s %12lld %8.4f %12lld %8.4f %12lld %8.4f %4lld%s\n", label, pt->makespan,
         free_pt->makespan > 0 ? (double)pt->makespan / (double)free_pt->makespan : 1.0,
         pt->peak, floor_peak > 0 ? (double)pt->peak / (double)floor_peak : 1.0, pt->arena,
         floor_peak > 0 ? (double)pt->arena / (double)floor_peak : 1.0, pt->streams,
         pt->warned ? "  (warned)" : "");
}

/* opsched-opt next to this binary. */
static void default_opt(char *out, size_t size) {
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) {
    snprintf(out, size, "opsched-opt");
    return;
  }
  self[n] = '\0';
  char *slash = strrchr(self, '/');
  if (slash)
    *slash = '\0';
  snprintf(out, size, "%s/opsched-opt", self);
}

int bench_pareto(int argc, char **argv) {
  const char *model = NULL, *extra = "";
  int streams = 4, points = 8;
  char opt[4096 + 16];
  default_opt(opt, sizeof opt);
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--streams") && i + 1 < argc)
      streams = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--points") && i + 1 < argc)
      points = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--opt") && i + 1 < argc)
      snprintf(opt, sizeof opt, "%s", argv[++i]);
    else if (!strcmp(argv[i], "--options") && i + 1 < argc)
      extra = argv[++i];
    else if (argv[i][0] != '-' && !model)
      model = argv[i];
    else {
      fprintf(stderr, "opsched-bench pareto: unexpected argument '%s'\n", argv[i]);
      return 2;
    }
  }
  if (!model || streams < 1 || points < 0 || points > 1000) {
    fprintf(stderr, "usage: opsched-bench pareto MODEL.mlir [--streams N] [--points K] "
                    "[--opt PATH] [--options 'more pass options']\n");
    return 2;
  }
  char options[1024];
  point floor_pt, free_pt, chosen, pt;
  snprintf(options, sizeof options, "streams=1 policy=min-memory %s", extra);
  if (run_point(opt, model, options, &floor_pt))
    return 1;
  snprintf(options, sizeof options, "streams=%d %s", streams, extra);
  if (run_point(opt, model, options, &chosen))
    return 1;
  snprintf(options, sizeof options, "streams=%d makespan-tolerance=0 %s", streams, extra);
  if (run_point(opt, model, options, &free_pt))
    return 1;
  /* The unconstrained schedule's figures, as the pass reports them. */
  point base = free_pt;
  if (chosen.free_makespan >= 0) {
    base.makespan = chosen.free_makespan;
    base.peak = chosen.free_peak;
  }
  long long lo = floor_pt.peak, hi = base.peak;
  printf("# %s, %d streams: one-stream min-memory peak %lld (arena %lld); unconstrained "
         "makespan %lld, peak %lld\n",
         model, streams, lo, floor_pt.arena, base.makespan, hi);
  printf("%-30s %12s %8s %12s %8s %12s %8s %4s\n", "point", "makespan", "x_best", "peak",
         "x_floor", "arena", "x_floor", "used");
  print_point("1 stream min-memory", &floor_pt, &base, lo);
  for (int k = 0; k <= points && hi > lo; k++) {
    long long budget = lo + (hi - lo) * k / (points > 0 ? points : 1);
    char label[64];
    snprintf(label, sizeof label, "max-memory=%lld", budget);
    snprintf(options, sizeof options, "streams=%d max-memory=%lld %s", streams, budget, extra);
    if (run_point(opt, model, options, &pt))
      return 1;
    print_point(label, &pt, &base, lo);
  }
  if (floor_pt.arena > lo) {
    /* What one stream actually allocates (the aligned arena) as the limit. */
    char label[64];
    snprintf(label, sizeof label, "max-memory=%lld (arena)", floor_pt.arena);
    snprintf(options, sizeof options, "streams=%d max-memory=%lld %s", streams, floor_pt.arena,
             extra);
    if (run_point(opt, model, options, &pt))
      return 1;
    print_point(label, &pt, &base, lo);
  }
  print_point("makespan-tolerance=0", &free_pt, &base, lo);
  print_point("default (chosen)", &chosen, &base, lo);
  return 0;
}
