/* Unit tests of list scheduling, starting with the seed's demo. */
#include "check.h"
#include "opsched/schedule.h"

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

int main(void) {
  test_seed_demo(OPSCHED_PRIORITY_CRITICAL_PATH);
  test_seed_demo(OPSCHED_PRIORITY_PROGRAM_ORDER);
  test_one_stream_by_rank();
  test_capacity();
  test_zero_costs();
  test_sort_order_recs();
  test_sort_order_hint();
  return check_report("test_schedule");
}
