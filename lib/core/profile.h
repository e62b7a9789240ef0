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

enum {
  OPSCHED_PROF_CHUNK = 64,
  OPSCHED_PROF_GROUP = 8,
  OPSCHED_PROF_CLASSES = 8,
  OPSCHED_PROF_SKIPS = 64
};

typedef struct opsched_prof_chunk {
  int64_t t[OPSCHED_PROF_CHUNK];
  int32_t cnt[OPSCHED_PROF_CHUNK], use[OPSCHED_PROF_CHUNK];
  int32_t len;
  /* Added to every step of the chunk (adds that cover it whole). */
  int32_t add_cnt, add_use;
  /* Over t/cnt/use as stored, i.e. without add_cnt/add_use; valid when
   * `mm_stale` is 0 (recomputed when a search needs them). */
  int32_t min_cnt, max_cnt, min_use, max_use, mm_stale;
  /* Runs, per demand class (opsched_prof.demand; class 0 alone when only
   * the running count can bind, opsched_prof.runs): the first and last
   * step that is full for the class (an op of it does not fit there; -1:
   * none), and of the runs of free time between two full steps of the
   * chunk, the largest cost > 0 one of them takes (`fit_max`; 0: none
   * does, -1: no such run) and whether one of them holds an even doubled
   * time, an instant where an op of cost 0 fits (`zero_fits`). Class c's
   * are valid when bit c of `stale` is 0. */
  int32_t full_first[OPSCHED_PROF_CLASSES], full_last[OPSCHED_PROF_CLASSES];
  int64_t fit_max[OPSCHED_PROF_CLASSES];
  uint8_t zero_fits[OPSCHED_PROF_CLASSES];
  uint32_t stale;
} opsched_prof_chunk;

typedef struct opsched_prof {
  opsched_prof_chunk *ch; /* pool, grown on demand */
  int32_t *dir;           /* chunk ids in time order */
  int64_t *first;         /* first[i] = ch[dir[i]].t[0] */
  int32_t nch, cap_ch;    /* chunks in use, pool (and directory) size */
  int32_t streams, cap;   /* limits: ops running, sum of demands */
  /* 1 when streams * (largest demand) <= cap: the capacity can never bind,
   * an op fits wherever fewer than `streams` run, and the search walks the
   * chunks' runs of free time instead of their steps. */
  int runs;
  int32_t max_demand;
  /* Otherwise the demand of each class (cost > 0 queries of up to
   * OPSCHED_PROF_CLASSES distinct demands, in the order first asked: kept
   * across resets), whose runs of free time the search walks as above; a
   * query of a further demand walks the steps. */
  int32_t demand[OPSCHED_PROF_CLASSES], classes;
  /* Skips (opsched_prof_earliest), one per demand of the ops of cost > 0
   * asked (the first OPSCHED_PROF_SKIPS distinct demands since init; one
   * for every demand when only the running count binds): starts known not
   * to fit. None of [lo, hi) fits an op of that demand of cost >= `cost`;
   * forgotten (empty) after a reset or a restore. */
  struct {
    int64_t lo, hi, cost;
    int32_t demand;
  } skip[OPSCHED_PROF_SKIPS];
  int32_t skips;
  /* Small profiles (at most OPSCHED_PROF_FLAT_OPS ops) stay one flat array
   * of breakpoints (the decoder's profile before issue 16's round 6):
   * cheaper there than chunks. Step i is [pt[i], pt[i+1]). */
  int flat;
  int64_t *pt;
  int32_t *pcnt, *puse, pm;
  /* Groups of OPSCHED_PROF_GROUP consecutive chunks (directory positions
   * [g * GROUP, (g + 1) * GROUP)), per class (index g * CLASSES + class):
   * the largest cost > 0 any run of free time between two full steps of
   * the group takes (inside a chunk or across chunks: `gfit`, -1 none),
   * the time of its first full step and where the run after its last full
   * step starts (`gff`, `gafter`; `gfull` 0: no full step), and whether
   * such a run holds an instant, where an op of cost 0 fits (`gzero`).
   * Valid when bit `class` of gstale[g] is 0; the earliest-start query
   * crosses such a group in O(1) when no run of it takes the op. */
  uint8_t *gstale, *gfull, *gzero;
  int64_t *gfit, *gff, *gafter;
  /* Whether the groups are kept: profiles of more than
   * OPSCHED_PROF_GROUP_OPS ops (on smaller ones the walks are short and
   * keeping the groups fresh costs more than they save: nested 2000x4 on
   * 4 streams, +9.1M instructions with them, random 10k on 16 -10.9M). */
  int grouped;
  /* The step of the last earliest query's answer (flat profiles): an add
   * at that answer, the decoders' next call, starts from it. -1 when the
   * profile changed since. */
  int64_t memo_lo;
  int32_t memo_i;
} opsched_prof;

enum { OPSCHED_PROF_FLAT_OPS = 1024, OPSCHED_PROF_GROUP_OPS = 4096 };

/* A step: chunk `c` (directory position), step `k` inside it. */
typedef struct opsched_prof_pos {
  int32_t c, k;
} opsched_prof_pos;

/* `max_demand`: the largest demand any op added or queried will have;
 * `ops`: at most how many ops are added between resets. Returns 0 when
 * out of memory; opsched_prof_free is safe either way. */
int opsched_prof_init(opsched_prof *p, int32_t streams, int32_t cap,
                      int32_t max_demand, int32_t ops);
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
int64_t opsched_prof_earliest(opsched_prof *p, int64_t t, int64_t cost,
                              int32_t demand);

/* Snapshots of a flat profile (p->flat): its breakpoints and steps. A flat
 * profile is the sorted breakpoints of the ops added and the sums over
 * them, whatever the order of the adds, so restoring a snapshot taken after
 * some set of ops gives exactly the profile of adding that set. `cap`
 * (entries) must be at least 2 * ops + 2 of opsched_prof_init. */
typedef struct opsched_prof_snap {
  int64_t *pt;
  int32_t *cnt, *use;
  int32_t pm;
} opsched_prof_snap;

void opsched_prof_snap_save(const opsched_prof *p, opsched_prof_snap *s);
void opsched_prof_snap_restore(opsched_prof *p, const opsched_prof_snap *s);

#endif
