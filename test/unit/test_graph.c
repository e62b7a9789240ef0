/* Unit tests of the dependency graph: dedup, adjacency, cycles, ranks. */
#include "check.h"
#include "opsched/graph.h"

#include "../../lib/core/alloc.h"
#include "../../lib/core/graph.h"
#include "../../lib/core/rng.h"

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

static void test_reserve_edges(void) {
  opsched_graph *g = opsched_graph_create(0);
  for (int i = 0; i < 40; i++)
    opsched_graph_add_node(g, 1, 1);
  CHECK(opsched_graph_reserve_edges(g, -1) == OPSCHED_ERR_INVALID);
  CHECK(opsched_graph_reserve_edges(NULL, 1) == OPSCHED_ERR_INVALID);
  CHECK(opsched_graph_reserve_edges(g, INT64_MAX) == OPSCHED_ERR_NOMEM);
  CHECK(opsched_graph_reserve_edges(g, 5) == OPSCHED_OK);
  /* Past the reserve, the storage still grows. */
  for (int32_t v = 1; v < 40; v++)
    CHECK(opsched_graph_add_edge(g, 0, v) == OPSCHED_OK);
  CHECK(opsched_graph_reserve_edges(g, 0) == OPSCHED_OK);
  CHECK(opsched_graph_finalize(g) == OPSCHED_OK);
  CHECK_EQ_I64(opsched_graph_num_edges(g), 39);
  CHECK(opsched_graph_reserve_edges(g, 1) == OPSCHED_ERR_STATE);
  opsched_graph_destroy(g);
}

/* A random graph of n nodes whose edges go forward in program order, or
 * any way (`backward`, acyclic through a random permutation), with long
 * rows (over 16 predecessors: the sort's long path) sorted or not. */
static opsched_graph *random_graph(uint64_t *rng, int32_t n, int backward) {
  opsched_graph *g = opsched_graph_create(0);
  int32_t *perm = malloc(sizeof *perm * (size_t)n);
  for (int32_t v = 0; v < n; v++) {
    opsched_graph_add_node(g, (int64_t)(opsched_rng_next(rng) % 9), 1 + (int32_t)(v % 3));
    perm[v] = v;
  }
  for (int32_t v = n - 1; backward && v > 0; v--) {
    int32_t j = (int32_t)(opsched_rng_next(rng) % (uint64_t)(v + 1)), t = perm[v];
    perm[v] = perm[j];
    perm[j] = t;
  }
  for (int32_t v = 1; v < n; v++) {
    int32_t deg = v % 7 == 0 ? 40 : (int32_t)(opsched_rng_next(rng) % 4);
    for (int32_t k = 0; k < deg; k++) {
      int32_t u = (int32_t)(opsched_rng_next(rng) % (uint64_t)v);
      if (v % 14 == 0) /* a long row added in order */
        u = v - deg + k < 0 ? 0 : v - deg + k;
      opsched_graph_add_edge(g, perm[u], perm[v]);
      if (k % 5 == 0)
        opsched_graph_add_edge(g, perm[u], perm[v]); /* a repeat */
    }
  }
  free(perm);
  CHECK(opsched_graph_finalize(g) == OPSCHED_OK);
  return g;
}

/* Copies g's CSR into arrays an adopted graph may own. */
static void copy_csr(const opsched_graph *g, int64_t **succ_off, int32_t **succ,
                     int64_t **pred_off, int32_t **pred) {
  int32_t n = opsched_graph_num_nodes(g);
  int64_t ne = opsched_graph_num_edges(g);
  *succ_off = opsched_alloc_array((size_t)n + 1, sizeof **succ_off);
  *pred_off = opsched_alloc_array((size_t)n + 1, sizeof **pred_off);
  *succ = opsched_alloc_array((size_t)ne, sizeof **succ);
  *pred = opsched_alloc_array((size_t)ne, sizeof **pred);
  int64_t ks = 0, kp = 0;
  for (int32_t v = 0; v < n; v++) {
    int32_t c;
    const int32_t *s = opsched_graph_succs(g, v, &c);
    for (int32_t i = 0; i < c; i++)
      (*succ)[ks++] = s[i];
    (*succ_off)[v + 1] = ks;
    s = opsched_graph_preds(g, v, &c);
    for (int32_t i = 0; i < c; i++)
      (*pred)[kp++] = s[i];
    (*pred_off)[v + 1] = kp;
  }
}

static void check_same_graph(const opsched_graph *a, const opsched_graph *b) {
  int32_t n = opsched_graph_num_nodes(a);
  CHECK_EQ_I64(opsched_graph_num_nodes(b), n);
  CHECK_EQ_I64(opsched_graph_num_edges(b), opsched_graph_num_edges(a));
  int32_t *oa = malloc(sizeof *oa * (size_t)n), *ob = malloc(sizeof *ob * (size_t)n);
  opsched_graph_topo_order(a, oa);
  opsched_graph_topo_order(b, ob);
  int differ = 0;
  for (int32_t v = 0; v < n; v++) {
    int32_t ca, cb;
    const int32_t *sa = opsched_graph_succs(a, v, &ca), *sb = opsched_graph_succs(b, v, &cb);
    differ |= ca != cb || oa[v] != ob[v] || opsched_graph_cost(a, v) != opsched_graph_cost(b, v) ||
              opsched_graph_demand(a, v) != opsched_graph_demand(b, v);
    for (int32_t i = 0; !differ && i < ca; i++)
      differ |= sa[i] != sb[i];
    sa = opsched_graph_preds(a, v, &ca);
    sb = opsched_graph_preds(b, v, &cb);
    differ |= ca != cb;
    for (int32_t i = 0; !differ && i < ca; i++)
      differ |= sa[i] != sb[i];
  }
  CHECK(!differ);
  free(oa);
  free(ob);
}

/* Finalize sorts and deduplicates every row (long ones too) and an
 * adopted CSR gives the same graph, topological order included. */
static void test_adopt_csr(void) {
  uint64_t rng = 7;
  for (int backward = 0; backward < 2; backward++) {
    opsched_graph *g = random_graph(&rng, 300, backward);
    int sorted = 1, unique = 1;
    for (int32_t v = 0; v < 300; v++) {
      int32_t c;
      const int32_t *p = opsched_graph_preds(g, v, &c);
      for (int32_t i = 1; i < c; i++) {
        sorted &= p[i - 1] <= p[i];
        unique &= p[i - 1] != p[i];
      }
    }
    CHECK(sorted && unique);
    int64_t *so, *po;
    int32_t *s, *p;
    copy_csr(g, &so, &s, &po, &p);
    opsched_graph *a = opsched_graph_adopt_csr(g, so, s, po, p);
    CHECK(a != NULL && opsched_graph_is_finalized(a));
    check_same_graph(g, a);
    opsched_graph_destroy(a); /* frees the adopted arrays */
    opsched_graph_destroy(g);
  }
  /* A cycle: NULL, and the arrays stay the caller's. */
  opsched_graph *g = opsched_graph_create(0);
  for (int i = 0; i < 3; i++)
    opsched_graph_add_node(g, 1, 1);
  CHECK(opsched_graph_finalize(g) == OPSCHED_OK);
  int64_t *so = opsched_alloc_array(4, sizeof *so), *po = opsched_alloc_array(4, sizeof *po);
  int32_t *s = opsched_alloc_array(2, sizeof *s), *p = opsched_alloc_array(2, sizeof *p);
  /* 0 -> 1 -> 0 */
  so[1] = 1, so[2] = 2, so[3] = 2, s[0] = 1, s[1] = 0;
  po[1] = 1, po[2] = 2, po[3] = 2, p[0] = 1, p[1] = 0;
  CHECK(opsched_graph_adopt_csr(g, so, s, po, p) == NULL);
  opsched_free(so);
  opsched_free(po);
  opsched_free(s);
  opsched_free(p);
  opsched_graph_destroy(g);
}

int main(void) {
  test_diamond();
  test_cycle();
  test_topo_backward_ids();
  test_topo_forward_and_one_backward();
  test_bad_nodes();
  test_reserve_edges();
  test_adopt_csr();
  return check_report("test_graph");
}
