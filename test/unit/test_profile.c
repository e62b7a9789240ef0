/* Unit tests of the chunked resource profile (lib/core/profile.c): exact
 * small cases, then the earliest start of every query against the flat
 * array of breakpoints it replaced (the reference below, the decoder's
 * profile before issue 16's round 6) on seeded random profiles: serial
 * insertion (earliest start, then add) of thousands of ops with mixed
 * costs (zero included), demands and limits, so chunks split, take whole
 * adds and are skipped both ways. */
#include "check.h"

#include "../../lib/core/profile.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------- */
/* The reference: one flat array of breakpoints.                          */

typedef struct flat {
  int64_t *pt;
  int32_t *cnt, *use;
  int32_t m, streams, cap;
} flat;

/* An empty reference for n ops (2n breakpoints at most). */
static flat flat_make(int32_t n, int32_t streams, int32_t cap) {
  size_t m = 2 * (size_t)n + 2;
  flat f = {malloc(sizeof(int64_t) * m), malloc(sizeof(int32_t) * m),
            malloc(sizeof(int32_t) * m), 1, streams, cap};
  CHECK(f.pt && f.cnt && f.use);
  f.pt[0] = 0;
  f.cnt[0] = f.use[0] = 0;
  return f;
}

static void flat_free(flat *f) {
  free(f->pt);
  free(f->cnt);
  free(f->use);
}

static int32_t flat_seg(const flat *c, int64_t x) {
  int32_t lo = 0, hi = c->m - 1;
  while (lo < hi) {
    int32_t mid = lo + (hi - lo + 1) / 2;
    if (c->pt[mid] <= x)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

static int32_t flat_split(flat *c, int64_t x) {
  int32_t i = flat_seg(c, x);
  if (c->pt[i] == x)
    return i;
  size_t tail = (size_t)(c->m - i - 1);
  memmove(c->pt + i + 2, c->pt + i + 1, tail * sizeof *c->pt);
  memmove(c->cnt + i + 2, c->cnt + i + 1, tail * sizeof *c->cnt);
  memmove(c->use + i + 2, c->use + i + 1, tail * sizeof *c->use);
  c->pt[i + 1] = x;
  c->cnt[i + 1] = c->cnt[i];
  c->use[i + 1] = c->use[i];
  c->m++;
  return i + 1;
}

static void flat_add(flat *c, int64_t t, int64_t cost, int32_t demand) {
  int64_t lo = cost > 0 ? 2 * t + 1 : 2 * t;
  int64_t hi = cost > 0 ? 2 * (t + cost) : 2 * t + 1;
  int32_t a = flat_split(c, lo), b = flat_split(c, hi);
  for (int32_t k = a; k < b; k++) {
    c->cnt[k]++;
    if (cost > 0)
      c->use[k] += demand;
  }
}

/* Tries every candidate start in doubled time from t on, one by one. */
static int64_t flat_earliest(const flat *c, int64_t t, int64_t cost,
                             int32_t demand) {
  for (;; t++) {
    int64_t lo = cost > 0 ? 2 * t + 1 : 2 * t;
    int64_t hi = cost > 0 ? 2 * (t + cost) : 2 * t + 1;
    int ok = 1;
    for (int32_t k = flat_seg(c, lo); ok && k < c->m && c->pt[k] < hi; k++)
      if (c->cnt[k] + 1 > c->streams ||
          (cost > 0 && c->use[k] + demand > c->cap))
        ok = 0;
    if (ok)
      return t;
  }
}

/* ---------------------------------------------------------------------- */

static uint64_t rnd(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

static void test_small(void) {
  opsched_prof p;
  CHECK(opsched_prof_init(&p, 2, 4, 3, 8));
  CHECK_EQ_I64(opsched_prof_earliest(&p, 3, 5, 2), 3);
  CHECK(opsched_prof_add(&p, 0, 10, 3)); /* [0, 10) demand 3 */
  /* Demand 2 does not fit beside 3 of 4: after 10. */
  CHECK_EQ_I64(opsched_prof_earliest(&p, 0, 5, 2), 10);
  /* Demand 1 fits; a second one would make three ops on two streams. */
  CHECK_EQ_I64(opsched_prof_earliest(&p, 2, 5, 1), 2);
  CHECK(opsched_prof_add(&p, 2, 5, 1));
  /* A third op waits for a stream, whatever its demand: until 7. */
  CHECK_EQ_I64(opsched_prof_earliest(&p, 2, 1, 0), 7);
  CHECK_EQ_I64(opsched_prof_earliest(&p, 0, 1, 0), 0);
  /* A zero-cost op needs a stream at its instant: at 2 only [0, 10) runs
   * across it ([2, 7) starts there); at 3 both do, so the next is 7. */
  CHECK_EQ_I64(opsched_prof_earliest(&p, 2, 0, 1), 2);
  CHECK_EQ_I64(opsched_prof_earliest(&p, 3, 0, 1), 7);
  CHECK(opsched_prof_add(&p, 7, 0, 1));
  /* An op of cost 3 starting at 7 holds (7, 10): beside [0, 10) and
   * after the instant 7. */
  CHECK_EQ_I64(opsched_prof_earliest(&p, 7, 3, 1), 7);
  opsched_prof_free(&p);
}

/* Op i placed at the reference's earliest start in both profiles; a
 * different answer from the profile counts in *mismatches (the first 3
 * printed). The start placed. */
static int64_t place_both(opsched_prof *p, flat *f, int64_t est, int64_t cost, int32_t demand,
                          int *mismatches, const char *what, uint64_t seed, int32_t i) {
  int64_t a = opsched_prof_earliest(p, est, cost, demand);
  int64_t b = flat_earliest(f, est, cost, demand);
  if (a != b && (*mismatches)++ < 3)
    fprintf(stderr, "%sseed %llu op %d: earliest %lld, reference %lld\n", what,
            (unsigned long long)seed, (int)i, (long long)a, (long long)b);
  CHECK(opsched_prof_add(p, b, cost, demand));
  flat_add(f, b, cost, demand);
  return b;
}

/* One seeded run: n ops placed serially against both profiles. */
static void random_run(uint64_t seed, int32_t n, int32_t streams,
                       int32_t cap, int32_t max_demand, int64_t max_cost,
                       int64_t spread) {
  uint64_t s = seed * 0x9e3779b97f4a7c15u + 1;
  flat f = flat_make(n, streams, cap);
  opsched_prof p;
  CHECK(opsched_prof_init(&p, streams, cap, max_demand, n));
  CHECK(p.flat == (n <= OPSCHED_PROF_FLAT_OPS));
  CHECK(p.runs == ((int64_t)streams * max_demand <= cap));
  CHECK(p.grouped == (n > OPSCHED_PROF_GROUP_OPS));
  int mismatches = 0;
  int64_t horizon = 0;
  for (int32_t i = 0; i < n; i++) {
    int64_t cost = (int64_t)(rnd(&s) % (uint64_t)(max_cost + 1));
    if (rnd(&s) % 8 == 0)
      cost = 0;
    int32_t demand = 1 + (int32_t)(rnd(&s) % (uint64_t)max_demand);
    /* Mostly near the end (a list decode), sometimes anywhere. */
    int64_t est = rnd(&s) % 4 ? horizon - (int64_t)(rnd(&s) % (uint64_t)(spread + 1))
                              : (int64_t)(rnd(&s) % (uint64_t)(horizon + 1));
    if (est < 0)
      est = 0;
    int64_t b = place_both(&p, &f, est, cost, demand, &mismatches, "", seed, i);
    if (b + cost > horizon)
      horizon = b + cost;
  }
  CHECK_EQ_I64(mismatches, 0);
  if (p.flat) { /* the steps themselves: the reference's */
    CHECK_EQ_I64(p.pm, f.m);
    CHECK(memcmp(p.pt, f.pt, sizeof *f.pt * (size_t)f.m) == 0);
    CHECK(memcmp(p.pcnt, f.cnt, sizeof *f.cnt * (size_t)f.m) == 0);
    CHECK(memcmp(p.puse, f.use, sizeof *f.use * (size_t)f.m) == 0);
  }
  /* Reset keeps the memory and starts empty. */
  opsched_prof_reset(&p);
  CHECK_EQ_I64(opsched_prof_earliest(&p, 5, 3, max_demand), 5);
  CHECK(p.nch == 1 && p.pm == 1);
  opsched_prof_free(&p);
  flat_free(&f);
}

static void test_random_profiles(void) {
  /* Count-bound and capacity-bound (the chunks' minima and maxima), count
   * only (streams * largest demand <= capacity: the runs of free time),
   * long and short ops, dense and sparse placement. */
  for (uint64_t seed = 1; seed <= 12; seed++) {
    random_run(seed, 3000, 1 + (int32_t)(seed % 5), 1, 1, 9, 20);
    random_run(seed + 100, 3000, 4, 6, 6, 30, 60);
    random_run(seed + 200, 2000, 16, 40, 40, 200, 500);
    random_run(seed + 300, 2000, 1000000, 5, 5, 4, 8); /* streams unbounded */
    random_run(seed + 400, 3000, 4, 4, 1, 12, 40);     /* runs, demand 1 */
    random_run(seed + 500, 3000, 3, 30, 10, 50, 300);  /* runs, demands */
    random_run(seed + 600, 2000, 16, 16, 1, 300, 2000); /* runs, long ops */
    random_run(seed + 700, 1000, 4, 6, 6, 30, 60);     /* flat */
    random_run(seed + 800, 1000, 4, 4, 1, 12, 40);     /* flat */
    /* Flat, with long runs of full steps (the jump past them). */
    random_run(seed + 900, 1000, 16, 16, 1, 300, 2000);  /* flat, runs, long ops */
    random_run(seed + 1000, 1000, 3, 30, 10, 50, 300);   /* flat, runs, demands */
    random_run(seed + 1100, 1000, 16, 40, 40, 200, 500); /* flat, capacity */
    random_run(seed + 1200, 1000, 1 + (int32_t)(seed % 5), 1, 1, 9, 20); /* flat */
    random_run(seed + 1300, 1000, 2, 3, 3, 1, 3);        /* flat, short ops */
  }
  /* Runs over many chunk groups (OPSCHED_PROF_GROUP chunks each): queries
   * that cross groups by their summaries, adds and splits that make them
   * stale. */
  for (uint64_t seed = 1; seed <= 3; seed++) {
    random_run(seed + 1400, 6000, 16, 16, 1, 300, 4000);
    random_run(seed + 1500, 6000, 4, 8, 2, 40, 2000);
    random_run(seed + 1600, 6000, 2, 2, 1, 5, 300);
  }
}

/* A snapshot of a flat profile restores exactly the profile of the ops it
 * held, whatever the order they were added in (the local search's
 * checkpoints, lib/core/streams.c). */
static void test_snapshots(void) {
  enum { OPS = 6 };
  static const int64_t t[OPS] = {0, 2, 1, 5, 3, 0}, cost[OPS] = {4, 3, 0, 2, 6, 1};
  static const int32_t demand[OPS] = {2, 1, 1, 2, 1, 1};
  opsched_prof a, b;
  CHECK(opsched_prof_init(&a, 2, 3, 2, 2 * OPS));
  CHECK(opsched_prof_init(&b, 2, 3, 2, 2 * OPS));
  CHECK(a.flat && b.flat);
  int64_t pt[4 * OPS + 2];
  int32_t cnt[4 * OPS + 2], use[4 * OPS + 2];
  opsched_prof_snap snap = {pt, cnt, use, 0};
  for (int i = 0; i < OPS; i++) /* a: in order; b: backwards */
    CHECK(opsched_prof_add(&a, t[i], cost[i], demand[i]));
  for (int i = OPS - 1; i >= 0; i--)
    CHECK(opsched_prof_add(&b, t[i], cost[i], demand[i]));
  opsched_prof_snap_save(&a, &snap);
  CHECK_EQ_I64(snap.pm, 11); /* 0 and the ten distinct doubled ends */
  for (int i = 0; i < 4; i++) /* a moves on: [20,25) .. [23,28), demand 2 */
    CHECK(opsched_prof_add(&a, 20 + i, 5, 2));
  CHECK_EQ_I64(opsched_prof_earliest(&a, 20, 1, 1), 20);
  CHECK_EQ_I64(opsched_prof_earliest(&a, 20, 1, 2), 28);
  opsched_prof_snap_restore(&a, &snap);
  CHECK_EQ_I64(a.pm, b.pm);
  CHECK(memcmp(a.pt, b.pt, sizeof *a.pt * (size_t)b.pm) == 0);
  CHECK(memcmp(a.pcnt, b.pcnt, sizeof *a.pcnt * (size_t)b.pm) == 0);
  CHECK(memcmp(a.puse, b.puse, sizeof *a.puse * (size_t)b.pm) == 0);
  /* Two streams, capacity 3: two or more ops run over [2,7), one over
   * [7,9) with demand 1. */
  for (int64_t q = 0; q < 12; q++)
    CHECK_EQ_I64(opsched_prof_earliest(&a, q, 2, 1), opsched_prof_earliest(&b, q, 2, 1));
  CHECK_EQ_I64(opsched_prof_earliest(&a, 0, 2, 2), 7);
  CHECK_EQ_I64(opsched_prof_earliest(&a, 2, 1, 1), 7);
  CHECK_EQ_I64(opsched_prof_earliest(&a, 0, 0, 1), 0);
  opsched_prof_free(&a);
  opsched_prof_free(&b);
}

/* An add at the last earliest query's answer starts from the step that
 * query found (profile.c's memo): only while the profile is unchanged. */
static void test_earliest_memo(void) {
  opsched_prof a;
  CHECK(opsched_prof_init(&a, 1, 1, 1, 16));
  int64_t pt[40];
  int32_t cnt[40], use[40];
  opsched_prof_snap empty = {pt, cnt, use, 0};
  opsched_prof_snap_save(&a, &empty); /* one step */
  CHECK(opsched_prof_add(&a, 0, 4, 1)); /* [1, 8) doubled */
  CHECK(opsched_prof_add(&a, 6, 2, 1)); /* [13, 16) */
  CHECK_EQ_I64(opsched_prof_earliest(&a, 2, 2, 1), 4); /* lo 9: step 2 of 5 */
  CHECK_EQ_I64(a.memo_lo, 9);
  CHECK_EQ_I64(a.memo_i, 2);
  /* Restored to one step, the memo's step 2 is gone: the add must not use
   * it. */
  opsched_prof_snap_restore(&a, &empty);
  CHECK_EQ_I64(a.memo_lo, -1);
  CHECK(opsched_prof_add(&a, 4, 2, 1)); /* [9, 12) */
  CHECK_EQ_I64(a.pm, 3);
  CHECK_EQ_I64(a.pt[1], 9);
  CHECK_EQ_I64(a.pt[2], 12);
  CHECK_EQ_I64(a.pcnt[0], 0);
  CHECK_EQ_I64(a.pcnt[1], 1);
  CHECK_EQ_I64(a.pcnt[2], 0);
  /* Used: the add at the answer lands where a fresh search would. */
  CHECK_EQ_I64(opsched_prof_earliest(&a, 3, 3, 1), 6); /* lo 13 */
  CHECK_EQ_I64(a.memo_i, 2);
  CHECK(opsched_prof_add(&a, 6, 3, 1)); /* [13, 18) */
  CHECK_EQ_I64(a.memo_lo, -1);
  CHECK_EQ_I64(a.pm, 5);
  static const int64_t want_t[5] = {0, 9, 12, 13, 18};
  static const int32_t want_c[5] = {0, 1, 0, 1, 0};
  for (int i = 0; i < 5; i++) {
    CHECK_EQ_I64(a.pt[i], want_t[i]);
    CHECK_EQ_I64(a.pcnt[i], want_c[i]);
  }
  opsched_prof_free(&a);
}

/* The runs search's chunk summary is exact (lib/core/profile.c, run_fit):
 * a run of free time one shorter than the op is crossed, however many
 * chunks of such runs come first, and the op lands in the first run that
 * takes it; an op of cost 0 takes the instant between two abutting ops. */
static void test_run_fit(void) {
  opsched_prof p;
  CHECK(opsched_prof_init(&p, 1, 1, 1, 4000)); /* chunked, runs */
  CHECK(!p.flat && p.runs);
  /* One stream: [3i, 3i + 2) for i < 600 (runs of 1), then [1800, 1803)
   * and [1806, 1809) (a run of 3), then [1811, 1813) (a run of 2). */
  for (int64_t i = 0; i < 600; i++)
    CHECK(opsched_prof_add(&p, 3 * i, 2, 1));
  CHECK(opsched_prof_add(&p, 1800, 3, 1));
  CHECK(opsched_prof_add(&p, 1806, 3, 1));
  CHECK(opsched_prof_add(&p, 1811, 2, 1));
  CHECK(p.nch > 10);
  CHECK_EQ_I64(opsched_prof_earliest(&p, 0, 1, 1), 2);
  CHECK_EQ_I64(opsched_prof_earliest(&p, 100, 1, 1), 101);
  CHECK_EQ_I64(opsched_prof_earliest(&p, 0, 2, 1), 1803);
  CHECK_EQ_I64(opsched_prof_earliest(&p, 0, 3, 1), 1803);
  CHECK_EQ_I64(opsched_prof_earliest(&p, 0, 4, 1), 1813);
  CHECK_EQ_I64(opsched_prof_earliest(&p, 1805, 2, 1), 1809);
  /* Cost 0: an instant no op runs strictly across: 2 (after [0, 2)),
   * 1803 and 1806 between [1800, 1803) and [1806, 1809) and the run. */
  CHECK_EQ_I64(opsched_prof_earliest(&p, 1, 0, 1), 2);
  CHECK_EQ_I64(opsched_prof_earliest(&p, 1801, 0, 1), 1803);
  opsched_prof_free(&p);
  /* Abutting ops of cost 3 on one stream: no run at all, but an op of
   * cost 0 fits at each junction (3, 6, ...), found past whole chunks. */
  CHECK(opsched_prof_init(&p, 1, 1, 1, 4000));
  for (int64_t i = 0; i < 700; i++)
    CHECK(opsched_prof_add(&p, 3 * i, 3, 1));
  CHECK_EQ_I64(opsched_prof_earliest(&p, 1, 0, 1), 3);
  CHECK_EQ_I64(opsched_prof_earliest(&p, 1000, 0, 1), 1002);
  CHECK_EQ_I64(opsched_prof_earliest(&p, 0, 1, 1), 2100);
  opsched_prof_free(&p);
  /* Ops of cost 0 at every instant 0..2999: the runs between them hold
   * odd doubled times only, where an op of cost 1 fits and one of cost 0
   * does not; a query of cost 0 crosses their chunks by the summary
   * (zero_fits) to the first free instant. */
  CHECK(opsched_prof_init(&p, 1, 1, 1, 4000));
  for (int64_t i = 0; i < 3000; i++)
    CHECK(opsched_prof_add(&p, i, 0, 1));
  CHECK(p.nch > 10);
  CHECK_EQ_I64(opsched_prof_earliest(&p, 0, 0, 1), 3000);
  CHECK_EQ_I64(opsched_prof_earliest(&p, 1500, 0, 1), 3000);
  CHECK_EQ_I64(opsched_prof_earliest(&p, 0, 1, 1), 0);
  CHECK(opsched_prof_add(&p, 1200, 1, 1)); /* [1200, 1201): the instants stay full */
  CHECK_EQ_I64(opsched_prof_earliest(&p, 0, 0, 1), 3000);
  opsched_prof_free(&p);
  /* The same with one instant in every 701 left free, asked from the
   * previous one: the walk crosses whole chunks and groups (their
   * summaries, gzero) and stops at each free instant, wherever it falls
   * (inside a chunk, or in a run across two chunks). */
  CHECK(opsched_prof_init(&p, 1, 1, 1, 20000));
  CHECK(p.grouped);
  for (int64_t i = 0; i < 14000; i++)
    if (i % 701 != 700)
      CHECK(opsched_prof_add(&p, i, 0, 1));
  int missed = 0;
  for (int64_t free_at = 700; free_at < 14000; free_at += 701)
    missed += opsched_prof_earliest(&p, free_at - 700, 0, 1) != free_at;
  CHECK_EQ_I64(missed, 0);
  for (int64_t t = 0; t <= 13318; t += 37) /* to the last free instant */
    missed += opsched_prof_earliest(&p, t, 0, 1) != (t % 701 == 700 ? t : t + 700 - t % 701);
  CHECK_EQ_I64(missed, 0);
  opsched_prof_free(&p);
}

/* Fanout-shaped queries: every op asks from one of a few early starts, so
 * the search crosses the whole profile placed so far (the capacity-bound
 * classes' run summaries, the skips each class learns) and lands at its
 * end or in a gap a shorter or lighter op left. Checked against the
 * reference, with 1 to 11 distinct demands (over OPSCHED_PROF_CLASSES: the
 * step walk from a lighter class's skip for the rest).
 *
 * Allocation-shaped queries (alloc_shape, round 24): two ops of cost 0
 * asked from time 0 to 3 for each op of cost > 0 placed near the end, so
 * the instants fill up and every zero-cost query crosses most of the
 * profile. */
static void shaped_run(int alloc_shape, uint64_t seed, int32_t n, int32_t streams,
                       int32_t cap, int32_t demands, int64_t max_cost) {
  uint64_t s = seed * 0x9e3779b97f4a7c15u + 7;
  flat f = flat_make(n, streams, cap);
  opsched_prof p;
  CHECK(opsched_prof_init(&p, streams, cap, demands, n));
  int mismatches = 0;
  int64_t horizon = 0;
  for (int32_t i = 0; i < n; i++) {
    int64_t cost = alloc_shape && i % 3 != 2 ? 0 : 1 + (int64_t)(rnd(&s) % (uint64_t)max_cost);
    if (!alloc_shape && rnd(&s) % 16 == 0)
      cost = 0;
    int32_t demand = 1 + (int32_t)(rnd(&s) % (uint64_t)demands);
    int64_t est = !alloc_shape ? (int64_t)(rnd(&s) % 3) * 5
                  : cost == 0  ? (int64_t)(rnd(&s) % 4)
                               : horizon - (int64_t)(rnd(&s) % 8);
    int64_t b = place_both(&p, &f, est < 0 ? 0 : est, cost, demand, &mismatches,
                           alloc_shape ? "alloc " : "fanout ", seed, i);
    horizon = b + cost > horizon ? b + cost : horizon;
  }
  CHECK_EQ_I64(mismatches, 0);
  CHECK_EQ_I64(p.classes, p.runs ? 0 : demands < OPSCHED_PROF_CLASSES ? demands
                                                                 : OPSCHED_PROF_CLASSES);
  opsched_prof_free(&p);
  flat_free(&f);
}

static void test_zero_cost_profiles(void) {
  for (uint64_t seed = 1; seed <= 3; seed++) {
    shaped_run(1, seed, 6000, 4, 4, 1, 5);      /* runs, grouped */
    shaped_run(1, seed + 10, 3000, 2, 2, 1, 3); /* runs, ungrouped */
    shaped_run(1, seed + 20, 3000, 4, 6, 3, 5); /* classes */
    shaped_run(1, seed + 30, 1000, 4, 4, 1, 5); /* flat */
  }
}

static void test_fanout_profiles(void) {
  for (uint64_t seed = 1; seed <= 2; seed++) {
    shaped_run(0, seed, 5000, 4, 3, 2, 3);       /* grouped, two classes */
    shaped_run(0, seed + 10, 3000, 4, 5, 4, 6);  /* ungrouped, four */
    shaped_run(0, seed + 20, 5000, 8, 9, 6, 4);  /* six demands */
    shaped_run(0, seed + 50, 5000, 8, 12, 11, 4); /* eleven: three walk steps */
    shaped_run(0, seed + 30, 1000, 4, 3, 2, 3);  /* flat */
    shaped_run(0, seed + 40, 5000, 4, 8, 2, 5);  /* runs: class 0 alone */
  }
}

/* What a skip may stand for (opsched_prof_earliest): only later queries of
 * its class, of at least its cost, and only until the profile loses ops. */
static void test_skips(void) {
  opsched_prof p;
  CHECK(opsched_prof_init(&p, 1, 1, 1, 4000)); /* chunked, runs */
  CHECK(opsched_prof_add(&p, 0, 2, 1));
  CHECK(opsched_prof_add(&p, 3, 7, 1));
  CHECK_EQ_I64(opsched_prof_earliest(&p, 0, 3, 1), 10); /* skip [0, 10), cost 3 */
  CHECK_EQ_I64(opsched_prof_earliest(&p, 0, 1, 1), 2);  /* a shorter op: the gap */
  CHECK_EQ_I64(opsched_prof_earliest(&p, 1, 4, 1), 10);
  opsched_prof_reset(&p);
  CHECK_EQ_I64(opsched_prof_earliest(&p, 0, 3, 1), 0); /* the skip is gone */
  opsched_prof_free(&p);
  /* Capacity 3 on 4 streams: demand 2 beside [0, 10) of demand 2 waits,
   * demand 1 does not. */
  CHECK(opsched_prof_init(&p, 4, 3, 2, 4000));
  CHECK(!p.runs);
  CHECK(opsched_prof_add(&p, 0, 10, 2));
  CHECK_EQ_I64(opsched_prof_earliest(&p, 0, 2, 2), 10);
  CHECK_EQ_I64(opsched_prof_earliest(&p, 0, 2, 1), 0);
  CHECK_EQ_I64(p.classes, 2);
  opsched_prof_free(&p);
  /* A restored snapshot (flat) forgets the skips too. */
  CHECK(opsched_prof_init(&p, 1, 1, 1, 16));
  int64_t pt[40];
  int32_t cnt[40], use[40];
  opsched_prof_snap empty = {pt, cnt, use, 0};
  opsched_prof_snap_save(&p, &empty);
  CHECK(opsched_prof_add(&p, 0, 10, 1));
  CHECK_EQ_I64(opsched_prof_earliest(&p, 0, 2, 1), 10);
  opsched_prof_snap_restore(&p, &empty);
  CHECK_EQ_I64(opsched_prof_earliest(&p, 0, 2, 1), 0);
  opsched_prof_free(&p);
}

int main(void) {
  test_small();
  test_skips();
  test_fanout_profiles();
  test_run_fit();
  test_zero_cost_profiles();
  test_random_profiles();
  test_snapshots();
  test_earliest_memo();
  return check_report("test_profile");
}
