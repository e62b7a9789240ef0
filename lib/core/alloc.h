/* lib/core/alloc.h - the core's one allocation path (internal).
 *
 * Every core allocation goes through these so that size overflow is checked
 * in one place and a test build can count or fail allocations. */
#ifndef OPSCHED_CORE_ALLOC_H
#define OPSCHED_CORE_ALLOC_H

#include <stddef.h>

/* Returns NULL on overflow of count * size or when out of memory.
 * opsched_alloc_array zero-fills. count == 0 returns a valid unique pointer.
 * From 2 MiB on a block is a mapping of its own in transparent huge pages
 * (one fault per 2 MiB rather than per 4 KiB page: on the development
 * machine a 4 KiB fault costs 12-14 us), smaller ones come from malloc;
 * not under valgrind. Every such block is freed with opsched_free, also by
 * lib/mlir, whose large tables come from here. */
void *opsched_alloc_array(size_t count, size_t size);
/* As opsched_alloc_array without the zero fill: for arrays written in full
 * before they are read. */
void *opsched_alloc_array_raw(size_t count, size_t size);
/* Grows/shrinks `ptr` to count * size bytes; NULL on overflow/OOM (ptr kept). */
void *opsched_realloc_array(void *ptr, size_t count, size_t size);
void opsched_free(void *ptr);

/* Large arrays of a short life, written in full before they are read (the
 * conflict lists), 64-byte aligned: from 2 MiB on, a mapping of their own
 * in transparent huge pages, returned to the kernel when freed. The first
 * touch of every page is a fault, and on virtual machines a 4 KiB fault can
 * cost more than the work done on the page (the development machine:
 * 12 us; 16 MiB take 52 ms to fill, 1.5 ms in 2 MiB pages). Smaller ones,
 * and all under AddressSanitizer or valgrind, come from aligned_alloc.
 * NULL on overflow or when out of memory. Free only with
 * opsched_free_pages. */
void *opsched_alloc_pages_raw(size_t count, size_t size);
void opsched_free_pages(void *ptr);

#endif
