#include "heap.h"

#include "alloc.h"

#include <stddef.h>

/* Keyed order: ka < kb, ties by the smaller id. */
static int key_before(int64_t ka, int32_t a, int64_t kb, int32_t b) {
  return ka < kb || (ka == kb && a < b);
}

static int before(const opsched_heap *h, int32_t a, int32_t b) {
  if (h->less)
    return h->less(h->ctx, a, b);
  return key_before(h->keys[a], a, h->keys[b], b);
}

/* opsched_heap_push in the keyed order, each key read once. */
static void push_keyed(opsched_heap *heap, int32_t id) {
  const int64_t *keys = heap->keys;
  int32_t *ids = heap->ids;
  int64_t k = keys[id], i = heap->size++;
  while (i > 0) {
    int64_t parent = (i - 1) / 2;
    int32_t p = ids[parent];
    if (!key_before(k, id, keys[p], p))
      break;
    ids[i] = p;
    i = parent;
  }
  ids[i] = id;
}

void opsched_heap_init(opsched_heap *heap, int32_t *ids, const int64_t *keys) {
  heap->ids = ids;
  heap->size = 0;
  heap->cap = -1;
  heap->keys = keys;
  heap->less = NULL;
  heap->ctx = NULL;
}

void opsched_heap_init_less(opsched_heap *heap, int32_t *ids,
                            opsched_heap_less less, const void *ctx) {
  opsched_heap_init(heap, ids, NULL);
  heap->less = less;
  heap->ctx = ctx;
}

int opsched_heap_init_owned(opsched_heap *heap, int64_t cap,
                            opsched_heap_less less, const void *ctx) {
  opsched_heap_init_less(heap, NULL, less, ctx);
  heap->cap = cap > 16 ? cap : 16;
  heap->ids = opsched_alloc_array((size_t)heap->cap, sizeof *heap->ids);
  return heap->ids ? 0 : -1;
}

void opsched_heap_free(opsched_heap *heap) {
  if (heap->cap >= 0)
    opsched_free(heap->ids);
  heap->ids = NULL;
  heap->size = 0;
}

int opsched_heap_push(opsched_heap *heap, int32_t id) {
  if (heap->cap >= 0 && heap->size == heap->cap) {
    int32_t *ids = opsched_realloc_array(heap->ids, (size_t)heap->cap * 2, sizeof *ids);
    if (!ids)
      return -1;
    heap->ids = ids;
    heap->cap *= 2;
  }
  if (!heap->less) {
    push_keyed(heap, id);
    return 0;
  }
  int64_t i = heap->size++;
  while (i > 0) {
    int64_t parent = (i - 1) / 2;
    if (!before(heap, id, heap->ids[parent]))
      break;
    heap->ids[i] = heap->ids[parent];
    i = parent;
  }
  heap->ids[i] = id;
  return 0;
}

/* opsched_heap_pop in the keyed order: the same comparisons, each key read
 * once. */
static int32_t pop_keyed(opsched_heap *heap) {
  const int64_t *keys = heap->keys;
  int32_t *ids = heap->ids;
  int32_t top = ids[0];
  int32_t last = ids[--heap->size];
  int64_t i = 0, n = heap->size, kl = keys[last];
  for (;;) {
    int64_t child = 2 * i + 1;
    if (child >= n)
      break;
    int32_t c = ids[child];
    int64_t kc = keys[c];
    if (child + 1 < n) {
      int32_t d = ids[child + 1];
      int64_t kd = keys[d];
      if (key_before(kd, d, kc, c)) {
        child++;
        c = d;
        kc = kd;
      }
    }
    if (!key_before(kc, c, kl, last))
      break;
    ids[i] = c;
    i = child;
  }
  if (n > 0)
    ids[i] = last;
  return top;
}

int32_t opsched_heap_pop(opsched_heap *heap) {
  if (!heap->less)
    return pop_keyed(heap);
  int32_t top = heap->ids[0];
  int32_t last = heap->ids[--heap->size];
  int64_t i = 0, n = heap->size;
  for (;;) {
    int64_t child = 2 * i + 1;
    if (child >= n)
      break;
    if (child + 1 < n && before(heap, heap->ids[child + 1], heap->ids[child]))
      child++;
    if (!before(heap, heap->ids[child], last))
      break;
    heap->ids[i] = heap->ids[child];
    i = child;
  }
  if (n > 0)
    heap->ids[i] = last;
  return top;
}

int opsched_bitq_init(opsched_bitq *q, int32_t n) {
  int64_t words = ((int64_t)(n > 0 ? n : 1) + 63) / 64, total = 0;
  int32_t levels = 0;
  int64_t count[OPSCHED_BITQ_LEVELS];
  for (;;) {
    count[levels++] = words;
    total += words;
    if (words == 1)
      break;
    words = (words + 63) / 64;
  }
  uint64_t *mem = opsched_alloc_array((size_t)total, sizeof *mem);
  q->levels = levels;
  q->size = 0;
  for (int32_t l = 0; l < OPSCHED_BITQ_LEVELS; l++) {
    q->word[l] = l < levels ? mem : NULL;
    if (mem && l < levels)
      mem += count[l];
  }
  return q->word[0] ? 0 : -1;
}

void opsched_bitq_free(opsched_bitq *q) {
  opsched_free(q->word[0]);
  for (int32_t l = 0; l < OPSCHED_BITQ_LEVELS; l++)
    q->word[l] = NULL;
  q->size = 0;
}
