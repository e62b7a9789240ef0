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

#endif
