/* Two treaps over one node pool (free_tree.h). Priorities are a fixed hash
 * of the node index, so the shapes are deterministic. */
#include "free_tree.h"

#include "alloc.h"

#include <stddef.h>

int opsched_ft_init(free_tree *F, int32_t blocks) {
  F->fo = opsched_alloc_array((size_t)blocks, sizeof *F->fo);
  F->fs = opsched_alloc_array((size_t)blocks, sizeof *F->fs);
  F->ch = opsched_alloc_array(4 * (size_t)blocks, sizeof *F->ch);
  F->spare = opsched_alloc_array((size_t)blocks, sizeof *F->spare);
  F->root[0] = F->root[1] = -1;
  F->nspare = 0;
  if (!F->fo || !F->fs || !F->ch || !F->spare)
    return -1;
  for (int32_t x = blocks - 1; x >= 0; x--)
    F->spare[F->nspare++] = x;
  return 0;
}

void opsched_ft_free(free_tree *F) {
  opsched_free(F->fo);
  opsched_free(F->fs);
  opsched_free(F->ch);
  opsched_free(F->spare);
}


static uint32_t node_priority(int32_t x) {
  uint32_t h = (uint32_t)x * 2654435761u;
  return h ^ (h >> 15);
}

/* Key order of nodes a, b in tree t. */
static int ft_less(const free_tree *F, int t, int32_t a, int32_t b) {
  if (t == 1 && F->fs[a] != F->fs[b])
    return F->fs[a] < F->fs[b];
  return F->fo[a] < F->fo[b];
}

static int32_t *ft_child(free_tree *F, int t, int32_t x, int right) {
  return &F->ch[4 * (size_t)x + 2 * (size_t)t + (size_t)right];
}

/* Splits tree t at node-key k: *l gets keys < k, *r the rest. */
static void ft_split(free_tree *F, int t, int32_t root, int32_t k, int32_t *l, int32_t *r) {
  if (root < 0) {
    *l = *r = -1;
    return;
  }
  if (ft_less(F, t, root, k)) {
    ft_split(F, t, *ft_child(F, t, root, 1), k, ft_child(F, t, root, 1), r);
    *l = root;
  } else {
    ft_split(F, t, *ft_child(F, t, root, 0), k, l, ft_child(F, t, root, 0));
    *r = root;
  }
}

static int32_t ft_merge(free_tree *F, int t, int32_t a, int32_t b) {
  if (a < 0)
    return b;
  if (b < 0)
    return a;
  if (node_priority(a) > node_priority(b)) {
    *ft_child(F, t, a, 1) = ft_merge(F, t, *ft_child(F, t, a, 1), b);
    return a;
  }
  *ft_child(F, t, b, 0) = ft_merge(F, t, a, *ft_child(F, t, b, 0));
  return b;
}

static void ft_insert(free_tree *F, int32_t x) {
  for (int t = 0; t < 2; t++) {
    int32_t l, r;
    *ft_child(F, t, x, 0) = *ft_child(F, t, x, 1) = -1;
    ft_split(F, t, F->root[t], x, &l, &r);
    F->root[t] = ft_merge(F, t, ft_merge(F, t, l, x), r);
  }
}

/* Removes node x (present in both trees) and returns it to the pool. */
void opsched_ft_remove(free_tree *F, int32_t x) {
  for (int t = 0; t < 2; t++) {
    int32_t *link = &F->root[t];
    while (*link != x)
      link = ft_child(F, t, *link, !ft_less(F, t, x, *link));
    *link = ft_merge(F, t, *ft_child(F, t, x, 0), *ft_child(F, t, x, 1));
  }
  F->spare[F->nspare++] = x;
}

int32_t opsched_ft_new(free_tree *F, int64_t off, int64_t size) {
  int32_t x = F->spare[--F->nspare];
  F->fo[x] = off;
  F->fs[x] = size;
  ft_insert(F, x);
  return x;
}

/* Tree 0: the last block with offset < off (prev) or the first with offset >
 * off (next); -1 when none. */
int32_t opsched_ft_neighbour(free_tree *F, int64_t off, int next) {
  int32_t x = F->root[0], found = -1;
  while (x >= 0) {
    if (next ? F->fo[x] > off : F->fo[x] < off) {
      found = x;
      x = *ft_child(F, 0, x, !next);
    } else {
      x = *ft_child(F, 0, x, next);
    }
  }
  return found;
}

/* Tree 1: the smallest block of at least `size` bytes, lowest offset among
 * equal sizes; -1 when none. */
int32_t opsched_ft_best_fit(free_tree *F, int64_t size) {
  int32_t x = F->root[1], found = -1;
  while (x >= 0) {
    if (F->fs[x] >= size) {
      found = x;
      x = *ft_child(F, 1, x, 0);
    } else {
      x = *ft_child(F, 1, x, 1);
    }
  }
  return found;
}

