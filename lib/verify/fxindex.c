/* lib/verify/fxindex.c - per class and stream, the latest op (fxindex.h). */
#include "fxindex.h"
#include "verify_internal.h"

#include <stdlib.h>
#include <string.h>

static uint64_t mix(uint64_t h) { /* splitmix64's finalizer */
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebULL;
  return h ^ (h >> 31);
}

static size_t hash3(const uint64_t k[3]) {
  return (size_t)mix(k[0] ^ mix(k[1] ^ mix(k[2] + 0x9e3779b97f4a7c15ULL)));
}

static void tab_free(vtab *t) {
  free(t->key);
  free(t->val);
  memset(t, 0, sizeof *t);
}

/* The index of k's slot: its own, or the empty one where it belongs. */
static size_t tab_find(const vtab *t, const uint64_t k[3]) {
  size_t i = hash3(k) & (t->cap - 1);
  while (t->val[i] >= 0 && memcmp(t->key[i], k, sizeof t->key[i]))
    i = (i + 1) & (t->cap - 1);
  return i;
}

/* Doubles the table (at least 64 slots); 0 when out of memory. */
static int tab_grow(vtab *t) {
  vtab g = {NULL, NULL, t->cap ? 2 * t->cap : 64, t->n};
  g.key = malloc(g.cap * sizeof *g.key);
  g.val = malloc(g.cap * sizeof *g.val);
  if (!g.key || !g.val) {
    tab_free(&g);
    return 0;
  }
  for (size_t i = 0; i < g.cap; i++)
    g.val[i] = -1;
  for (size_t i = 0; i < t->cap; i++)
    if (t->val[i] >= 0) {
      size_t j = tab_find(&g, t->key[i]);
      memcpy(g.key[j], t->key[i], sizeof g.key[j]);
      g.val[j] = t->val[i];
    }
  tab_free(t);
  *t = g;
  return 1;
}

/* The value of k, or when absent and `fresh` >= 0, k inserted with it;
 * -1 when absent (or out of memory: *oom set). */
static int32_t tab_get(vtab *t, const uint64_t k[3], int32_t fresh, int *oom) {
  if (t->cap) {
    size_t i = tab_find(t, k);
    if (t->val[i] >= 0 || fresh < 0)
      return t->val[i];
  } else if (fresh < 0)
    return -1;
  if (2 * (t->n + 1) > t->cap && !tab_grow(t)) {
    *oom = 1;
    return -1;
  }
  size_t i = tab_find(t, k);
  memcpy(t->key[i], k, sizeof t->key[i]);
  t->val[i] = fresh;
  t->n++;
  return fresh;
}

void vfx_index_free(vfxindex *ix) {
  tab_free(&ix->classes);
  tab_free(&ix->slots);
  free(ix->head);
  free(ix->e);
  memset(ix, 0, sizeof *ix);
}

int32_t vfx_class(vfxindex *ix, uint64_t a, uint64_t b, uint64_t c, int create) {
  const uint64_t k[3] = {a, b, c};
  if (!create)
    return tab_get(&ix->classes, k, -1, &ix->oom);
  if (!vreserve((void **)&ix->head, ix->nclass + 1, &ix->capclass, sizeof *ix->head)) {
    ix->oom = 1;
    return -1;
  }
  int32_t id = tab_get(&ix->classes, k, (int32_t)ix->nclass, &ix->oom);
  if (id == (int32_t)ix->nclass)
    ix->head[ix->nclass++] = -1;
  return id;
}

void vfx_note(vfxindex *ix, int32_t cls, int32_t stream, int32_t x) {
  const uint64_t k[3] = {(uint64_t)cls, (uint64_t)(int64_t)stream, 0};
  if (!vreserve((void **)&ix->e, ix->ne + 1, &ix->cape, sizeof *ix->e)) {
    ix->oom = 1;
    return;
  }
  int32_t i = tab_get(&ix->slots, k, (int32_t)ix->ne, &ix->oom);
  if (i < 0)
    return;
  if (i == (int32_t)ix->ne) {
    ix->e[i] = (vlast){stream, x, ix->head[cls]};
    ix->head[cls] = i;
    ix->ne++;
  }
  ix->e[i].last = x;
}

int32_t vfx_first(const vfxindex *ix, int32_t cls) { return cls < 0 ? -1 : ix->head[cls]; }
