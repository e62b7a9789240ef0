/* opsched-bench arena: buffer assignment (include/opsched/arena.h) on the
 * generated networks and random layered DAGs, for 1 and 4 streams: arena /
 * lower bound per packer, the winner, arena / the schedule's peak live bytes,
 * and the time of the whole assignment and of greedy-size alone. */
#include "bench.h"
#include "args.h"
#include "netgen.h"

#include "opsched/arena.h"
#include "opsched/schedule.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double arena_seconds(void) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double ratio(int64_t a, int64_t b) {
  return b > 0 ? (double)a / (double)b : 1.0;
}

/* Exact max-weight clique of the conflict graph (aligned sizes) by branch
 * and bound, for blocks with at most 64 arena buffers; -1 otherwise. The
 * best race-free arena is at least this. */
typedef struct clique_ctx {
  int nv;
  int64_t w[64];
  uint64_t nbr[64];
  int64_t best;
} clique_ctx;

static void clique_search(clique_ctx *c, uint64_t cand, int64_t cur) {
  if (cur > c->best)
    c->best = cur;
  int64_t bound = cur;
  for (int v = 0; v < c->nv; v++)
    if (cand >> v & 1)
      bound += c->w[v];
  if (bound <= c->best)
    return;
  while (cand) {
    int v = __builtin_ctzll(cand);
    cand &= cand - 1;
    clique_search(c, cand & c->nbr[v], cur + c->w[v]);
    bound -= c->w[v];
    if (bound <= c->best)
      return;
  }
}

static int64_t exact_clique(const opsched_arena *a) {
  clique_ctx c;
  memset(&c, 0, sizeof c);
  int id[64];
  for (int32_t i = 0; i < opsched_arena_num_buffers(a); i++)
    if (opsched_arena_aligned_size(a, i) > 0) {
      if (c.nv == 64)
        return -1;
      id[c.nv] = i;
      c.w[c.nv++] = opsched_arena_aligned_size(a, i);
    }
  for (int x = 0; x < c.nv; x++)
    for (int y = 0; y < c.nv; y++)
      if (x != y && !opsched_arena_may_share(a, id[x], id[y]))
        c.nbr[x] |= (uint64_t)1 << y;
  clique_search(&c, c.nv == 64 ? ~(uint64_t)0 : (((uint64_t)1 << c.nv) - 1), 0);
  return c.best;
}

/* One block at one stream count: prints a row; returns 1 on failure and
 * sets *worst to the largest arena / peak seen. */
static int arena_row(const netgen_block *blk, int streams, int64_t alignment,
                     FILE *csv, double *worst) {
  opsched_schedule_options o;
  opsched_schedule_options_init(&o);
  o.streams = streams;
  o.buffers = blk->buffers;
  opsched_schedule *s = NULL;
  opsched_status st = opsched_schedule_run(blk->graph, &o, &s);
  if (st != OPSCHED_OK) {
    fprintf(stderr, "opsched-bench arena: schedule %s: %s\n", blk->name,
            opsched_status_str(st));
    return 1;
  }
  opsched_arena *a = NULL;
  double t0 = arena_seconds();
  /* Every packer's size for the table (the pass stops at the bound). */
  st = opsched_arena_assign_with(blk->graph, s, blk->buffers, alignment,
                                 OPSCHED_ARENA_DEFAULT | OPSCHED_ARENA_EVERY_PACKER, &a);
  double ms = 1e3 * (arena_seconds() - t0);
  if (st != OPSCHED_OK) {
    fprintf(stderr, "opsched-bench arena: assign %s: %s\n", blk->name,
            opsched_status_str(st));
    opsched_schedule_destroy(s);
    return 1;
  }
  opsched_arena *g1 = NULL;
  t0 = arena_seconds();
  st = opsched_arena_assign_with(blk->graph, s, blk->buffers, alignment,
                                 OPSCHED_ARENA_PACKER_BIT(OPSCHED_ARENA_GREEDY_SIZE),
                                 &g1);
  double ms_greedy = 1e3 * (arena_seconds() - t0);
  opsched_arena_destroy(g1);
  /* With timeline reuse (the pass's default): its arena and the waits its
   * syncs add; the worst ratio counts this layout, the pass's output. */
  opsched_arena *ts = NULL;
  int64_t sync_size = -1, added = 0;
  if (opsched_arena_assign_with(blk->graph, s, blk->buffers, alignment,
                                OPSCHED_ARENA_DEFAULT | OPSCHED_ARENA_SYNC_REUSE,
                                &ts) == OPSCHED_OK) {
    int64_t nsync, before = opsched_schedule_num_waits(s);
    const int32_t *to;
    const int32_t *from = opsched_arena_syncs(ts, &nsync, &to);
    if (opsched_schedule_add_syncs(s, blk->graph, from, to, nsync) == OPSCHED_OK) {
      sync_size = opsched_arena_size(ts);
      added = opsched_schedule_num_waits(s) - before;
    }
  }
  opsched_arena_destroy(ts);
  int64_t peak = opsched_schedule_peak_memory(s);
  int64_t lb = opsched_arena_lower_bound(a), size = opsched_arena_size(a);
  double r = ratio(sync_size >= 0 ? sync_size : size, peak);
  if (r > *worst)
    *worst = r;
  printf("%-22s %7d %2d %12" PRId64 " %6.4f %6.4f", blk->name,
         opsched_graph_num_nodes(blk->graph), streams, peak, ratio(lb, peak),
         ratio(size, peak));
  for (int p = 0; p < OPSCHED_ARENA_PACKER_COUNT; p++) {
    int64_t ps = opsched_arena_packer_size(a, (opsched_arena_packer)p);
    if (ps < 0)
      printf(" %6s", "-");
    else
      printf(" %6.4f", ratio(ps, lb));
  }
  int64_t cq = exact_clique(a);
  if (cq >= 0)
    printf(" %6.4f", ratio(size, cq));
  else
    printf(" %6s", "-");
  printf(" %-22s %8.1f %8.1f %6.4f %6" PRId64 "\n", opsched_arena_winner(a), ms, ms_greedy,
         ratio(sync_size, peak), added);
  if (csv) {
    fprintf(csv, "%s,%d,%d,%" PRId64 ",%" PRId64 ",%" PRId64, blk->name,
            opsched_graph_num_nodes(blk->graph), streams, peak, lb, size);
    for (int p = 0; p < OPSCHED_ARENA_PACKER_COUNT; p++)
      fprintf(csv, ",%" PRId64, opsched_arena_packer_size(a, (opsched_arena_packer)p));
    fprintf(csv, ",%s,%" PRId64 ",%.3f,%.3f,%" PRId64 ",%" PRId64 "\n",
            opsched_arena_winner(a), opsched_arena_num_conflicts(a), ms, ms_greedy,
            sync_size, added);
  }
  opsched_arena_destroy(a);
  opsched_schedule_destroy(s);
  return 0;
}

int bench_arena(int argc, char **argv) {
  const char *csv_path = NULL;
  int seeds = 10, nodes = 1000, big = 100000;
  int64_t alignment = 64;
  const bench_arg args[] = {
      {"--csv", BENCH_ARG_STR, &csv_path},
      {"--seeds", BENCH_ARG_INT, &seeds},
      {"--nodes", BENCH_ARG_INT, &nodes},
      {"--big", BENCH_ARG_INT, &big},
      {"--alignment", BENCH_ARG_I64, &alignment},
  };
  if (bench_parse_args(args, (int)(sizeof args / sizeof args[0]), argc, argv,
                       "usage: opsched-bench arena [--csv FILE] [--seeds N] [--nodes N] [--big N] "
                       "[--alignment A]"))
    return 2;
  if (seeds < 0 || nodes < 1 || big < 0 || alignment < 1) {
    fprintf(stderr, "opsched-bench arena: bad option value\n");
    return 2;
  }
  FILE *csv = NULL;
  if (csv_path) {
    if (!(csv = fopen(csv_path, "w"))) {
      fprintf(stderr, "opsched-bench arena: cannot write %s\n", csv_path);
      return 1;
    }
    fprintf(csv, "block,ops,streams,peak,lower_bound,arena");
    for (int p = 0; p < OPSCHED_ARENA_PACKER_COUNT; p++)
      fprintf(csv, ",%s", opsched_arena_packer_name((opsched_arena_packer)p));
    fprintf(csv, ",winner,conflicts,ms,ms_greedy,arena_sync_reuse,reuse_waits\n");
  }
  printf("opsched-bench arena: alignment %" PRId64 "; ratios: lb/peak, arena/peak, "
         "then each packer over the lower bound, arena / exact max clique "
         "(<= 64 buffers); sy/pk and +waits: with sync-reuse (the pass's default)\n",
         alignment);
  printf("%-22s %7s %2s %12s %6s %6s", "block", "ops", "st", "peak", "lb/pk", "ar/pk");
  for (int p = 0; p < OPSCHED_ARENA_PACKER_COUNT; p++)
    printf(" %6.6s", opsched_arena_packer_name((opsched_arena_packer)p));
  printf(" %6s %-22s %8s %8s %6s %6s\n", "ar/cq", "winner", "ms", "ms-greedy", "sy/pk",
         "+waits");
  int rc = 0;
  double worst_net = 0, worst_rand = 0;
  for (int i = 0; netgen_networks[i]; i++) {
    netgen_block blk;
    if (netgen_network(netgen_networks[i], &blk)) {
      fprintf(stderr, "opsched-bench arena: cannot build %s\n", netgen_networks[i]);
      return 1;
    }
    for (int streams = 1; streams <= 4; streams += 3)
      rc |= arena_row(&blk, streams, alignment, csv, &worst_net);
    netgen_free(&blk);
  }
  for (int sd = 1; sd <= seeds; sd++) {
    netgen_block blk;
    if (netgen_random((uint64_t)sd, nodes, &blk))
      return 1;
    for (int streams = 1; streams <= 4; streams += 3)
      rc |= arena_row(&blk, streams, alignment, csv, &worst_rand);
    netgen_free(&blk);
  }
  if (big > 0) {
    netgen_block blk;
    if (netgen_random(1, big, &blk))
      return 1;
    for (int streams = 1; streams <= 4; streams += 3)
      rc |= arena_row(&blk, streams, alignment, csv, &worst_rand);
    netgen_free(&blk);
  }
  printf("worst arena / peak: networks %.4f, random %.4f\n", worst_net, worst_rand);
  if (csv)
    fclose(csv);
  return rc;
}
