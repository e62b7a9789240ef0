/* lib/core/sort.h - sorting the core's id lists (internal).
 *
 * Adjacency rows are mostly short and mostly already sorted (edges are
 * added in program order, and a graph built from a sorted CSR adds them
 * sorted): both cases stay linear, only a long unsorted row pays qsort. */
#ifndef OPSCHED_CORE_SORT_H
#define OPSCHED_CORE_SORT_H

#include <stdint.h>

/* Sorts a[0, k) ascending (k >= 0). */
void opsched_sort_i32(int32_t *a, int64_t k);

#endif
