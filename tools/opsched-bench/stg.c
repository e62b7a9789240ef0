/* opsched-bench stg: multi-stream scheduling against the published optima
 * of the Standard Task Graph Set (Kasahara lab, Waseda University).
 *
 * The STG files are read at run time from a corpus folder (default
 * ../shared/corpus next to the repository) and never copied into the
 * project; when the folder is absent the command says so and exits 0 so a
 * fresh clone can still run it. Model: identical processors = streams, no
 * communication cost, non-preemptive, unit demands, capacity = streams. */
#include "bench.h"
#include "args.h"

#include "opsched/schedule.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef OPSCHED_DEFAULT_CORPUS
#define OPSCHED_DEFAULT_CORPUS "../shared/corpus"
#endif

enum { NPROCS = 4 };
static const int procs_list[NPROCS] = {2, 4, 8, 16};
/* Task-set sizes probed under stg/optimal; missing ones are skipped. */
static const char *const set_names[] = {"50", "100", "300", "500", "750", "1000",
                                        "1500", "2000", "2500", "3000", "5000"};

static double now_seconds(void) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Reads the next line that is not a comment; 0 at end of file. */
static int next_line(FILE *f, char *buf, size_t size) {
  while (fgets(buf, (int)size, f)) {
    const char *p = buf;
    while (*p == ' ' || *p == '\t')
      p++;
    if (*p == '#' || *p == '\n' || *p == '\0')
      continue;
    return 1;
  }
  return 0;
}

/* Parses one STG file into a finalized graph of its real tasks (ids 1..n
 * become nodes 0..n-1); the zero-time dummy entry and exit are dropped, as
 * they occupy no processor. Returns NULL with a message on error. */
static opsched_graph *read_stg(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "opsched-bench: cannot open %s\n", path);
    return NULL;
  }
  char line[8192];
  opsched_graph *g = NULL;
  long n = 0;
  if (!next_line(f, line, sizeof line) || sscanf(line, "%ld", &n) != 1 ||
      n < 0 || n > 10000000)
    goto bad;
  g = opsched_graph_create((size_t)n);
  if (!g)
    goto bad;
  for (long i = 0; i < n; i++)
    if (opsched_graph_add_node(g, 0, 1) < 0)
      goto bad;
  for (long row = 0; row < n + 2; row++) {
    if (!next_line(f, line, sizeof line))
      goto bad;
    char *p = line, *end;
    long id = strtol(p, &end, 10);
    p = end;
    long time = strtol(p, &end, 10);
    p = end;
    long npred = strtol(p, &end, 10);
    if (end == p || id != row || time < 0 || npred < 0)
      goto bad;
    p = end;
    if (id == 0 || id == n + 1) {
      if (time != 0)
        goto bad; /* dummies with work are not part of the format */
      continue;
    }
    opsched_graph_set_cost(g, (int32_t)(id - 1), time);
    for (long k = 0; k < npred; k++) {
      long pred = strtol(p, &end, 10);
      if (end == p || pred < 0 || pred >= id)
        goto bad;
      p = end;
      if (pred > 0 &&
          opsched_graph_add_edge(g, (int32_t)(pred - 1), (int32_t)(id - 1)) != OPSCHED_OK)
        goto bad;
    }
  }
  fclose(f);
  if (opsched_graph_finalize(g) != OPSCHED_OK) {
    opsched_graph_destroy(g);
    fprintf(stderr, "opsched-bench: %s: not a DAG\n", path);
    return NULL;
  }
  return g;
bad:
  fclose(f);
  opsched_graph_destroy(g);
  fprintf(stderr, "opsched-bench: %s: malformed STG file\n", path);
  return NULL;
}

/* Solved instances (a published optimum) give the optimal share and gaps;
 * open ones (a row "graph,p,lower,upper": lower bound and best known
 * makespan) count how often the best known makespan is matched or beaten. */
typedef struct side_stats {
  int optimal, open_matched, open_beaten;
  double gap_sum, gap_max, open_gap_sum, seconds;
} side_stats;

typedef struct proc_stats {
  int instances, solved, lb_tight;
  side_stats list, improved;
} proc_stats;

static void add_result(side_stats *st, int64_t ms, int64_t opt, int64_t upper,
                       double secs) {
  st->seconds += secs;
  if (upper == 0) {
    double gap = opt > 0 ? (double)(ms - opt) / (double)opt : 0.0;
    st->optimal += ms == opt;
    st->gap_sum += gap;
    if (gap > st->gap_max)
      st->gap_max = gap;
  } else {
    st->open_matched += ms <= upper;
    st->open_beaten += ms < upper;
    st->open_gap_sum += (double)(ms - upper) / (double)upper;
  }
}

/* Independent feasibility check, so that a makespan below a published
 * bound cannot come from a broken schedule: edges honoured, at most
 * `procs` ops run at once, ops on one stream never overlap. */
static int schedule_valid(const opsched_graph *g, const opsched_schedule *s,
                          int procs) {
  int32_t n = opsched_graph_num_nodes(g);
  const int64_t *st = opsched_schedule_starts(s), *en = opsched_schedule_ends(s);
  const int32_t *sm = opsched_schedule_streams(s);
  for (int32_t v = 0; v < n; v++) {
    int32_t np;
    const int32_t *pred = opsched_graph_preds(g, v, &np);
    if (sm[v] < 0 || sm[v] >= procs || en[v] != st[v] + opsched_graph_cost(g, v))
      return 0;
    for (int32_t k = 0; k < np; k++)
      if (en[pred[k]] > st[v])
        return 0;
    int running = 0;
    for (int32_t u = 0; u < n; u++) {
      if (st[u] <= st[v] && st[v] < en[u])
        running++;
      if (u != v && sm[u] == sm[v] && st[u] < en[v] && st[v] < en[u])
        return 0;
    }
    if (running > procs)
      return 0;
  }
  return 1;
}

/* Runs one scheduling; returns 0 and fills *ms and *secs on success. */
static int run_one(const opsched_graph *g, int procs, int effort, int64_t *ms,
                   int64_t *lb, int64_t *waits_before, int64_t *waits_after,
                   double *secs) {
  opsched_schedule_options o;
  opsched_schedule_options_init(&o);
  o.streams = procs;
  o.effort = effort;
  opsched_schedule *s = NULL;
  double t0 = now_seconds();
  opsched_status st = opsched_schedule_run(g, &o, &s);
  *secs = now_seconds() - t0;
  if (st != OPSCHED_OK) {
    fprintf(stderr, "opsched-bench: schedule failed: %s\n", opsched_status_str(st));
    return 1;
  }
  if (!schedule_valid(g, s, procs)) {
    fprintf(stderr, "opsched-bench: invalid schedule (effort %d)\n", effort);
    opsched_schedule_destroy(s);
    return 1;
  }
  *ms = opsched_schedule_makespan(s);
  *lb = opsched_schedule_lower_bound(s);
  *waits_before = opsched_schedule_num_waits_unreduced(s);
  *waits_after = opsched_schedule_num_waits(s);
  opsched_schedule_destroy(s);
  return 0;
}

static void print_side(const char *label, const side_stats *st,
                       const proc_stats *ps) {
  int count = ps->solved, open = ps->instances - ps->solved;
  printf("| %-8s | %6.2f%% | %7.3f%% | %6.2f%% | %4d/%-4d | %4d | %8.3f |\n",
         label, count ? 100.0 * st->optimal / count : 0.0,
         count ? 100.0 * st->gap_sum / count : 0.0, 100.0 * st->gap_max,
         st->open_matched, open, st->open_beaten, st->seconds);
}

static void json_side(FILE *f, const char *label, const side_stats *st,
                      const proc_stats *ps) {
  int count = ps->solved;
  fprintf(f,
          "\"%s\": {\"optimal\": %d, \"optimal_share\": %.4f, "
          "\"mean_gap\": %.6f, \"max_gap\": %.6f, \"open_matched\": %d, "
          "\"open_beaten\": %d, \"open_mean_gap\": %.6f, \"seconds\": %.4f}",
          label, st->optimal, count ? (double)st->optimal / count : 0.0,
          count ? st->gap_sum / count : 0.0, st->gap_max, st->open_matched,
          st->open_beaten,
          ps->instances > count
              ? st->open_gap_sum / (ps->instances - count) : 0.0,
          st->seconds);
}

int bench_stg(int argc, char **argv) {
  const char *corpus = OPSCHED_DEFAULT_CORPUS, *csv_path = NULL,
             *json_path = NULL;
  int effort = 16;
  const bench_arg args[] = {
      {"--corpus", BENCH_ARG_STR, &corpus},
      {"--csv", BENCH_ARG_STR, &csv_path},
      {"--json", BENCH_ARG_STR, &json_path},
      {"--effort", BENCH_ARG_INT, &effort},
  };
  if (bench_parse_args(args, (int)(sizeof args / sizeof args[0]), argc, argv,
                       "usage: opsched-bench stg [--corpus DIR] [--csv FILE] [--json FILE] [--effort K]"))
    return 2;
  if (effort < 1) {
    fprintf(stderr, "opsched-bench: --effort must be >= 1\n");
    return 2;
  }
  FILE *csv = NULL;
  if (csv_path) {
    csv = fopen(csv_path, "w");
    if (!csv) {
      fprintf(stderr, "opsched-bench: cannot write %s\n", csv_path);
      return 1;
    }
    /* optimum: the published optimum, or its lower bound when best_known
     * (the published upper bound) is non-zero. */
    fprintf(csv, "graph,procs,optimum,best_known,lower_bound,list,improved,"
                 "list_seconds,improved_seconds,waits_unreduced,waits\n");
  }

  proc_stats stats[NPROCS];
  memset(stats, 0, sizeof stats);
  int files_seen = 0, failures = 0;
  char path[4096], line[4096], gpath[4096];
  for (size_t set = 0; set < sizeof set_names / sizeof set_names[0]; set++) {
    for (int pi = 0; pi < NPROCS; pi++) {
      snprintf(path, sizeof path, "%s/stg/optimal/Case%s_%d_OPT.csv", corpus,
               set_names[set], procs_list[pi]);
      FILE *f = fopen(path, "r");
      if (!f)
        continue;
      files_seen++;
      while (fgets(line, sizeof line, f)) {
        char name[1024];
        int procs;
        long long opt, upper = 0;
        int fields = sscanf(line, "%1023[^,],%d,%lld,%lld", name, &procs,
                            &opt, &upper);
        if (fields < 3)
          continue; /* header or blank line */
        if (fields == 3)
          upper = 0; /* solved: `opt` is the optimum */
        if (procs != procs_list[pi]) {
          fprintf(stderr, "opsched-bench: %s: processor count %d in %s\n",
                  name, procs, path);
          failures++;
          continue;
        }
        snprintf(gpath, sizeof gpath, "%s/stg/%s", corpus, name);
        opsched_graph *g = read_stg(gpath);
        if (!g) {
          failures++;
          continue;
        }
        int64_t ms0, ms1, lb, wb, wa, wb1, wa1;
        double t0, t1;
        if (run_one(g, procs, 0, &ms0, &lb, &wb, &wa, &t0) ||
            run_one(g, procs, effort, &ms1, &lb, &wb1, &wa1, &t1)) {
          failures++;
          opsched_graph_destroy(g);
          continue;
        }
        opsched_graph_destroy(g);
        if (ms0 < opt || ms1 < opt || ms1 > ms0) {
          /* Below a proven optimum or lower bound means a wrong schedule. */
          fprintf(stderr,
                  "opsched-bench: %s p=%d: makespan list %" PRId64
                  " improved %" PRId64 " vs optimum %lld\n",
                  name, procs, ms0, ms1, opt);
          failures++;
        }
        proc_stats *ps = &stats[pi];
        ps->instances++;
        ps->solved += upper == 0;
        ps->lb_tight += upper == 0 && lb == opt;
        add_result(&ps->list, ms0, opt, upper, t0);
        add_result(&ps->improved, ms1, opt, upper, t1);
        if (csv)
          fprintf(csv, "%s,%d,%lld,%lld,%" PRId64 ",%" PRId64 ",%" PRId64
                       ",%.6f,%.6f,%" PRId64 ",%" PRId64 "\n",
                  name, procs, opt, upper, lb, ms0, ms1, t0, t1, wb1, wa1);
      }
      fclose(f);
    }
  }
  if (csv)
    fclose(csv);
  if (files_seen == 0) {
    printf("opsched-bench stg: no STG optima under %s/stg/optimal; skipped\n",
           corpus);
    return 0;
  }

  printf("STG vs published optima (identical streams, unit demands, no comm "
         "cost), improvement effort %d\n"
         "optimal/gaps over solved instances; open = instances with only "
         "bounds published: best known matched/beaten\n\n",
         effort);
  proc_stats total;
  memset(&total, 0, sizeof total);
  for (int pi = 0; pi <= NPROCS; pi++) {
    const proc_stats *ps = pi < NPROCS ? &stats[pi] : &total;
    if (ps->instances == 0)
      continue;
    if (pi < NPROCS)
      printf("streams=%d: %d instances, %d solved (lower bound = optimum on %d)\n",
             procs_list[pi], ps->instances, ps->solved, ps->lb_tight);
    else
      printf("all: %d instances, %d solved (lower bound = optimum on %d)\n",
             ps->instances, ps->solved, ps->lb_tight);
    printf("| %-8s | %7s | %8s | %7s | %9s | %4s | %8s |\n", "method",
           "optimal", "mean gap", "max gap", "open <=", "<", "time s");
    print_side("list", &ps->list, ps);
    print_side("improved", &ps->improved, ps);
    printf("\n");
    if (pi == NPROCS)
      break;
    total.instances += ps->instances;
    total.solved += ps->solved;
    total.lb_tight += ps->lb_tight;
    const side_stats *src[2] = {&ps->list, &ps->improved};
    side_stats *dst[2] = {&total.list, &total.improved};
    for (int k = 0; k < 2; k++) {
      dst[k]->optimal += src[k]->optimal;
      dst[k]->open_matched += src[k]->open_matched;
      dst[k]->open_beaten += src[k]->open_beaten;
      dst[k]->gap_sum += src[k]->gap_sum;
      dst[k]->open_gap_sum += src[k]->open_gap_sum;
      dst[k]->seconds += src[k]->seconds;
      if (src[k]->gap_max > dst[k]->gap_max)
        dst[k]->gap_max = src[k]->gap_max;
    }
  }

  if (json_path) {
    FILE *jf = fopen(json_path, "w");
    if (!jf) {
      fprintf(stderr, "opsched-bench: cannot write %s\n", json_path);
      return 1;
    }
    fprintf(jf, "{\"effort\": %d, \"per_streams\": [", effort);
    int first = 1;
    for (int pi = 0; pi < NPROCS; pi++) {
      const proc_stats *ps = &stats[pi];
      if (ps->instances == 0)
        continue;
      fprintf(jf, "%s\n  {\"streams\": %d, \"instances\": %d, \"solved\": %d, ",
              first ? "" : ",", procs_list[pi], ps->instances, ps->solved);
      json_side(jf, "list", &ps->list, ps);
      fprintf(jf, ", ");
      json_side(jf, "improved", &ps->improved, ps);
      fprintf(jf, "}");
      first = 0;
    }
    fprintf(jf, "\n], \"all\": {\"instances\": %d, \"solved\": %d, ",
            total.instances, total.solved);
    json_side(jf, "list", &total.list, &total);
    fprintf(jf, ", ");
    json_side(jf, "improved", &total.improved, &total);
    fprintf(jf, "}, \"failures\": %d}\n", failures);
    fclose(jf);
  }
  if (failures)
    fprintf(stderr, "opsched-bench stg: %d failures\n", failures);
  return failures ? 1 : 0;
}

/* `opsched-bench stg-mlir FILE.stg --streams P [--effort K] -o OUT.mlir`:
 * writes the STG graph as a module whose op i is task i (a pure
 * `affine.max` over its predecessors, with `opsched.cost` = its time) and
 * prints the core's makespan for the same graph, so a test can check that
 * the MLIR pass and the core agree. */
int bench_stg_mlir(int argc, char **argv) {
  const char *in = NULL, *out = NULL;
  int procs = 2, effort = 0;
  for (int i = 0; i < argc; i++) {
    int more = i + 1 < argc;
    if (!strcmp(argv[i], "--streams") && more)
      procs = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--effort") && more)
      effort = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-o") && more)
      out = argv[++i];
    else if (argv[i][0] != '-' && !in)
      in = argv[i];
    else
      in = NULL, i = argc;
  }
  if (!in || !out || procs < 1 || effort < 0) {
    fprintf(stderr, "usage: opsched-bench stg-mlir FILE.stg --streams P [--effort K] -o OUT.mlir\n");
    return 2;
  }
  opsched_graph *g = read_stg(in);
  if (!g)
    return 1;
  FILE *f = fopen(out, "w");
  if (!f) {
    fprintf(stderr, "opsched-bench: cannot write %s\n", out);
    opsched_graph_destroy(g);
    return 1;
  }
  int32_t n = opsched_graph_num_nodes(g);
  fprintf(f, "func.func @stg() {\n");
  for (int32_t v = 0; v < n; v++) {
    int32_t np;
    const int32_t *preds = opsched_graph_preds(g, v, &np);
    /* affine.max of the predecessors' values: pure, variadic, one op. */
    fprintf(f, "  %%t%d = affine.max affine_map<(", (int)v);
    for (int32_t k = 0; k < np; k++)
      fprintf(f, "%sd%d", k ? ", " : "", (int)k);
    fprintf(f, ") -> (");
    if (np == 0)
      fprintf(f, "0");
    for (int32_t k = 0; k < np; k++)
      fprintf(f, "%sd%d", k ? ", " : "", (int)k);
    fprintf(f, ")>(");
    for (int32_t k = 0; k < np; k++)
      fprintf(f, "%s%%t%d", k ? ", " : "", (int)preds[k]);
    fprintf(f, ") {opsched.cost = %" PRId64 " : i64}\n", opsched_graph_cost(g, v));
  }
  fprintf(f, "  return\n}\n");
  fclose(f);
  int64_t ms, lb, wb, wa;
  double secs;
  int rc = run_one(g, procs, effort, &ms, &lb, &wb, &wa, &secs);
  if (rc == 0)
    printf("core makespan: %" PRId64 " waits: %" PRId64 "\n", ms, wa);
  opsched_graph_destroy(g);
  return rc;
}
