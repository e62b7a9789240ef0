/* lib/core/heap.h - a binary min-heap of node ids keyed by (key, id), internal.
 *
 * The ready queue of every list scheduler. Ties on key break by smaller id,
 * which makes all schedulers deterministic. */
#ifndef OPSCHED_CORE_HEAP_H
#define OPSCHED_CORE_HEAP_H

#include <stdint.h>

typedef struct opsched_heap {
  int32_t *ids;
  int64_t *keys; /* keys[id]: the caller's priority table, smaller first */
  int32_t size;
} opsched_heap;

/* `ids` must have room for every node that will be in the heap at once;
 * `keys` is indexed by node id and must not change while the id is queued. */
void opsched_heap_init(opsched_heap *heap, int32_t *ids, int64_t *keys);
void opsched_heap_push(opsched_heap *heap, int32_t id);
/* Removes and returns the smallest (key, id); the heap must not be empty. */
int32_t opsched_heap_pop(opsched_heap *heap);

#endif
