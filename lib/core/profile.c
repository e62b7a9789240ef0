/* lib/core/profile.c - the chunked resource profile (profile.h). */
#include "profile.h"

#include "alloc.h"

#include <string.h>

enum {
  CH = OPSCHED_PROF_CHUNK,
  HALF = OPSCHED_PROF_CHUNK / 2,
  GROUP = OPSCHED_PROF_GROUP,
  CLASSES = OPSCHED_PROF_CLASSES,
  STALE_ALL = (1 << OPSCHED_PROF_CLASSES) - 1 /* every class's summary */
};

/* The group arrays for `count` groups (grown: realloc); 0 when out of
 * memory. Every group is stale. */
static int groups_alloc(opsched_prof *p, size_t count) {
  if (!p->grouped)
    return 1;
  size_t per_class = count * CLASSES;
  uint8_t *st = opsched_realloc_array(p->gstale, count, sizeof *st);
  if (st)
    p->gstale = st;
  uint8_t *fu = opsched_realloc_array(p->gfull, per_class, sizeof *fu);
  if (fu)
    p->gfull = fu;
  uint8_t *ze = opsched_realloc_array(p->gzero, per_class, sizeof *ze);
  if (ze)
    p->gzero = ze;
  int64_t *fi = opsched_realloc_array(p->gfit, per_class, sizeof *fi);
  if (fi)
    p->gfit = fi;
  int64_t *ff = opsched_realloc_array(p->gff, per_class, sizeof *ff);
  if (ff)
    p->gff = ff;
  int64_t *af = opsched_realloc_array(p->gafter, per_class, sizeof *af);
  if (af)
    p->gafter = af;
  if (!st || !fu || !ze || !fi || !ff || !af)
    return 0;
  memset(p->gstale, STALE_ALL, count);
  return 1;
}

/* Groups from the one of directory position `from` to the one of `to`
 * become stale. */
static void groups_touch(opsched_prof *p, int32_t from, int32_t to) {
  if (!p->grouped)
    return;
  for (int32_t g = from / GROUP; g <= to / GROUP; g++)
    p->gstale[g] = STALE_ALL;
}

int opsched_prof_init(opsched_prof *p, int32_t streams, int32_t cap,
                      int32_t max_demand, int32_t ops) {
  p->memo_lo = -1;
  p->gstale = p->gfull = p->gzero = NULL;
  p->gfit = p->gff = p->gafter = NULL;
  p->flat = ops >= 0 && ops <= OPSCHED_PROF_FLAT_OPS;
  p->grouped = ops < 0 || ops > OPSCHED_PROF_GROUP_OPS;
  size_t m = p->flat ? 2 * (size_t)ops + 2 : 1;
  p->pt = opsched_alloc_array(m, sizeof *p->pt);
  p->pcnt = opsched_alloc_array(m, sizeof *p->pcnt);
  p->puse = opsched_alloc_array(m, sizeof *p->puse);
  p->cap_ch = 4;
  p->ch = opsched_alloc_array((size_t)p->cap_ch, sizeof *p->ch);
  p->dir = opsched_alloc_array((size_t)p->cap_ch, sizeof *p->dir);
  p->first = opsched_alloc_array((size_t)p->cap_ch, sizeof *p->first);
  if (!groups_alloc(p, (size_t)p->cap_ch / GROUP + 1))
    return 0;
  p->streams = streams;
  p->cap = cap;
  p->max_demand = max_demand > 0 ? max_demand : 1;
  p->runs = (int64_t)streams * p->max_demand <= cap;
  p->classes = p->skips = 0;
  p->nch = 0;
  if (!p->ch || !p->dir || !p->first || !p->pt || !p->pcnt || !p->puse)
    return 0;
  opsched_prof_reset(p);
  return 1;
}

void opsched_prof_free(opsched_prof *p) {
  opsched_free(p->ch);
  opsched_free(p->dir);
  opsched_free(p->first);
  opsched_free(p->pt);
  opsched_free(p->pcnt);
  opsched_free(p->puse);
  opsched_free(p->gstale);
  opsched_free(p->gfull);
  opsched_free(p->gzero);
  opsched_free(p->gfit);
  opsched_free(p->gff);
  opsched_free(p->gafter);
  p->gstale = p->gfull = p->gzero = NULL;
  p->gfit = p->gff = p->gafter = NULL;
  p->pt = NULL;
  p->pcnt = p->puse = NULL;
  p->ch = NULL;
  p->dir = NULL;
  p->first = NULL;
}

/* Forgets every skip (its demand stays): the profile lost ops. */
static void skips_forget(opsched_prof *p) {
  for (int i = 0; i < OPSCHED_PROF_SKIPS; i++) {
    p->skip[i].lo = p->skip[i].hi = -1;
    p->skip[i].cost = INT64_MAX;
  }
}

void opsched_prof_reset(opsched_prof *p) {
  p->memo_lo = -1;
  skips_forget(p);
  p->pm = 1;
  p->pt[0] = 0;
  p->pcnt[0] = p->puse[0] = 0;
  opsched_prof_chunk *c = &p->ch[0];
  memset(c, 0, sizeof *c);
  c->len = 1;
  /* One empty step: full for no class (every class's demand fits the
   * capacity, opsched_prof_earliest). */
  for (int i = 0; i < CLASSES; i++)
    c->full_first[i] = c->full_last[i] = -1;
  c->stale = 0;
  c->mm_stale = 0;
  p->dir[0] = 0;
  p->first[0] = 0;
  p->nch = 1;
  if (p->grouped)
    memset(p->gstale, STALE_ALL, (size_t)p->cap_ch / GROUP + 1);
}

static opsched_prof_chunk *chunk(const opsched_prof *p, int32_t c) {
  return &p->ch[p->dir[c]];
}

/* The largest i in [lo, hi] with t[i] <= x, given t[lo] <= x and t
 * sorted. */
static int32_t last_le(const int64_t *t, int32_t lo, int32_t hi, int64_t x) {
  while (lo < hi) {
    int32_t mid = lo + (hi - lo + 1) / 2;
    if (t[mid] <= x)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

/* The step containing x (the last breakpoint <= x), searched from step
 * `from` on (which must start at or before x). */
static opsched_prof_pos locate_from(const opsched_prof *p, int64_t x, opsched_prof_pos from) {
  int32_t lo = from.c, hi = p->nch - 1, a0 = from.k;
  if (lo < hi && p->first[lo + 1] <= x) {
    lo++;
    a0 = 0;
  } else {
    hi = lo;
  }
  lo = last_le(p->first, lo, hi, x);
  const opsched_prof_chunk *c = chunk(p, lo);
  return (opsched_prof_pos){lo, last_le(c->t, a0, c->len - 1, x)};
}

/* The step containing x (the last breakpoint <= x). */
static opsched_prof_pos locate(const opsched_prof *p, int64_t x) {
  int32_t lo = last_le(p->first, 0, p->nch - 1, x);
  const opsched_prof_chunk *c = chunk(p, lo);
  return (opsched_prof_pos){lo, last_le(c->t, 0, c->len - 1, x)};
}

static void refresh(opsched_prof_chunk *c) {
  int32_t a = c->cnt[0], b = c->cnt[0], u = c->use[0], w = c->use[0];
  for (int32_t k = 1; k < c->len; k++) {
    if (c->cnt[k] < a)
      a = c->cnt[k];
    if (c->cnt[k] > b)
      b = c->cnt[k];
    if (c->use[k] < u)
      u = c->use[k];
    if (c->use[k] > w)
      w = c->use[k];
  }
  c->min_cnt = a;
  c->max_cnt = b;
  c->min_use = u;
  c->max_use = w;
  c->mm_stale = 0;
}

/* Splits the full chunk at directory position ci into two halves. */
static int split_chunk(opsched_prof *p, int32_t ci) {
  if (p->nch == p->cap_ch) {
    int32_t n = p->cap_ch * 2;
    opsched_prof_chunk *ch = opsched_realloc_array(p->ch, (size_t)n, sizeof *ch);
    if (!ch)
      return 0;
    p->ch = ch;
    int32_t *dir = opsched_realloc_array(p->dir, (size_t)n, sizeof *dir);
    if (!dir)
      return 0;
    p->dir = dir;
    int64_t *first = opsched_realloc_array(p->first, (size_t)n, sizeof *first);
    if (!first)
      return 0;
    p->first = first;
    if (!groups_alloc(p, (size_t)n / GROUP + 1))
      return 0;
    p->cap_ch = n;
  }
  int32_t id = p->nch; /* chunks are never freed: ids 0..nch-1 are in use */
  opsched_prof_chunk *a = chunk(p, ci), *b = &p->ch[id];
  b->len = a->len - HALF;
  memcpy(b->t, a->t + HALF, sizeof *b->t * (size_t)b->len);
  memcpy(b->cnt, a->cnt + HALF, sizeof *b->cnt * (size_t)b->len);
  memcpy(b->use, a->use + HALF, sizeof *b->use * (size_t)b->len);
  b->add_cnt = a->add_cnt;
  b->add_use = a->add_use;
  a->len = HALF;
  a->stale = b->stale = STALE_ALL;
  a->mm_stale = b->mm_stale = 1;
  size_t tail = (size_t)(p->nch - ci - 1);
  memmove(p->dir + ci + 2, p->dir + ci + 1, tail * sizeof *p->dir);
  memmove(p->first + ci + 2, p->first + ci + 1, tail * sizeof *p->first);
  p->dir[ci + 1] = id;
  p->first[ci + 1] = b->t[0];
  p->nch++;
  return 1;
}

/* Makes x a breakpoint, given q, the step containing it; *at receives its
 * step. Returns 0 when out of memory. */
static int split_at(opsched_prof *p, int64_t x, opsched_prof_pos q, opsched_prof_pos *at) {
  opsched_prof_chunk *c = chunk(p, q.c);
  if (c->t[q.k] == x) {
    *at = q;
    return 1;
  }
  if (c->len == CH) {
    if (!split_chunk(p, q.c))
      return 0;
    if (q.k >= HALF) {
      q.c++;
      q.k -= HALF;
    }
    c = chunk(p, q.c);
  }
  /* The new step copies the one it splits: minimum and maximum hold. */
  int32_t k = q.k + 1;
  size_t tail = (size_t)(c->len - k);
  memmove(c->t + k + 1, c->t + k, tail * sizeof *c->t);
  memmove(c->cnt + k + 1, c->cnt + k, tail * sizeof *c->cnt);
  memmove(c->use + k + 1, c->use + k, tail * sizeof *c->use);
  c->t[k] = x;
  c->cnt[k] = c->cnt[q.k];
  c->use[k] = c->use[q.k];
  c->len++;
  c->stale = STALE_ALL;
  *at = (opsched_prof_pos){q.c, k};
  return 1;
}

/* Adds (dc, du) to steps [a, b) of one chunk. */
static void add_steps(opsched_prof_chunk *c, int32_t a, int32_t b, int32_t dc,
                      int32_t du) {
  if (a == 0 && b == c->len) {
    c->add_cnt += dc;
    c->add_use += du;
    c->stale = STALE_ALL;
    return;
  }
  for (int32_t k = a; k < b; k++) {
    c->cnt[k] += dc;
    c->use[k] += du;
  }
  c->stale = STALE_ALL;
  c->mm_stale = 1;
}

/* ---------------------------------------------------------------------- */
/* The flat array (small profiles).                                        */

/* Index of the step containing x (largest i with pt[i] <= x). */
static int32_t flat_seg(const opsched_prof *p, int64_t x) {
  return last_le(p->pt, 0, p->pm - 1, x);
}

/* The step containing x from step `from` on (pt[from] <= x): galloping,
 * for an x a few steps on (an op's end after its start). */
static int32_t flat_seg_from(const opsched_prof *p, int64_t x, int32_t from) {
  int32_t lo = from, step = 1, hi;
  for (;;) {
    hi = lo + step;
    if (hi >= p->pm || p->pt[hi] > x)
      break;
    lo = hi;
    step *= 2;
  }
  if (hi > p->pm - 1)
    hi = p->pm - 1;
  return last_le(p->pt, lo, hi, x); /* pt[lo] <= x: the answer is in [lo, hi] */
}

/* Makes x a breakpoint, given the step i containing it, and returns its
 * index. */
static int32_t flat_split_at(opsched_prof *p, int64_t x, int32_t i) {
  if (p->pt[i] == x)
    return i;
  size_t tail = (size_t)(p->pm - i - 1);
  memmove(p->pt + i + 2, p->pt + i + 1, tail * sizeof *p->pt);
  memmove(p->pcnt + i + 2, p->pcnt + i + 1, tail * sizeof *p->pcnt);
  memmove(p->puse + i + 2, p->puse + i + 1, tail * sizeof *p->puse);
  p->pt[i + 1] = x;
  p->pcnt[i + 1] = p->pcnt[i];
  p->puse[i + 1] = p->puse[i];
  p->pm++;
  return i + 1;
}

static void flat_add(opsched_prof *p, int64_t lo, int64_t hi, int32_t du) {
  int32_t a = flat_split_at(p, lo, lo == p->memo_lo ? p->memo_i : flat_seg(p, lo));
  int32_t b = flat_split_at(p, hi, flat_seg_from(p, hi, a));
  p->memo_lo = -1;
  for (int32_t k = a; k < b; k++) {
    p->pcnt[k]++;
    p->puse[k] += du;
  }
}

/* Candidates only move forward, to the end of the violating step, and the
 * window's first step is found from there by a local step. */
static int64_t flat_earliest(opsched_prof *p, int64_t t, int64_t cost,
                             int32_t demand) {
  int64_t lo = cost > 0 ? 2 * t + 1 : 2 * t;
  int64_t hi = cost > 0 ? 2 * (t + cost) : 2 * t + 1;
  int32_t j = flat_seg(p, lo);
  for (;;) {
    int32_t bad = -1;
    for (int32_t k = j; k < p->pm && p->pt[k] < hi; k++)
      if (p->pcnt[k] + 1 > p->streams || (cost > 0 && p->puse[k] + demand > p->cap)) {
        bad = k;
        break;
      }
    if (bad < 0 || bad + 1 == p->pm) { /* the latter: a demand over the
                                           capacity, callers never ask it */
      p->memo_lo = lo; /* j: the step containing lo */
      p->memo_i = j;
      return t;
    }
    int64_t next = p->pt[bad + 1];
    t = cost > 0 ? next / 2 : (next + 1) / 2;
    lo = cost > 0 ? 2 * t + 1 : 2 * t;
    hi = cost > 0 ? 2 * (t + cost) : 2 * t + 1;
    for (j = bad + 1; j + 1 < p->pm && p->pt[j + 1] <= lo; j++)
      ;
  }
}

/* ---------------------------------------------------------------------- */
/* Chunks.                                                                 */

/* The add on chunks; *last gets the directory position of hi's step
 * (every chunk changed is from lo's position before the add to there). */
static inline __attribute__((always_inline)) int
chunked_add(opsched_prof *p, int64_t lo, int64_t hi, int32_t du, int32_t *last) {
  opsched_prof_pos a, b;
  if (!split_at(p, lo, locate(p, lo), &a))
    return 0;
  int32_t nch = p->nch;
  if (!split_at(p, hi, locate_from(p, hi, a), &b))
    return 0;
  *last = b.c;
  /* hi's new step goes after lo's: lo's position holds unless a chunk was
   * split on the way, which may have moved it. */
  if (p->nch != nch)
    a = locate(p, lo);
  if (a.c == b.c) {
    add_steps(chunk(p, a.c), a.k, b.k, 1, du);
    return 1;
  }
  add_steps(chunk(p, a.c), a.k, chunk(p, a.c)->len, 1, du);
  for (int32_t c = a.c + 1; c < b.c; c++)
    add_steps(chunk(p, c), 0, chunk(p, c)->len, 1, du);
  if (b.k > 0)
    add_steps(chunk(p, b.c), 0, b.k, 1, du);
  return 1;
}

int opsched_prof_add(opsched_prof *p, int64_t t, int64_t cost,
                     int32_t demand) {
  int64_t lo = cost > 0 ? 2 * t + 1 : 2 * t;
  int64_t hi = cost > 0 ? 2 * (t + cost) : 2 * t + 1;
  int32_t du = cost > 0 ? demand : 0; /* zero duration: no capacity */
  int32_t last = 0;
  if (p->flat) {
    flat_add(p, lo, hi, du);
    return 1;
  }
  if (!p->grouped)
    return chunked_add(p, lo, hi, du, &last);
  /* The groups of the chunks changed are stale; a split moves the
   * positions after it, so from there on every group is. */
  int32_t from = locate(p, lo).c, nch0 = p->nch;
  int ok = chunked_add(p, lo, hi, du, &last);
  groups_touch(p, from, !ok || p->nch != nch0 ? p->nch - 1 : last);
  return ok;
}

/* ---------------------------------------------------------------------- */
/* The earliest feasible start.                                            */

typedef struct fit {
  int64_t streams, cap; /* what one more op may reach: streams - 1 etc. */
  int capacity;         /* whether the op uses capacity (cost > 0) */
} fit;

static int chunk_may_be_bad(const fit *f, opsched_prof_chunk *c) {
  if (c->mm_stale)
    refresh(c);
  return (int64_t)c->max_cnt + c->add_cnt > f->streams ||
         (f->capacity && (int64_t)c->max_use + c->add_use > f->cap);
}

static int chunk_all_bad(const fit *f, opsched_prof_chunk *c) {
  if (c->mm_stale)
    refresh(c);
  return (int64_t)c->min_cnt + c->add_cnt > f->streams ||
         (f->capacity && (int64_t)c->min_use + c->add_use > f->cap);
}

/* From step *q on, the first step before `hi` where the op does not fit:
 * returns 1 and moves *q there, or 0 when every step up to hi fits. Steps
 * are read in place; a chunk that cannot conflict is skipped on entry. */
static int find_bad(opsched_prof *p, const fit *f, int64_t hi,
                    opsched_prof_pos *q) {
  int32_t ci = q->c, k = q->k;
  opsched_prof_chunk *c = chunk(p, ci);
  for (;;) {
    const int64_t fs = f->streams - c->add_cnt;
    const int64_t fc = f->capacity ? f->cap - c->add_use : INT64_MAX;
    const int64_t *t = c->t;
    const int32_t *cnt = c->cnt, *use = c->use;
    for (int32_t len = c->len; k < len; k++) {
      if (t[k] >= hi)
        return 0;
      if (cnt[k] > fs || use[k] > fc) {
        q->c = ci;
        q->k = k;
        return 1;
      }
    }
    do {
      if (++ci == p->nch)
        return 0;
      c = chunk(p, ci);
      if (c->t[0] >= hi)
        return 0;
    } while (!chunk_may_be_bad(f, c));
    k = 0;
  }
}

/* From a step where the op does not fit, moves *q to the first later step
 * where it does (the last step, empty, at the latest) and returns 1; 0 when
 * not even the last step fits (a demand over the capacity: callers never
 * ask it). A chunk where the op fits nowhere is skipped on entry. */
static int skip_bad(opsched_prof *p, const fit *f, opsched_prof_pos *q) {
  int32_t ci = q->c, k = q->k + 1;
  opsched_prof_chunk *c = chunk(p, ci);
  for (;;) {
    const int64_t fs = f->streams - c->add_cnt;
    const int64_t fc = f->capacity ? f->cap - c->add_use : INT64_MAX;
    const int32_t *cnt = c->cnt, *use = c->use;
    for (int32_t len = c->len; k < len; k++)
      if (cnt[k] <= fs && use[k] <= fc) {
        q->c = ci;
        q->k = k;
        return 1;
      }
    do {
      if (ci + 1 == p->nch) {
        q->c = ci;
        q->k = c->len - 1;
        return 0;
      }
      c = chunk(p, ++ci);
    } while (chunk_all_bad(f, c));
    k = 0;
  }
}

/* ---------------------------------------------------------------------- */
/* The earliest start by runs of free time between full steps: when only  */
/* the running count binds (class 0), and for an op of cost > 0 whose      */
/* demand has a class when the capacity can bind.                          */

/* Which steps are full for the op: those where `streams` ops run already
 * or, when the capacity can bind, where more than `use_max` (the capacity
 * less the op's demand) is in use; `cls`, the class whose summaries
 * describe those steps. */
typedef struct run_class {
  int cls;
  int64_t use_max;
} run_class;

/* The run of free time [a, b) (doubled time, 0 <= a < b) takes an op of
 * cost > 0 at start a / 2 (the first t with 2t + 1 >= a) when 2 (a / 2 +
 * cost) <= b, i.e. cost <= b / 2 - a / 2: run_from's candidate, so a chunk
 * none of whose inner runs takes the op is crossed by its summary with the
 * walk's answer. An op of cost 0 needs an instant instead (zero_fit). */
static int64_t run_fit(int64_t a, int64_t b) { return (b >> 1) - (a >> 1); }

/* Whether the run [a, b) of doubled time holds an instant [2t, 2t + 1),
 * where an op of cost 0 fits: an even number in [a, b). Zero-cost queries
 * (allocations, views) cross the chunks that have none by their summary
 * instead of reading every step (round 24: 100k memref ops with effort=16,
 * 5.9 s in the pass). */
static int zero_fit(int64_t a, int64_t b) { return ((b + 1) >> 1) > ((a + 1) >> 1); }

/* Whether some run a summary stands for (a chunk's or a group's: the
 * largest run_fit `fit_max`, whether one holds an instant `zero`) takes an op
 * of `cost`. */
static int summary_takes(int64_t fit_max, int zero, int64_t cost) {
  return cost > 0 ? fit_max >= cost : zero;
}

/* Inlined into its callers (the walks), `capacity` a constant in each: as
 * a call it cost more on the walks of blocks of ~2,000 ops. */
static inline __attribute__((always_inline)) void
runs_refresh(const opsched_prof *p, opsched_prof_chunk *c, run_class rc, int capacity) {
  const int64_t free_max = (int64_t)p->streams - 1 - c->add_cnt;
  const int64_t use_max = capacity ? rc.use_max - c->add_use : 0;
  int32_t first = -1, last = -1;
  int64_t fit_max = -1;
  int zero_fits = 0;
  for (int32_t k = 0; k < c->len; k++) {
    if (c->cnt[k] <= free_max && (!capacity || c->use[k] <= use_max))
      continue;
    if (last >= 0 && k > last + 1) {
      if (run_fit(c->t[last + 1], c->t[k]) > fit_max)
        fit_max = run_fit(c->t[last + 1], c->t[k]);
      zero_fits |= zero_fit(c->t[last + 1], c->t[k]);
    }
    if (first < 0)
      first = k;
    last = k;
  }
  c->full_first[rc.cls] = first;
  c->full_last[rc.cls] = last;
  c->fit_max[rc.cls] = fit_max;
  c->zero_fits[rc.cls] = (uint8_t)zero_fits;
  c->stale &= ~(1u << rc.cls);
}

/* The op to place and its first candidate start in the current run of
 * free time (the run from doubled time `a`): the first start t >= t0 whose
 * span begins at or after a, and where that span ends. */
typedef struct run_query {
  int64_t t0, cost, t, hi;
} run_query;

static void run_from(run_query *r, int64_t a) {
  int64_t t = r->cost > 0 ? a / 2 : (a + 1) / 2; /* first t with lo >= a */
  r->t = t < r->t0 ? r->t0 : t;
  r->hi = r->cost > 0 ? 2 * (r->t + r->cost) : 2 * r->t + 1;
}

/* Where the run after step k (full) of chunk ci starts. */
static int64_t after_step(const opsched_prof *p, int32_t ci, int32_t k) {
  const opsched_prof_chunk *c = chunk(p, ci);
  return k + 1 < c->len ? c->t[k + 1] : p->first[ci + 1];
}

/* Group g's summary for class `cls` (opsched_prof.gfit etc.) from its
 * chunks': the runs inside the chunks (fit_max) and those between the last
 * full step of one chunk and the first of the next chunk of the group that
 * has one. Returns 0 (the group stays stale) when a chunk's summary is
 * stale: the walk refreshes the chunks it enters, so a group is summarised
 * once walked. */
static int group_refresh(opsched_prof *p, int32_t g, int cls) {
  int32_t c0 = g * GROUP, c1 = c0 + GROUP < p->nch ? c0 + GROUP : p->nch;
  int32_t gi = g * CLASSES + cls;
  int64_t best = -1, after = -1;
  int full = 0, zero = 0;
  for (int32_t ci = c0; ci < c1; ci++)
    if (chunk(p, ci)->stale & (1u << cls))
      return 0;
  for (int32_t ci = c0; ci < c1; ci++) {
    opsched_prof_chunk *c = chunk(p, ci);
    if (c->full_first[cls] < 0)
      continue;
    best = c->fit_max[cls] > best ? c->fit_max[cls] : best;
    zero |= c->zero_fits[cls];
    if (!full)
      p->gff[gi] = c->t[c->full_first[cls]];
    else {
      if (run_fit(after, c->t[c->full_first[cls]]) > best)
        best = run_fit(after, c->t[c->full_first[cls]]);
      zero |= zero_fit(after, c->t[c->full_first[cls]]);
    }
    full = 1;
    after = after_step(p, ci, c->full_last[cls]);
  }
  p->gfit[gi] = best;
  p->gfull[gi] = (uint8_t)full;
  p->gzero[gi] = (uint8_t)zero;
  p->gafter[gi] = after;
  p->gstale[g] &= (uint8_t)~(1u << cls);
  return 1;
}

/* Crosses the group that starts at directory position ci (entered at its
 * first step, before the last chunk) by its summary when no run of it
 * takes an op of `cost` (> 0: gfit; 0: gzero): the chunk-by-chunk walk
 * would cross each chunk by its summary (fit_max < cost, or no zero_fits),
 * find every run between two of its full steps too short (the same run_fit
 * or zero_fit test), and either stop at the
 * group's first full step with r's start or go on from the run after its
 * last. Returns 1 with r updated (*done: r.t is the answer), 0 when the
 * group must be walked. */
static int group_cross(opsched_prof *p, int32_t ci, int64_t cost, int cls, run_query *r,
                       int *done) {
  int32_t g = ci / GROUP, gi = g * CLASSES + cls;
  if (ci % GROUP != 0 || ci + GROUP >= p->nch)
    return 0;
  if (((p->gstale[g] & (1u << cls)) && !group_refresh(p, g, cls)) ||
      summary_takes(p->gfit[gi], p->gzero[gi], cost))
    return 0;
  if (p->gfull[gi] && p->gff[gi] >= r->hi)
    *done = 1;
  else if (p->gfull[gi])
    run_from(r, p->gafter[gi]);
  return 1;
}

/* The op fits exactly where its span lies in a run, so the answer is the
 * candidate of the first run, in time order, that no full step ends before
 * the candidate's span does: the earliest feasible start, the flat
 * decoder's. Steps are read until the span's end or a full step; a chunk
 * none of whose inner runs takes the op (run_fit, exact: the summary is
 * not a bound that sends the walk into chunks where the op then fits
 * nowhere) is crossed by its summary (the run entering it ends at its
 * first full step, the run leaving it starts after its last). The last
 * step is empty, full for no class. */
/* `grouped` and `capacity` (constants in each caller: a walk pays no test
 * for what it does not use) cross groups by their summaries
 * (group_cross; grouped profiles) and count the
 * capacity in what is full. */
static inline __attribute__((always_inline)) int64_t
earliest_runs_walk(opsched_prof *p, int64_t t0, int64_t cost, run_class rc, int grouped,
                   int capacity) {
  run_query r = {t0, cost, 0, 0};
  const int cls = rc.cls;
  opsched_prof_pos q = locate(p, cost > 0 ? 2 * t0 + 1 : 2 * t0);
  run_from(&r, 0); /* t0 itself: its span starts in q's step */
  for (int32_t ci = q.c, k = q.k;; ci++, k = 0) {
    opsched_prof_chunk *c = chunk(p, ci);
    if (c->t[k] >= r.hi)
      return r.t;
    int done = 0;
    if (grouped && k == 0 && group_cross(p, ci, cost, cls, &r, &done)) {
      if (done)
        return r.t;
      ci += GROUP - 1; /* the loop's ci++: the next group's first chunk */
      continue;
    }
    if (k == 0 && (c->stale & (1u << cls)))
      runs_refresh(p, c, rc, capacity);
    if (k > 0 ||
        (c->full_first[cls] >= 0 && summary_takes(c->fit_max[cls], c->zero_fits[cls], cost))) {
      const int64_t free_max = (int64_t)p->streams - 1 - c->add_cnt;
      const int64_t use_max = capacity ? rc.use_max - c->add_use : 0;
      for (; k < c->len; k++) {
        if (c->t[k] >= r.hi)
          return r.t;
        if (c->cnt[k] > free_max || (capacity && c->use[k] > use_max))
          run_from(&r, after_step(p, ci, k));
      }
    } else if (c->full_first[cls] >= 0) {
      if (c->t[c->full_first[cls]] >= r.hi)
        return r.t;
      run_from(&r, after_step(p, ci, c->full_last[cls]));
    }
    if (ci + 1 == p->nch)
      return r.t;
  }
}

static int64_t earliest_runs(opsched_prof *p, int64_t t0, int64_t cost) {
  return earliest_runs_walk(p, t0, cost, (run_class){0, 0}, 0, 0);
}

static int64_t earliest_runs_grouped(opsched_prof *p, int64_t t0, int64_t cost) {
  return earliest_runs_walk(p, t0, cost, (run_class){0, 0}, 1, 0);
}

static int64_t earliest_class(opsched_prof *p, int64_t t0, int64_t cost, run_class rc) {
  return earliest_runs_walk(p, t0, cost, rc, 0, 1);
}

static int64_t earliest_class_grouped(opsched_prof *p, int64_t t0, int64_t cost,
                                      run_class rc) {
  return earliest_runs_walk(p, t0, cost, rc, 1, 1);
}

/* The class of `demand` (registered on first ask while there is room), -1
 * when every class is some other demand's. */
static int demand_class(opsched_prof *p, int32_t demand) {
  for (int i = 0; i < p->classes; i++)
    if (p->demand[i] == demand)
      return i;
  if (p->classes == CLASSES)
    return -1;
  p->demand[p->classes] = demand;
  return p->classes++;
}

/* ---------------------------------------------------------------------- */
/* The earliest start, any limits.                                          */

/* The earliest start for an op of class `cls` (query_class; -1: none).
 * Otherwise candidates only move forward: past a step where the op does
 * not fit, to the end of the run of such steps (the flat decoder jumped
 * one step at a time and landed on the same start, the first whose window
 * begins after the run), and the window's first step is found from there
 * by a local walk. */
static int64_t earliest_from(opsched_prof *p, int64_t t, int64_t cost, int32_t demand,
                             int cls) {
  if (p->flat)
    return flat_earliest(p, t, cost, demand);
  if (p->runs && demand <= p->max_demand)
    return p->grouped ? earliest_runs_grouped(p, t, cost) : earliest_runs(p, t, cost);
  if (cls >= 0) {
    run_class rc = {cls, (int64_t)p->cap - demand};
    return p->grouped ? earliest_class_grouped(p, t, cost, rc) : earliest_class(p, t, cost, rc);
  }
  fit f = {(int64_t)p->streams - 1, (int64_t)p->cap - demand, cost > 0};
  int64_t lo = cost > 0 ? 2 * t + 1 : 2 * t;
  int64_t hi = cost > 0 ? 2 * (t + cost) : 2 * t + 1;
  opsched_prof_pos q = locate(p, lo);
  while (find_bad(p, &f, hi, &q)) {
    int fits = skip_bad(p, &f, &q);
    int64_t next = chunk(p, q.c)->t[q.k];
    t = cost > 0 ? next / 2 : (next + 1) / 2;
    if (!fits)
      return t;
    lo = cost > 0 ? 2 * t + 1 : 2 * t;
    hi = cost > 0 ? 2 * (t + cost) : 2 * t + 1;
    /* The step containing lo (>= next): this one or a following one. */
    for (;;) {
      const opsched_prof_chunk *c = chunk(p, q.c);
      if (q.k + 1 < c->len) {
        if (c->t[q.k + 1] > lo)
          break;
        q.k++;
      } else if (q.c + 1 < p->nch && p->first[q.c + 1] <= lo) {
        q.c++;
        q.k = 0;
      } else {
        break;
      }
    }
  }
  return t;
}


/* Skips: no start in a skip's [lo, hi) fitted an op of its demand and
 * cost when the skip was learned, and since then the profile has only
 * gained ops (a reset or a restore forgets it), so none fits such an op
 * now either, nor a longer one (its span holds the shorter one's) or,
 * when the capacity can bind, a heavier one. A query of cost > 0 starts
 * from the furthest skip that holds its start and stands for it, and what
 * it learns extends its own demand's skip. */
int64_t opsched_prof_earliest(opsched_prof *p, int64_t t, int64_t cost,
                              int32_t demand) {
  /* A demand over the capacity fits nowhere: the step walk's answer. */
  if (cost <= 0 || demand > (p->runs ? p->max_demand : p->cap))
    return earliest_from(p, t, cost, demand, -1);
  int own = p->runs ? 0 : -1;
  int64_t from = t;
  for (int32_t i = 0, n = p->runs ? 1 : p->skips; i < n; i++) {
    if (!p->runs && p->skip[i].demand == demand)
      own = i;
    if ((p->runs || p->skip[i].demand <= demand) && p->skip[i].cost <= cost &&
        p->skip[i].lo <= t && t <= p->skip[i].hi && p->skip[i].hi > from)
      from = p->skip[i].hi;
  }
  if (own < 0 && p->skips < OPSCHED_PROF_SKIPS) {
    own = p->skips++;
    p->skip[own].demand = demand; /* empty: skips_forget's */
  }
  int64_t a = earliest_from(p, from, cost, demand, p->runs ? 0 : demand_class(p, demand));
  if (own >= 0) {
    if (!(p->skip[own].cost <= cost && p->skip[own].lo <= t && t <= p->skip[own].hi))
      p->skip[own].lo = t; /* else [lo, hi) and [t, a) join */
    p->skip[own].hi = a;
    p->skip[own].cost = cost;
  }
  return a;
}

/* ---------------------------------------------------------------------- */
/* Snapshots of a flat profile.                                            */

void opsched_prof_snap_save(const opsched_prof *p, opsched_prof_snap *s) {
  s->pm = p->pm;
  memcpy(s->pt, p->pt, sizeof *s->pt * (size_t)p->pm);
  memcpy(s->cnt, p->pcnt, sizeof *s->cnt * (size_t)p->pm);
  memcpy(s->use, p->puse, sizeof *s->use * (size_t)p->pm);
}

void opsched_prof_snap_restore(opsched_prof *p, const opsched_prof_snap *s) {
  p->memo_lo = -1;
  skips_forget(p);
  p->pm = s->pm;
  memcpy(p->pt, s->pt, sizeof *s->pt * (size_t)s->pm);
  memcpy(p->pcnt, s->cnt, sizeof *s->cnt * (size_t)s->pm);
  memcpy(p->puse, s->use, sizeof *s->use * (size_t)s->pm);
}
