/* lib/core/profile.h - the resource profile of the multi-stream placement:
 * a step function over (doubled) time of how many ops run and the sum of
 * their demands, with the earliest-feasible-start query of the serial
 * insertion decoder (lib/core/streams.c, docs/streams.md).
 *
 * Breakpoints live in chunks of at most OPSCHED_PROF_CHUNK steps, in time
 * order through a directory. Each chunk keeps the minimum and maximum of
 * its steps and a pending add for adds that cover it whole, so inserting a
 * breakpoint moves at most one chunk's steps (not the whole profile), an
 * add touches two chunks' steps plus O(1) per chunk between, and the
 * earliest-start query skips a chunk that cannot violate (looking for a
 * conflict) or cannot fit (walking a saturated stretch) in O(1). The steps,
 * and so every placement, are exactly those of a flat array of
 * breakpoints. */
#ifndef OPSCHED_CORE_PROFILE_H
#define OPSCHED_CORE_PROFILE_H

#include <stdint.h>

enum { OPSCHED_PROF_CHUNK = 64 };

typedef struct opsched_prof_chunk {
  int64_t t[OPSCHED_PROF_CHUNK];
  int32_t cnt[OPSCHED_PROF_CHUNK], use[OPSCHED_PROF_CHUNK];
  int32_t len;
  /* Added to every step of the chunk (adds that cover it whole). */
  int32_t add_cnt, add_use;
  /* Over t/cnt/use as stored, i.e. without add_cnt/add_use. */
  int32_t min_cnt, max_cnt, min_use, max_use;
} opsched_prof_chunk;

typedef struct opsched_prof {
  opsched_prof_chunk *ch; /* pool, grown on demand */
  int32_t *dir;           /* chunk ids in time order */
  int64_t *first;         /* first[i] = ch[dir[i]].t[0] */
  int32_t nch, cap_ch;    /* chunks in use, pool (and directory) size */
  int32_t streams, cap;   /* limits: ops running, sum of demands */
} opsched_prof;

/* A step: chunk `c` (directory position), step `k` inside it. */
typedef struct opsched_prof_pos {
  int32_t c, k;
} opsched_prof_pos;

/* Returns 0 when out of memory; opsched_prof_free is safe either way. */
int opsched_prof_init(opsched_prof *p, int32_t streams, int32_t cap);
void opsched_prof_free(opsched_prof *p);
/* Back to one empty step from 0 to infinity (keeps the memory). */
void opsched_prof_reset(opsched_prof *p);
/* Adds an op [t, t + cost) of `demand` (doubled time: see streams.c); a
 * zero-cost op counts as running but uses no capacity. Returns 0 when out
 * of memory. */
int opsched_prof_add(opsched_prof *p, int64_t t, int64_t cost,
                     int32_t demand);
/* The earliest start >= t where an op of `cost` and `demand` fits both
 * limits over its whole span. */
int64_t opsched_prof_earliest(const opsched_prof *p, int64_t t, int64_t cost,
                              int32_t demand);

#endif
