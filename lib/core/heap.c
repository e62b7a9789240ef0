#include "heap.h"

static int less(const opsched_heap *h, int32_t a, int32_t b) {
  int64_t ka = h->keys[a], kb = h->keys[b];
  return ka < kb || (ka == kb && a < b);
}

void opsched_heap_init(opsched_heap *heap, int32_t *ids, int64_t *keys) {
  heap->ids = ids;
  heap->keys = keys;
  heap->size = 0;
}

void opsched_heap_push(opsched_heap *heap, int32_t id) {
  int32_t i = heap->size++;
  while (i > 0) {
    int32_t parent = (i - 1) / 2;
    if (!less(heap, id, heap->ids[parent]))
      break;
    heap->ids[i] = heap->ids[parent];
    i = parent;
  }
  heap->ids[i] = id;
}

int32_t opsched_heap_pop(opsched_heap *heap) {
  int32_t top = heap->ids[0];
  int32_t last = heap->ids[--heap->size];
  int32_t i = 0, n = heap->size;
  for (;;) {
    int32_t child = 2 * i + 1;
    if (child >= n)
      break;
    if (child + 1 < n && less(heap, heap->ids[child + 1], heap->ids[child]))
      child++;
    if (!less(heap, heap->ids[child], last))
      break;
    heap->ids[i] = heap->ids[child];
    i = child;
  }
  if (n > 0)
    heap->ids[i] = last;
  return top;
}
