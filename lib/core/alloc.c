/* mmap's MAP_ANONYMOUS and madvise's MADV_HUGEPAGE are outside ISO C. */
#define _DEFAULT_SOURCE
#include "alloc.h"

#include <malloc.h>
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

enum { HUGE_PAGE = 2 * 1024 * 1024 };

/* `bytes` in whole huge pages, the first one aligned (a mapping one page
 * longer, its slack unmapped on both sides), zero-filled by the kernel;
 * NULL when there is no mapping. *mapped: its length. */
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

/* count * size, or SIZE_MAX on overflow (no block is that large). */
static size_t array_bytes(size_t count, size_t size) {
  return size != 0 && count > SIZE_MAX / size ? SIZE_MAX : count * size;
}

/* From 2 MiB on an array block is a mapping of its own in huge pages (round
 * 34: at 100k-1M ops the pass's arrays were faulted in 4 KiB at a time,
 * 12-14 us a page on the development machine; glibc maps such blocks in
 * 4 KiB pages and gives them back to the kernel when freed). A mapped
 * block's address is MAPPED_AT past a huge page boundary, after its header
 * (the mapping's length and the bytes asked); no heap block is left at such
 * an address, so opsched_free tells the two apart exactly, and heap blocks
 * carry no header (their sizes, and glibc's reuse of them, stay as asked). */
enum { MAPPED_AT = 64, ARRAY_MAPPED_MIN = HUGE_PAGE };
typedef struct mapped_header {
  size_t mapped, bytes;
} mapped_header;

static int looks_mapped(const void *p) {
  return ((uintptr_t)p & (HUGE_PAGE - 1)) == MAPPED_AT;
}

/* The malloc family's block of `bytes` (at least one byte, so that NULL
 * always means out of memory), zero-filled when `zero`. */
static char *malloc_block(size_t bytes, int zero) {
  if (!bytes)
    bytes = 1;
  if (!zero)
    return malloc(bytes);
  if (bytes > SMALL_ZEROED)
    return calloc(1, bytes);
  char *p = malloc(bytes);
  if (p)
    memset(p, 0, bytes);
  return p;
}

/* A heap block never at a mapped block's address: one there (1 in 131,072
 * heap addresses) is held while another is taken. */
static char *heap_block(size_t bytes, int zero) {
  enum { TRIES = 4 };
  char *held[TRIES];
  int k = 0;
  char *p = malloc_block(bytes, zero);
  while (p && looks_mapped(p) && k < TRIES) {
    held[k++] = p;
    p = malloc_block(bytes, zero);
  }
  while (k > 0)
    free(held[--k]);
  if (p && looks_mapped(p)) { /* never seen; out of memory rather than wrong */
    free(p);
    p = NULL;
  }
  return p;
}

static void *array_block(size_t bytes, int zero) {
  if (bytes > SIZE_MAX - 2 * (size_t)HUGE_PAGE)
    return NULL;
  size_t mapped = 0;
  char *block = NULL;
  if (bytes >= ARRAY_MAPPED_MIN - MAPPED_AT && !RUNNING_ON_VALGRIND)
    block = map_huge(bytes + MAPPED_AT, &mapped);
  if (!block)
    return heap_block(bytes, zero);
  mapped_header h = {mapped, bytes};
  memcpy(block, &h, sizeof h);
  return block + MAPPED_AT;
}

void *opsched_alloc_array(size_t count, size_t size) {
  return array_block(array_bytes(count, size), 1);
}

void *opsched_alloc_array_raw(size_t count, size_t size) {
  return array_block(array_bytes(count, size), 0);
}

void *opsched_realloc_array(void *ptr, size_t count, size_t size) {
  size_t bytes = array_bytes(count, size);
  if (!ptr)
    return array_block(bytes, 0);
  if (bytes == SIZE_MAX)
    return NULL;
  /* Moved, never grown in place: glibc's realloc may leave a block at a
   * mapped block's address, and a failure must keep ptr. */
  size_t old;
  if (looks_mapped(ptr)) {
    mapped_header h;
    memcpy(&h, (char *)ptr - MAPPED_AT, sizeof h);
    old = h.bytes;
  } else {
    old = malloc_usable_size(ptr); /* at least what was asked of it */
  }
  char *moved = array_block(bytes, 0);
  if (!moved)
    return NULL;
  memcpy(moved, ptr, old < bytes ? old : bytes);
  opsched_free(ptr);
  return moved;
}

void opsched_free(void *ptr) {
  if (!ptr)
    return;
  if (!looks_mapped(ptr)) {
    free(ptr);
    return;
  }
  mapped_header h;
  memcpy(&h, (char *)ptr - MAPPED_AT, sizeof h);
  munmap((char *)ptr - MAPPED_AT, h.mapped);
}

/* A pages block starts with a header of PAGES_HEADER bytes (the mapping's
 * length, 0 when the block came from aligned_alloc), so that the array is
 * 64-byte aligned. */
enum { PAGES_HEADER = 64, PAGES_MIN = HUGE_PAGE };

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
