#include "ptrmap.h"

#include <stdlib.h>

static size_t slot(const opsched_ptrmap *m, const void *key) {
  uint64_t h = (uint64_t)(uintptr_t)key;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return (size_t)h & m->mask;
}

int opsched_ptrmap_init(opsched_ptrmap *m, size_t count) {
  size_t cap = 16;
  while (cap < 2 * count)
    cap *= 2;
  m->entries = calloc(cap, sizeof *m->entries);
  m->mask = cap - 1;
  return m->entries == NULL;
}

void opsched_ptrmap_free(opsched_ptrmap *m) {
  free(m->entries);
  m->entries = NULL;
}

void opsched_ptrmap_put(opsched_ptrmap *m, const void *key, int32_t value) {
  size_t i = slot(m, key);
  while (m->entries[i].key)
    i = (i + 1) & m->mask;
  m->entries[i].key = key;
  m->entries[i].value = value;
}

int32_t opsched_ptrmap_get(const opsched_ptrmap *m, const void *key) {
  for (size_t i = slot(m, key); m->entries[i].key; i = (i + 1) & m->mask)
    if (m->entries[i].key == key)
      return m->entries[i].value;
  return -1;
}
