/* mmap's MAP_ANONYMOUS and madvise's MADV_HUGEPAGE are outside ISO C. */
#define _DEFAULT_SOURCE
#include "alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif

/* Pages blocks are mappings of their own where the system has them, but
 * not under AddressSanitizer or valgrind: both check the bounds of malloc
 * blocks only. */
#if defined(__SANITIZE_ADDRESS__)
#define PAGES_MAPPED 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PAGES_MAPPED 0
#endif
#endif
#if !defined(PAGES_MAPPED) && defined(MAP_ANONYMOUS) && defined(MADV_HUGEPAGE)
#define PAGES_MAPPED 1
#endif
#ifndef PAGES_MAPPED
#define PAGES_MAPPED 0
#endif

/* Up to this many bytes, malloc and memset: glibc's calloc bypasses its
 * per-thread cache (tcache, blocks up to 1032 bytes) and costs several
 * times a cached malloc, which the many small blocks of loop bodies and
 * branches pay hundreds of times each (round 24). Larger blocks keep
 * calloc, which skips clearing fresh pages. */
enum { SMALL_ZEROED = 1024 };

void *opsched_alloc_array(size_t count, size_t size) {
  if (size != 0 && count > SIZE_MAX / size)
    return NULL;
  size_t bytes = count * size;
  if (bytes <= SMALL_ZEROED) {
    /* malloc(0) may return NULL; ask for one byte so NULL always means OOM. */
    void *p = malloc(bytes ? bytes : 1);
    if (p)
      memset(p, 0, bytes);
    return p;
  }
  return calloc(count, size);
}

void *opsched_alloc_array_raw(size_t count, size_t size) {
  if (size != 0 && count > SIZE_MAX / size)
    return NULL;
  size_t bytes = count * size;
  return malloc(bytes ? bytes : 1);
}

void *opsched_realloc_array(void *ptr, size_t count, size_t size) {
  if (size != 0 && count > SIZE_MAX / size)
    return NULL;
  size_t bytes = count * size;
  return realloc(ptr, bytes ? bytes : 1);
}

void opsched_free(void *ptr) { free(ptr); }

/* A pages block starts with a header of PAGES_HEADER bytes (the mapping's
 * length, 0 when the block came from aligned_alloc), so that the array is
 * 64-byte aligned. */
enum { PAGES_HEADER = 64, HUGE_PAGE = 2 * 1024 * 1024, PAGES_MIN = HUGE_PAGE };

/* `bytes` (header included) in whole huge pages, the first one aligned
 * (a mapping one page longer, its slack unmapped on both sides); NULL when
 * there is no mapping. *mapped: its length. */
static char *map_huge(size_t bytes, size_t *mapped) {
#if PAGES_MAPPED
  size_t used = (bytes + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1), len = used + HUGE_PAGE;
  char *map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED)
    return NULL;
  uintptr_t at = ((uintptr_t)map + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
  size_t head = (size_t)(at - (uintptr_t)map);
  if (head)
    munmap(map, head);
  if (len - head > used)
    munmap((char *)at + used, len - head - used);
  (void)madvise((void *)at, used, MADV_HUGEPAGE); /* ignored when THP is off */
  *mapped = used;
  return (char *)at;
#else
  (void)bytes;
  (void)mapped;
  return NULL;
#endif
}

void *opsched_alloc_pages_raw(size_t count, size_t size) {
  if (size != 0 && count > (SIZE_MAX - 2 * (size_t)HUGE_PAGE) / size)
    return NULL;
  size_t bytes = count * size + PAGES_HEADER, mapped = 0;
  char *block = NULL;
  if (bytes >= PAGES_MIN && !RUNNING_ON_VALGRIND)
    block = map_huge(bytes, &mapped);
  /* aligned_alloc wants a multiple of the alignment. */
  if (!block && !(block = aligned_alloc(PAGES_HEADER, (bytes + PAGES_HEADER - 1) &
                                                          ~(size_t)(PAGES_HEADER - 1))))
    return NULL;
  memcpy(block, &mapped, sizeof mapped);
  return block + PAGES_HEADER;
}

void opsched_free_pages(void *ptr) {
  if (!ptr)
    return;
  char *block = (char *)ptr - PAGES_HEADER;
  size_t mapped;
  memcpy(&mapped, block, sizeof mapped);
  if (mapped)
    munmap(block, mapped);
  else
    free(block);
}
