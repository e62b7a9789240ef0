/* lib/core/heap.h - the core's one binary min-heap of int32 ids (internal).
 *
 * Every ready queue and priority queue of the core uses it. The order is
 * either a key table (keys[id], ties by smaller id) or a caller's strict
 * total order; both make the pop sequence independent of how items were
 * pushed, so every scheduler stays deterministic. */
#ifndef OPSCHED_CORE_HEAP_H
#define OPSCHED_CORE_HEAP_H

#include <stdint.h>

/* Non-zero when a must come out before b; must break every tie. */
typedef int (*opsched_heap_less)(const void *ctx, int32_t a, int32_t b);

typedef struct opsched_heap {
  int32_t *ids;
  int64_t size, cap;     /* cap < 0: caller storage, never grown */
  const int64_t *keys;   /* keyed order when less == NULL */
  opsched_heap_less less;
  const void *ctx;
} opsched_heap;

/* Keyed order on caller storage: `ids` must hold every id queued at once;
 * keys[id] must not change while id is queued. */
void opsched_heap_init(opsched_heap *heap, int32_t *ids, const int64_t *keys);
/* Caller's order on caller storage (sized as above). */
void opsched_heap_init_less(opsched_heap *heap, int32_t *ids,
                            opsched_heap_less less, const void *ctx);
/* Caller's order on storage the heap owns and grows; 0, or -1 when out of
 * memory. Release with opsched_heap_free. */
int opsched_heap_init_owned(opsched_heap *heap, int64_t cap,
                            opsched_heap_less less, const void *ctx);
void opsched_heap_free(opsched_heap *heap);

/* 0, or -1 when an owned heap cannot grow (the heap is unchanged). */
int opsched_heap_push(opsched_heap *heap, int32_t id);
/* Removes and returns the first id; the heap must not be empty. */
int32_t opsched_heap_pop(opsched_heap *heap);

/* A min-queue of distinct integers in [0, n) as a bitmap with summary
 * levels (bit i of a level's word w is set when word 64w + i of the level
 * below is not zero): push and pop-min in O(log64 n), each a few words
 * (n / 8 bytes at the bottom). For a ready queue over positions of a
 * priority order sorted once (ties already broken): the heap's pops without
 * its comparisons or its reads of scattered keys. */
enum { OPSCHED_BITQ_LEVELS = 6 }; /* 64^6 > 2^31 */
typedef struct opsched_bitq {
  uint64_t *word[OPSCHED_BITQ_LEVELS]; /* word[0]: the positions */
  int32_t levels;
  int32_t size; /* positions queued */
} opsched_bitq;

/* An empty queue for [0, n), n >= 0; 0, or -1 when out of memory. */
int opsched_bitq_init(opsched_bitq *q, int32_t n);
void opsched_bitq_free(opsched_bitq *q);

/* Queues i, which must not be queued. */
static inline void opsched_bitq_push(opsched_bitq *q, int32_t i) {
  uint32_t x = (uint32_t)i;
  q->size++;
  for (int32_t l = 0; l < q->levels; l++, x >>= 6) {
    uint64_t *w = &q->word[l][x >> 6], old = *w;
    *w = old | (uint64_t)1 << (x & 63);
    if (old) /* the levels above know this word already */
      return;
  }
}

/* Removes and returns the smallest queued integer; q must not be empty. */
static inline int32_t opsched_bitq_pop(opsched_bitq *q) {
  uint32_t x = 0;
  for (int32_t l = q->levels - 1; l >= 0; l--)
    x = x << 6 | (uint32_t)__builtin_ctzll(q->word[l][x]);
  q->size--;
  uint32_t y = x;
  for (int32_t l = 0; l < q->levels; l++, y >>= 6) {
    uint64_t *w = &q->word[l][y >> 6];
    *w &= *w - 1; /* the lowest bit is y's: the smallest was taken */
    if (*w)
      break;
  }
  return (int32_t)x;
}

#endif
