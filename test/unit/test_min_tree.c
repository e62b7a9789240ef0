/* lib/core/min_tree: every query against a plain array, over random
 * updates and sizes (powers of two and not, 1 included). */
#include "../../lib/core/min_tree.h"
#include "check.h"

#include <stdlib.h>

static uint64_t rng_state = 88172645463325252ull;

static uint64_t rng(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

static int32_t brute_first(const int64_t *a, int32_t n, int32_t from, int64_t bound) {
  for (int32_t i = from < 0 ? 0 : from; i < n; i++)
    if (a[i] <= bound)
      return i;
  return -1;
}

static int64_t brute_min(const int64_t *a, int32_t n, int32_t lo, int32_t hi) {
  int64_t m = INT64_MAX;
  for (int32_t i = lo < 0 ? 0 : lo; i < hi && i < n; i++)
    m = a[i] < m ? a[i] : m;
  return m;
}

static void test_random(int32_t n) {
  opsched_min_tree t;
  CHECK(opsched_min_tree_init(&t, n) == 0);
  int64_t *a = malloc(sizeof *a * (size_t)n);
  for (int32_t i = 0; i < n; i++)
    a[i] = INT64_MAX;
  CHECK_EQ_I64(opsched_min_tree_first_at_most(&t, 0, INT64_MAX - 1), -1);
  int bad_first = 0, bad_min = 0;
  for (int step = 0; step < 4000; step++) {
    int32_t i = (int32_t)(rng() % (uint64_t)n);
    /* few values, many absent: runs of ops that do not fit */
    int64_t v = rng() % 3 == 0 ? INT64_MAX : (int64_t)(rng() % 100);
    a[i] = v;
    opsched_min_tree_set(&t, i, v);
    int32_t from = (int32_t)(rng() % (uint64_t)(n + 2)) - 1;
    int64_t bound = (int64_t)(rng() % 110) - 5;
    bad_first += opsched_min_tree_first_at_most(&t, from, bound) != brute_first(a, n, from, bound);
    int32_t lo = (int32_t)(rng() % (uint64_t)(n + 1)), hi = (int32_t)(rng() % (uint64_t)(n + 2));
    bad_min += opsched_min_tree_min(&t, lo, hi) != brute_min(a, n, lo, hi);
  }
  CHECK_EQ_I64(bad_first, 0);
  CHECK_EQ_I64(bad_min, 0);
  free(a);
  opsched_min_tree_free(&t);
}

/* Exact answers on a small fixed array. */
static void test_small(void) {
  opsched_min_tree t;
  CHECK(opsched_min_tree_init(&t, 5) == 0);
  int64_t v[5] = {7, 3, INT64_MAX, 9, 3};
  for (int32_t i = 0; i < 5; i++)
    opsched_min_tree_set(&t, i, v[i]);
  CHECK_EQ_I64(opsched_min_tree_first_at_most(&t, 0, 3), 1);
  CHECK_EQ_I64(opsched_min_tree_first_at_most(&t, 2, 3), 4);
  CHECK_EQ_I64(opsched_min_tree_first_at_most(&t, 2, 8), 4);
  CHECK_EQ_I64(opsched_min_tree_first_at_most(&t, 0, 2), -1);
  CHECK_EQ_I64(opsched_min_tree_first_at_most(&t, 5, 100), -1);
  CHECK_EQ_I64(opsched_min_tree_min(&t, 0, 1), 7);
  CHECK_EQ_I64(opsched_min_tree_min(&t, 2, 4), 9);
  CHECK_EQ_I64(opsched_min_tree_min(&t, 2, 3), INT64_MAX);
  opsched_min_tree_set(&t, 1, INT64_MAX); /* taken out */
  CHECK_EQ_I64(opsched_min_tree_first_at_most(&t, 0, 3), 4);
  CHECK_EQ_I64(opsched_min_tree_min(&t, 0, 4), 7);
  opsched_min_tree_free(&t);
}

int main(void) {
  test_small();
  for (int32_t n = 1; n <= 70; n += 3)
    test_random(n);
  test_random(64);
  test_random(1000);
  return check_report("test_min_tree");
}
