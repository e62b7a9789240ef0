#include "ptrmap.h"
#include "../core/alloc.h" /* large tables in huge pages */

#include <stdlib.h>

/* A put into the range's table probing further than this moves every key
 * to the hashed table. */
enum { PROBE_MAX = 64 };

static size_t hashed_slot(const opsched_ptrmap *m, const void *key) {
  uint64_t h = (uint64_t)(uintptr_t)key;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return (size_t)h & m->mask;
}

/* The hashed table, room for every key (made when first needed by a map
 * with a range: most have no key outside it). Non-zero when out of memory. */
static int make_hashed(opsched_ptrmap *m) {
  m->entries = opsched_alloc_array(m->mask + 1, sizeof *m->entries);
  return m->entries == NULL;
}

/* No table yet; the hashed one's size. */
static void init_empty(opsched_ptrmap *m, size_t count) {
  size_t cap = 16;
  while (cap < 2 * count)
    cap *= 2;
  m->entries = NULL;
  m->mask = cap - 1;
  m->near = NULL;
  m->near_mask = 0;
  m->lo = m->span = 0;
  m->shift = 0;
}

int opsched_ptrmap_init(opsched_ptrmap *m, size_t count) {
  init_empty(m, count);
  return make_hashed(m);
}

int opsched_ptrmap_init_near(opsched_ptrmap *m, size_t count, const void *lo,
                             const void *hi) {
  uintptr_t span = (uintptr_t)hi - (uintptr_t)lo;
  if ((uintptr_t)lo > (uintptr_t)hi || span / 8 >= UINT32_MAX)
    return opsched_ptrmap_init(m, count);
  init_empty(m, count);
  /* Slots of 2^shift bytes (at least 8: one key each), about 2 to 4 per
   * key across the range. */
  unsigned shift = 3;
  while ((span >> shift) >= 4 * (count + 1))
    shift++;
  size_t cap = 16; /* past the range's slots, and at most half full */
  while (cap <= (span >> shift) || cap < 2 * count + 2)
    cap *= 2;
  m->near = opsched_alloc_array(cap, sizeof *m->near);
  if (!m->near)
    return 1;
  m->near_mask = cap - 1;
  m->lo = (uintptr_t)lo;
  m->span = span;
  m->shift = shift;
  return 0;
}

int opsched_ptrmap_init_around(opsched_ptrmap *m, size_t count, const opsched_ptrmap *ops,
                               size_t before) {
  if (!ops || !ops->near)
    return opsched_ptrmap_init(m, count);
  uintptr_t lo = ops->lo >= before ? ops->lo - before : 0;
  return opsched_ptrmap_init_near(m, count, (const void *)lo, (const void *)(ops->lo + ops->span));
}

void opsched_ptrmap_free(opsched_ptrmap *m) {
  opsched_free(m->entries);
  opsched_free(m->near);
  m->entries = NULL;
  m->near = NULL;
}

/* The key's offset / 8 + 1 when the range's table (there is one) holds
 * it, else 0. */
static uint32_t near_off(const opsched_ptrmap *m, const void *key) {
  uintptr_t off = (uintptr_t)key - m->lo; /* wraps for keys below lo */
  if (off > m->span || (off & 7u))
    return 0;
  return (uint32_t)(off >> 3) + 1;
}

/* Open addressing into the hashed table (it exists). */
static void put_entry(opsched_ptrmap *m, const void *key, int32_t value) {
  size_t i = hashed_slot(m, key);
  while (m->entries[i].key)
    i = (i + 1) & m->mask;
  m->entries[i].key = key;
  m->entries[i].value = value;
}

static int put_hashed(opsched_ptrmap *m, const void *key, int32_t value) {
  if (!m->entries && make_hashed(m))
    return 1;
  put_entry(m, key, value);
  return 0;
}

/* Every key of the range's table to the hashed one (which has room for
 * all keys), for good. Out of memory, the range's table stays. */
static void drop_near(opsched_ptrmap *m) {
  if (!m->entries && make_hashed(m))
    return;
  for (size_t i = 0; i <= m->near_mask; i++)
    if (m->near[i].off)
      put_hashed(m, (const void *)(m->lo + ((uintptr_t)(m->near[i].off - 1) << 3)),
                 m->near[i].value);
  opsched_free(m->near);
  m->near = NULL;
}

/* put with a range's table: its keys there, others hashed (the hashed
 * table made on the first). */
static int put_near(opsched_ptrmap *m, const void *key, int32_t value) {
  uint32_t off = near_off(m, key);
  if (!off)
    return put_hashed(m, key, value);
  size_t i = ((size_t)(off - 1) << 3) >> m->shift, probes = 0;
  while (m->near[i].off) {
    i = (i + 1) & m->near_mask;
    probes++;
  }
  m->near[i].off = off;
  m->near[i].value = value;
  if (probes > PROBE_MAX)
    drop_near(m);
  return 0;
}

/* get with a range's table. */
static int32_t get_near(const opsched_ptrmap *m, const void *key) {
  uint32_t off = near_off(m, key);
  if (!off) {
    if (!m->entries)
      return -1;
    for (size_t i = hashed_slot(m, key); m->entries[i].key; i = (i + 1) & m->mask)
      if (m->entries[i].key == key)
        return m->entries[i].value;
    return -1;
  }
  for (size_t i = ((size_t)(off - 1) << 3) >> m->shift; m->near[i].off;
       i = (i + 1) & m->near_mask)
    if (m->near[i].off == off)
      return m->near[i].value;
  return -1;
}

/* Without a range's table (every small block), the hashed table exists:
 * the plain open-addressing paths. */
int opsched_ptrmap_put(opsched_ptrmap *m, const void *key, int32_t value) {
  if (m->near)
    return put_near(m, key, value);
  put_entry(m, key, value);
  return 0;
}

int32_t opsched_ptrmap_get(const opsched_ptrmap *m, const void *key) {
  if (m->near)
    return get_near(m, key);
  for (size_t i = hashed_slot(m, key); m->entries[i].key; i = (i + 1) & m->mask)
    if (m->entries[i].key == key)
      return m->entries[i].value;
  return -1;
}

int opsched_ptrmap_by_address(const opsched_ptrmap *m) { return m->near != NULL; }
