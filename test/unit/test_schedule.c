/* Unit tests of list scheduling, starting with the seed's demo. */
#include "check.h"
#include "opsched/schedule.h"

#include "../../lib/core/heap.h"
#include "../../lib/core/schedule_object.h"

#include <stdlib.h>

/* The seed's graph: a->b, a->c, b->d, c->d, d->e, d->f, unit costs. */
static opsched_graph *seed_graph(void) {
  opsched_graph *g = opsched_graph_create(6);
  for (int i = 0; i < 6; i++)
    opsched_graph_add_node(g, 1, 1);
  static const int edges[][2] = {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}, {3, 5}};
  for (int i = 0; i < 6; i++)
    opsched_graph_add_edge(g, edges[i][0], edges[i][1]);
  opsched_graph_finalize(g);
  return g;
}

static void test_seed_demo(opsched_priority priority) {
  opsched_graph *g = seed_graph();
  opsched_schedule_options o;
  opsched_schedule_options_init(&o);
  o.priority = priority;
  o.streams = 2;
  o.resource_limit = 2;
  opsched_schedule *s = NULL;
  CHECK(opsched_schedule_run(g, &o, &s) == OPSCHED_OK);
  static const int64_t start[] = {0, 1, 1, 2, 3, 3};
  const int64_t *st = opsched_schedule_starts(s), *en = opsched_schedule_ends(s);
  for (int v = 0; v < 6; v++) {
    CHECK_EQ_I64(st[v], start[v]);
    CHECK_EQ_I64(en[v], start[v] + 1);
  }
  CHECK_EQ_I64(opsched_schedule_makespan(s), 4);
  CHECK_EQ_I64(opsched_schedule_critical_path(s), 4);
  CHECK_EQ_I64(opsched_schedule_total_work(s), 6);
  CHECK_EQ_I64(opsched_schedule_lower_bound(s), 4);
  const int32_t *order = opsched_schedule_order(s);
  for (int i = 0; i < 6; i++)
    CHECK_EQ_I64(order[i], i);
  opsched_schedule_destroy(s);
  opsched_graph_destroy(g);
}

static void test_one_stream_by_rank(void) {
  /* 0(1) is independent of 1(5)->2(5); rank runs the long chain first. */
  opsched_graph *g = opsched_graph_create(0);
  opsched_graph_add_node(g, 1, 1);
  opsched_graph_add_node(g, 5, 1);
  opsched_graph_add_node(g, 5, 1);
  opsched_graph_add_edge(g, 1, 2);
  opsched_graph_finalize(g);
  opsched_schedule_options o;
  opsched_schedule_options_init(&o);
  opsched_schedule *s = NULL;
  CHECK(opsched_schedule_run(g, &o, &s) == OPSCHED_OK);
  const int32_t *order = opsched_schedule_order(s);
  CHECK_EQ_I64(order[0], 1);
  CHECK_EQ_I64(order[1], 2);
  CHECK_EQ_I64(order[2], 0);
  CHECK_EQ_I64(opsched_schedule_makespan(s), 11);
  CHECK_EQ_I64(opsched_schedule_critical_path(s), 10);
  CHECK(opsched_schedule_critical(s)[1] && opsched_schedule_critical(s)[2]);
  CHECK(!opsched_schedule_critical(s)[0]);
  opsched_schedule_destroy(s);
  o.priority = OPSCHED_PRIORITY_PROGRAM_ORDER;
  CHECK(opsched_schedule_run(g, &o, &s) == OPSCHED_OK);
  CHECK_EQ_I64(opsched_schedule_order(s)[0], 0);
  opsched_schedule_destroy(s);
  opsched_graph_destroy(g);
}

static void test_capacity(void) {
  /* Two independent ops of demand 2 on 2 streams with capacity 3 serialize. */
  opsched_graph *g = opsched_graph_create(0);
  opsched_graph_add_node(g, 4, 2);
  opsched_graph_add_node(g, 4, 2);
  opsched_graph_finalize(g);
  opsched_schedule_options o;
  opsched_schedule_options_init(&o);
  o.streams = 2;
  o.resource_limit = 3;
  opsched_schedule *s = NULL;
  CHECK(opsched_schedule_run(g, &o, &s) == OPSCHED_OK);
  CHECK_EQ_I64(opsched_schedule_starts(s)[0], 0);
  CHECK_EQ_I64(opsched_schedule_starts(s)[1], 4);
  CHECK_EQ_I64(opsched_schedule_makespan(s), 8);
  opsched_schedule_destroy(s);
  o.resource_limit = 1;
  CHECK(opsched_schedule_run(g, &o, &s) == OPSCHED_ERR_INFEASIBLE);
  CHECK(s == NULL);
  opsched_graph_destroy(g);
}

static void test_zero_costs(void) {
  /* Zero-cost chain 2 -> 0 -> 1: order must still follow edges. */
  opsched_graph *g = opsched_graph_create(0);
  for (int i = 0; i < 3; i++)
    opsched_graph_add_node(g, 0, 1);
  opsched_graph_add_edge(g, 2, 0);
  opsched_graph_add_edge(g, 0, 1);
  opsched_graph_finalize(g);
  opsched_schedule_options o;
  opsched_schedule_options_init(&o);
  opsched_schedule *s = NULL;
  CHECK(opsched_schedule_run(g, &o, &s) == OPSCHED_OK);
  CHECK_EQ_I64(opsched_schedule_order(s)[0], 2);
  CHECK_EQ_I64(opsched_schedule_order(s)[1], 0);
  CHECK_EQ_I64(opsched_schedule_order(s)[2], 1);
  opsched_schedule_destroy(s);
  opsched_graph_destroy(g);
}

/* The order's sort: (start, end, tie position, id), whatever the records'
 * first arrangement; a nearly sorted one (a list schedule's start order,
 * ops started at one instant out of place) costs a few insertion moves, an
 * arbitrary one falls back to the merge sort after 8n + 64 moves. */
static void test_sort_order_recs(void) {
  enum { N = 200 };
  opsched_order_rec *rec = malloc(sizeof *rec * N), *tmp = malloc(sizeof *tmp * N);
  /* Record i (id i): start i / 4, end 10 - i % 4 (ties on start, reversed
   * ends), topo 0; so the sorted order within each start is by end. */
  for (int32_t i = 0; i < N; i++)
    rec[i] = (opsched_order_rec){i / 4, 10 - i % 4, 0, 0, i};
  int64_t moves = opsched_sort_order_recs(rec, tmp, N);
  CHECK_EQ_I64(moves, 6 * (N / 4)); /* 0+1+2+3 per group of four */
  for (int32_t i = 0; i < N; i++)
    CHECK_EQ_I64(rec[i].id, 4 * (i / 4) + 3 - i % 4);
  /* Equal (start, end): by topo, then by id. */
  opsched_order_rec t[4] = {{5, 5, 0, 1, 9}, {5, 5, 0, 0, 7}, {5, 5, 0, 1, 2}, {1, 9, 0, 3, 4}};
  opsched_order_rec ts[4];
  CHECK_EQ_I64(opsched_sort_order_recs(t, ts, 4), 5);
  CHECK_EQ_I64(t[0].id, 4);
  CHECK_EQ_I64(t[1].id, 7);
  CHECK_EQ_I64(t[2].id, 2);
  CHECK_EQ_I64(t[3].id, 9);
  /* Reversed: over the budget after a while, then merge-sorted. */
  for (int32_t i = 0; i < N; i++)
    rec[i] = (opsched_order_rec){N - i, N - i, 0, 0, i};
  moves = opsched_sort_order_recs(rec, tmp, N);
  CHECK(moves > 8 * N + 64 && moves < 8 * N + 64 + N);
  for (int32_t i = 0; i < N; i++)
    CHECK_EQ_I64(rec[i].id, N - 1 - i);
  free(rec);
  free(tmp);
}

/* The hint changes nothing but the work: the order from every first
 * arrangement is the one from id order. */
static void test_sort_order_hint(void) {
  /* Four independent ops: 0 [3, 5), 1 [0, 2), 2 [0, 1), 3 [3, 5). */
  opsched_graph *g = opsched_graph_create(4);
  for (int i = 0; i < 4; i++)
    opsched_graph_add_node(g, 1, 1);
  opsched_graph_finalize(g);
  opsched_schedule *s = opsched_schedule_alloc(4);
  static const int64_t st[4] = {3, 0, 0, 3}, en[4] = {5, 2, 1, 5};
  static const int32_t hints[3][4] = {{0, 1, 2, 3}, {3, 2, 1, 0}, {2, 1, 3, 0}};
  for (int h = 0; h < 3; h++) {
    for (int v = 0; v < 4; v++) {
      s->start[v] = st[v];
      s->end[v] = en[v];
    }
    CHECK(opsched_schedule_sort_order_hint(s, g, NULL, hints[h]) == OPSCHED_OK);
    CHECK_EQ_I64(s->order[0], 2);
    CHECK_EQ_I64(s->order[1], 1);
    CHECK_EQ_I64(s->order[2], 0); /* topological position 0 before 3 */
    CHECK_EQ_I64(s->order[3], 3);
    CHECK_EQ_I64(s->makespan, 5);
  }
  opsched_schedule_destroy(s);
  opsched_graph_destroy(g);
}

/* The bit queue pops ascending whatever the push order, across words and
 * levels (5000 places: three levels), interleaved with pushes, as the
 * keyed heap does. */
static void test_bitq(void) {
  enum { N = 5000 };
  opsched_bitq q;
  CHECK(opsched_bitq_init(&q, N) == 0);
  CHECK_EQ_I64(q.levels, 3);
  static const int32_t in[] = {4999, 64, 0, 4096, 63, 4095, 65, 1};
  static const int32_t out[] = {0, 1, 63, 64, 65, 4095, 4096, 4999};
  for (int i = 0; i < 8; i++)
    opsched_bitq_push(&q, in[i]);
  CHECK_EQ_I64(q.size, 8);
  for (int i = 0; i < 8; i++)
    CHECK_EQ_I64(opsched_bitq_pop(&q), out[i]);
  CHECK_EQ_I64(q.size, 0);
  /* Random pushes and pops against the heap keyed by the value itself. */
  int32_t *ids = malloc(sizeof *ids * N);
  int64_t *keys = malloc(sizeof *keys * N);
  uint8_t *queued = calloc(N, 1);
  for (int32_t i = 0; i < N; i++)
    keys[i] = i;
  opsched_heap h;
  opsched_heap_init(&h, ids, keys);
  uint32_t x = 12345;
  int64_t pops = 0;
  for (int step = 0; step < 20000; step++) {
    x = x * 1103515245u + 12345u;
    int32_t v = (int32_t)((x >> 8) % N);
    if ((x >> 4) % 3 != 0 && !queued[v]) {
      queued[v] = 1;
      opsched_bitq_push(&q, v);
      opsched_heap_push(&h, v);
    } else if (h.size > 0) {
      int32_t a = opsched_bitq_pop(&q), b = opsched_heap_pop(&h);
      CHECK_EQ_I64(a, b);
      queued[a] = 0;
      pops++;
    }
    CHECK_EQ_I64(q.size, h.size);
  }
  CHECK(pops > 1000);
  opsched_bitq_free(&q);
  /* One place: one level of one word. */
  CHECK(opsched_bitq_init(&q, 1) == 0);
  CHECK_EQ_I64(q.levels, 1);
  opsched_bitq_push(&q, 0);
  CHECK_EQ_I64(opsched_bitq_pop(&q), 0);
  opsched_bitq_free(&q);
  free(ids);
  free(keys);
  free(queued);
}

/* Starts already in order: each run of one start sorted alone with its own
 * budget. A reversed run of 100 at start 0 falls back to the merge sort
 * after 903 moves (1 + ... + 42 > 8 * 100 + 64), then 25 runs of four with
 * reversed ends cost 0 + 1 + 2 + 3 each; the whole array's sort would pay
 * the insertion moves of the first run and more against 8 * 200 + 64. */
static void test_sort_order_runs(void) {
  enum { N = 200 };
  opsched_order_rec *rec = malloc(sizeof *rec * N), *tmp = malloc(sizeof *tmp * N);
  for (int32_t i = 0; i < 100; i++)
    rec[i] = (opsched_order_rec){0, 100 - i, 0, 0, i};
  for (int32_t i = 100; i < N; i++)
    rec[i] = (opsched_order_rec){1 + (i - 100) / 4, 10 - i % 4, 0, 0, i};
  CHECK_EQ_I64(opsched_sort_order_runs(rec, tmp, N), 903 + 6 * 25);
  for (int32_t i = 0; i < 100; i++)
    CHECK_EQ_I64(rec[i].id, 99 - i);
  for (int32_t i = 100; i < N; i++)
    CHECK_EQ_I64(rec[i].id, 100 + 4 * ((i - 100) / 4) + 3 - i % 4);
  /* Starts out of order: the whole array's sort. */
  opsched_order_rec t[3] = {{2, 3, 0, 0, 0}, {1, 3, 0, 0, 1}, {1, 2, 0, 0, 2}};
  opsched_order_rec ts[3];
  CHECK_EQ_I64(opsched_sort_order_runs(t, ts, 3), 3);
  CHECK_EQ_I64(t[0].id, 2);
  CHECK_EQ_I64(t[1].id, 1);
  CHECK_EQ_I64(t[2].id, 0);
  free(rec);
  free(tmp);
}

/* 600 independent ops (the ready queue's bit queue from 512 ops): one
 * stream runs them by decreasing cost, ties by id, with costs spanning
 * little (the counting sort) and much (the radix sort); four streams of
 * unit costs name the streams 0, 1, 2, 3 at every instant. */
static void test_large_ready_queue(void) {
  enum { N = 600 };
  for (int wide = 0; wide < 2; wide++) {
    opsched_graph *g = opsched_graph_create(N);
    for (int32_t v = 0; v < N; v++)
      opsched_graph_add_node(g, wide ? (int64_t)((v * 7) % N) * 1000003 : v % 7, 1);
    opsched_graph_finalize(g);
    opsched_schedule_options o;
    opsched_schedule_options_init(&o);
    opsched_schedule *s = NULL;
    CHECK(opsched_schedule_run(g, &o, &s) == OPSCHED_OK);
    for (int32_t i = 1; i < N; i++) {
      int64_t ca = opsched_graph_cost(g, s->order[i - 1]), cb = opsched_graph_cost(g, s->order[i]);
      CHECK(ca > cb || (ca == cb && s->order[i - 1] < s->order[i]));
    }
    if (!wide) {
      CHECK_EQ_I64(s->order[0], 6);
      CHECK_EQ_I64(s->order[1], 13);
      CHECK_EQ_I64(s->order[N - 1], 595);
    } else {
      CHECK_EQ_I64(s->order[0], 257); /* 257 * 7 % 600 == 599 */
    }
    opsched_schedule_destroy(s);
    opsched_graph_destroy(g);
  }
  opsched_graph *g = opsched_graph_create(N);
  for (int32_t v = 0; v < N; v++)
    opsched_graph_add_node(g, 1, 1);
  opsched_graph_finalize(g);
  opsched_schedule_options o;
  opsched_schedule_options_init(&o);
  o.streams = 4;
  opsched_schedule *s = NULL;
  CHECK(opsched_schedule_run(g, &o, &s) == OPSCHED_OK);
  CHECK_EQ_I64(s->makespan, N / 4);
  for (int32_t i = 0; i < N; i++) {
    CHECK_EQ_I64(s->order[i], i);
    CHECK_EQ_I64(s->start[i], i / 4);
    CHECK_EQ_I64(s->stream[i], i % 4);
  }
  opsched_schedule_destroy(s);
  opsched_graph_destroy(g);
}

/* A block's share of a function's effort (opsched_effort_share): the whole
 * effort for a function of one block, else its part of the whole raised to
 * OPSCHED_EFFORT_PER_OP (8) placements per op and capped at the whole. */
static void test_effort_share(void) {
  CHECK_EQ_I64(opsched_effort_share(0, 100, 100), 0);
  CHECK_EQ_I64(opsched_effort_share(-3, 100, 1000), 0);
  CHECK_EQ_I64(opsched_effort_share(1, 100, 100), 65536);
  CHECK_EQ_I64(opsched_effort_share(16, 5, 5), 16 * 65536);
  CHECK_EQ_I64(opsched_effort_share(1, 100, 0), 65536); /* no count: the whole */
  CHECK_EQ_I64(opsched_effort_share(2, 500, 1000), 65536);       /* its part */
  CHECK_EQ_I64(opsched_effort_share(1, 100, 100000), 800);       /* 8 per op */
  CHECK_EQ_I64(opsched_effort_share(16, 630, 100000), 80640);    /* 16 * 8 * 630 */
  CHECK_EQ_I64(opsched_effort_share(1, 3000, 30000), 24000);     /* 8 per op */
  CHECK_EQ_I64(opsched_effort_share(1, 10000, 20000), 65536);    /* capped */
  CHECK_EQ_I64(opsched_effort_share(1, 1, 1000000), 8);
  CHECK_EQ_I64(opsched_effort_share(INT32_MAX, 1000000, 2000000),
               (int64_t)INT32_MAX * 65536);
  /* A function's blocks together: at most effort * max(65536, 8 * ops). */
  int64_t sum = 0;
  for (int b = 0; b < 158; b++)
    sum += opsched_effort_share(16, 630, 158 * 630);
  CHECK(sum <= 16 * 8 * 158 * 630);
}

/* A function that is one of a module's (opsched_effort_share_among): the
 * unit divided among the functions, raised to 8 placements per op, capped
 * at the whole; one function is opsched_effort_share. */
static void test_effort_share_among(void) {
  CHECK_EQ_I64(opsched_effort_share_among(0, 12, 12, 10), 0);
  CHECK_EQ_I64(opsched_effort_share_among(1, 12, 12, 1), 65536);
  CHECK_EQ_I64(opsched_effort_share_among(1, 12, 12, 0), 65536); /* no count: one */
  CHECK_EQ_I64(opsched_effort_share_among(2, 500, 1000, 1), opsched_effort_share(2, 500, 1000));
  CHECK_EQ_I64(opsched_effort_share_among(1, 100, 100, 2), 32768);  /* half the unit */
  CHECK_EQ_I64(opsched_effort_share_among(16, 100, 100, 4), 16 * 16384);
  CHECK_EQ_I64(opsched_effort_share_among(1, 50, 100, 2), 16384);   /* half of half */
  CHECK_EQ_I64(opsched_effort_share_among(1, 12, 12, 10000), 96);   /* 8 per op */
  CHECK_EQ_I64(opsched_effort_share_among(16, 12, 12, 10000), 16 * 96);
  CHECK_EQ_I64(opsched_effort_share_among(1, 12, 12, INT64_MAX), 96);
  /* The cap: from it on the share does not depend on the count. */
  for (int64_t ops = 1; ops <= 70000; ops = ops * 3 + 1) {
    int64_t cap = opsched_effort_functions_cap(ops);
    CHECK(cap >= 1);
    CHECK_EQ_I64(opsched_effort_share_among(3, ops, ops, cap),
                 opsched_effort_share_among(3, ops, ops, cap * 1000));
    CHECK_EQ_I64(opsched_effort_share_among(3, ops, ops, cap), 3 * 8 * ops < 3 * 65536
                                                                  ? 3 * 8 * ops
                                                                  : 3 * 65536);
  }
  /* 10,000 functions of 12 ops: together at most effort * (65536 + 8 *
   * ops), not effort * 65536 each. */
  int64_t sum = 0;
  for (int f = 0; f < 10000; f++)
    sum += opsched_effort_share_among(16, 12, 12, 10000);
  CHECK(sum <= 16 * (65536 + 8 * 12 * 10000));
}

int main(void) {
  test_effort_share();
  test_effort_share_among();
  test_seed_demo(OPSCHED_PRIORITY_CRITICAL_PATH);
  test_seed_demo(OPSCHED_PRIORITY_PROGRAM_ORDER);
  test_one_stream_by_rank();
  test_capacity();
  test_zero_costs();
  test_sort_order_recs();
  test_sort_order_hint();
  test_bitq();
  test_sort_order_runs();
  test_large_ready_queue();
  return check_report("test_schedule");
}
