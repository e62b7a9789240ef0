/* lib/core/streams.c - multi-stream placement, improvement, stream
 * assignment and cross-stream waits (see docs/streams.md).
 *
 * Placement works on two cumulative resources instead of named streams: the
 * number of ops running (<= streams) and the sum of their demands (<=
 * capacity). Streams are named afterwards by opsched_streams_assign, which
 * always succeeds on such times because interval graphs colour greedily.
 *
 * Zero-duration ops need one care: on a stream they occupy an instant, and
 * an op running strictly across that instant would block it. Times are
 * therefore doubled inside the profile: an op [s, e) with e > s holds
 * [2s+1, 2e), an op of zero duration at t holds [2t, 2t+1). Two ops overlap
 * in doubled time exactly when they could not share a stream. */
#include "opsched/schedule.h"

#include "alloc.h"
#include "heap.h"
#include "memory_model.h"
#include "profile.h"
#include "rng.h"
#include "saturate.h"
#include "schedule_object.h"
#include "streams.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------- */
/* Resource profile over doubled time and the serial insertion decoder.    */

typedef struct sgs {
  const opsched_graph *g;
  int32_t n;
  /* The step function of ops running and capacity used (profile.h). */
  opsched_prof prof;
} sgs;

static int sgs_init(sgs *c, const opsched_graph *g, const opsched_schedule *s) {
  c->g = g;
  c->n = s->n;
  int32_t max_demand = 1;
  for (int32_t v = 0; v < s->n; v++)
    if (opsched_graph_demand(g, v) > max_demand)
      max_demand = opsched_graph_demand(g, v);
  return opsched_prof_init(&c->prof, s->streams, s->resource_limit, max_demand,
                           s->n);
}

static void sgs_free(sgs *c) { opsched_prof_free(&c->prof); }

/* Serial schedule generation with insertion: places `list` (topological in
 * the chosen direction) one op at a time at its earliest feasible start.
 * `reverse` schedules the mirrored graph (successors first). Returns the
 * makespan, or INT64_MAX as soon as an op ends after `bound`. */
static int64_t sgs_decode(sgs *c, const int32_t *list, int reverse,
                          int64_t bound, int64_t *st, int64_t *en) {
  opsched_prof_reset(&c->prof);
  int64_t ms = 0;
  for (int32_t i = 0; i < c->n; i++) {
    int32_t v = list[i], nd;
    const int32_t *dep = reverse ? opsched_graph_succs(c->g, v, &nd)
                                 : opsched_graph_preds(c->g, v, &nd);
    int64_t est = 0;
    for (int32_t k = 0; k < nd; k++)
      if (en[dep[k]] > est)
        est = en[dep[k]];
    int64_t cost = opsched_graph_cost(c->g, v);
    int32_t d = opsched_graph_demand(c->g, v);
    int64_t t = opsched_prof_earliest(&c->prof, est, cost, d);
    st[v] = t;
    en[v] = t + cost;
    if (en[v] > bound)
      return INT64_MAX;
    if (en[v] > ms)
      ms = en[v];
    if (!opsched_prof_add(&c->prof, t, cost, d))
      return INT64_MAX; /* out of memory: no schedule from this list */
  }
  return ms;
}

/* Doubled times must not overflow: 2 * (sum of costs) plus slack. */
static int times_fit(const opsched_schedule *s) {
  return s->total_work < INT64_MAX / 8;
}

/* ---------------------------------------------------------------------- */
/* Sorting node ids by keys (qsort has no context argument in C11).        */

typedef struct key_rec {
  int64_t k1, k2;
  int32_t k3, id;
} key_rec;

static int cmp_key(const void *pa, const void *pb) {
  const key_rec *a = pa, *b = pb;
  if (a->k1 != b->k1)
    return a->k1 < b->k1 ? -1 : 1;
  if (a->k2 != b->k2)
    return a->k2 < b->k2 ? -1 : 1;
  if (a->k3 != b->k3)
    return a->k3 < b->k3 ? -1 : 1;
  return 0;
}

static int key_less(const key_rec *a, const key_rec *b) {
  if (a->k1 != b->k1)
    return a->k1 < b->k1;
  if (a->k2 != b->k2)
    return a->k2 < b->k2;
  return a->k3 < b->k3;
}

enum { KEY_RUN = 16 };

/* Sorts rec[0, n) by (k1, k2, k3) into rec, tmp n records of scratch:
 * insertion into runs of KEY_RUN, then bottom-up merges (no call per
 * comparison, unlike qsort). k3 is distinct in list_from_times (a
 * topological position), so the order is qsort's with cmp_key. */
static void sort_keys(key_rec *rec, key_rec *tmp, int32_t n) {
  for (int32_t lo = 0; lo < n; lo += KEY_RUN) {
    int32_t hi = lo + KEY_RUN < n ? lo + KEY_RUN : n;
    for (int32_t i = lo + 1; i < hi; i++) {
      key_rec x = rec[i];
      int32_t j = i;
      for (; j > lo && key_less(&x, &rec[j - 1]); j--)
        rec[j] = rec[j - 1];
      rec[j] = x;
    }
  }
  key_rec *src = rec, *dst = tmp;
  for (int32_t w = KEY_RUN; w < n; w *= 2) {
    for (int32_t lo = 0; lo < n; lo += 2 * w) {
      int32_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      int32_t a = lo, b = mid, k = lo;
      while (a < mid && b < hi)
        dst[k++] = key_less(&src[b], &src[a]) ? src[b++] : src[a++];
      while (a < mid)
        dst[k++] = src[a++];
      while (b < hi)
        dst[k++] = src[b++];
    }
    key_rec *t = src;
    src = dst;
    dst = t;
  }
  if (src != rec)
    memcpy(rec, src, sizeof *rec * (size_t)n);
}

/* Writes to `list` the ids sorted by (start, end, topo) ascending, or, with
 * `backward`, by (end, start, topo) descending; both are topological in
 * their direction for any schedule that honours the edges. `rec` has room
 * for 2n records (the sort's scratch). */
static void list_from_times(int32_t n, const int64_t *st, const int64_t *en,
                            const int32_t *topo_pos, int backward,
                            key_rec *rec, int32_t *list) {
  for (int32_t v = 0; v < n; v++) {
    rec[v].id = v;
    if (backward) {
      rec[v].k1 = -en[v];
      rec[v].k2 = -st[v];
      rec[v].k3 = -topo_pos[v];
    } else {
      rec[v].k1 = st[v];
      rec[v].k2 = en[v];
      rec[v].k3 = topo_pos[v];
    }
  }
  sort_keys(rec, rec + n, n);
  for (int32_t i = 0; i < n; i++)
    list[i] = rec[i].id;
}

/* ---------------------------------------------------------------------- */
/* HEFT placement.                                                         */

/* Insertion scans the resource profile, which is quadratic on wide blocks
 * whose profile stays saturated; above this size the list schedule (O((V+E)
 * log V)) is kept alone. docs/streams.md. */
enum { HEFT_MAX_NODES = 20000 };

/* HEFT's list (the ready ops by priority) decoded into ts/te; *ms gets
 * the makespan. */
static opsched_status heft_times(const opsched_graph *g, const opsched_schedule_options *o,
                                 const opsched_schedule *s, int64_t *ts, int64_t *te,
                                 int64_t *ms) {
  int32_t n = s->n;
  opsched_status st = OPSCHED_ERR_NOMEM;
  sgs c;
  int ok = sgs_init(&c, g, s);
  int64_t *prio = opsched_alloc_array((size_t)n, sizeof *prio);
  int32_t *heap_ids = opsched_alloc_array((size_t)n, sizeof *heap_ids);
  int32_t *missing = opsched_alloc_array((size_t)n, sizeof *missing);
  int32_t *list = opsched_alloc_array((size_t)n, sizeof *list);
  if (!ok || !prio || !heap_ids || !missing || !list)
    goto done;
  /* The ready list uses the list scheduler's priority so that both
   * strategies rank ops alike and differ only in placement. */
  opsched_heap ready;
  opsched_heap_init(&ready, heap_ids, prio);
  for (int32_t v = 0; v < n; v++) {
    prio[v] = o->priority == OPSCHED_PRIORITY_PROGRAM_ORDER ? v : -s->rank[v];
    opsched_graph_preds(g, v, &missing[v]);
    if (missing[v] == 0)
      opsched_heap_push(&ready, v);
  }
  for (int32_t i = 0; i < n; i++) {
    int32_t v = opsched_heap_pop(&ready), ns;
    list[i] = v;
    const int32_t *succ = opsched_graph_succs(g, v, &ns);
    for (int32_t k = 0; k < ns; k++)
      if (--missing[succ[k]] == 0)
        opsched_heap_push(&ready, succ[k]);
  }
  *ms = sgs_decode(&c, list, 0, INT64_MAX, ts, te);
  st = OPSCHED_OK;
done:
  sgs_free(&c);
  opsched_free(prio);
  opsched_free(heap_ids);
  opsched_free(missing);
  opsched_free(list);
  return st;
}

opsched_status opsched_streams_heft(const opsched_graph *g,
                                    const opsched_schedule_options *o,
                                    opsched_schedule *s, int *improved) {
  return opsched_streams_heft_memo(g, o, s, improved, NULL);
}

void opsched_heft_memo_free(opsched_heft_memo *m) {
  opsched_free(m->start);
  opsched_free(m->end);
  memset(m, 0, sizeof *m);
}

/* Whether `m` holds HEFT's times for these inputs. */
static int heft_memo_hit(const opsched_heft_memo *m, const opsched_graph *g,
                         const opsched_schedule_options *o, const opsched_schedule *s) {
  return m && m->start && m->g == g && m->streams == s->streams &&
         m->cap == s->resource_limit && m->priority == (int32_t)o->priority;
}

opsched_status opsched_streams_heft_memo(const opsched_graph *g,
                                         const opsched_schedule_options *o,
                                         opsched_schedule *s, int *improved,
                                         opsched_heft_memo *memo) {
  *improved = 0;
  int32_t n = s->n;
  if (n == 0 || n > HEFT_MAX_NODES || !times_fit(s))
    return OPSCHED_OK;
  opsched_status st = OPSCHED_OK;
  int64_t *ts = NULL, *te = NULL, ms = 0;
  if (heft_memo_hit(memo, g, o, s)) {
    ts = memo->start;
    te = memo->end;
    ms = memo->makespan;
  } else {
    ts = opsched_alloc_array((size_t)n, sizeof *ts);
    te = opsched_alloc_array((size_t)n, sizeof *te);
    st = ts && te ? heft_times(g, o, s, ts, te, &ms) : OPSCHED_ERR_NOMEM;
    if (st != OPSCHED_OK) {
      opsched_free(ts);
      opsched_free(te);
      return st;
    }
    if (memo) {
      opsched_heft_memo_free(memo);
      *memo = (opsched_heft_memo){g, s->streams, s->resource_limit, (int32_t)o->priority,
                                  ts, te, ms};
    }
  }
  int64_t cur = 0;
  for (int32_t v = 0; v < n; v++)
    if (s->end[v] > cur)
      cur = s->end[v];
  if (ms < cur) {
    memcpy(s->start, ts, sizeof *ts * (size_t)n);
    memcpy(s->end, te, sizeof *te * (size_t)n);
    *improved = 1;
  }
  if (!memo) {
    opsched_free(ts);
    opsched_free(te);
  }
  return st;
}

/* ---------------------------------------------------------------------- */
/* Improvement: local search over activity lists.                          */

/* The strongest cheap bound: critical path, work per stream, and
 * demand-weighted work per unit of capacity. Reaching it proves optimality
 * and ends the search early. */
static int64_t strong_lower_bound(const opsched_graph *g,
                                  const opsched_schedule *s) {
  int64_t lb = opsched_schedule_lower_bound(s), area = 0;
  for (int32_t v = 0; v < s->n; v++)
    area = opsched_sat_add(area, opsched_sat_mul(opsched_graph_cost(g, v),
                                                 opsched_graph_demand(g, v)));
  int64_t per = area / s->resource_limit + (area % s->resource_limit != 0);
  return per > lb ? per : lb;
}

/* Moves the op at list position i to position j, shifting the ops between,
 * and keeps pos[] (list position per op) in step. */
static void list_move(int32_t *list, int32_t *pos, int32_t i, int32_t j) {
  int32_t v = list[i];
  if (i < j) {
    memmove(list + i, list + i + 1, sizeof *list * (size_t)(j - i));
    for (int32_t k = i; k < j; k++)
      pos[list[k]] = k;
  } else if (j < i) {
    memmove(list + j + 1, list + j, sizeof *list * (size_t)(i - j));
    for (int32_t k = j + 1; k <= i; k++)
      pos[list[k]] = k;
  }
  list[j] = v;
  pos[v] = j;
}

/* A random position for the op at list position i that keeps the list
 * topological; returns i when the op cannot move. */
static int32_t random_target(const opsched_graph *g, const int32_t *list,
                             const int32_t *pos, int32_t n, int32_t i,
                             uint64_t *rng) {
  int32_t v = list[i], np, ns;
  const int32_t *pred = opsched_graph_preds(g, v, &np);
  const int32_t *succ = opsched_graph_succs(g, v, &ns);
  int32_t lo = 0, hi = n - 1;
  for (int32_t k = 0; k < np; k++)
    if (pos[pred[k]] + 1 > lo)
      lo = pos[pred[k]] + 1;
  for (int32_t k = 0; k < ns; k++)
    if (pos[succ[k]] - 1 < hi)
      hi = pos[succ[k]] - 1;
  if (hi <= lo)
    return i;
  return lo + (int32_t)opsched_rng_below(rng, hi - lo + 1);
}

opsched_status opsched_streams_improve(const opsched_graph *g,
                                       opsched_schedule *s, int64_t placements) {
  return opsched_streams_improve_filtered(g, s, placements, NULL, NULL);
}

/* Checkpoints along the decode of the current list (flat profiles only,
 * profile.h): the profile after its first c * every ops, c = 1 .. count, on
 * one of two sides each (side[c - 1]: the current list's; a trial writes
 * the other, which becomes the current one when the trial is accepted). A
 * move of the op at position i to j leaves the first min(i, j) ops and
 * their times as they were, so its decode starts from the checkpoint below
 * min(i, j) instead of from an empty profile. */
typedef struct ckpts {
  int32_t every, count;
  opsched_prof_snap *snap; /* [2 * count] */
  uint8_t *side;           /* [count] */
  int64_t *pool_t;
  int32_t *pool_c, *pool_u;
} ckpts;

/* Above this many entries in all the snapshots the decodes start at 0. */
enum { CKPT_MAX_ENTRIES = 1 << 21 };

static void ckpts_init(ckpts *k, const sgs *c) {
  memset(k, 0, sizeof *k);
  int32_t n = c->n;
  k->every = n / 32 > 16 ? n / 32 : 16;
  size_t cap = 2 * (size_t)n + 2, count = (size_t)(n - 1) / (size_t)k->every;
  if (!c->prof.flat || count == 0 || 2 * count * cap > CKPT_MAX_ENTRIES)
    return;
  k->snap = opsched_alloc_array(2 * count, sizeof *k->snap);
  k->side = opsched_alloc_array(count, 1);
  /* A snapshot's steps are read only as far as it wrote them (its pm, 0
   * in the zeroed `snap`): the pools are not zeroed. */
  k->pool_t = opsched_alloc_array_raw(2 * count * cap, sizeof *k->pool_t);
  k->pool_c = opsched_alloc_array_raw(2 * count * cap, sizeof *k->pool_c);
  k->pool_u = opsched_alloc_array_raw(2 * count * cap, sizeof *k->pool_u);
  if (!k->snap || !k->side || !k->pool_t || !k->pool_c || !k->pool_u)
    return; /* count stays 0: decodes from the start */
  memset(k->side, 0, count);
  for (size_t i = 0; i < 2 * count; i++)
    k->snap[i] = (opsched_prof_snap){k->pool_t + i * cap, k->pool_c + i * cap,
                                     k->pool_u + i * cap, 0};
  k->count = (int32_t)count;
}

static void ckpts_free(ckpts *k) {
  opsched_free(k->snap);
  opsched_free(k->side);
  opsched_free(k->pool_t);
  opsched_free(k->pool_c);
  opsched_free(k->pool_u);
}

/* The snapshot of checkpoint c (1 .. count): the current list's, or the
 * other side. */
static opsched_prof_snap *ckpt_at(ckpts *k, int32_t c, int other) {
  return &k->snap[2 * (c - 1) + (k->side[c - 1] ^ (other != 0))];
}

/* The checkpoints of `list` placed at st/en (every op's times from the
 * decode of that list): the same adds as a decode from the start. */
static void ckpts_rebuild(ckpts *k, sgs *c, const int32_t *list, const int64_t *st,
                          const int64_t *en) {
  if (k->count == 0)
    return;
  opsched_prof_reset(&c->prof);
  for (int32_t i = 0; i < c->n; i++) {
    if (i > 0 && i % k->every == 0 && i / k->every <= k->count)
      opsched_prof_snap_save(&c->prof, ckpt_at(k, i / k->every, 0));
    int32_t v = list[i];
    opsched_prof_add(&c->prof, st[v], en[v] - st[v], opsched_graph_demand(c->g, v));
  }
}

/* The current list and its decode, and the trial's buffers. */
typedef struct lsearch {
  sgs c;
  ckpts k;
  int32_t *cur, *cur_pos, *trial, *trial_pos;
  int64_t *ts, *te, *rs, *re; /* the current list's times; the trial's */
  int64_t cur_ms;
  int same; /* the last trial placed every op at its current time */
} lsearch;

/* The forward decode of `trial`, which is the current list with the op at
 * position i moved to j, into rs/re: the same times and result as
 * sgs_decode(trial, bound = cur_ms). It starts at the checkpoint below
 * p = min(i, j), and stops once past max(i, j) with every op placed so far
 * at its current time: the same ops are then placed at the same times, so
 * the profile and every later placement are the current decode's. *hi gets
 * the last checkpoint this decode wrote on the other side (those from
 * p / every + 1 on). */
static int64_t move_decode(lsearch *L, int32_t i, int32_t j, int32_t *hi) {
  sgs *c = &L->c;
  ckpts *k = &L->k;
  int32_t n = c->n, p = i < j ? i : j, q = i < j ? j : i, c0 = p / k->every;
  memcpy(L->rs, L->ts, sizeof *L->rs * (size_t)n);
  memcpy(L->re, L->te, sizeof *L->re * (size_t)n);
  c0 = c0 < k->count ? c0 : k->count;
  *hi = c0;
  if (c0 == 0)
    opsched_prof_reset(&c->prof);
  else
    opsched_prof_snap_restore(&c->prof, ckpt_at(k, c0, 0));
  int64_t ms = 0;
  for (int32_t a = 0; a < p; a++) {
    int32_t v = L->cur[a];
    if (a >= c0 * k->every)
      opsched_prof_add(&c->prof, L->ts[v], L->te[v] - L->ts[v], opsched_graph_demand(c->g, v));
    ms = L->te[v] > ms ? L->te[v] : ms;
  }
  int32_t changed = 0;
  int64_t dlo = INT64_MAX, dhi = INT64_MIN; /* hull of the changed ops' old and new times */
  L->same = 0;
  for (int32_t a = p; a < n; a++) {
    if (a > q && changed == 0) {
      L->same = 1;
      return L->cur_ms;
    }
    if (a > p && a % k->every == 0 && a / k->every <= k->count) {
      *hi = a / k->every;
      opsched_prof_snap_save(&c->prof, ckpt_at(k, *hi, 1));
    }
    int32_t v = L->trial[a], nd;
    const int32_t *dep = opsched_graph_preds(c->g, v, &nd);
    int64_t est = 0, cur_est = 0;
    for (int32_t e = 0; e < nd; e++) {
      est = L->re[dep[e]] > est ? L->re[dep[e]] : est;
      cur_est = L->te[dep[e]] > cur_est ? L->te[dep[e]] : cur_est;
    }
    int64_t cost = opsched_graph_cost(c->g, v);
    int32_t d = opsched_graph_demand(c->g, v);
    /* Past q the same ops are placed as in the current decode, and the
     * profiles differ only within the changed ops' times: from the same
     * earliest start, a search whose span [est, end] the current decode
     * found away from those gets the same start. */
    int64_t t = a > q && est == cur_est && (dhi < est || dlo > L->te[v])
                    ? L->ts[v]
                    : opsched_prof_earliest(&c->prof, est, cost, d);
    if (t != L->ts[v]) {
      changed++;
      dlo = t < dlo ? t : dlo;
      dlo = L->ts[v] < dlo ? L->ts[v] : dlo;
      dhi = t + cost > dhi ? t + cost : dhi;
      dhi = L->te[v] > dhi ? L->te[v] : dhi;
    }
    L->rs[v] = t;
    L->re[v] = t + cost;
    if (L->re[v] > L->cur_ms)
      return INT64_MAX;
    ms = L->re[v] > ms ? L->re[v] : ms;
    opsched_prof_add(&c->prof, t, cost, d);
  }
  L->same = changed == 0;
  return ms;
}

/* One random shift within the op's topological window, kept when the
 * makespan does not grow (sideways moves cross plateaus). Returns -1 when
 * the op cannot move, 1 when the makespan shrank, 0 otherwise; *moved_times
 * is 1 when the current times may have changed. */
static int random_move(const opsched_graph *g, lsearch *L, uint64_t *rng,
                       int *moved_times) {
  int32_t n = L->c.n;
  int32_t i = (int32_t)opsched_rng_below(rng, n);
  int32_t j = random_target(g, L->cur, L->cur_pos, n, i, rng);
  if (j == i)
    return -1;
  memcpy(L->trial, L->cur, sizeof *L->trial * (size_t)n);
  memcpy(L->trial_pos, L->cur_pos, sizeof *L->trial_pos * (size_t)n);
  list_move(L->trial, L->trial_pos, i, j);
  int32_t hi = 0;
  L->same = 0;
  int64_t ms = L->k.count > 0 ? move_decode(L, i, j, &hi)
                              : sgs_decode(&L->c, L->trial, 0, L->cur_ms, L->rs, L->re);
  if (ms > L->cur_ms)
    return 0;
  *moved_times = !L->same;
  int32_t *t1 = L->cur, *t2 = L->cur_pos;
  L->cur = L->trial;
  L->cur_pos = L->trial_pos;
  L->trial = t1;
  L->trial_pos = t2;
  int64_t *u1 = L->ts, *u2 = L->te;
  L->ts = L->rs;
  L->te = L->re;
  L->rs = u1;
  L->re = u2;
  int32_t c0 = (i < j ? i : j) / (L->k.every > 0 ? L->k.every : 1);
  for (int32_t c = c0 + 1; c <= hi; c++)
    L->k.side[c - 1] ^= 1;
  int shrank = ms < L->cur_ms;
  L->cur_ms = ms;
  return shrank;
}

/* Forward-backward improvement: right-justify the current schedule, then
 * left-justify it again; each pass decodes a list ordered by the previous
 * pass's times, which packs ops tighter. Counts two iterations a pass. */
static int forward_backward(lsearch *L, const int32_t *topo_pos, key_rec *rec,
                            int64_t *iter, int64_t budget) {
  int32_t n = L->c.n;
  int changed = 0;
  for (int pass = 0; pass < 4 && *iter < budget; pass++, *iter += 2) {
    list_from_times(n, L->ts, L->te, topo_pos, 1, rec, L->trial);
    int64_t rms = sgs_decode(&L->c, L->trial, 1, INT64_MAX, L->rs, L->re);
    for (int32_t v = 0; v < n; v++) {
      int64_t a = rms - L->re[v], b = rms - L->rs[v];
      L->rs[v] = a;
      L->re[v] = b;
    }
    list_from_times(n, L->rs, L->re, topo_pos, 0, rec, L->trial);
    int64_t fms = sgs_decode(&L->c, L->trial, 0, INT64_MAX, L->rs, L->re);
    if (fms >= L->cur_ms)
      break;
    L->cur_ms = fms;
    changed = 1;
    memcpy(L->cur, L->trial, sizeof *L->cur * (size_t)n);
    memcpy(L->ts, L->rs, sizeof *L->ts * (size_t)n);
    memcpy(L->te, L->re, sizeof *L->te * (size_t)n);
  }
  for (int32_t i = 0; i < n; i++)
    L->cur_pos[L->cur[i]] = i;
  if (changed)
    ckpts_rebuild(&L->k, &L->c, L->cur, L->ts, L->te);
  return changed;
}

/* Kick: restart from the best schedule (s) with a few blind moves. */
static void kick(const opsched_graph *g, lsearch *L, const opsched_schedule *s,
                 const int32_t *topo_pos, key_rec *rec, uint64_t *rng) {
  int32_t n = L->c.n;
  list_from_times(n, s->start, s->end, topo_pos, 0, rec, L->cur);
  for (int32_t i = 0; i < n; i++)
    L->cur_pos[L->cur[i]] = i;
  int32_t kicks = 1 + n / 10;
  for (int32_t k = 0; k < kicks; k++) {
    int32_t i = (int32_t)opsched_rng_below(rng, n);
    list_move(L->cur, L->cur_pos, i, random_target(g, L->cur, L->cur_pos, n, i, rng));
  }
  L->cur_ms = sgs_decode(&L->c, L->cur, 0, INT64_MAX, L->ts, L->te);
  ckpts_rebuild(&L->k, &L->c, L->cur, L->ts, L->te);
}

/* The search itself (opsched_streams_improve_filtered), on allocated
 * buffers. */
static void local_search(const opsched_graph *g, opsched_schedule *s, int64_t placements,
                         int64_t stall_stop, opsched_times_filter accept, void *ctx,
                         lsearch *L, const int32_t *topo_pos, key_rec *rec, int64_t best,
                         int64_t lb) {
  int32_t n = s->n;
  uint64_t rng = 0x6f70736368656475u ^ (uint64_t)n ^
                 ((uint64_t)opsched_graph_num_edges(g) << 32);
  /* Budget: units of OPSCHED_EFFORT_UNIT op placements, i.e. about
   * 65536/n list decodes each: the work stays k * 65536 placements on
   * blocks over 4096 ops too (a floor of 16 decodes made effort 16 on an
   * 11.7k-op block cost 3M placements, 8.9 s), and on blocks over 65536
   * ops a unit is less than one decode (effort 16 on a 100k-op block: 10
   * decodes, not 16). A fraction of a unit (a block's share,
   * opsched_effort_share) gets its fraction of the decodes; at least one
   * in all. */
  int64_t budget;
  if (n > OPSCHED_EFFORT_UNIT) {
    budget = placements / n;
  } else {
    int64_t per_unit = OPSCHED_EFFORT_UNIT / n;
    budget = opsched_sat_add(opsched_sat_mul(placements / OPSCHED_EFFORT_UNIT, per_unit),
                             placements % OPSCHED_EFFORT_UNIT * per_unit / OPSCHED_EFFORT_UNIT);
  }
  if (budget < 1)
    budget = 1;
  int64_t stall_limit = 4 * (int64_t)n > 200 ? 4 * (int64_t)n : 200;

  /* Current list: the best schedule's start order. */
  list_from_times(n, s->start, s->end, topo_pos, 0, rec, L->cur);
  L->cur_ms = sgs_decode(&L->c, L->cur, 0, INT64_MAX, L->ts, L->te);
  ckpts_rebuild(&L->k, &L->c, L->cur, L->ts, L->te);
  int do_fbi = 1;
  int64_t stall = 0;
  int verdict = -1; /* accept's on the current times, -1: not asked since they changed */
  /* stall_stop > 0: the search also ends after that many iterations
   * without a new best (counted from the start, then from each new best). */
  int64_t since = 0;
  for (int64_t iter = 0; iter < budget && best > lb; iter++) {
    if (stall_stop > 0 && iter - since >= stall_stop)
      break;
    int moved_times = 0;
    if (do_fbi) {
      do_fbi = 0;
      moved_times = forward_backward(L, topo_pos, rec, &iter, budget);
    } else {
      int moved = random_move(g, L, &rng, &moved_times);
      if (moved < 0)
        continue;
      do_fbi = moved;
    }
    if (moved_times)
      verdict = -1;
    if (L->cur_ms < best && verdict < 0)
      verdict = !accept || accept(ctx, L->ts, L->te);
    if (L->cur_ms < best && verdict) {
      best = L->cur_ms;
      since = iter;
      memcpy(s->start, L->ts, sizeof *L->ts * (size_t)n);
      memcpy(s->end, L->te, sizeof *L->te * (size_t)n);
      stall = 0;
    } else if (++stall >= stall_limit) {
      stall = 0;
      kick(g, L, s, topo_pos, rec, &rng);
      verdict = -1;
      do_fbi = 1;
    }
  }
}

opsched_status opsched_streams_improve_filtered(const opsched_graph *g,
                                                opsched_schedule *s,
                                                int64_t placements,
                                                opsched_times_filter accept,
                                                void *ctx) {
  return opsched_streams_improve_stall(g, s, placements, 0, accept, ctx);
}

opsched_status opsched_streams_improve_stall(const opsched_graph *g, opsched_schedule *s,
                                             int64_t placements, int64_t stall_stop,
                                             opsched_times_filter accept, void *ctx) {
  int32_t n = s->n;
  if (placements <= 0 || n < 2 || !times_fit(s))
    return OPSCHED_OK;
  int64_t best = 0;
  for (int32_t v = 0; v < n; v++)
    if (s->end[v] > best)
      best = s->end[v];
  int64_t lb = strong_lower_bound(g, s);
  if (best <= lb)
    return OPSCHED_OK;

  opsched_status status = OPSCHED_ERR_NOMEM;
  lsearch L;
  memset(&L, 0, sizeof L);
  int ok = sgs_init(&L.c, g, s);
  if (ok)
    ckpts_init(&L.k, &L.c);
  int32_t *topo = opsched_alloc_array((size_t)n, sizeof *topo);
  int32_t *topo_pos = opsched_alloc_array((size_t)n, sizeof *topo_pos);
  key_rec *rec = opsched_alloc_array(2 * (size_t)n, sizeof *rec); /* list_from_times */
  L.cur = opsched_alloc_array((size_t)n, sizeof *L.cur);
  L.cur_pos = opsched_alloc_array((size_t)n, sizeof *L.cur_pos);
  L.trial = opsched_alloc_array((size_t)n, sizeof *L.trial);
  L.trial_pos = opsched_alloc_array((size_t)n, sizeof *L.trial_pos);
  L.ts = opsched_alloc_array((size_t)n, sizeof *L.ts);
  L.te = opsched_alloc_array((size_t)n, sizeof *L.te);
  L.rs = opsched_alloc_array((size_t)n, sizeof *L.rs);
  L.re = opsched_alloc_array((size_t)n, sizeof *L.re);
  if (!ok || !topo || !topo_pos || !rec || !L.cur || !L.cur_pos || !L.trial ||
      !L.trial_pos || !L.ts || !L.te || !L.rs || !L.re)
    goto done;
  opsched_graph_topo_order(g, topo);
  for (int32_t i = 0; i < n; i++)
    topo_pos[topo[i]] = i;
  local_search(g, s, placements, stall_stop, accept, ctx, &L, topo_pos, rec, best, lb);
  status = OPSCHED_OK;
done:
  sgs_free(&L.c);
  ckpts_free(&L.k);
  opsched_free(topo);
  opsched_free(topo_pos);
  opsched_free(rec);
  opsched_free(L.cur);
  opsched_free(L.cur_pos);
  opsched_free(L.trial);
  opsched_free(L.trial_pos);
  opsched_free(L.ts);
  opsched_free(L.te);
  opsched_free(L.rs);
  opsched_free(L.re);
  return status;
}

/* ---------------------------------------------------------------------- */
/* Charging the runtime's cross-stream costs (streams.h).                 */

/* Sum of what the charged times can reach, saturated. */
static int64_t charged_span(const opsched_graph *g, const opsched_schedule *s,
                            int64_t region_ns, int64_t handoff_ns) {
  int64_t t = opsched_sat_add(s->total_work, opsched_sat_mul(region_ns, s->n));
  int64_t edges = opsched_graph_num_edges(g) + s->num_syncs;
  return opsched_sat_add(t, opsched_sat_mul(handoff_ns, edges));
}

/* The earliest start of v: after its stream predecessor (*stream_end) and
 * each predecessor (dependencies, then syncs), handoff_ns later for one on
 * another stream. */
static int64_t charged_est(const opsched_graph *g, const opsched_schedule *s, int32_t v,
                           int64_t stream_end, int64_t handoff_ns) {
  int32_t np;
  const int32_t *pred = opsched_graph_preds(g, v, &np);
  int64_t ns = s->sync_off ? s->sync_off[v + 1] - s->sync_off[v] : 0;
  int64_t est = stream_end;
  for (int64_t e = 0; e < np + ns; e++) {
    int32_t u = e < np ? pred[e] : s->sync_ids[s->sync_off[v] + e - np];
    int64_t t = s->end[u] + (s->stream[u] != s->stream[v] ? handoff_ns : 0);
    if (t > est)
      est = t;
  }
  return est;
}

/* ---------------------------------------------------------------------- */
/* The memory barrier of a charge (streams.h).                              */

/* The doubled-time instant v frees what it holds (memory_model.c's model:
 * a run [s, e) ends at 2e, a zero-duration op at t holds [2t, 2t + 1)) and
 * the one it allocates at (2s + 1, or 2t). */
static int64_t hold_end2(const opsched_schedule *s, int32_t v) {
  return s->end[v] > s->start[v] ? 2 * s->end[v] : 2 * s->start[v] + 1;
}

static int64_t hold_start2(const opsched_schedule *s, int32_t v) {
  return 2 * s->start[v] + (s->end[v] > s->start[v]);
}

/* The doubled instant buffer k is freed: its owner's and users' last end. */
static int64_t freed2(const mem_model *m, const opsched_schedule *s, int32_t k) {
  int64_t f = hold_end2(s, m->owner[k]);
  for (int64_t i = m->user_off[k]; i < m->user_off[k + 1]; i++) {
    int64_t t = hold_end2(s, m->user[i]);
    f = t > f ? t : f;
  }
  return f;
}

opsched_status opsched_charge_barrier_build(opsched_charge_barrier *b, const mem_model *m,
                                            const opsched_schedule *s) {
  memset(b, 0, sizeof *b);
  b->m = m;
  key_rec *rec = opsched_alloc_array((size_t)m->nb + 1, sizeof *rec);
  b->buf = opsched_alloc_array((size_t)m->nb + 1, sizeof *b->buf);
  b->key = opsched_alloc_array((size_t)m->nb + 1, sizeof *b->key);
  if (!rec || !b->buf || !b->key) {
    opsched_free(rec);
    opsched_charge_barrier_free(b);
    return OPSCHED_ERR_NOMEM;
  }
  for (int32_t k = 0; k < m->nb; k++)
    if (!m->forever[k] && m->size[k] > 0)
      rec[b->nb++] = (key_rec){freed2(m, s, k), 0, k, k};
  qsort(rec, (size_t)b->nb, sizeof *rec, cmp_key);
  for (int32_t i = 0; i < b->nb; i++) {
    b->buf[i] = rec[i].id;
    b->key[i] = rec[i].k1;
  }
  opsched_free(rec);
  return OPSCHED_OK;
}

void opsched_charge_barrier_free(opsched_charge_barrier *b) {
  opsched_free(b->buf);
  opsched_free(b->key);
  b->buf = NULL;
  b->key = NULL;
}

static void barrier_reset(opsched_charge_barrier *b) {
  b->next = 0;
  b->top = b->other = -1;
  b->top_stream = -1;
}

/* A holder of a passed buffer ends at doubled instant x on `stream`. */
static void barrier_hold(opsched_charge_barrier *b, int64_t x, int32_t stream) {
  if (stream == b->top_stream) {
    b->top = x > b->top ? x : b->top;
  } else if (x > b->top) {
    b->other = b->top;
    b->top = x;
    b->top_stream = stream;
  } else if (x > b->other) {
    b->other = x;
  }
}

/* Passes the buffers freed by the placed instant v allocates at (read
 * while s->start/end[v] are still the placed times, every op before v in
 * s->order charged): they are held only by ops that end by then, which
 * come before v in s->order (sorted by start, then end); the placed
 * instants are non-decreasing along s->order, so one pass serves a walk.
 * Returns 0 when v allocates nothing (no floor). */
static int barrier_pass(opsched_charge_barrier *b, const opsched_schedule *s, int32_t v) {
  const mem_model *m = b->m;
  if (m->alloc_off[v] == m->alloc_off[v + 1])
    return 0;
  int64_t at = hold_start2(s, v);
  for (; b->next < b->nb && b->key[b->next] <= at; b->next++) {
    int32_t k = b->buf[b->next];
    barrier_hold(b, hold_end2(s, m->owner[k]), s->stream[m->owner[k]]);
    for (int64_t i = m->user_off[k]; i < m->user_off[k + 1]; i++)
      barrier_hold(b, hold_end2(s, m->user[i]), s->stream[m->user[i]]);
  }
  return 1;
}

/* The earliest start on `stream` of an op of non-zero cost (nz) or not
 * that the passed buffers allow: after their holders' ends there, and
 * handoff_ns after those on other streams (the wait a runtime needs to
 * reuse their memory). */
static int64_t barrier_floor(const opsched_charge_barrier *b, int32_t stream, int nz,
                             int64_t handoff_ns) {
  int64_t away = stream == b->top_stream ? b->other : b->top;
  int64_t need = stream == b->top_stream ? b->top : -1;
  if (away >= 0 && away + 2 * handoff_ns > need)
    need = away + 2 * handoff_ns;
  need -= nz; /* 2t + nz >= need */
  return need > 0 ? (need + 1) / 2 : 0;
}

/* The charges' costs are valid and their doubled times cannot overflow. */
static int charge_valid(const opsched_graph *g, const opsched_schedule *s,
                        int64_t region_ns, int64_t handoff_ns) {
  return region_ns >= 0 && handoff_ns >= 0 &&
         charged_span(g, s, region_ns, handoff_ns) < INT64_MAX / 8;
}

/* One op per stream at a time: the capacity can only bind when the
 * streams' largest demands can exceed it. */
static int capacity_can_bind(const opsched_graph *g, const opsched_schedule *s, int32_t S) {
  int32_t max_demand = 1;
  for (int32_t v = 0; v < s->n; v++)
    if (opsched_graph_demand(g, v) > max_demand)
      max_demand = opsched_graph_demand(g, v);
  return (int64_t)S * max_demand > s->resource_limit;
}

opsched_status opsched_streams_charge(const opsched_graph *g, opsched_schedule *s,
                                      int64_t region_ns, int64_t handoff_ns,
                                      opsched_charge_barrier *barrier) {
  int32_t n = s->n, S = 1;
  if (!charge_valid(g, s, region_ns, handoff_ns))
    return OPSCHED_ERR_INVALID;
  for (int32_t v = 0; v < n; v++)
    if (s->stream[v] + 1 > S)
      S = s->stream[v] + 1;
  int capacity_binds = capacity_can_bind(g, s, S);
  sgs c;
  int ok = sgs_init(&c, g, s);
  int64_t *stream_end = opsched_alloc_array((size_t)S, sizeof *stream_end);
  opsched_status st = OPSCHED_ERR_NOMEM;
  if (!ok || !stream_end)
    goto done;
  c.prof.streams = INT32_MAX; /* streams are fixed: only the capacity is placed */
  c.prof.runs = 0;
  if (barrier)
    barrier_reset(barrier);
  opsched_prof_reset(&c.prof);
  /* s->order sorts by start and is topological: each op's predecessors and
   * stream predecessor are re-timed before it. */
  for (int32_t i = 0; i < n; i++) {
    int32_t v = s->order[i], k = s->stream[v];
    int64_t cost = opsched_graph_cost(g, v);
    if (cost > 0)
      cost += region_ns;
    int64_t t = charged_est(g, s, v, stream_end[k], handoff_ns);
    if (barrier && barrier_pass(barrier, s, v)) {
      int64_t floor_t = barrier_floor(barrier, k, cost > 0, handoff_ns);
      t = floor_t > t ? floor_t : t;
    }
    if (capacity_binds) {
      t = opsched_prof_earliest(&c.prof, t, cost, opsched_graph_demand(g, v));
      if (!opsched_prof_add(&c.prof, t, cost, opsched_graph_demand(g, v)))
        goto done;
    }
    s->start[v] = t;
    s->end[v] = t + cost;
    stream_end[k] = s->end[v];
  }
  st = OPSCHED_OK;
done:
  sgs_free(&c);
  opsched_free(stream_end);
  return st;
}

/* ---------------------------------------------------------------------- */
/* A charged placement that knows the hand-off (streams.h).               */

/* The streams by the time they are free, a tournament tree: the stream
 * free first (the lowest index on ties) at the root, O(log streams) per
 * update. */
typedef struct stream_tree {
  int32_t leaves; /* a power of two >= the streams */
  int32_t *win;   /* per node, the winner of its subtree (-1: no stream) */
  const int64_t *free_at;
} stream_tree;

static int32_t tree_pick(const stream_tree *t, int32_t a, int32_t b) {
  if (a < 0 || b < 0)
    return a < 0 ? b : a;
  return t->free_at[b] < t->free_at[a] ? b : a; /* a is the lower index */
}

static int tree_init(stream_tree *t, int32_t streams, const int64_t *free_at) {
  t->leaves = 1;
  while (t->leaves < streams)
    t->leaves *= 2;
  t->free_at = free_at;
  t->win = opsched_alloc_array(2 * (size_t)t->leaves, sizeof *t->win);
  if (!t->win)
    return 0;
  for (int32_t k = 0; k < t->leaves; k++)
    t->win[t->leaves + k] = k < streams ? k : -1;
  for (int32_t i = t->leaves - 1; i >= 1; i--)
    t->win[i] = tree_pick(t, t->win[2 * i], t->win[2 * i + 1]);
  return 1;
}

static void tree_update(stream_tree *t, int32_t k) {
  for (int32_t i = (t->leaves + k) / 2; i >= 1; i /= 2)
    t->win[i] = tree_pick(t, t->win[2 * i], t->win[2 * i + 1]);
}

/* Per op, its predecessors grouped by stream (reset after each op). */
typedef struct pred_streams {
  int64_t *last;    /* per stream: the latest charged end of a predecessor there */
  int32_t *count;   /* per stream: predecessors there */
  int32_t *touched; /* the streams with a predecessor */
  int32_t nt;
  int64_t top, other; /* latest end overall (on stream top_k), latest elsewhere; -1: none */
  int32_t top_k;
} pred_streams;

static void group_preds(const opsched_graph *g, const opsched_schedule *s, int32_t v,
                        pred_streams *p) {
  int32_t np;
  const int32_t *pred = opsched_graph_preds(g, v, &np);
  int64_t ns = s->sync_off ? s->sync_off[v + 1] - s->sync_off[v] : 0;
  p->nt = 0;
  for (int64_t e = 0; e < np + ns; e++) {
    int32_t u = e < np ? pred[e] : s->sync_ids[s->sync_off[v] + e - np];
    int32_t k = s->stream[u];
    if (p->count[k]++ == 0) {
      p->touched[p->nt++] = k;
      p->last[k] = s->end[u];
    } else if (s->end[u] > p->last[k]) {
      p->last[k] = s->end[u];
    }
  }
  p->top = p->other = -1;
  p->top_k = -1;
  for (int32_t i = 0; i < p->nt; i++) {
    int32_t k = p->touched[i];
    if (p->last[k] > p->top) {
      p->other = p->top;
      p->top = p->last[k];
      p->top_k = k;
    } else if (p->last[k] > p->other) {
      p->other = p->last[k];
    }
  }
}

/* The op to place: its charged cost and demand, the capacity profile when
 * the capacity can bind (NULL otherwise), and the barrier when it sets a
 * floor (NULL otherwise). */
typedef struct op_fit {
  sgs *cap;
  const opsched_charge_barrier *bar;
  int64_t cost, handoff_ns;
  int32_t demand;
  int32_t home; /* the stream the op sticks to within handoff_ns (-1: none) */
} op_fit;

/* The earliest start of the op on stream k: after the stream's last op,
 * its predecessors there, handoff_ns after those elsewhere, and the
 * barrier's floor on k. */
static int64_t start_on(const pred_streams *p, const int64_t *stream_end, int32_t k,
                        const op_fit *f) {
  int64_t t = stream_end[k];
  int64_t away = k == p->top_k ? p->other : p->top;
  if (away >= 0 && away + f->handoff_ns > t)
    t = away + f->handoff_ns;
  if (p->count[k] > 0 && p->last[k] > t)
    t = p->last[k];
  if (f->bar) {
    int64_t floor_t = barrier_floor(f->bar, k, f->cost > 0, f->handoff_ns);
    t = floor_t > t ? floor_t : t;
  }
  return t;
}

/* The stream v goes on: the earliest start (after the capacity) among its
 * predecessors' streams, the stream free first and the stream whose
 * buffers the barrier waits for; ties to more predecessors, then the lower
 * index. *t receives the start. */
static int32_t choose_stream(const pred_streams *p, const int64_t *stream_end,
                             const stream_tree *tree, const op_fit *f, int64_t *t) {
  int32_t best = -1;
  int64_t bt = INT64_MAX;
  for (int32_t i = -2; i < p->nt; i++) {
    int32_t k = i == -2 ? (f->bar ? f->bar->top_stream : -1)
                : i == -1 ? tree->win[1] : p->touched[i];
    if (k < 0)
      continue;
    int64_t x = start_on(p, stream_end, k, f);
    if (f->cap && x <= bt)
      x = opsched_prof_earliest(&f->cap->prof, x, f->cost, f->demand);
    if (best < 0 || x < bt ||
        (x == bt && (p->count[k] > p->count[best] ||
                     (p->count[k] == p->count[best] && k < best)))) {
      best = k;
      bt = x;
    }
  }
  if (f->home >= 0 && f->home != best) {
    int64_t x = start_on(p, stream_end, f->home, f);
    if (f->cap && x <= bt + f->handoff_ns)
      x = opsched_prof_earliest(&f->cap->prof, x, f->cost, f->demand);
    if (x <= bt + f->handoff_ns) {
      best = f->home;
      bt = x;
    }
  }
  *t = bt;
  return best;
}

/* v's heaviest predecessor placed before position i (pos: positions in
 * s->order), of non-zero cost; the latest end, then the lower id, on ties
 * (-1: none). */
static int32_t heaviest_placed_pred(const opsched_graph *g, const opsched_schedule *s,
                                    const int32_t *pos, int32_t i, int32_t v) {
  int32_t np, h = -1;
  const int32_t *pred = opsched_graph_preds(g, v, &np);
  for (int32_t e = 0; e < np; e++) {
    int32_t u = pred[e];
    int64_t c = opsched_graph_cost(g, u);
    if (pos[u] >= i || c <= 0)
      continue;
    int64_t hc = h < 0 ? 0 : opsched_graph_cost(g, h);
    if (h < 0 || c > hc ||
        (c == hc && (s->end[u] > s->end[h] || (s->end[u] == s->end[h] && u < h))))
      h = u;
  }
  return h;
}

/* The home stream of the op at position i of a sticky placement: that of
 * its heaviest placed predecessor; for an op with none (an allocation, a
 * fill), that of its first successor in s->order (the chain it feeds), up
 * to HOME_STEPS such steps through ops of at most HOME_DEGREE edges each
 * way (bounded work per op; -1: none). */
enum { HOME_STEPS = 4, HOME_DEGREE = 64 };

static int32_t home_stream(const opsched_graph *g, const opsched_schedule *s,
                           const int32_t *pos, int32_t i, int32_t v) {
  int32_t h = heaviest_placed_pred(g, s, pos, i, v), ns, np;
  for (int32_t step = 0; h < 0 && step < HOME_STEPS; step++) {
    int32_t w = -1;
    const int32_t *succ = opsched_graph_succs(g, v, &ns);
    if (ns > HOME_DEGREE)
      break;
    for (int32_t e = 0; e < ns; e++)
      if (w < 0 || pos[succ[e]] < pos[w])
        w = succ[e];
    if (w < 0)
      break;
    opsched_graph_preds(g, w, &np);
    if (np > HOME_DEGREE)
      break;
    h = heaviest_placed_pred(g, s, pos, i, w);
    v = w;
  }
  return h < 0 ? -1 : s->stream[h];
}

static opsched_status charge_place(const opsched_graph *g, opsched_schedule *s,
                                   int64_t region_ns, int64_t handoff_ns,
                                   opsched_charge_barrier *barrier, int sticky) {
  int32_t n = s->n, S = opsched_lanes_usable(s->streams, n);
  if (!charge_valid(g, s, region_ns, handoff_ns))
    return OPSCHED_ERR_INVALID;
  /* Every demand is >= 1, so at most resource_limit ops run at once: more
   * streams than that would interleave in a way the runtime's workers (as
   * many as the capacity) do not follow (docs/streams.md). */
  if (S > s->resource_limit)
    S = s->resource_limit;
  int capacity_binds = capacity_can_bind(g, s, S);
  sgs c;
  int ok = sgs_init(&c, g, s);
  int64_t *stream_end = opsched_alloc_array((size_t)S, sizeof *stream_end);
  pred_streams p = {opsched_alloc_array((size_t)S, sizeof *p.last),
                    opsched_alloc_array((size_t)S, sizeof *p.count),
                    opsched_alloc_array((size_t)S, sizeof *p.touched), 0, -1, -1, -1};
  stream_tree tree = {0, NULL, stream_end};
  int32_t *pos = sticky ? opsched_alloc_array((size_t)n + 1, sizeof *pos) : NULL;
  opsched_status st = OPSCHED_ERR_NOMEM;
  if (!ok || !stream_end || !p.last || !p.count || !p.touched ||
      !tree_init(&tree, S, stream_end) || (sticky && !pos))
    goto done;
  for (int32_t i = 0; sticky && i < n; i++)
    pos[s->order[i]] = i;
  c.prof.streams = INT32_MAX; /* one op per stream: only the capacity is placed */
  c.prof.runs = 0;
  opsched_prof_reset(&c.prof);
  if (barrier)
    barrier_reset(barrier);
  for (int32_t i = 0; i < n; i++) {
    int32_t v = s->order[i], d = opsched_graph_demand(g, v);
    int64_t cost = opsched_graph_cost(g, v), t;
    if (cost > 0)
      cost += region_ns;
    op_fit f = {capacity_binds ? &c : NULL,
                barrier && barrier_pass(barrier, s, v) ? barrier : NULL, cost, handoff_ns, d,
                sticky ? home_stream(g, s, pos, i, v) : -1};
    group_preds(g, s, v, &p);
    int32_t k = choose_stream(&p, stream_end, &tree, &f, &t);
    for (int32_t j = 0; j < p.nt; j++)
      p.count[p.touched[j]] = 0;
    if (capacity_binds && !opsched_prof_add(&c.prof, t, cost, d))
      goto done;
    s->start[v] = t;
    s->end[v] = t + cost;
    s->stream[v] = k;
    stream_end[k] = s->end[v];
    tree_update(&tree, k);
  }
  st = OPSCHED_OK;
done:
  sgs_free(&c);
  opsched_free(stream_end);
  opsched_free(p.last);
  opsched_free(p.count);
  opsched_free(p.touched);
  opsched_free(tree.win);
  opsched_free(pos);
  return st;
}

opsched_status opsched_streams_charge_place(const opsched_graph *g, opsched_schedule *s,
                                            int64_t region_ns, int64_t handoff_ns,
                                            opsched_charge_barrier *barrier) {
  return charge_place(g, s, region_ns, handoff_ns, barrier, 0);
}

opsched_status opsched_streams_charge_place_sticky(const opsched_graph *g, opsched_schedule *s,
                                                   int64_t region_ns, int64_t handoff_ns,
                                                   opsched_charge_barrier *barrier) {
  return charge_place(g, s, region_ns, handoff_ns, barrier, 1);
}
