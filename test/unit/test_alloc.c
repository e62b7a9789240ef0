/* test_alloc: the core's one allocation path (lib/core/alloc.c). From
 * 2 MiB on an array block is a mapping of its own; smaller ones come from
 * malloc. Zero fill, contents across reallocations in both directions and
 * over the 2 MiB line, and frees of both kinds (sanitizers and valgrind
 * see every block from malloc). */
#include "check.h"

#include "../../lib/core/alloc.h"

#include <stdint.h>
#include <string.h>

enum { MIB = 1024 * 1024 };

/* Every byte of p[0, n) is zero. */
static int all_zero(const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (p[i])
      return 0;
  return 1;
}

/* p[i] == (i * 7 + salt) & 0xff for i in [0, n). */
static void fill(unsigned char *p, size_t n, unsigned salt) {
  for (size_t i = 0; i < n; i++)
    p[i] = (unsigned char)(i * 7 + salt);
}
static int filled(const unsigned char *p, size_t n, unsigned salt) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != (unsigned char)(i * 7 + salt))
      return 0;
  return 1;
}

static void test_zeroed_sizes(void) {
  /* Around the line: heap below, a mapping at and above (not under valgrind). */
  const size_t sizes[] = {0, 1, 1024, 1025, 128 * 1024, 2 * MIB - 65, 2 * MIB - 64,
                          2 * MIB, 2 * MIB + 1, 5 * MIB + 3};
  for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
    unsigned char *p = opsched_alloc_array(sizes[k], 1);
    CHECK(p != NULL);
    if (!p)
      continue;
    CHECK(((uintptr_t)p & 15) == 0);
    CHECK(all_zero(p, sizes[k]));
    fill(p, sizes[k], (unsigned)k);
    CHECK(filled(p, sizes[k], (unsigned)k));
    opsched_free(p);
    unsigned char *r = opsched_alloc_array_raw(sizes[k], 1);
    CHECK(r != NULL);
    if (r)
      memset(r, 0xab, sizes[k]);
    opsched_free(r);
  }
  CHECK(opsched_alloc_array(SIZE_MAX / 2, 4) == NULL); /* overflow */
  CHECK(opsched_alloc_array_raw(SIZE_MAX - 8, 1) == NULL);
  opsched_free(NULL);
}

/* Grows a block from 1 KiB to 9 MiB and back, each step keeping what the
 * smaller of the two sizes held. */
static void test_realloc_across(void) {
  const size_t steps[] = {1024, 300 * 1024, 2 * MIB - 100, 2 * MIB + 100, 9 * MIB, 3 * MIB,
                          2 * MIB - 64, 64 * 1024, 16};
  size_t n = 16;
  unsigned char *p = opsched_realloc_array(NULL, n, 1);
  CHECK(p != NULL);
  fill(p, n, 3);
  for (size_t k = 0; k < sizeof steps / sizeof *steps && p; k++) {
    size_t next = steps[k], kept = n < next ? n : next;
    unsigned char *q = opsched_realloc_array(p, next, 1);
    CHECK(q != NULL);
    if (!q)
      break;
    CHECK(filled(q, kept, 3));
    fill(q, next, 3);
    p = q;
    n = next;
  }
  /* Failure keeps the block. */
  CHECK(opsched_realloc_array(p, SIZE_MAX / 2, 2) == NULL);
  CHECK(filled(p, n, 3));
  opsched_free(p);
}

/* Many blocks of both kinds alive at once, freed out of order. */
static void test_many(void) {
  enum { COUNT = 48 };
  unsigned char *b[COUNT];
  size_t size[COUNT];
  for (int i = 0; i < COUNT; i++) {
    size[i] = i % 4 == 0 ? 2 * MIB + (size_t)i * 4096 : (size_t)(i * 977 + 1);
    b[i] = opsched_alloc_array(size[i], 1);
    CHECK(b[i] != NULL);
    if (b[i])
      fill(b[i], size[i], (unsigned)i);
  }
  for (int i = 0; i < COUNT; i += 2)
    if (b[i]) {
      CHECK(filled(b[i], size[i], (unsigned)i));
      opsched_free(b[i]);
    }
  for (int i = 1; i < COUNT; i += 2)
    if (b[i]) {
      CHECK(filled(b[i], size[i], (unsigned)i));
      opsched_free(b[i]);
    }
}

int main(void) {
  test_zeroed_sizes();
  test_realloc_across();
  test_many();
  return check_report("test_alloc");
}
