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
  m->keys = calloc(cap, sizeof *m->keys);
  m->values = calloc(cap, sizeof *m->values);
  m->mask = cap - 1;
  if (!m->keys || !m->values) {
    opsched_ptrmap_free(m);
    return 1;
  }
  return 0;
}

void opsched_ptrmap_free(opsched_ptrmap *m) {
  free((void *)m->keys);
  free(m->values);
  m->keys = NULL;
  m->values = NULL;
}

void opsched_ptrmap_put(opsched_ptrmap *m, const void *key, int32_t value) {
  size_t i = slot(m, key);
  while (m->keys[i])
    i = (i + 1) & m->mask;
  m->keys[i] = key;
  m->values[i] = value;
}

int32_t opsched_ptrmap_get(const opsched_ptrmap *m, const void *key) {
  for (size_t i = slot(m, key); m->keys[i]; i = (i + 1) & m->mask)
    if (m->keys[i] == key)
      return m->values[i];
  return -1;
}
