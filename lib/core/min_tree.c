#include "min_tree.h"

#include "alloc.h"

int opsched_min_tree_init(opsched_min_tree *t, int32_t n) {
  int32_t leaves = 1;
  while (leaves < n)
    leaves *= 2;
  t->node = opsched_alloc_array_raw(2 * (size_t)leaves, sizeof *t->node);
  t->leaves = leaves;
  t->n = n;
  if (!t->node)
    return -1;
  for (int32_t i = 0; i < 2 * leaves; i++)
    t->node[i] = INT64_MAX;
  return 0;
}

void opsched_min_tree_free(opsched_min_tree *t) {
  opsched_free(t->node);
  t->node = NULL;
}

void opsched_min_tree_set(opsched_min_tree *t, int32_t i, int64_t v) {
  int32_t x = t->leaves + i;
  t->node[x] = v;
  for (x /= 2; x >= 1; x /= 2) {
    int64_t m = t->node[2 * x] < t->node[2 * x + 1] ? t->node[2 * x] : t->node[2 * x + 1];
    if (t->node[x] == m)
      break; /* the ancestors hold the same minima */
    t->node[x] = m;
  }
}

int32_t opsched_min_tree_first_at_most(const opsched_min_tree *t, int32_t from,
                                       int64_t bound) {
  if (from < 0)
    from = 0;
  if (from >= t->n)
    return -1;
  /* Up from the leaf: the first subtree at or right of `from` holding a
   * value <= bound, then down to its leftmost such leaf. */
  int32_t x = t->leaves + from;
  if (t->node[x] > bound) {
    for (;;) {
      while (x & 1) { /* a right child: its parent's right part is done */
        x /= 2;
        if (x <= 1)
          return -1;
      }
      x++; /* the right sibling */
      if (t->node[x] <= bound)
        break;
    }
    while (x < t->leaves)
      x = t->node[2 * x] <= bound ? 2 * x : 2 * x + 1;
  }
  int32_t i = x - t->leaves;
  return i < t->n ? i : -1;
}

int64_t opsched_min_tree_min(const opsched_min_tree *t, int32_t lo, int32_t hi) {
  int64_t m = INT64_MAX;
  if (lo < 0)
    lo = 0;
  if (hi > t->n)
    hi = t->n;
  for (int32_t l = t->leaves + lo, r = t->leaves + hi; l < r; l /= 2, r /= 2) {
    if (l & 1) {
      m = t->node[l] < m ? t->node[l] : m;
      l++;
    }
    if (r & 1) {
      r--;
      m = t->node[r] < m ? t->node[r] : m;
    }
  }
  return m;
}
