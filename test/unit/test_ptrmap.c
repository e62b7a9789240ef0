/* Unit tests of lib/mlir's pointer -> index map (ptrmap.h): keys placed by
 * address in their range, others hashed, crowded keys rehashed; every get
 * answers the same whatever the placement. The keys are addresses only
 * (never dereferenced). */
#include "check.h"
#include "ptrmap.h"

#include <stdint.h>

static const void *at(uintptr_t a) { return (const void *)a; }

/* 16 keys 64 bytes apart: slots of 16 bytes (span 960 >> 4 = 60 < 4 * 17),
 * a table of 64; key i sits in slot 4i as its offset / 8 + 1. */
static void test_by_address(void) {
  const uintptr_t lo = 0x10000;
  opsched_ptrmap m;
  CHECK(opsched_ptrmap_init_near(&m, 16, at(lo), at(lo + 15 * 64)) == 0);
  CHECK(opsched_ptrmap_by_address(&m));
  CHECK_EQ_I64(m.shift, 4);
  CHECK_EQ_I64(m.near_mask, 63);
  for (int32_t i = 0; i < 16; i++)
    CHECK(opsched_ptrmap_put(&m, at(lo + 64 * (uintptr_t)i), 100 + i) == 0);
  CHECK(m.entries == NULL); /* no key outside the range: no hashed table */
  for (int32_t i = 0; i < 16; i++) {
    CHECK_EQ_I64(m.near[4 * i].off, 8 * i + 1);
    CHECK_EQ_I64(m.near[4 * i].value, 100 + i);
    CHECK_EQ_I64(opsched_ptrmap_get(&m, at(lo + 64 * (uintptr_t)i)), 100 + i);
    CHECK_EQ_I64(opsched_ptrmap_get(&m, at(lo + 64 * (uintptr_t)i + 8)), -1);
  }
  CHECK_EQ_I64(opsched_ptrmap_get(&m, at(lo - 8)), -1);
  CHECK_EQ_I64(opsched_ptrmap_get(&m, at(lo + 16 * 64)), -1);
  /* A key below the range (a block argument) and a misaligned one inside
   * it go to the hashed table, made then. */
  CHECK(opsched_ptrmap_put(&m, at(lo - 4096), 7) == 0);
  CHECK(opsched_ptrmap_put(&m, at(lo + 3), 8) == 0);
  CHECK(m.entries != NULL);
  CHECK_EQ_I64(opsched_ptrmap_get(&m, at(lo - 4096)), 7);
  CHECK_EQ_I64(opsched_ptrmap_get(&m, at(lo + 3)), 8);
  CHECK_EQ_I64(opsched_ptrmap_get(&m, at(lo)), 100);
  CHECK(opsched_ptrmap_by_address(&m));
  opsched_ptrmap_free(&m);
}

/* Two keys sharing a slot: the second probes to the next one. */
static void test_collision(void) {
  const uintptr_t lo = 0x20000;
  opsched_ptrmap m;
  /* span 4096 >> 8 = 16 < 4 * 5: slots of 256 bytes, a table of 32. */
  CHECK(opsched_ptrmap_init_near(&m, 4, at(lo), at(lo + 4096)) == 0);
  CHECK_EQ_I64(m.shift, 8);
  CHECK(opsched_ptrmap_put(&m, at(lo + 512), 1) == 0);
  CHECK(opsched_ptrmap_put(&m, at(lo + 520), 2) == 0);
  CHECK(opsched_ptrmap_put(&m, at(lo + 4096), 3) == 0);
  CHECK_EQ_I64(m.near[2].value, 1);
  CHECK_EQ_I64(m.near[3].value, 2);
  CHECK_EQ_I64(m.near[16].value, 3);
  CHECK_EQ_I64(opsched_ptrmap_get(&m, at(lo + 520)), 2);
  CHECK_EQ_I64(opsched_ptrmap_get(&m, at(lo + 528)), -1);
  CHECK_EQ_I64(opsched_ptrmap_get(&m, at(lo + 4096)), 3);
  opsched_ptrmap_free(&m);
}

/* 1000 keys 8 bytes apart at the bottom of a 16 GiB range all start at
 * slot 0: the put that probes past 64 slots (the 66th) moves every key to
 * the hashed table, for good; every get still answers. */
static void test_crowded(void) {
  const uintptr_t lo = 0x100000;
  opsched_ptrmap m;
  CHECK(opsched_ptrmap_init_near(&m, 1000, at(lo), at(lo + ((uintptr_t)1 << 34))) == 0);
  CHECK(opsched_ptrmap_by_address(&m));
  for (int32_t i = 0; i < 1000; i++) {
    CHECK(opsched_ptrmap_put(&m, at(lo + 8 * (uintptr_t)i), i) == 0);
    if (i == 64)
      CHECK(opsched_ptrmap_by_address(&m));
    if (i == 65)
      CHECK(!opsched_ptrmap_by_address(&m));
  }
  int wrong = 0;
  for (int32_t i = 0; i < 1000; i++)
    wrong += opsched_ptrmap_get(&m, at(lo + 8 * (uintptr_t)i)) != i;
  CHECK_EQ_I64(wrong, 0);
  CHECK_EQ_I64(opsched_ptrmap_get(&m, at(lo + 8000)), -1);
  opsched_ptrmap_free(&m);
}

/* No range (init), an empty range (lo > hi) and one too wide for 32-bit
 * offsets: every key hashed. init_around a hashed map is hashed too; around
 * a placed one it spans the same range extended down. */
static void test_hashed(void) {
  opsched_ptrmap m, a;
  CHECK(opsched_ptrmap_init(&m, 3) == 0);
  CHECK(!opsched_ptrmap_by_address(&m));
  CHECK(opsched_ptrmap_put(&m, at(0x1000), 5) == 0);
  CHECK_EQ_I64(opsched_ptrmap_get(&m, at(0x1000)), 5);
  CHECK_EQ_I64(opsched_ptrmap_get(&m, at(0x1008)), -1);
  CHECK(opsched_ptrmap_init_around(&a, 3, &m, 64) == 0);
  CHECK(!opsched_ptrmap_by_address(&a));
  opsched_ptrmap_free(&a);
  opsched_ptrmap_free(&m);
  CHECK(opsched_ptrmap_init_near(&m, 3, at(0x2000), at(0x1000)) == 0);
  CHECK(!opsched_ptrmap_by_address(&m));
  opsched_ptrmap_free(&m);
  CHECK(opsched_ptrmap_init_near(&m, 3, at(0x1000), at(0x1000 + ((uintptr_t)1 << 40))) == 0);
  CHECK(!opsched_ptrmap_by_address(&m));
  opsched_ptrmap_free(&m);
  CHECK(opsched_ptrmap_init_near(&m, 3, at(0x10000), at(0x10100)) == 0);
  CHECK(opsched_ptrmap_init_around(&a, 3, &m, 0x1000) == 0);
  CHECK(opsched_ptrmap_by_address(&a));
  CHECK_EQ_I64(a.lo, 0xf000);
  CHECK_EQ_I64(a.span, 0x1100);
  CHECK(opsched_ptrmap_put(&a, at(0xf008), 9) == 0);
  CHECK(a.entries == NULL);
  CHECK_EQ_I64(opsched_ptrmap_get(&a, at(0xf008)), 9);
  opsched_ptrmap_free(&a);
  opsched_ptrmap_free(&m);
}

int main(void) {
  test_by_address();
  test_collision();
  test_crowded();
  test_hashed();
  return check_report("test_ptrmap");
}
