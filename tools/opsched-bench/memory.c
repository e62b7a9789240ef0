/* opsched-bench memory: the peak of every memory policy and baseline side
 * by side, with the time each took, on real networks (netgen.c), random
 * layered DAGs, small random blocks (where exact should prove optimality),
 * and one large random block timing the heuristics. */
#include "bench.h"
#include "args.h"
#include "netgen.h"

#include "opsched/memory.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double seconds_now(void) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Columns, in print order. */
static const opsched_memory_policy columns[] = {
    OPSCHED_MEMORY_PROGRAM_ORDER, OPSCHED_MEMORY_CRITICAL_PATH,
    OPSCHED_MEMORY_XLA_LIST,      OPSCHED_MEMORY_XLA_DFS,
    OPSCHED_MEMORY_XLA_POSTORDER, OPSCHED_MEMORY_INDUCTOR_LPMF,
    OPSCHED_MEMORY_INDUCTOR_BFS,  OPSCHED_MEMORY_INDUCTOR_DFS,
    OPSCHED_MEMORY_SETHI_ULLMAN,  OPSCHED_MEMORY_MIN_MEMORY,
    OPSCHED_MEMORY_EXACT};
enum { NCOL = sizeof columns / sizeof columns[0] };

typedef struct row {
  char name[48];
  int32_t ops;
  int64_t peak[NCOL];
  double ms[NCOL];
  int proven;          /* exact proved its peak optimal */
  int64_t lower_bound; /* exact's proven lower bound */
  int64_t states;
} row;

typedef struct sink {
  FILE *csv, *json;
  int json_rows;
} sink;

static int run_block(const netgen_block *b, int64_t budget, int with_exact,
                     row *r, sink *out) {
  memset(r, 0, sizeof *r);
  snprintf(r->name, sizeof r->name, "%s", b->name);
  r->ops = opsched_graph_num_nodes(b->graph);
  for (int c = 0; c < NCOL; c++) {
    opsched_memory_options o;
    opsched_memory_options_init(&o);
    o.policy = columns[c];
    o.exact_budget = budget;
    /* min-memory: keep-best plus exact on small blocks (the default). */
    if (columns[c] == OPSCHED_MEMORY_EXACT && !with_exact) {
      r->peak[c] = -1;
      continue;
    }
    opsched_memory_result *res = NULL;
    double t0 = seconds_now();
    opsched_status st = opsched_memory_schedule(b->graph, b->buffers, &o, &res);
    r->ms[c] = 1e3 * (seconds_now() - t0);
    if (st != OPSCHED_OK) {
      fprintf(stderr, "opsched-bench: %s on %s: %s\n",
              opsched_memory_policy_name(columns[c]), b->name, opsched_status_str(st));
      return 1;
    }
    r->peak[c] = opsched_memory_result_peak(res);
    if (columns[c] == OPSCHED_MEMORY_EXACT) {
      r->proven = opsched_memory_result_exact_proven(res);
      r->lower_bound = opsched_memory_result_lower_bound(res);
      r->states = opsched_memory_result_exact_states(res);
    }
    opsched_memory_result_destroy(res);
  }
  for (int c = 0; c < NCOL; c++) {
    if (r->peak[c] < 0)
      continue;
    int ex = columns[c] == OPSCHED_MEMORY_EXACT;
    if (out->csv)
      fprintf(out->csv, "%s,%d,%s,%" PRId64 ",%.3f,%d,%" PRId64 "\n", r->name, r->ops,
              opsched_memory_policy_name(columns[c]), r->peak[c], r->ms[c],
              ex ? r->proven : 0, ex ? r->lower_bound : 0);
    if (out->json)
      fprintf(out->json,
              "%s\n    {\"instance\": \"%s\", \"ops\": %d, \"policy\": \"%s\", "
              "\"peak_bytes\": %" PRId64 ", \"time_ms\": %.3f%s",
              out->json_rows++ ? "," : "", r->name, r->ops,
              opsched_memory_policy_name(columns[c]), r->peak[c], r->ms[c],
              ex ? "" : "}");
    if (out->json && ex)
      fprintf(out->json, ", \"proven\": %s, \"lower_bound\": %" PRId64 ", \"states\": %" PRId64 "}",
              r->proven ? "true" : "false", r->lower_bound, r->states);
  }
  return 0;
}

static void print_header(void) {
  printf("%-22s %6s", "instance", "ops");
  for (int c = 0; c < NCOL; c++)
    printf(" %13s", opsched_memory_policy_name(columns[c]));
  printf("  exact\n");
}

static void print_row(const row *r, int times) {
  printf("%-22s %6d", r->name, r->ops);
  for (int c = 0; c < NCOL; c++) {
    if (r->peak[c] < 0)
      printf(" %13s", "-");
    else if (times)
      printf(" %13.2f", r->ms[c]);
    else
      printf(" %13.1f", (double)r->peak[c] / (1 << 20));
  }
  if (!times && r->peak[NCOL - 1] >= 0)
    printf("  %s", r->proven ? "optimal" : "budget");
  printf("\n");
}

/* Prints peaks (MiB) and times (ms) for a family, then the geometric mean
 * of each column's peak over min-memory's. */
static void print_family(const char *title, const row *rows, int n) {
  printf("\n== %s: peak MiB (exact: optimal = proven, budget = best found)\n", title);
  print_header();
  for (int i = 0; i < n; i++)
    print_row(&rows[i], 0);
  printf("-- time ms\n");
  for (int i = 0; i < n; i++)
    print_row(&rows[i], 1);
  printf("-- geomean peak / min-memory peak\n%-29s", "");
  for (int c = 0; c < NCOL; c++) {
    double logsum = 0;
    int k = 0;
    for (int i = 0; i < n; i++)
      if (rows[i].peak[c] > 0 && rows[i].peak[NCOL - 2] > 0) {
        logsum += log((double)rows[i].peak[c] / (double)rows[i].peak[NCOL - 2]);
        k++;
      }
    if (k)
      printf(" %13.3f", exp(logsum / k));
    else
      printf(" %13s", "-");
  }
  printf("\n");
}

int bench_memory(int argc, char **argv) {
  const char *csv_path = NULL, *json_path = NULL;
  int seeds = 10, nodes = 200, big = 100000;
  int64_t budget = 200000;
  const bench_arg args[] = {
      {"--csv", BENCH_ARG_STR, &csv_path},
      {"--json", BENCH_ARG_STR, &json_path},
      {"--seeds", BENCH_ARG_INT, &seeds},
      {"--nodes", BENCH_ARG_INT, &nodes},
      {"--big", BENCH_ARG_INT, &big},
      {"--exact-budget", BENCH_ARG_I64, &budget},
  };
  if (bench_parse_args(args, (int)(sizeof args / sizeof args[0]), argc, argv,
                       "usage: opsched-bench memory [--csv FILE] [--json FILE] [--seeds N] [--nodes N] "
                       "[--big N] [--exact-budget STATES]"))
    return 2;
  if (seeds < 0 || nodes < 1 || big < 0 || budget < 1) {
    fprintf(stderr, "opsched-bench memory: bad option value\n");
    return 2;
  }
  sink out = {0};
  if (csv_path && !(out.csv = fopen(csv_path, "w"))) {
    fprintf(stderr, "opsched-bench: cannot write %s\n", csv_path);
    return 1;
  }
  if (json_path && !(out.json = fopen(json_path, "w"))) {
    fprintf(stderr, "opsched-bench: cannot write %s\n", json_path);
    if (out.csv)
      fclose(out.csv);
    return 1;
  }
  if (out.csv)
    fprintf(out.csv, "instance,ops,policy,peak_bytes,time_ms,exact_proven,exact_lower_bound\n");
  if (out.json)
    fprintf(out.json, "{\"exact_budget\": %" PRId64 ", \"results\": [", budget);
  printf("opsched-bench memory: exact budget %" PRId64 " states, %d seeds\n", budget, seeds);

  int rc = 0, cap = seeds > 4 ? seeds : 4;
  row *rows = calloc((size_t)cap, sizeof *rows);
  if (!rows)
    return 1;
  int k = 0;
  for (int i = 0; netgen_networks[i] && !rc; i++) {
    netgen_block b;
    if (netgen_network(netgen_networks[i], &b)) {
      fprintf(stderr, "opsched-bench: cannot build %s\n", netgen_networks[i]);
      rc = 1;
      break;
    }
    rc = run_block(&b, budget, 1, &rows[k++], &out);
    netgen_free(&b);
  }
  if (!rc)
    print_family("networks (f32, resident weights and input excluded)", rows, k);
  for (int family = 0; family < 2 && !rc; family++) {
    int32_t size = family == 0 ? 30 : nodes;
    for (k = 0; k < seeds && !rc; k++) {
      netgen_block b;
      if (netgen_random((uint64_t)(k + 1), size, &b)) {
        rc = 1;
        break;
      }
      rc = run_block(&b, budget, 1, &rows[k], &out);
      netgen_free(&b);
    }
    if (!rc)
      print_family(family == 0 ? "random layered DAGs, 30 ops" : "random layered DAGs",
                   rows, k);
  }
  if (!rc && big > 0) {
    netgen_block b;
    if (netgen_random(12345, big, &b))
      rc = 1;
    else {
      rc = run_block(&b, budget, 0, &rows[0], &out);
      if (!rc)
        print_family("one large random block: heuristics only (min-memory skips exact)",
                     rows, 1);
      netgen_free(&b);
    }
  }
  if (out.json)
    fprintf(out.json, "\n]}\n");
  if (out.csv)
    fclose(out.csv);
  if (out.json)
    fclose(out.json);
  free(rows);
  return rc;
}
