/* lib/core/profile.c - the chunked resource profile (profile.h). */
#include "profile.h"

#include "alloc.h"

#include <string.h>

enum { CH = OPSCHED_PROF_CHUNK, HALF = OPSCHED_PROF_CHUNK / 2 };

int opsched_prof_init(opsched_prof *p, int32_t streams, int32_t cap) {
  p->cap_ch = 4;
  p->ch = opsched_alloc_array((size_t)p->cap_ch, sizeof *p->ch);
  p->dir = opsched_alloc_array((size_t)p->cap_ch, sizeof *p->dir);
  p->first = opsched_alloc_array((size_t)p->cap_ch, sizeof *p->first);
  p->streams = streams;
  p->cap = cap;
  p->nch = 0;
  if (!p->ch || !p->dir || !p->first)
    return 0;
  opsched_prof_reset(p);
  return 1;
}

void opsched_prof_free(opsched_prof *p) {
  opsched_free(p->ch);
  opsched_free(p->dir);
  opsched_free(p->first);
  p->ch = NULL;
  p->dir = NULL;
  p->first = NULL;
}

void opsched_prof_reset(opsched_prof *p) {
  opsched_prof_chunk *c = &p->ch[0];
  memset(c, 0, sizeof *c);
  c->len = 1;
  p->dir[0] = 0;
  p->first[0] = 0;
  p->nch = 1;
}

static opsched_prof_chunk *chunk(const opsched_prof *p, int32_t c) {
  return &p->ch[p->dir[c]];
}

/* The step containing x (the last breakpoint <= x). */
static opsched_prof_pos locate(const opsched_prof *p, int64_t x) {
  int32_t lo = 0, hi = p->nch - 1;
  while (lo < hi) {
    int32_t mid = lo + (hi - lo + 1) / 2;
    if (p->first[mid] <= x)
      lo = mid;
    else
      hi = mid - 1;
  }
  const opsched_prof_chunk *c = chunk(p, lo);
  int32_t a = 0, b = c->len - 1;
  while (a < b) {
    int32_t mid = a + (b - a + 1) / 2;
    if (c->t[mid] <= x)
      a = mid;
    else
      b = mid - 1;
  }
  return (opsched_prof_pos){lo, a};
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
  refresh(a);
  refresh(b);
  size_t tail = (size_t)(p->nch - ci - 1);
  memmove(p->dir + ci + 2, p->dir + ci + 1, tail * sizeof *p->dir);
  memmove(p->first + ci + 2, p->first + ci + 1, tail * sizeof *p->first);
  p->dir[ci + 1] = id;
  p->first[ci + 1] = b->t[0];
  p->nch++;
  return 1;
}

/* Makes x a breakpoint; *at receives its step. Returns 0 when out of
 * memory. */
static int split_at(opsched_prof *p, int64_t x, opsched_prof_pos *at) {
  opsched_prof_pos q = locate(p, x);
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
  *at = (opsched_prof_pos){q.c, k};
  return 1;
}

/* Adds (dc, du) to steps [a, b) of one chunk. */
static void add_steps(opsched_prof_chunk *c, int32_t a, int32_t b, int32_t dc,
                      int32_t du) {
  if (a == 0 && b == c->len) {
    c->add_cnt += dc;
    c->add_use += du;
    return;
  }
  for (int32_t k = a; k < b; k++) {
    c->cnt[k] += dc;
    c->use[k] += du;
  }
  refresh(c);
}

int opsched_prof_add(opsched_prof *p, int64_t t, int64_t cost,
                     int32_t demand) {
  int64_t lo = cost > 0 ? 2 * t + 1 : 2 * t;
  int64_t hi = cost > 0 ? 2 * (t + cost) : 2 * t + 1;
  opsched_prof_pos a, b;
  if (!split_at(p, lo, &a) || !split_at(p, hi, &b))
    return 0;
  a = locate(p, lo); /* splitting at hi may have moved lo's chunk */
  int32_t du = cost > 0 ? demand : 0; /* zero duration: no capacity */
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

/* ---------------------------------------------------------------------- */
/* The earliest feasible start.                                            */

typedef struct fit {
  int64_t streams, cap; /* what one more op may reach: streams - 1 etc. */
  int capacity;         /* whether the op uses capacity (cost > 0) */
} fit;

static int step_bad(const fit *f, const opsched_prof_chunk *c, int32_t k) {
  return (int64_t)c->cnt[k] + c->add_cnt > f->streams ||
         (f->capacity && (int64_t)c->use[k] + c->add_use > f->cap);
}

static int chunk_may_be_bad(const fit *f, const opsched_prof_chunk *c) {
  return (int64_t)c->max_cnt + c->add_cnt > f->streams ||
         (f->capacity && (int64_t)c->max_use + c->add_use > f->cap);
}

static int chunk_all_bad(const fit *f, const opsched_prof_chunk *c) {
  return (int64_t)c->min_cnt + c->add_cnt > f->streams ||
         (f->capacity && (int64_t)c->min_use + c->add_use > f->cap);
}

/* From step *q on, the first step before `hi` where the op does not fit:
 * returns 1 and moves *q there, or 0 when every step up to hi fits. */
static int find_bad(const opsched_prof *p, const fit *f, int64_t hi,
                    opsched_prof_pos *q) {
  for (;;) {
    const opsched_prof_chunk *c = chunk(p, q->c);
    if (c->t[q->k] >= hi)
      return 0;
    if (chunk_may_be_bad(f, c))
      for (; q->k < c->len; q->k++) {
        if (c->t[q->k] >= hi)
          return 0;
        if (step_bad(f, c, q->k))
          return 1;
      }
    if (q->c + 1 == p->nch)
      return 0;
    q->c++;
    q->k = 0;
  }
}

/* From a step where the op does not fit, moves *q to the first later step
 * where it does (the last step, empty, at the latest) and returns 1; 0 when
 * not even the last step fits (a demand over the capacity: callers never
 * ask it). */
static int skip_bad(const opsched_prof *p, const fit *f, opsched_prof_pos *q) {
  q->k++;
  for (;;) {
    const opsched_prof_chunk *c = chunk(p, q->c);
    if (q->k < c->len && !chunk_all_bad(f, c))
      for (; q->k < c->len; q->k++)
        if (!step_bad(f, c, q->k))
          return 1;
    if (q->c + 1 == p->nch) {
      q->k = c->len - 1;
      return 0;
    }
    q->c++;
    q->k = 0;
  }
}

/* Candidates only move forward: past a step where the op does not fit, to
 * the end of the run of such steps (the flat decoder jumped one step at a
 * time and landed on the same start, the first whose window begins after
 * the run), and the window's first step is found from there by a local
 * walk. */
int64_t opsched_prof_earliest(const opsched_prof *p, int64_t t, int64_t cost,
                              int32_t demand) {
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
