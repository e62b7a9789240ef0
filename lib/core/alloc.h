/* lib/core/alloc.h - the core's one allocation path (internal).
 *
 * Every core allocation goes through these so that size overflow is checked
 * in one place and a test build can count or fail allocations. */
#ifndef OPSCHED_CORE_ALLOC_H
#define OPSCHED_CORE_ALLOC_H

#include <stddef.h>

/* Returns NULL on overflow of count * size or when out of memory.
 * opsched_alloc_array zero-fills. count == 0 returns a valid unique pointer. */
void *opsched_alloc_array(size_t count, size_t size);
/* As opsched_alloc_array without the zero fill: for arrays written in full
 * before they are read. */
void *opsched_alloc_array_raw(size_t count, size_t size);
/* Grows/shrinks `ptr` to count * size bytes; NULL on overflow/OOM (ptr kept). */
void *opsched_realloc_array(void *ptr, size_t count, size_t size);
void opsched_free(void *ptr);

#endif
