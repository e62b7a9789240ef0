/* lib/mlir/ptrmap.h - pointer -> index map (open addressing), internal.
 * Maps an op's (or a value's) identity to its position in a block. Fixed
 * capacity: at most the `count` given at init.
 *
 * Placement: a map made with opsched_ptrmap_init_near places the keys of
 * an address range [lo, hi] by address (slot = (key - lo) >> shift, in a
 * table of 8-byte entries), so keys close in memory share cache lines and
 * pages. MLIR allocates a block's ops (and each op's results, just before
 * it) one after the other while parsing, so a block's ops lie at nearly
 * ascending addresses in program order: a pass over the block then probes
 * the table nearly sequentially, where a scrambling hash misses the cache
 * on every lookup of a table of tens of MB (a million ops). Other keys
 * (outside the range, or misaligned) go to a hashed table; a put that
 * probes too far (keys crowded in part of the range) moves every key
 * there, so the worst case is that of a hash map. Where a key lands never
 * changes what get returns. */
#ifndef OPSCHED_MLIR_PTRMAP_H
#define OPSCHED_MLIR_PTRMAP_H

#include <stddef.h>
#include <stdint.h>

/* A key and its value side by side: a lookup touches one cache line. */
typedef struct opsched_ptrmap_entry {
  const void *key;
  int32_t value;
} opsched_ptrmap_entry;

/* A key of the range as its offset / 8 plus 1 (0: empty). */
typedef struct opsched_ptrmap_near {
  uint32_t off;
  int32_t value;
} opsched_ptrmap_near;

typedef struct opsched_ptrmap {
  opsched_ptrmap_entry *entries; /* hashed keys; NULL: none yet */
  size_t mask;
  opsched_ptrmap_near *near; /* keys placed by address; NULL: none */
  size_t near_mask;
  uintptr_t lo, span; /* the range: [lo, lo + span] */
  unsigned shift;
} opsched_ptrmap;

/* Room for `count` keys, every key hashed; returns non-zero when out of
 * memory. */
int opsched_ptrmap_init(opsched_ptrmap *map, size_t count);
/* Room for `count` keys, most of them expected in [lo, hi]: those are
 * placed by address (none when lo > hi or the range is too wide). Non-zero
 * when out of memory. */
int opsched_ptrmap_init_near(opsched_ptrmap *map, size_t count, const void *lo,
                             const void *hi);
/* Room for `count` keys expected near those of `ops` (a map made by
 * init_near, or NULL): its range extended `before` bytes down (an op's
 * results lie just before it). Non-zero when out of memory. */
int opsched_ptrmap_init_around(opsched_ptrmap *map, size_t count, const opsched_ptrmap *ops,
                               size_t before);
void opsched_ptrmap_free(opsched_ptrmap *map);
/* Inserts (key, value); key must be non-NULL and not present yet.
 * Non-zero when out of memory (only a map made by init_near or
 * init_around allocates here, its hashed table on the first key outside
 * its range); the map is then unchanged. */
int opsched_ptrmap_put(opsched_ptrmap *map, const void *key, int32_t value);
/* The value of `key`, or -1. */
int32_t opsched_ptrmap_get(const opsched_ptrmap *map, const void *key);
/* Whether keys of the range are (still) placed by address. */
int opsched_ptrmap_by_address(const opsched_ptrmap *map);

#endif
