/* Unit tests of list scheduling, starting with the seed's demo. */
#include "check.h"
#include "opsched/schedule.h"

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

int main(void) {
  test_seed_demo(OPSCHED_PRIORITY_CRITICAL_PATH);
  test_seed_demo(OPSCHED_PRIORITY_PROGRAM_ORDER);
  test_one_stream_by_rank();
  test_capacity();
  test_zero_costs();
  return check_report("test_schedule");
}
