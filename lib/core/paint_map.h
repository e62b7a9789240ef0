/* lib/core/paint_map.h - which buffer holds each byte of an arena last
 * (internal).
 *
 * Buffers paint their bytes in allocation order; a paint reports the
 * buffers that held some of its bytes last and takes them over. The map
 * is a set of disjoint blocks of bytes, each tagged with its holder, in an
 * ordered free list (free_tree.h): a paint visits the blocks it covers and
 * at most two it cuts, and adds one, so n paints cost O(n log n)
 * expected. The timeline layout's syncs come from it when the strict
 * run's conflict lists were over their cap (arena.c, paint_syncs). */
#ifndef OPSCHED_CORE_PAINT_MAP_H
#define OPSCHED_CORE_PAINT_MAP_H

#include "free_tree.h"

#include <stdint.h>

typedef struct paint_map {
  free_tree blocks; /* tag: the holder */
} paint_map;

/* An empty map. 0, or -1 when out of memory (paint_map_free still
 * required). */
int paint_map_init(paint_map *M);
void paint_map_free(paint_map *M);

/* Paints [a, b) (a < b) with `holder`: the holders of its bytes before,
 * one per block they held (a holder may repeat; blocks from the highest
 * down), into held, which needs room for 2 x (paints so far) + 1 (each
 * paint adds one block and cuts at most one in two). Returns their count,
 * -1 when out of memory (the map is then undefined). */
int32_t paint_map_paint(paint_map *M, int64_t a, int64_t b, int32_t holder, int32_t *held);

#endif
