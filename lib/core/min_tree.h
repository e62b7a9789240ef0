/* lib/core/min_tree.h - a fixed-size array of int64 values with range
 * minima (internal): ready ops by priority position, each holding what it
 * needs (its allocation in the gated list scheduler, its resource demand
 * in the list scheduler), so that a scan for the next op that fits jumps
 * over every op that does not, instead of visiting each (schedule.c).
 *
 * A complete binary tree over a power-of-two number of leaves; every
 * operation is O(log n) and iterative. */
#ifndef OPSCHED_CORE_MIN_TREE_H
#define OPSCHED_CORE_MIN_TREE_H

#include <stdint.h>

typedef struct opsched_min_tree {
  int64_t *node; /* node[1] the root, node[leaves + i] value i */
  int32_t leaves, n;
} opsched_min_tree;

/* n values, all INT64_MAX (absent); 0, or -1 when out of memory. Release
 * with opsched_min_tree_free. */
int opsched_min_tree_init(opsched_min_tree *t, int32_t n);
void opsched_min_tree_free(opsched_min_tree *t);

/* Value i (0 <= i < n) becomes v. */
void opsched_min_tree_set(opsched_min_tree *t, int32_t i, int64_t v);

/* The first index >= from whose value is <= bound, -1 when none. */
int32_t opsched_min_tree_first_at_most(const opsched_min_tree *t, int32_t from,
                                       int64_t bound);

/* The least value of the indices [lo, hi), INT64_MAX when none. */
int64_t opsched_min_tree_min(const opsched_min_tree *t, int32_t lo, int32_t hi);

#endif
