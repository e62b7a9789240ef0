/* lib/mlir/ptrmap.h - pointer -> index map (open addressing), internal.
 * Maps an op's identity to its position in a block. Fixed capacity. */
#ifndef OPSCHED_MLIR_PTRMAP_H
#define OPSCHED_MLIR_PTRMAP_H

#include <stddef.h>
#include <stdint.h>

/* A key and its value side by side: a lookup touches one cache line. */
typedef struct opsched_ptrmap_entry {
  const void *key;
  int32_t value;
} opsched_ptrmap_entry;

typedef struct opsched_ptrmap {
  opsched_ptrmap_entry *entries;
  size_t mask;
} opsched_ptrmap;

/* Room for `count` keys; returns non-zero when out of memory. */
int opsched_ptrmap_init(opsched_ptrmap *map, size_t count);
void opsched_ptrmap_free(opsched_ptrmap *map);
/* Inserts (key, value); key must be non-NULL and not present yet. */
void opsched_ptrmap_put(opsched_ptrmap *map, const void *key, int32_t value);
/* The value of `key`, or -1. */
int32_t opsched_ptrmap_get(const opsched_ptrmap *map, const void *key);

#endif
