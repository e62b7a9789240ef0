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

/* Writes to `list` the ids sorted by (start, end, topo) ascending, or, with
 * `backward`, by (end, start, topo) descending; both are topological in
 * their direction for any schedule that honours the edges. */
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
  qsort(rec, (size_t)n, sizeof *rec, cmp_key);
  for (int32_t i = 0; i < n; i++)
    list[i] = rec[i].id;
}

/* ---------------------------------------------------------------------- */
/* HEFT placement.                                                         */

/* Insertion scans the resource profile, which is quadratic on wide blocks
 * whose profile stays saturated; above this size the list schedule (O((V+E)
 * log V)) is kept alone. docs/streams.md. */
enum { HEFT_MAX_NODES = 20000 };

opsched_status opsched_streams_heft(const opsched_graph *g,
                                    const opsched_schedule_options *o,
                                    opsched_schedule *s, int *improved) {
  *improved = 0;
  int32_t n = s->n;
  if (n == 0 || n > HEFT_MAX_NODES || !times_fit(s))
    return OPSCHED_OK;
  opsched_status st = OPSCHED_ERR_NOMEM;
  sgs c;
  int ok = sgs_init(&c, g, s);
  int64_t *prio = opsched_alloc_array((size_t)n, sizeof *prio);
  int32_t *heap_ids = opsched_alloc_array((size_t)n, sizeof *heap_ids);
  int32_t *missing = opsched_alloc_array((size_t)n, sizeof *missing);
  int32_t *list = opsched_alloc_array((size_t)n, sizeof *list);
  int64_t *ts = opsched_alloc_array((size_t)n, sizeof *ts);
  int64_t *te = opsched_alloc_array((size_t)n, sizeof *te);
  if (!ok || !prio || !heap_ids || !missing || !list || !ts || !te)
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
  int64_t ms = sgs_decode(&c, list, 0, INT64_MAX, ts, te);
  int64_t cur = 0;
  for (int32_t v = 0; v < n; v++)
    if (s->end[v] > cur)
      cur = s->end[v];
  if (ms < cur) {
    memcpy(s->start, ts, sizeof *ts * (size_t)n);
    memcpy(s->end, te, sizeof *te * (size_t)n);
    *improved = 1;
  }
  st = OPSCHED_OK;
done:
  sgs_free(&c);
  opsched_free(prio);
  opsched_free(heap_ids);
  opsched_free(missing);
  opsched_free(list);
  opsched_free(ts);
  opsched_free(te);
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
                                       opsched_schedule *s, int32_t effort) {
  return opsched_streams_improve_filtered(g, s, effort, NULL, NULL);
}

opsched_status opsched_streams_improve_filtered(const opsched_graph *g,
                                                opsched_schedule *s,
                                                int32_t effort,
                                                opsched_times_filter accept,
                                                void *ctx) {
  int32_t n = s->n;
  if (effort <= 0 || n < 2 || !times_fit(s))
    return OPSCHED_OK;
  int64_t best = 0;
  for (int32_t v = 0; v < n; v++)
    if (s->end[v] > best)
      best = s->end[v];
  int64_t lb = strong_lower_bound(g, s);
  if (best <= lb)
    return OPSCHED_OK;

  opsched_status status = OPSCHED_ERR_NOMEM;
  sgs c;
  int ok = sgs_init(&c, g, s);
  int32_t *topo = opsched_alloc_array((size_t)n, sizeof *topo);
  int32_t *topo_pos = opsched_alloc_array((size_t)n, sizeof *topo_pos);
  key_rec *rec = opsched_alloc_array((size_t)n, sizeof *rec);
  int32_t *cur = opsched_alloc_array((size_t)n, sizeof *cur);
  int32_t *cur_pos = opsched_alloc_array((size_t)n, sizeof *cur_pos);
  int32_t *trial = opsched_alloc_array((size_t)n, sizeof *trial);
  int32_t *trial_pos = opsched_alloc_array((size_t)n, sizeof *trial_pos);
  int64_t *ts = opsched_alloc_array((size_t)n, sizeof *ts);
  int64_t *te = opsched_alloc_array((size_t)n, sizeof *te);
  int64_t *rs = opsched_alloc_array((size_t)n, sizeof *rs);
  int64_t *re = opsched_alloc_array((size_t)n, sizeof *re);
  if (!ok || !topo || !topo_pos || !rec || !cur || !cur_pos || !trial ||
      !trial_pos || !ts || !te || !rs || !re)
    goto done;
  opsched_graph_topo_order(g, topo);
  for (int32_t i = 0; i < n; i++)
    topo_pos[topo[i]] = i;

  uint64_t rng = 0x6f70736368656475u ^ (uint64_t)n ^
                 ((uint64_t)opsched_graph_num_edges(g) << 32);
  /* Budget: effort units of 2^16 op placements, i.e. about 65536/n list
   * decodes each (at least one): the work stays k * 65536 placements on
   * blocks over 4096 ops too (a floor of 16 decodes made effort 16 on an
   * 11.7k-op block cost 3M placements, 8.9 s). */
  int64_t per_unit = 65536 / n;
  if (per_unit < 1)
    per_unit = 1;
  int64_t budget = opsched_sat_mul(effort, per_unit);
  int64_t stall_limit = 4 * (int64_t)n > 200 ? 4 * (int64_t)n : 200;

  /* Current list: the best schedule's start order. */
  list_from_times(n, s->start, s->end, topo_pos, 0, rec, cur);
  int64_t cur_ms = sgs_decode(&c, cur, 0, INT64_MAX, ts, te);
  int do_fbi = 1;
  int64_t stall = 0;
  for (int64_t iter = 0; iter < budget && best > lb; iter++) {
    if (do_fbi) {
      /* Forward-backward improvement: right-justify the current schedule,
       * then left-justify it again; each pass decodes a list ordered by
       * the previous pass's times, which packs ops tighter. */
      do_fbi = 0;
      for (int pass = 0; pass < 4 && iter < budget; pass++, iter += 2) {
        list_from_times(n, ts, te, topo_pos, 1, rec, trial);
        int64_t rms = sgs_decode(&c, trial, 1, INT64_MAX, rs, re);
        for (int32_t v = 0; v < n; v++) {
          int64_t a = rms - re[v], b = rms - rs[v];
          rs[v] = a;
          re[v] = b;
        }
        list_from_times(n, rs, re, topo_pos, 0, rec, trial);
        int64_t fms = sgs_decode(&c, trial, 0, INT64_MAX, rs, re);
        if (fms >= cur_ms)
          break;
        cur_ms = fms;
        memcpy(cur, trial, sizeof *cur * (size_t)n);
        memcpy(ts, rs, sizeof *ts * (size_t)n);
        memcpy(te, re, sizeof *te * (size_t)n);
      }
      for (int32_t i = 0; i < n; i++)
        cur_pos[cur[i]] = i;
    } else {
      /* One random shift within the op's topological window; sideways
       * moves are accepted so the search can cross plateaus. */
      int32_t i = (int32_t)opsched_rng_below(&rng, n);
      int32_t j = random_target(g, cur, cur_pos, n, i, &rng);
      if (j == i)
        continue;
      memcpy(trial, cur, sizeof *trial * (size_t)n);
      memcpy(trial_pos, cur_pos, sizeof *trial_pos * (size_t)n);
      list_move(trial, trial_pos, i, j);
      int64_t ms = sgs_decode(&c, trial, 0, cur_ms, rs, re);
      if (ms <= cur_ms) {
        int32_t *t1 = cur, *t2 = cur_pos;
        cur = trial;
        cur_pos = trial_pos;
        trial = t1;
        trial_pos = t2;
        int64_t *u1 = ts, *u2 = te;
        ts = rs;
        te = re;
        rs = u1;
        re = u2;
        if (ms < cur_ms)
          do_fbi = 1;
        cur_ms = ms;
      }
    }
    if (cur_ms < best && (!accept || accept(ctx, ts, te))) {
      best = cur_ms;
      memcpy(s->start, ts, sizeof *ts * (size_t)n);
      memcpy(s->end, te, sizeof *te * (size_t)n);
      stall = 0;
    } else if (++stall >= stall_limit) {
      /* Kick: restart from the best schedule with a few blind moves. */
      stall = 0;
      list_from_times(n, s->start, s->end, topo_pos, 0, rec, cur);
      for (int32_t i = 0; i < n; i++)
        cur_pos[cur[i]] = i;
      int32_t kicks = 1 + n / 10;
      for (int32_t k = 0; k < kicks; k++) {
        int32_t i = (int32_t)opsched_rng_below(&rng, n);
        list_move(cur, cur_pos, i, random_target(g, cur, cur_pos, n, i, &rng));
      }
      cur_ms = sgs_decode(&c, cur, 0, INT64_MAX, ts, te);
      do_fbi = 1;
    }
  }
  status = OPSCHED_OK;
done:
  sgs_free(&c);
  opsched_free(topo);
  opsched_free(topo_pos);
  opsched_free(rec);
  opsched_free(cur);
  opsched_free(cur_pos);
  opsched_free(trial);
  opsched_free(trial_pos);
  opsched_free(ts);
  opsched_free(te);
  opsched_free(rs);
  opsched_free(re);
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
