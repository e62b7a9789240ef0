/* Unit tests of memory-aware scheduling through opsched_schedule_run: exact
 * small cases on one and two streams, and a seeded property test over
 * random blocks (dependencies, capacity, streams, live bytes in time
 * recomputed here independently, order, and "no buffers" unchanged). */
#include "check.h"
#include "opsched/memory.h"
#include "opsched/schedule.h"
#include "random_block.h"

#include "../../lib/core/schedule.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Adds a buffer with its users (terminated by -1). */
static int32_t buf(opsched_buffers *b, int64_t bytes, int32_t owner,
                   int forever, ...) {
  int32_t id = opsched_buffers_add(b, bytes, owner, forever);
  va_list ap;
  va_start(ap, forever);
  for (int u = va_arg(ap, int); u >= 0; u = va_arg(ap, int))
    opsched_buffers_add_use(b, id, u);
  va_end(ap);
  return id;
}

static opsched_schedule *run(const opsched_graph *g, const opsched_buffers *b,
                             int streams, opsched_memory_policy policy,
                             int64_t limit, int effort) {
  opsched_schedule_options o;
  opsched_schedule_options_init(&o);
  o.streams = streams;
  o.buffers = b;
  o.memory_policy = policy;
  o.max_memory = limit;
  o.effort = effort;
  opsched_schedule *s = NULL;
  CHECK(opsched_schedule_run(g, &o, &s) == OPSCHED_OK);
  return s;
}

static void check_order(const opsched_schedule *s, const int32_t *want, int n) {
  for (int i = 0; i < n; i++)
    CHECK_EQ_I64(opsched_schedule_order(s)[i], want[i]);
}

/* test_memory's two chains: s(50) -> p(50) with X = 1000 read by p and a
 * 10 B result; q1(60) -> q2(60) with Y = 500 and a 10 B result. */
static void two_chains(opsched_graph **g, opsched_buffers **b) {
  static const int64_t costs[] = {50, 50, 60, 60};
  *g = opsched_graph_create(4);
  for (int i = 0; i < 4; i++)
    opsched_graph_add_node(*g, costs[i], 1);
  *b = opsched_buffers_create(4);
  buf(*b, 1000, 0, 0, 1, -1);
  buf(*b, 10, 1, 1, -1);
  buf(*b, 500, 2, 0, 3, -1);
  buf(*b, 10, 3, 1, -1);
  opsched_graph_finalize(*g); /* no edges: the uses imply s->p, q1->q2 */
}

static void test_defaults(void) {
  opsched_schedule_options o;
  memset(&o, 0xff, sizeof o);
  opsched_schedule_options_init(&o);
  CHECK(o.buffers == NULL);
  CHECK_EQ_I64(o.max_memory, 0);
  CHECK_EQ_I64(o.memory_policy, OPSCHED_MEMORY_CRITICAL_PATH);
  CHECK_EQ_I64(o.exact_budget, 0);
  /* Without buffers every memory figure is "absent". */
  opsched_graph *g, *g2;
  opsched_buffers *b;
  two_chains(&g, &b);
  opsched_schedule *s = run(g, NULL, 1, OPSCHED_MEMORY_CRITICAL_PATH, 0, 0);
  CHECK_EQ_I64(opsched_schedule_peak_memory(s), -1);
  CHECK_EQ_I64(opsched_schedule_original_peak_memory(s), -1);
  CHECK_EQ_I64(opsched_schedule_resident_bytes(s), -1);
  CHECK(opsched_schedule_live_after(s) == NULL);
  CHECK(opsched_schedule_memory_limit_met(s));
  CHECK(opsched_schedule_memory_winner(s) == NULL);
  CHECK(!opsched_schedule_memory_exact_proven(s));
  opsched_schedule_destroy(s);
  /* Bad memory options. */
  opsched_schedule_options_init(&o);
  o.buffers = b;
  o.max_memory = -1;
  CHECK(opsched_schedule_run(g, &o, &s) == OPSCHED_ERR_INVALID);
  o.max_memory = 0;
  o.memory_policy = OPSCHED_MEMORY_POLICY_COUNT;
  CHECK(opsched_schedule_run(g, &o, &s) == OPSCHED_ERR_INVALID);
  o.memory_policy = OPSCHED_MEMORY_CRITICAL_PATH;
  o.exact_budget = -1;
  CHECK(opsched_schedule_run(g, &o, &s) == OPSCHED_ERR_INVALID);
  o.exact_budget = 0;
  g2 = opsched_graph_create(0);
  opsched_graph_add_node(g2, 1, 1);
  opsched_graph_finalize(g2);
  CHECK(opsched_schedule_run(g2, &o, &s) == OPSCHED_ERR_INVALID);
  CHECK(s == NULL);
  opsched_graph_destroy(g2);
  /* A use against the edges is a cycle. */
  g2 = opsched_graph_create(0);
  opsched_graph_add_node(g2, 1, 1);
  opsched_graph_add_node(g2, 1, 1);
  opsched_graph_add_edge(g2, 1, 0);
  opsched_graph_finalize(g2);
  opsched_buffers *b2 = opsched_buffers_create(2);
  buf(b2, 8, 0, 0, 1, -1);
  o.buffers = b2;
  CHECK(opsched_schedule_run(g2, &o, &s) == OPSCHED_ERR_CYCLE);
  opsched_buffers_destroy(b2);
  opsched_graph_destroy(g2);
  opsched_buffers_destroy(b);
  opsched_graph_destroy(g);
}

static void test_one_stream(void) {
  opsched_graph *g;
  opsched_buffers *b;
  two_chains(&g, &b);
  /* Critical path without a limit: today's rank list q1 s q2 p, and the
   * buffers' uses became edges (p after s, q2 after q1). */
  opsched_schedule *s = run(g, b, 1, OPSCHED_MEMORY_CRITICAL_PATH, 0, 0);
  static const int32_t cp[] = {2, 0, 3, 1};
  check_order(s, cp, 4);
  CHECK_EQ_I64(opsched_schedule_starts(s)[2], 0);
  CHECK_EQ_I64(opsched_schedule_starts(s)[0], 60);
  CHECK_EQ_I64(opsched_schedule_starts(s)[3], 110);
  CHECK_EQ_I64(opsched_schedule_starts(s)[1], 170);
  CHECK_EQ_I64(opsched_schedule_peak_memory(s), 1510);
  CHECK_EQ_I64(opsched_schedule_original_peak_memory(s), 1010);
  CHECK_EQ_I64(opsched_schedule_resident_bytes(s), 0);
  static const int64_t after_cp[] = {1500, 20, 500, 1010};
  for (int v = 0; v < 4; v++)
    CHECK_EQ_I64(opsched_schedule_live_after(s)[v], after_cp[v]);
  CHECK(opsched_schedule_memory_limit_met(s));
  CHECK(opsched_schedule_memory_winner(s) == NULL);
  opsched_schedule_destroy(s);

  /* Limit 1200, met by reordering: q1 q2 s p, peak 1020, times follow. */
  s = run(g, b, 1, OPSCHED_MEMORY_CRITICAL_PATH, 1200, 3);
  static const int32_t held[] = {2, 3, 0, 1};
  check_order(s, held, 4);
  static const int64_t start_held[] = {120, 170, 0, 60};
  for (int v = 0; v < 4; v++) {
    CHECK_EQ_I64(opsched_schedule_starts(s)[v], start_held[v]);
    CHECK_EQ_I64(opsched_schedule_streams(s)[v], 0);
  }
  CHECK_EQ_I64(opsched_schedule_makespan(s), 220);
  CHECK_EQ_I64(opsched_schedule_peak_memory(s), 1020);
  CHECK_EQ_I64(opsched_schedule_live_after(s)[2], 500);
  CHECK_EQ_I64(opsched_schedule_live_after(s)[3], 10);
  CHECK_EQ_I64(opsched_schedule_live_after(s)[0], 1010);
  CHECK_EQ_I64(opsched_schedule_live_after(s)[1], 20);
  CHECK(opsched_schedule_memory_limit_met(s));
  CHECK(!strcmp(opsched_schedule_memory_winner(s), "critical-path"));
  opsched_schedule_destroy(s);

  /* Limit 1015: only s p q1 q2 (1010) fits; min-memory's keep-best winner
   * is the program order, proven optimal by exact. */
  s = run(g, b, 1, OPSCHED_MEMORY_CRITICAL_PATH, 1015, 0);
  static const int32_t low[] = {0, 1, 2, 3};
  check_order(s, low, 4);
  CHECK_EQ_I64(opsched_schedule_peak_memory(s), 1010);
  CHECK(opsched_schedule_memory_limit_met(s));
  CHECK(!strcmp(opsched_schedule_memory_winner(s), "program-order"));
  CHECK(opsched_schedule_memory_exact_proven(s));
  opsched_schedule_destroy(s);

  /* min-memory without a limit: the same order. */
  s = run(g, b, 1, OPSCHED_MEMORY_MIN_MEMORY, 0, 0);
  check_order(s, low, 4);
  CHECK_EQ_I64(opsched_schedule_peak_memory(s), 1010);
  CHECK(opsched_schedule_memory_exact_proven(s));
  opsched_schedule_destroy(s);

  /* Infeasible 500 (s alone needs 1000): limit_met 0, lowest peak found,
   * a valid order. */
  s = run(g, b, 1, OPSCHED_MEMORY_CRITICAL_PATH, 500, 0);
  CHECK(!opsched_schedule_memory_limit_met(s));
  CHECK_EQ_I64(opsched_schedule_peak_memory(s), 1010);
  check_order(s, low, 4);
  CHECK_EQ_I64(opsched_schedule_makespan(s), 220);
  opsched_schedule_destroy(s);
  opsched_buffers_destroy(b);
  opsched_graph_destroy(g);
}

/* Two independent ops of cost 10, each writing a 100 B buffer nobody reads,
 * plus a resident weight. Two streams overlap them (peak 200 in time); a
 * 150 B limit forces b after a, whatever HEFT or the local search find. */
static void test_two_streams_apart(void) {
  opsched_graph *g = opsched_graph_create(2);
  opsched_graph_add_node(g, 10, 1);
  opsched_graph_add_node(g, 10, 1);
  opsched_graph_finalize(g);
  opsched_buffers *b = opsched_buffers_create(2);
  buf(b, 100, 0, 0, -1);
  buf(b, 100, 1, 0, -1);
  buf(b, 4096, -1, 0, 0, 1, -1);
  for (int effort = 0; effort <= 2; effort += 2) {
    opsched_schedule *s = run(g, b, 2, OPSCHED_MEMORY_CRITICAL_PATH, 0, effort);
    CHECK_EQ_I64(opsched_schedule_starts(s)[0], 0);
    CHECK_EQ_I64(opsched_schedule_starts(s)[1], 0);
    CHECK_EQ_I64(opsched_schedule_peak_memory(s), 200);
    CHECK_EQ_I64(opsched_schedule_resident_bytes(s), 4096);
    CHECK_EQ_I64(opsched_schedule_original_peak_memory(s), 100);
    CHECK_EQ_I64(opsched_schedule_live_after(s)[0], 0);
    opsched_schedule_destroy(s);
    s = run(g, b, 2, OPSCHED_MEMORY_CRITICAL_PATH, 150, effort);
    CHECK_EQ_I64(opsched_schedule_starts(s)[0], 0);
    CHECK_EQ_I64(opsched_schedule_starts(s)[1], 10);
    CHECK_EQ_I64(opsched_schedule_makespan(s), 20);
    CHECK_EQ_I64(opsched_schedule_peak_memory(s), 100);
    CHECK(opsched_schedule_memory_limit_met(s));
    /* a ends at 10 and frees A before b starts there. */
    CHECK_EQ_I64(opsched_schedule_live_after(s)[0], 0);
    CHECK_EQ_I64(opsched_schedule_live_after(s)[1], 0);
    CHECK_EQ_I64(opsched_memory_peak_in_time(g, b, opsched_schedule_starts(s),
                                             opsched_schedule_ends(s), NULL),
                 100);
    opsched_schedule_destroy(s);
    /* 50 B cannot hold either buffer: a valid schedule, limit not met. */
    s = run(g, b, 2, OPSCHED_MEMORY_CRITICAL_PATH, 50, effort);
    CHECK(!opsched_schedule_memory_limit_met(s));
    CHECK_EQ_I64(opsched_schedule_peak_memory(s), 100);
    CHECK_EQ_I64(opsched_schedule_makespan(s), 20);
    opsched_schedule_destroy(s);
  }
  /* The in-time model: zero-duration ops at one instant count together,
   * after the frees of the ops ending there and before the starts. */
  int64_t st[2] = {0, 10}, en[2] = {10, 20}, after[2];
  CHECK_EQ_I64(opsched_memory_peak_in_time(g, b, st, en, after), 100);
  CHECK_EQ_I64(after[0], 0);
  st[1] = 5;
  en[1] = 15;
  CHECK_EQ_I64(opsched_memory_peak_in_time(g, b, st, en, after), 200);
  CHECK_EQ_I64(after[0], 100);
  /* Times too large to pack into the radix sort's keys take the other
   * sort: the same figures. */
  const int64_t far = (int64_t)1 << 61;
  int64_t fst[2] = {far, far + 5}, fen[2] = {far + 10, far + 15};
  CHECK_EQ_I64(opsched_memory_peak_in_time(g, b, fst, fen, after), 200);
  CHECK_EQ_I64(after[0], 100);
  /* Times of 2^28 and above: the ids do not fit beside them in the split
   * keys (id in the low 32 bits, only the bits above sorted), the packed
   * total-order keys: the same figures. */
  const int64_t mid = (int64_t)1 << 40;
  int64_t mst[2] = {mid, mid + 5}, men[2] = {mid + 10, mid + 15};
  CHECK_EQ_I64(opsched_memory_peak_in_time(g, b, mst, men, after), 200);
  CHECK_EQ_I64(after[0], 100);
  CHECK_EQ_I64(after[1], 0); /* b frees its buffer as it ends */
  en[1] = 4;
  CHECK_EQ_I64(opsched_memory_peak_in_time(g, b, st, en, NULL), -1);
  opsched_buffers_destroy(b);
  opsched_graph_destroy(g);
}

/* A memory limit through the cross-stream hand-off (docs/streams.md,
 * "Charging the runtime"). q(10) -> c(10); a(10) writes X (100 B) that c
 * reads; e(10) writes Y (100 B) that f(10) reads; limit 150: X and Y never
 * coexist. Placed on 2 streams: q and a [0,10), c [10,20) frees X, e
 * [20,30), f [30,40). With a hand-off of 5, c waits on q across streams
 * and runs [15,25); e, which nothing delays, would start at 10 on a free
 * stream beside X (peak 200), so the plan fell back to one stream
 * (makespan 50). The barrier keeps e after X's charged free: e [25,35),
 * f [35,45), peak 100, 2 streams. */
static void test_charged_limit(void) {
  opsched_graph *g = opsched_graph_create(5);
  for (int v = 0; v < 5; v++)
    opsched_graph_add_node(g, 10, 1);
  opsched_graph_add_edge(g, 0, 2);
  opsched_graph_finalize(g);
  opsched_buffers *b = opsched_buffers_create(5);
  buf(b, 100, 1, 0, 2, -1);
  buf(b, 100, 3, 0, 4, -1);
  opsched_schedule_options o;
  opsched_schedule_options_init(&o);
  o.streams = 2;
  o.buffers = b;
  o.max_memory = 150;
  static const struct {
    int64_t handoff, makespan;
    int64_t start[5];
    int32_t stream[5];
  } cases[] = {
      {0, 40, {0, 0, 10, 20, 30}, {0, 1, 0, 0, 0}},
      {5, 45, {0, 0, 15, 25, 35}, {0, 1, 0, 0, 0}},
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    o.handoff_ns = cases[k].handoff;
    opsched_schedule *s = NULL;
    CHECK(opsched_schedule_run(g, &o, &s) == OPSCHED_OK);
    for (int v = 0; v < 5; v++) {
      CHECK_EQ_I64(opsched_schedule_starts(s)[v], cases[k].start[v]);
      CHECK_EQ_I64(opsched_schedule_streams(s)[v], cases[k].stream[v]);
    }
    CHECK_EQ_I64(opsched_schedule_makespan(s), cases[k].makespan);
    CHECK_EQ_I64(opsched_schedule_stream_count(s), 2);
    CHECK_EQ_I64(opsched_schedule_peak_memory(s), 100);
    CHECK(opsched_schedule_memory_limit_met(s));
    opsched_schedule_destroy(s);
  }
  opsched_buffers_destroy(b);
  opsched_graph_destroy(g);
}

/* Two streams, a chain a(10) -> c(10) reading A (100) and an independent
 * b(10) writing B (100) read by d(10) = two chains; the limit 250 lets at
 * most two 100 B buffers plus one more never coexist beyond it. */
static void test_two_streams_memory_order(void) {
  opsched_graph *g = opsched_graph_create(4);
  for (int i = 0; i < 4; i++)
    opsched_graph_add_node(g, 10, 1);
  opsched_graph_finalize(g);
  opsched_buffers *b = opsched_buffers_create(4);
  buf(b, 100, 0, 0, 1, -1); /* a -> c */
  buf(b, 100, 1, 0, -1);    /* c's scratch */
  buf(b, 100, 2, 0, 3, -1); /* b -> d */
  buf(b, 100, 3, 0, -1);    /* d's scratch */
  static const opsched_memory_policy pol[] = {
      OPSCHED_MEMORY_CRITICAL_PATH, OPSCHED_MEMORY_MIN_MEMORY,
      OPSCHED_MEMORY_SETHI_ULLMAN};
  for (int p = 0; p < 3; p++) {
    opsched_schedule *s = run(g, b, 2, pol[p], 200, 0);
    CHECK(opsched_schedule_memory_limit_met(s));
    CHECK(opsched_schedule_peak_memory(s) <= 200);
    CHECK_EQ_I64(opsched_schedule_makespan(s), 40);
    opsched_schedule_destroy(s);
    s = run(g, b, 2, pol[p], 400, 0);
    CHECK_EQ_I64(opsched_schedule_makespan(s), 20);
    CHECK_EQ_I64(opsched_schedule_peak_memory(s), 400);
    opsched_schedule_destroy(s);
  }
  opsched_buffers_destroy(b);
  opsched_graph_destroy(g);
}

/* ---------------------------------------------------------------------- */
/* Property test.                                                          */

/* ---------------------------------------------------------------------- */
/* Property test. The references below recompute live bytes from the
 * generator's shadow of the buffers, without the library's functions.    */

/* Doubled time: an op [s, e) with e > s holds [2s+1, 2e), a zero-duration
 * op at t holds [2t, 2t+1). */
static int64_t hold_lo2(const int64_t *st, const int64_t *en, int v) {
  return en[v] > st[v] ? 2 * st[v] + 1 : 2 * st[v];
}
static int64_t hold_hi2(const int64_t *st, const int64_t *en, int v) {
  return en[v] > st[v] ? 2 * en[v] : 2 * st[v] + 1;
}

/* Live bytes in time: each buffer over [lo(owner), max hi(holders)),
 * results forever; the peak over every allocation point, and per op the
 * bytes live at its hold end, after frees there, before allocations. */
static int64_t ref_in_time(const random_block *k, const int64_t *st,
                           const int64_t *en, int64_t *after) {
  int64_t lo[RB_MAXB], hi[RB_MAXB], peak = 0;
  for (int b = 0; b < k->nb; b++) {
    if (k->owner[b] < 0)
      continue;
    lo[b] = hold_lo2(st, en, k->owner[b]);
    hi[b] = hold_hi2(st, en, k->owner[b]);
    for (int i = 0; i < k->nusers[b]; i++)
      if (hold_hi2(st, en, k->users[b][i]) > hi[b])
        hi[b] = hold_hi2(st, en, k->users[b][i]);
    if (k->forever[b])
      hi[b] = INT64_MAX;
  }
  for (int a = 0; a < k->nb; a++) {
    if (k->owner[a] < 0)
      continue;
    int64_t x = lo[a], live = 0;
    for (int b = 0; b < k->nb; b++)
      if (k->owner[b] >= 0 && lo[b] <= x && x < hi[b])
        live += k->size[b];
    if (live > peak)
      peak = live;
  }
  for (int v = 0; v < k->n; v++) {
    int64_t x = hold_hi2(st, en, v), live = 0;
    for (int b = 0; b < k->nb; b++)
      if (k->owner[b] >= 0 && lo[b] < x && x < hi[b])
        live += k->size[b];
    after[v] = live;
  }
  return peak;
}

/* Live bytes of a sequential order: a buffer from its owner's position to
 * its last user's (the end for results). */
static int64_t ref_in_order(const random_block *k, const int32_t *order,
                            int64_t *after) {
  int pos[RB_MAXN];
  for (int i = 0; i < k->n; i++)
    pos[order[i]] = i;
  int first[RB_MAXB], last[RB_MAXB];
  for (int b = 0; b < k->nb; b++) {
    if (k->owner[b] < 0)
      continue;
    first[b] = last[b] = pos[k->owner[b]];
    for (int i = 0; i < k->nusers[b]; i++)
      if (pos[k->users[b][i]] > last[b])
        last[b] = pos[k->users[b][i]];
    if (k->forever[b])
      last[b] = k->n;
  }
  int64_t peak = 0;
  for (int t = 0; t < k->n; t++) {
    int64_t during = 0, aft = 0;
    for (int b = 0; b < k->nb; b++) {
      if (k->owner[b] < 0 || first[b] > t || last[b] < t)
        continue;
      during += k->size[b];
      if (last[b] > t)
        aft += k->size[b];
    }
    if (during > peak)
      peak = during;
    if (after)
      after[order[t]] = aft;
  }
  return peak;
}

/* Every op's alloc + inputs, and all results together: no schedule, in
 * order or in time, peaks below this. */
static int64_t ref_lower_bound(const random_block *k) {
  int64_t lb = 0, results = 0;
  for (int v = 0; v < k->n; v++) {
    int64_t x = 0;
    for (int b = 0; b < k->nb; b++) {
      if (k->owner[b] < 0)
        continue;
      int uses = k->owner[b] == v;
      for (int i = 0; i < k->nusers[b]; i++)
        uses |= k->users[b][i] == v;
      if (uses)
        x += k->size[b];
    }
    if (x > lb)
      lb = x;
  }
  for (int b = 0; b < k->nb; b++)
    if (k->owner[b] >= 0 && k->forever[b])
      results += k->size[b];
  return results > lb ? results : lb;
}

typedef struct prop_stats {
  int64_t schedules, limited, met, forced_apart;
} prop_stats;

/* Checks one schedule of block k; returns its peak (in order on one
 * stream, in time on several) as recomputed here. */
static int64_t check_run(const random_block *k, const opsched_schedule *s,
                         int streams, int cap, int64_t limit) {
  int n = k->n;
  const opsched_graph *g = k->g;
  const int64_t *st = opsched_schedule_starts(s), *en = opsched_schedule_ends(s);
  const int32_t *sm = opsched_schedule_streams(s), *order = opsched_schedule_order(s);
  int fails = check_failed;
  /* Durations and dependencies: edges and the buffers' data edges. */
  for (int v = 0; v < n; v++) {
    CHECK(st[v] >= 0);
    CHECK_EQ_I64(en[v] - st[v], opsched_graph_cost(g, v));
    CHECK(sm[v] >= 0 && sm[v] < streams);
    int32_t np;
    const int32_t *pred = opsched_graph_preds(g, v, &np);
    for (int e = 0; e < np; e++)
      CHECK(en[pred[e]] <= st[v]);
  }
  for (int b = 0; b < k->nb; b++)
    for (int i = 0; i < k->nusers[b] && k->owner[b] >= 0; i++)
      CHECK(en[k->owner[b]] <= st[k->users[b][i]]);
  /* Capacity and stream count at every start of a running op. */
  for (int v = 0; v < n; v++) {
    if (en[v] > st[v]) {
      int64_t use = 0, running = 0;
      for (int u = 0; u < n; u++)
        if (st[u] <= st[v] && st[v] < en[u] && en[u] > st[u]) {
          use += opsched_graph_demand(g, u);
          running++;
        }
      CHECK(use <= cap);
      CHECK(running <= streams);
    }
  }
  /* The order: a permutation, topological, sorted by start time. */
  int pos[RB_MAXN];
  for (int v = 0; v < n; v++)
    pos[v] = -1;
  for (int i = 0; i < n; i++) {
    CHECK(order[i] >= 0 && order[i] < n && pos[order[i]] < 0);
    pos[order[i]] = i;
    if (i > 0)
      CHECK(st[order[i - 1]] <= st[order[i]]);
    /* A stream runs its ops in this order, each after the previous one. */
    for (int j = i - 1; j >= 0; j--)
      if (sm[order[j]] == sm[order[i]]) {
        CHECK(en[order[j]] <= st[order[i]]);
        break;
      }
  }
  for (int v = 0; v < n; v++) {
    int32_t np;
    const int32_t *pred = opsched_graph_preds(g, v, &np);
    for (int e = 0; e < np; e++)
      CHECK(pos[pred[e]] < pos[v]);
  }
  for (int b = 0; b < k->nb; b++)
    for (int i = 0; i < k->nusers[b] && k->owner[b] >= 0; i++)
      CHECK(pos[k->owner[b]] < pos[k->users[b][i]]);
  if (check_failed != fails) /* times are broken: skip the memory checks */
    return -1;
  /* Memory, recomputed independently. */
  int64_t after_t[RB_MAXN], after_o[RB_MAXN];
  int64_t in_time = ref_in_time(k, st, en, after_t);
  int64_t in_order = ref_in_order(k, order, after_o);
  const int64_t *after = opsched_schedule_live_after(s);
  int64_t peak = streams == 1 ? in_order : in_time;
  CHECK_EQ_I64(opsched_schedule_peak_memory(s), peak);
  for (int v = 0; v < n; v++)
    CHECK_EQ_I64(after[v], streams == 1 ? after_o[v] : after_t[v]);
  /* The library's in-time evaluator agrees on any schedule. */
  CHECK_EQ_I64(opsched_memory_peak_in_time(g, k->b, st, en, NULL), in_time);
  /* Without zero-duration ops one stream is the same in time and in order. */
  if (streams == 1 && k->positive)
    CHECK_EQ_I64(in_time, in_order);
  if (limit > 0)
    CHECK_EQ_I64(opsched_schedule_memory_limit_met(s), peak <= limit);
  else
    CHECK(opsched_schedule_memory_limit_met(s));
  if (opsched_schedule_memory_limit_met(s) && limit > 0)
    CHECK(peak <= limit); /* the headline guarantee, in time when streams > 1 */
  int32_t ident[RB_MAXN];
  for (int v = 0; v < n; v++)
    ident[v] = v;
  CHECK_EQ_I64(opsched_schedule_original_peak_memory(s),
               ref_in_order(k, ident, NULL));
  int64_t resident = 0;
  for (int b = 0; b < k->nb; b++)
    if (k->owner[b] < 0)
      resident += k->size[b];
  CHECK_EQ_I64(opsched_schedule_resident_bytes(s), resident);
  return peak;
}

static int same_schedule(const opsched_schedule *a, const opsched_schedule *b,
                         int n) {
  for (int v = 0; v < n; v++)
    if (opsched_schedule_starts(a)[v] != opsched_schedule_starts(b)[v] ||
        opsched_schedule_streams(a)[v] != opsched_schedule_streams(b)[v] ||
        opsched_schedule_order(a)[v] != opsched_schedule_order(b)[v])
      return 0;
  return opsched_schedule_num_waits(a) == opsched_schedule_num_waits(b);
}

/* The same options with a cross-stream hand-off (docs/streams.md,
 * "Charging the runtime"): a valid schedule, every dependency across
 * streams at least handoff_ns apart, and under a limit the charge keeps
 * the placement's memory (the barrier): a limit met without the hand-off
 * is met with it, and a plan that stays on several streams peaks no higher
 * than its placement (the same placement: the hand-off is charged after). */
static void check_charged(const random_block *k, opsched_schedule_options o,
                          const opsched_schedule *placed, int cap, int64_t handoff) {
  o.handoff_ns = handoff;
  opsched_schedule *s = NULL;
  CHECK(opsched_schedule_run(k->g, &o, &s) == OPSCHED_OK);
  if (!s)
    return;
  int32_t streams = opsched_schedule_stream_count(s);
  int64_t peak = check_run(k, s, streams, cap, o.max_memory);
  const int64_t *st = opsched_schedule_starts(s), *en = opsched_schedule_ends(s);
  const int32_t *sm = opsched_schedule_streams(s);
  for (int v = 0; v < k->n; v++) {
    int32_t np;
    const int32_t *pred = opsched_graph_preds(k->g, v, &np);
    for (int e = 0; e < np; e++)
      if (sm[pred[e]] != sm[v])
        CHECK(en[pred[e]] + handoff <= st[v]);
  }
  if (o.max_memory > 0 && opsched_schedule_memory_limit_met(placed))
    CHECK(opsched_schedule_memory_limit_met(s));
  if (o.max_memory > 0 && streams > 1)
    CHECK(peak <= opsched_schedule_peak_memory(placed));
  opsched_schedule_destroy(s);
}

static void test_random_blocks(void) {
  clock_t t0 = clock();
  int failed_before = check_failed;
  prop_stats ps = {0, 0, 0, 0};
  int blocks = 0;
  for (int iter = 0; iter < 2500 && check_failed == failed_before; iter++) {
    random_block k;
    random_block_make((uint64_t)iter + 100000u, 14, &k);
    blocks++;
    opsched_memory_policy policy =
        (opsched_memory_policy)(iter % OPSCHED_MEMORY_POLICY_COUNT);
    if (policy == OPSCHED_MEMORY_EXACT)
      policy = OPSCHED_MEMORY_CRITICAL_PATH;
    /* The one-stream optimum-ish (min-memory) and the trivial bound. */
    opsched_memory_options mo;
    opsched_memory_options_init(&mo);
    mo.policy = OPSCHED_MEMORY_MIN_MEMORY;
    opsched_memory_result *mm = NULL;
    CHECK(opsched_memory_schedule(k.g, k.b, &mo, &mm) == OPSCHED_OK);
    int64_t tight = mm ? opsched_memory_result_peak(mm) : 0;
    opsched_memory_result_destroy(mm);
    int64_t lb = ref_lower_bound(&k);
    for (int streams = 1; streams <= 4; streams++) {
      int cap = streams > k.max_demand ? streams : k.max_demand;
      opsched_schedule_options o;
      opsched_schedule_options_init(&o);
      o.streams = streams;
      o.resource_limit = cap;
      opsched_schedule *plain = NULL;
      CHECK(opsched_schedule_run(k.g, &o, &plain) == OPSCHED_OK);
      o.buffers = k.b;
      o.memory_policy = policy;
      int64_t free_peak = -1;
      for (int li = 0; li < 4; li++) {
        int64_t limit = li == 0 ? 0
                        : li == 1 ? tight
                        : li == 2 ? tight + (free_peak - tight) / 2
                                  : lb - 1;
        if (li > 0 && limit <= 0)
          continue;
        o.max_memory = limit;
        o.effort = 0;
        opsched_schedule *s = NULL;
        CHECK(opsched_schedule_run(k.g, &o, &s) == OPSCHED_OK);
        if (!s)
          continue;
        ps.schedules++;
        int64_t peak = check_run(&k, s, streams, cap, limit);
        if (li == 0)
          free_peak = peak;
        if (limit > 0) {
          ps.limited++;
          ps.met += opsched_schedule_memory_limit_met(s);
        }
        if (li == 3)
          CHECK(!opsched_schedule_memory_limit_met(s));
        if (streams > 1 && iter % 2 == 0)
          check_charged(&k, o, s, cap, 1 + iter % 5);
        /* Tight limits are met on one stream, and on several when no op is
         * instantaneous and the order issued is min-memory's (or the
         * critical-path fallback to it). */
        if (li == 1 && (streams == 1 || k.positive) &&
            (policy == OPSCHED_MEMORY_CRITICAL_PATH ||
             policy == OPSCHED_MEMORY_MIN_MEMORY))
          CHECK(opsched_schedule_memory_limit_met(s));
        /* One stream under a memory order: exactly memory.h's order. */
        if (streams == 1 && (limit > 0 || policy != OPSCHED_MEMORY_CRITICAL_PATH)) {
          opsched_memory_options_init(&mo);
          mo.policy = policy;
          mo.max_memory = limit;
          opsched_memory_result *r = NULL;
          CHECK(opsched_memory_schedule(k.g, k.b, &mo, &r) == OPSCHED_OK);
          for (int i = 0; r && i < k.n; i++)
            CHECK_EQ_I64(opsched_schedule_order(s)[i], opsched_memory_result_order(r)[i]);
          CHECK(opsched_schedule_memory_winner(s) != NULL);
          opsched_memory_result_destroy(r);
        }
        /* Critical path without a limit over edges that already hold every
         * use: the schedule without buffers. */
        if (li == 0 && k.all_edges && policy == OPSCHED_MEMORY_CRITICAL_PATH)
          CHECK(plain && same_schedule(s, plain, k.n));
        if (li == 0 && streams > 1 && plain &&
            opsched_schedule_makespan(plain) < opsched_schedule_makespan(s))
          CHECK(!k.all_edges);
        /* Effort: never longer, and a limit met stays met. */
        if (iter % 40 == 0 && streams > 1) {
          o.effort = 1;
          opsched_schedule *s1 = NULL;
          CHECK(opsched_schedule_run(k.g, &o, &s1) == OPSCHED_OK);
          if (s1) {
            check_run(&k, s1, streams, cap, limit);
            CHECK(opsched_schedule_makespan(s1) <= opsched_schedule_makespan(s));
            CHECK_EQ_I64(opsched_schedule_list_makespan(s1),
                         opsched_schedule_list_makespan(s));
            if (opsched_schedule_memory_limit_met(s))
              CHECK(opsched_schedule_memory_limit_met(s1));
          }
          opsched_schedule_destroy(s1);
        }
        if (li == 1 && streams > 1 && plain &&
            opsched_schedule_makespan(s) > opsched_schedule_makespan(plain))
          ps.forced_apart++;
        opsched_schedule_destroy(s);
      }
      opsched_schedule_destroy(plain);
    }
    random_block_free(&k);
  }
  /* The limits must bite and be met in a good share of the cases. */
  CHECK(ps.forced_apart > 0);
  CHECK(ps.met > 0 && ps.met < ps.limited);
  printf("random blocks: %d blocks, %lld schedules, %lld limited (%lld met), "
         "%lld tight multi-stream schedules longer than without memory, "
         "%.2f s\n",
         blocks, (long long)ps.schedules, (long long)ps.limited,
         (long long)ps.met, (long long)ps.forced_apart,
         (double)(clock() - t0) / CLOCKS_PER_SEC);
}

/* Without buffers the schedules are those of the core before memory in
 * time: the hash was computed with that version on the same blocks. */
static void test_no_buffers_unchanged(void) {
  clock_t t0 = clock();
  uint64_t h = random_blocks_plain_hash(1000, 20);
  CHECK(h == UINT64_C(0x59389c1f85f5a25a));
  printf("no-buffers hash %016llx, %.2f s\n", (unsigned long long)h,
         (double)(clock() - t0) / CLOCKS_PER_SEC);
}

/* The gated memo across limits (lib/core/schedule.h): a run keeps, per
 * gated schedule, the range of limits its comparisons decide the same way;
 * a later run under another limit inside every range computes nothing
 * again, and its schedule is the one a run without a memo gets. */
static void same_times_peak(const opsched_schedule *a, const opsched_schedule *b, int n) {
  CHECK(memcmp(opsched_schedule_starts(a), opsched_schedule_starts(b),
               sizeof(int64_t) * (size_t)n) == 0);
  CHECK_EQ_I64(opsched_schedule_peak_memory(a), opsched_schedule_peak_memory(b));
}

static void test_gated_memo_ranges(void) {
  int reused = 0, added = 0;
  for (uint64_t iter = 0; iter < 200; iter++) {
    random_block k;
    random_block_make(iter + 7000u, 20, &k);
    if (k.max_demand > 2) { /* over two streams' capacity */
      random_block_free(&k);
      continue;
    }
    opsched_schedule *free_run = run(k.g, k.b, 2, OPSCHED_MEMORY_CRITICAL_PATH, 0, 0);
    int64_t l1 = opsched_schedule_peak_memory(free_run) * 4 / 5;
    opsched_schedule_destroy(free_run);
    opsched_schedule_options o;
    opsched_schedule_options_init(&o);
    o.streams = 2;
    o.buffers = k.b;
    o.max_memory = l1;
    opsched_schedule_memo *memo = calloc(1, sizeof *memo);
    opsched_schedule *a = NULL;
    if (l1 <= 0 || opsched_schedule_run_memo(k.g, &o, memo, &a) != OPSCHED_OK) {
      opsched_schedule_memo_free(memo);
      free(memo);
      random_block_free(&k);
      continue;
    }
    int64_t fmax = 0, fmin = INT64_MAX;
    for (int32_t i = 0; i < memo->gated_count; i++) {
      fmax = memo->gated[i].fit_max > fmax ? memo->gated[i].fit_max : fmax;
      fmin = memo->gated[i].fail_min < fmin ? memo->gated[i].fail_min : fmin;
    }
    CHECK(memo->gated_count > 0 && fmax <= l1 && l1 < fmin);
    int32_t count = memo->gated_count, next = memo->gated_next;
    int64_t probe[2] = {fmax, fmin};
    for (int j = 0; j < 2; j++) {
      if (probe[j] == l1 || probe[j] <= 0 || probe[j] == INT64_MAX)
        continue;
      o.max_memory = probe[j];
      opsched_schedule *b = NULL, *c = NULL;
      CHECK(opsched_schedule_run_memo(k.g, &o, memo, &b) == OPSCHED_OK);
      CHECK(opsched_schedule_run(k.g, &o, &c) == OPSCHED_OK);
      same_times_peak(b, c, k.n);
      if (j == 0) { /* inside every range: nothing new */
        CHECK_EQ_I64(memo->gated_count, count);
        CHECK_EQ_I64(memo->gated_next, next);
        reused++;
      } else { /* fail_min is outside one range at least */
        CHECK(memo->gated_count > count || memo->gated_next != next);
        added++;
      }
      opsched_schedule_destroy(b);
      opsched_schedule_destroy(c);
    }
    opsched_schedule_destroy(a);
    opsched_schedule_memo_free(memo);
    free(memo);
    random_block_free(&k);
  }
  CHECK(reused >= 20 && added >= 20);
}

/* opsched_schedule_run_times and opsched_schedule_finish (schedule.h): a
 * run under a limit on several streams with a memo stops at its times,
 * with the full run's makespan and peak and nothing else built (pending,
 * no waits, no live_after); finished, it is the full run's schedule field
 * by field; a run the lazy path does not cover (one stream, no limit)
 * comes back complete. */
static void same_full_schedule(const opsched_schedule *a, const opsched_schedule *b, int n) {
  size_t b64 = sizeof(int64_t) * (size_t)n, b32 = sizeof(int32_t) * (size_t)n;
  CHECK(memcmp(opsched_schedule_order(a), opsched_schedule_order(b), b32) == 0);
  CHECK(memcmp(opsched_schedule_starts(a), opsched_schedule_starts(b), b64) == 0);
  CHECK(memcmp(opsched_schedule_ends(a), opsched_schedule_ends(b), b64) == 0);
  CHECK(memcmp(opsched_schedule_streams(a), opsched_schedule_streams(b), b32) == 0);
  CHECK(memcmp(opsched_schedule_live_after(a), opsched_schedule_live_after(b), b64) == 0);
  CHECK_EQ_I64(opsched_schedule_makespan(a), opsched_schedule_makespan(b));
  CHECK_EQ_I64(opsched_schedule_list_makespan(a), opsched_schedule_list_makespan(b));
  CHECK_EQ_I64(opsched_schedule_num_waits(a), opsched_schedule_num_waits(b));
  CHECK_EQ_I64(opsched_schedule_num_waits_unreduced(a),
               opsched_schedule_num_waits_unreduced(b));
  CHECK_EQ_I64(opsched_schedule_peak_memory(a), opsched_schedule_peak_memory(b));
  CHECK_EQ_I64(opsched_schedule_original_peak_memory(a),
               opsched_schedule_original_peak_memory(b));
  CHECK_EQ_I64(opsched_schedule_memory_limit_met(a), opsched_schedule_memory_limit_met(b));
  for (int32_t v = 0; v < n; v++) {
    int32_t ca, cb;
    const int32_t *wa = opsched_schedule_waits(a, v, &ca), *wb = opsched_schedule_waits(b, v, &cb);
    CHECK_EQ_I64(ca, cb);
    CHECK(ca == cb && memcmp(wa, wb, sizeof *wa * (size_t)ca) == 0);
  }
}

enum { PENDING_WANT = 93, COMPLETE_WANT = 17 }; /* of the 110 blocks that fit */

static void test_run_times_finish(void) {
  int pending = 0, complete = 0;
  for (uint64_t iter = 0; iter < 120; iter++) {
    random_block k;
    random_block_make(iter + 9100u, 24, &k);
    int streams = 2 + (int)(iter % 3);
    if (k.max_demand > streams) {
      random_block_free(&k);
      continue;
    }
    opsched_schedule *free_run = run(k.g, k.b, streams, OPSCHED_MEMORY_CRITICAL_PATH, 0, 0);
    int64_t limit = opsched_schedule_peak_memory(free_run) * 3 / 4;
    opsched_schedule_destroy(free_run);
    opsched_schedule_options o;
    opsched_schedule_options_init(&o);
    o.streams = iter % 7 == 0 ? 1 : streams;
    o.resource_limit = streams; /* every demand fits, on one stream too */
    o.buffers = k.b;
    o.max_memory = limit > 0 ? limit : 1;
    o.memory_policy = iter % 2 ? OPSCHED_MEMORY_MIN_MEMORY : OPSCHED_MEMORY_CRITICAL_PATH;
    o.effort = iter % 5 == 0;
    opsched_schedule_memo *memo = calloc(1, sizeof *memo);
    opsched_schedule *lazy = NULL, *full = NULL;
    CHECK(opsched_schedule_run_times(k.g, &o, memo, &lazy) == OPSCHED_OK);
    CHECK(opsched_schedule_run(k.g, &o, &full) == OPSCHED_OK);
    if (lazy && full) {
      CHECK_EQ_I64(opsched_schedule_makespan(lazy), opsched_schedule_makespan(full));
      CHECK_EQ_I64(opsched_schedule_peak_memory(lazy), opsched_schedule_peak_memory(full));
      if (lazy->pending) {
        pending++;
        CHECK(o.streams > 1);
        CHECK(opsched_schedule_live_after(lazy) == NULL && lazy->wait_off == NULL);
      } else {
        complete++;
        CHECK(o.streams == 1);
      }
      CHECK(opsched_schedule_finish(k.g, &o, memo, lazy) == OPSCHED_OK);
      CHECK_EQ_I64(lazy->pending, 0);
      same_full_schedule(lazy, full, k.n);
      CHECK(opsched_schedule_finish(k.g, &o, memo, lazy) == OPSCHED_OK); /* no-op */
      same_full_schedule(lazy, full, k.n);
    }
    opsched_schedule_destroy(lazy);
    opsched_schedule_destroy(full);
    opsched_schedule_memo_free(memo);
    free(memo);
    random_block_free(&k);
  }
  printf("run_times: %d pending, %d complete\n", pending, complete);
  CHECK_EQ_I64(pending, PENDING_WANT);
  CHECK_EQ_I64(complete, COMPLETE_WANT);
}

/* Peak in time with times in the split keys' top bytes: 2^25 and 2^26
 * put the time's bits in bytes 7 and up of the keys (t << 35), which the
 * radix sort counts in its one pass over bytes 4..7. Chain 0 -> 1 -> 2,
 * node 0 [0, 2^25), 1 [2^25, 2^26), 2 [2^26, 2^26 + 1). A (10 B) by 0 read
 * by 1, B (20 B) by 1 read by 2, C (40 B) by 2: 10, 30, then B + C = 60
 * live; after each node: 10 (A's free comes at node 1's end), 20 (A gone),
 * 0. */
static void test_peak_in_time_high_bytes(void) {
  opsched_graph *g = opsched_graph_create(3);
  for (int i = 0; i < 3; i++)
    opsched_graph_add_node(g, 1, 1);
  opsched_graph_add_edge(g, 0, 1);
  opsched_graph_add_edge(g, 1, 2);
  CHECK(opsched_graph_finalize(g) == OPSCHED_OK);
  opsched_buffers *b = opsched_buffers_create(3);
  buf(b, 10, 0, 0, 1, -1);
  buf(b, 20, 1, 0, 2, -1);
  buf(b, 40, 2, 0, -1);
  const int64_t h = (int64_t)1 << 25;
  int64_t st[3] = {0, h, 2 * h}, en[3] = {h, 2 * h, 2 * h + 1}, after[3];
  CHECK_EQ_I64(opsched_memory_peak_in_time(g, b, st, en, after), 60);
  CHECK_EQ_I64(after[0], 10);
  CHECK_EQ_I64(after[1], 20);
  CHECK_EQ_I64(after[2], 0);
  CHECK_EQ_I64(opsched_memory_peak_in_time(g, b, st, en, NULL), 60);
  /* Node 1 zero-length at 2^25 (with node 0's end): A lives at that
   * instant with B, C alone later. */
  en[1] = h;
  st[2] = h;
  en[2] = 2 * h;
  CHECK_EQ_I64(opsched_memory_peak_in_time(g, b, st, en, after), 60);
  CHECK_EQ_I64(after[0], 10);
  CHECK_EQ_I64(after[1], 20);
  CHECK_EQ_I64(after[2], 0);
  opsched_buffers_destroy(b);
  opsched_graph_destroy(g);
}

int main(void) {
  test_defaults();
  test_one_stream();
  test_two_streams_apart();
  test_two_streams_memory_order();
  test_charged_limit();
  test_random_blocks();
  test_no_buffers_unchanged();
  test_gated_memo_ranges();
  test_run_times_finish();
  test_peak_in_time_high_bytes();
  return check_report("test_schedule_memory");
}
