/* The sweep packer's free list (free_tree.h): a treap by (size, offset)
 * and two offset tables over one growing node pool. Priorities are a fixed
 * hash of the node index, so the shapes are deterministic. */
#include "free_tree.h"

#include "alloc.h"

#include <stddef.h>

static int table_init(ft_table *T, int bits) {
  int64_t cap = (int64_t)1 << bits;
  T->bits = bits;
  T->cap = cap;
  T->used = 0;
  T->slot = opsched_alloc_array_raw((size_t)cap, sizeof *T->slot);
  if (!T->slot)
    return -1;
  for (int64_t i = 0; i < cap; i++)
    T->slot[i].val = -1;
  return 0;
}

static void table_free(ft_table *T) { opsched_free(T->slot); }

static int64_t table_slot(const ft_table *T, int64_t key) {
  return (int64_t)(((uint64_t)key * 0x9E3779B97F4A7C15u) >> (64 - T->bits));
}

/* The slot holding key, or the empty slot where it would go. */
static int64_t table_find(const ft_table *T, int64_t key) {
  int64_t i = table_slot(T, key);
  while (T->slot[i].val >= 0 && T->slot[i].key != key)
    i = (i + 1) & (T->cap - 1);
  return i;
}

static int table_put(ft_table *T, int64_t key, int32_t val);

/* Doubles the table, every entry put again. */
static int table_grow(ft_table *T) {
  ft_table old = *T;
  if (old.bits >= 40)
    return -1;
  if (table_init(T, old.bits + 1) != 0) {
    table_free(T);
    *T = old;
    return -1;
  }
  for (int64_t i = 0; i < old.cap; i++)
    if (old.slot[i].val >= 0)
      table_put(T, old.slot[i].key, old.slot[i].val);
  table_free(&old);
  return 0;
}

/* key -> val (the key absent); load at most a half. */
static int table_put(ft_table *T, int64_t key, int32_t val) {
  if (2 * (T->used + 1) > T->cap && table_grow(T) != 0)
    return -1;
  int64_t i = table_find(T, key);
  T->slot[i].key = key;
  T->slot[i].val = val;
  T->used++;
  return 0;
}

/* Removes key (present): backward-shift deletion keeps every probe chain
 * unbroken. */
static void table_del(ft_table *T, int64_t key) {
  int64_t mask = T->cap - 1, i = table_find(T, key), j = i;
  for (;;) {
    j = (j + 1) & mask;
    if (T->slot[j].val < 0)
      break;
    int64_t home = table_slot(T, T->slot[j].key);
    /* j's entry may fill the hole at i unless its home lies in (i, j]. */
    if (((j - home) & mask) >= ((j - i) & mask)) {
      T->slot[i] = T->slot[j];
      i = j;
    }
  }
  T->slot[i].val = -1;
  T->used--;
}

int opsched_ft_init(free_tree *F, int32_t blocks) {
  F->cap = blocks < 64 ? 64 : blocks;
  F->count = 0;
  F->spare = F->root[FT_BY_SIZE] = F->root[FT_BY_OFFSET] = -1;
  F->oom = 0;
  F->ordered = F->starts_only = 0;
  F->node = opsched_alloc_array_raw((size_t)F->cap, sizeof *F->node);
  int ok = F->node != NULL;
  ok &= table_init(&F->start, 6) == 0;
  ok &= table_init(&F->end, 6) == 0;
  return ok ? 0 : -1;
}

int opsched_ft_init_ordered(free_tree *F, int32_t blocks) {
  int rc = opsched_ft_init(F, blocks);
  F->ordered = 1;
  return rc;
}

int opsched_ft_init_starts(free_tree *F, int32_t blocks) {
  int rc = opsched_ft_init(F, blocks);
  F->starts_only = 1;
  return rc;
}

void opsched_ft_free(free_tree *F) {
  opsched_free(F->node);
  table_free(&F->start);
  table_free(&F->end);
}

static uint32_t node_priority(int32_t x) {
  uint32_t h = (uint32_t)x * 2654435761u;
  return h ^ (h >> 15);
}

/* Node a before node b in treap t: by (size, offset) or by offset. */
static int ft_before(const ft_node *N, int t, int32_t a, int32_t b) {
  if (t == FT_BY_OFFSET || N[a].fs == N[b].fs)
    return N[a].fo < N[b].fo;
  return N[a].fs < N[b].fs;
}

/* Into treap t: down while the nodes outrank x, then the subtree there
 * split around x's key into x's children. */
static void treap_insert(free_tree *F, int t, int32_t x) {
  ft_node *N = F->node;
  uint32_t px = node_priority(x);
  int32_t *link = &F->root[t];
  while (*link >= 0 && node_priority(*link) > px)
    link = &N[*link].ch[t][!ft_before(N, t, x, *link)];
  int32_t u = *link, *l = &N[x].ch[t][0], *r = &N[x].ch[t][1];
  while (u >= 0) {
    if (ft_before(N, t, u, x)) {
      *l = u;
      l = &N[u].ch[t][1];
      u = *l;
    } else {
      *r = u;
      r = &N[u].ch[t][0];
      u = *r;
    }
  }
  *l = *r = -1;
  *link = x;
}

/* Out of treap t: x's link takes the merge of its children. */
static void treap_remove(free_tree *F, int t, int32_t x) {
  ft_node *N = F->node;
  int32_t *link = &F->root[t];
  while (*link != x)
    link = &N[*link].ch[t][!ft_before(N, t, x, *link)];
  int32_t a = N[x].ch[t][0], b = N[x].ch[t][1];
  while (a >= 0 && b >= 0) {
    if (node_priority(a) > node_priority(b)) {
      *link = a;
      link = &N[a].ch[t][1];
      a = *link;
    } else {
      *link = b;
      link = &N[b].ch[t][0];
      b = *link;
    }
  }
  *link = a >= 0 ? a : b;
}

int32_t opsched_ft_floor(const free_tree *F, int64_t off) {
  const ft_node *N = F->node;
  int32_t x = F->root[FT_BY_OFFSET], found = -1;
  while (x >= 0) {
    if (N[x].fo <= off) {
      found = x;
      x = N[x].ch[FT_BY_OFFSET][1];
    } else {
      x = N[x].ch[FT_BY_OFFSET][0];
    }
  }
  return found;
}

int32_t opsched_ft_new(free_tree *F, int64_t off, int64_t size) {
  int32_t x = F->spare;
  if (x >= 0) {
    F->spare = F->node[x].ch[FT_BY_SIZE][0];
  } else {
    if (F->count == F->cap) {
      ft_node *grown = F->cap > INT32_MAX / 2
                           ? NULL
                           : opsched_realloc_array(F->node, 2 * (size_t)F->cap, sizeof *grown);
      if (!grown) {
        F->oom = 1;
        return -1;
      }
      F->node = grown;
      F->cap *= 2;
    }
    x = F->count++;
  }
  F->node[x].fo = off;
  F->node[x].fs = size;
  if (table_put(&F->start, off, x) != 0 ||
      (!F->starts_only && table_put(&F->end, off + size, x) != 0)) {
    F->oom = 1;
    return -1;
  }
  if (F->starts_only)
    return x;
  treap_insert(F, FT_BY_SIZE, x);
  if (F->ordered)
    treap_insert(F, FT_BY_OFFSET, x);
  return x;
}

void opsched_ft_remove(free_tree *F, int32_t x) {
  if (!F->starts_only) {
    treap_remove(F, FT_BY_SIZE, x);
    if (F->ordered)
      treap_remove(F, FT_BY_OFFSET, x);
    table_del(&F->end, F->node[x].fo + F->node[x].fs);
  }
  table_del(&F->start, F->node[x].fo);
  F->node[x].ch[FT_BY_SIZE][0] = F->spare;
  F->spare = x;
}

int opsched_ft_resize(free_tree *F, int32_t x, int64_t off, int64_t size) {
  ft_node *n = &F->node[x];
  int sized = !F->starts_only;
  if (sized)
    treap_remove(F, FT_BY_SIZE, x);
  int reorder = F->ordered && off != n->fo;
  if (reorder)
    treap_remove(F, FT_BY_OFFSET, x);
  if (off != n->fo) {
    table_del(&F->start, n->fo);
    if (table_put(&F->start, off, x) != 0)
      F->oom = 1;
  }
  if (sized && off + size != n->fo + n->fs) {
    table_del(&F->end, n->fo + n->fs);
    if (table_put(&F->end, off + size, x) != 0)
      F->oom = 1;
  }
  n->fo = off;
  n->fs = size;
  if (sized)
    treap_insert(F, FT_BY_SIZE, x);
  if (reorder)
    treap_insert(F, FT_BY_OFFSET, x);
  return F->oom ? -1 : 0;
}

int32_t opsched_ft_at(const free_tree *F, int64_t off, int end) {
  const ft_table *T = end ? &F->end : &F->start;
  return T->slot[table_find(T, off)].val;
}

int32_t opsched_ft_best_fit(const free_tree *F, int64_t size) {
  const ft_node *N = F->node;
  int32_t x = F->root[FT_BY_SIZE], found = -1;
  while (x >= 0) {
    if (N[x].fs >= size) {
      found = x;
      x = N[x].ch[FT_BY_SIZE][0];
    } else {
      x = N[x].ch[FT_BY_SIZE][1];
    }
  }
  return found;
}
