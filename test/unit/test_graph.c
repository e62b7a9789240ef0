/* Unit tests of the dependency graph: dedup, adjacency, cycles, ranks. */
#include "check.h"
#include "opsched/graph.h"

#include <stdlib.h>

static void test_diamond(void) {
  /* a(2) -> b(3), a -> c(1), b -> d(4), c -> d, plus a duplicate and a self edge. */
  opsched_graph *g = opsched_graph_create(0);
  int32_t a = opsched_graph_add_node(g, 2, 1), b = opsched_graph_add_node(g, 3, 1);
  int32_t c = opsched_graph_add_node(g, 1, 1), d = opsched_graph_add_node(g, 4, 1);
  CHECK(opsched_graph_add_edge(g, a, b) == OPSCHED_OK);
  CHECK(opsched_graph_add_edge(g, a, c) == OPSCHED_OK);
  CHECK(opsched_graph_add_edge(g, c, d) == OPSCHED_OK);
  CHECK(opsched_graph_add_edge(g, b, d) == OPSCHED_OK);
  CHECK(opsched_graph_add_edge(g, a, b) == OPSCHED_OK);
  CHECK(opsched_graph_add_edge(g, d, d) == OPSCHED_OK);
  CHECK(opsched_graph_add_edge(g, a, 9) == OPSCHED_ERR_INVALID);
  CHECK(opsched_graph_finalize(g) == OPSCHED_OK);
  CHECK_EQ_I64(opsched_graph_num_edges(g), 4);
  int32_t n;
  const int32_t *s = opsched_graph_succs(g, a, &n);
  CHECK_EQ_I64(n, 2);
  CHECK_EQ_I64(s[0], b);
  CHECK_EQ_I64(s[1], c);
  const int32_t *p = opsched_graph_preds(g, d, &n);
  CHECK_EQ_I64(n, 2);
  CHECK_EQ_I64(p[0], b);
  CHECK_EQ_I64(p[1], c);
  int64_t rank[4], down[4];
  opsched_graph_upward_ranks(g, rank);
  CHECK_EQ_I64(rank[d], 4);
  CHECK_EQ_I64(rank[b], 7);
  CHECK_EQ_I64(rank[c], 5);
  CHECK_EQ_I64(rank[a], 9);
  opsched_graph_downward_ranks(g, down);
  CHECK_EQ_I64(down[a], 0);
  CHECK_EQ_I64(down[b], 2);
  CHECK_EQ_I64(down[c], 2);
  CHECK_EQ_I64(down[d], 5);
  CHECK(opsched_graph_add_node(g, 1, 1) == -1); /* frozen */
  opsched_graph_destroy(g);
}

static void test_cycle(void) {
  opsched_graph *g = opsched_graph_create(2);
  opsched_graph_add_node(g, 1, 1);
  opsched_graph_add_node(g, 1, 1);
  opsched_graph_add_node(g, 1, 1);
  opsched_graph_add_edge(g, 0, 1);
  opsched_graph_add_edge(g, 1, 2);
  opsched_graph_add_edge(g, 2, 1);
  CHECK(opsched_graph_finalize(g) == OPSCHED_ERR_CYCLE);
  CHECK(!opsched_graph_is_finalized(g));
  opsched_graph_destroy(g);
}

static void check_order(opsched_graph *g, const int32_t *want, int32_t n) {
  int32_t order[8];
  opsched_graph_topo_order(g, order);
  for (int32_t i = 0; i < n; i++)
    CHECK_EQ_I64(order[i], want[i]);
}

static void test_topo_backward_ids(void) {
  /* Edges against id order: the topological order must follow edges. */
  opsched_graph *g = opsched_graph_create(0);
  for (int i = 0; i < 4; i++)
    opsched_graph_add_node(g, 1, 1);
  opsched_graph_add_edge(g, 3, 0);
  opsched_graph_add_edge(g, 2, 3);
  CHECK(opsched_graph_finalize(g) == OPSCHED_OK);
  check_order(g, (const int32_t[]){1, 2, 3, 0}, 4);
  opsched_graph_destroy(g);
}

static void test_topo_forward_and_one_backward(void) {
  /* Forward edges only (the shape of every block's graph): the id order,
   * found without the heap. */
  opsched_graph *g = opsched_graph_create(0);
  for (int i = 0; i < 5; i++)
    opsched_graph_add_node(g, 1, 1);
  opsched_graph_add_edge(g, 0, 4);
  opsched_graph_add_edge(g, 2, 3);
  opsched_graph_add_edge(g, 0, 4);
  opsched_graph_add_edge(g, 1, 1);
  CHECK(opsched_graph_finalize(g) == OPSCHED_OK);
  check_order(g, (const int32_t[]){0, 1, 2, 3, 4}, 5);
  opsched_graph_destroy(g);
  /* One edge against id order among forward ones: Kahn's smallest-first
   * order, not the id order. */
  g = opsched_graph_create(0);
  for (int i = 0; i < 4; i++)
    opsched_graph_add_node(g, 1, 1);
  opsched_graph_add_edge(g, 0, 1);
  opsched_graph_add_edge(g, 1, 2);
  opsched_graph_add_edge(g, 3, 1);
  CHECK(opsched_graph_finalize(g) == OPSCHED_OK);
  check_order(g, (const int32_t[]){0, 3, 1, 2}, 4);
  opsched_graph_destroy(g);
}

static void test_bad_nodes(void) {
  opsched_graph *g = opsched_graph_create(0);
  CHECK(opsched_graph_add_node(g, -1, 1) == -1);
  CHECK(opsched_graph_add_node(g, 1, 0) == -1);
  CHECK(opsched_graph_finalize(g) == OPSCHED_OK); /* empty graph is fine */
  CHECK_EQ_I64(opsched_graph_num_nodes(g), 0);
  opsched_graph_destroy(g);
  opsched_graph_destroy(NULL);
}

int main(void) {
  test_diamond();
  test_cycle();
  test_topo_backward_ids();
  test_topo_forward_and_one_backward();
  test_bad_nodes();
  return check_report("test_graph");
}
