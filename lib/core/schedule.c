/* The scheduling algorithms: list scheduling, the memory-gated list
 * scheduler, the pipelines that combine them with the memory policies and
 * the stream search, and opsched_schedule_run. */
#include "opsched/schedule.h"

#include "alloc.h"
#include "graph.h"
#include "heap.h"
#include "memory_baselines.h"
#include "memory_model.h"
#include "min_tree.h"
#include "saturate.h"
#include "schedule.h"
#include "schedule_object.h"
#include "schedule_sync.h"
#include "streams.h"

#include <stdlib.h>
#include <string.h>

/* The running ops of a gated run by (end, id) ascending in ids[head,
 * tail): the first to retire at ids[head]. An op starts at the current
 * instant and most run longer than those running, so inserting from the
 * tail moves few entries, where a heap pays O(log) on both sides. Each op
 * enters once: n slots never wrap. Pops in the keyed heap's order. */
typedef struct run_queue {
  int32_t *ids;
  int32_t head, tail;
  const int64_t *end;
} run_queue;

static void run_push(run_queue *q, int32_t v) {
  int64_t e = q->end[v];
  int32_t i = q->tail++;
  while (i > q->head) {
    int32_t u = q->ids[i - 1];
    if (q->end[u] < e || (q->end[u] == e && u < v))
      break;
    q->ids[i] = u;
    i--;
  }
  q->ids[i] = v;
}

/* The list schedule's ready ops, first by (prio, id): on a large block a
 * bit queue over the places of that order, sorted once (a radix sort when
 * the priorities and ids pack into 64 bits), else the keyed heap. Both pop
 * the same sequence. */
enum { READY_BITQ_MIN_OPS = 512 };

typedef struct ready_queue {
  opsched_heap heap; /* when pos == NULL */
  opsched_bitq bits;
  int32_t *pos, *at; /* v's place in the order, the op at a place */
  /* With places and demands above 1 (ready_by_demand): each ready op's
   * demand at its place instead of `bits`, `count` of them, so that the
   * first op whose demand fits is found without taking out those before
   * it (100k ready ops of demand 2 under a capacity of 3 took them all
   * out and back at every step). fit.node NULL: not kept. */
  opsched_min_tree fit;
  const opsched_graph *g;
  int64_t count;
} ready_queue;

/* Fills r->pos / r->at when the keys pack; returns 0 (the heap then, also
 * when out of memory: the same pops). */
static int ready_places(ready_queue *r, const int64_t *prio, int32_t n) {
  if (n < READY_BITQ_MIN_OPS)
    return 0;
  int idbits = 0;
  while (idbits < 31 && ((int64_t)1 << idbits) < n)
    idbits++;
  int64_t lo = prio[0], hi = prio[0];
  for (int32_t v = 1; v < n; v++) {
    lo = prio[v] < lo ? prio[v] : lo;
    hi = prio[v] > hi ? prio[v] : hi;
  }
  uint64_t span = (uint64_t)hi - (uint64_t)lo;
  if (span >> (64 - idbits) != 0)
    return 0;
  /* A span of at most 4n priorities: one counting sort (stable: ties in id
   * order), else a radix sort of (priority, id) packed. */
  int counting = span <= 4 * (uint64_t)n;
  size_t nkeys = counting ? (size_t)span + 1 : 2 * (size_t)n;
  uint64_t *keys = opsched_alloc_array_raw(nkeys, sizeof *keys);
  r->pos = opsched_alloc_array_raw((size_t)n, sizeof *r->pos);
  r->at = opsched_alloc_array_raw((size_t)n, sizeof *r->at);
  if (!keys || !r->pos || !r->at || opsched_bitq_init(&r->bits, n) != 0) {
    opsched_free(keys);
    opsched_free(r->pos);
    opsched_free(r->at);
    r->pos = r->at = NULL;
    return 0;
  }
  if (counting) {
    memset(keys, 0, sizeof *keys * nkeys);
    for (int32_t v = 0; v < n; v++)
      keys[(uint64_t)prio[v] - (uint64_t)lo]++;
    uint64_t sum = 0;
    for (size_t k = 0; k < nkeys; k++) {
      uint64_t c = keys[k];
      keys[k] = sum;
      sum += c;
    }
    for (int32_t v = 0; v < n; v++) {
      int32_t i = (int32_t)keys[(uint64_t)prio[v] - (uint64_t)lo]++;
      r->pos[v] = i;
      r->at[i] = v;
    }
    opsched_free(keys);
    return 1;
  }
  for (int32_t v = 0; v < n; v++)
    keys[v] = ((uint64_t)prio[v] - (uint64_t)lo) << idbits | (uint64_t)v;
  mem_radix_sort_u64(keys, keys + n, (size_t)n);
  uint64_t idmask = ((uint64_t)1 << idbits) - 1;
  for (int32_t i = 0; i < n; i++) {
    int32_t v = (int32_t)(keys[i] & idmask);
    r->pos[v] = i;
    r->at[i] = v;
  }
  opsched_free(keys);
  return 1;
}

static void ready_init(ready_queue *r, int32_t *ids, const int64_t *prio, int32_t n) {
  memset(r, 0, sizeof *r);
  opsched_heap_init(&r->heap, ids, prio);
  ready_places(r, prio, n);
}

/* Keeps the ready ops' demands (ready_queue.fit) when some op demands more
 * than 1 and the queue has places; before any push. */
static void ready_by_demand(ready_queue *r, const opsched_graph *g, int32_t n) {
  int32_t most = 1;
  for (int32_t v = 0; v < n && r->pos; v++)
    most = opsched_graph_demand(g, v) > most ? opsched_graph_demand(g, v) : most;
  if (most > 1 && opsched_min_tree_init(&r->fit, n) == 0)
    r->g = g;
  else
    opsched_min_tree_free(&r->fit); /* out of memory: take out and put back */
}

static void ready_free(ready_queue *r) {
  if (r->pos)
    opsched_bitq_free(&r->bits);
  opsched_free(r->pos);
  opsched_free(r->at);
  opsched_min_tree_free(&r->fit);
}

static inline void ready_push(ready_queue *r, int32_t v) {
  if (r->fit.node) {
    opsched_min_tree_set(&r->fit, r->pos[v], opsched_graph_demand(r->g, v));
    r->count++;
  } else if (r->pos) {
    opsched_bitq_push(&r->bits, r->pos[v]);
  } else {
    opsched_heap_push(&r->heap, v);
  }
}

/* The first ready op, by (prio, id), whose demand is at most `free_cap`,
 * taken out; -1 when none (ready_by_demand's queue only). */
static int32_t ready_take_fitting(ready_queue *r, int32_t free_cap) {
  int32_t p = opsched_min_tree_first_at_most(&r->fit, 0, free_cap);
  if (p < 0)
    return -1;
  opsched_min_tree_set(&r->fit, p, INT64_MAX);
  r->count--;
  return r->at[p];
}

static inline int32_t ready_pop(ready_queue *r) {
  return r->pos ? r->at[opsched_bitq_pop(&r->bits)] : opsched_heap_pop(&r->heap);
}

static inline int64_t ready_size(const ready_queue *r) {
  return r->fit.node ? r->count : r->pos ? r->bits.size : r->heap.size;
}

/* Event-driven list scheduling (Graham): at each instant, start ready ops in
 * priority order while a stream is free and their demand fits the remaining
 * capacity; then advance to the next finish. */
static opsched_status list_schedule(const opsched_graph *g,
                                    const opsched_schedule_options *o,
                                    opsched_schedule *s) {
  int32_t n = s->n, streams = s->streams, cap = s->resource_limit;
  opsched_status st = OPSCHED_ERR_NOMEM;
  /* Not zero-filled: prio and missing are set for every op below, the
   * others are queues. */
  int64_t *prio = opsched_alloc_array_raw((size_t)n, sizeof *prio);
  int32_t *ready_ids = opsched_alloc_array_raw((size_t)n, sizeof *ready_ids);
  int32_t *run_ids = opsched_alloc_array_raw((size_t)n, sizeof *run_ids);
  int32_t *aside = opsched_alloc_array_raw((size_t)n, sizeof *aside);
  int32_t *missing = opsched_alloc_array_raw((size_t)n, sizeof *missing);
  opsched_lanes lanes;
  int lanes_ok = opsched_lanes_init(&lanes, streams, n) == 0;
  if (!prio || !ready_ids || !run_ids || !aside || !missing || !lanes_ok)
    goto done;

  for (int32_t v = 0; v < n; v++) {
    prio[v] = o->priority == OPSCHED_PRIORITY_PROGRAM_ORDER ? v : -s->rank[v];
    opsched_graph_preds(g, v, &missing[v]);
  }
  ready_queue ready;
  ready_init(&ready, ready_ids, prio, n);
  ready_by_demand(&ready, g, n);
  run_queue running = {run_ids, 0, 0, s->end}; /* by (end, id) */
  for (int32_t v = 0; v < n; v++)
    if (missing[v] == 0)
      ready_push(&ready, v);

  int64_t now = 0;
  int32_t free_cap = cap, free_streams = streams, done_count = 0, started = 0;
  while (done_count < n) {
    /* Start what fits, best priority first. */
    int32_t naside = 0;
    while (ready_size(&ready) > 0 && free_streams > 0 && free_cap > 0) {
      /* Those before it would be set aside: their demands do not fit. */
      int32_t v = ready.fit.node ? ready_take_fitting(&ready, free_cap) : ready_pop(&ready);
      if (v < 0)
        break;
      int32_t d = opsched_graph_demand(g, v);
      if (d > free_cap) {
        aside[naside++] = v;
        continue;
      }
      s->stream[v] = opsched_lanes_take(&lanes);
      s->order[started++] = v; /* by start: plain_pipeline's sort hint */
      s->start[v] = now;
      s->end[v] = opsched_sat_add(now, opsched_graph_cost(g, v));
      free_cap -= d;
      free_streams--;
      run_push(&running, v);
    }
    for (int32_t i = 0; i < naside; i++)
      ready_push(&ready, aside[i]);
    if (running.head == running.tail) {
      st = OPSCHED_ERR_INFEASIBLE; /* nothing runs, nothing fits */
      ready_free(&ready);
      goto done;
    }
    /* Retire everything that finishes at the next finish time. */
    now = s->end[running.ids[running.head]];
    while (running.head < running.tail && s->end[running.ids[running.head]] == now) {
      int32_t u = running.ids[running.head++];
      opsched_lanes_give(&lanes, s->stream[u]);
      free_cap += opsched_graph_demand(g, u);
      free_streams++;
      done_count++;
      int32_t ns;
      const int32_t *succ = opsched_graph_succs(g, u, &ns);
      for (int32_t k = 0; k < ns; k++)
        if (--missing[succ[k]] == 0)
          ready_push(&ready, succ[k]);
    }
  }
  ready_free(&ready);
  st = OPSCHED_OK;
done:
  opsched_free(prio);
  opsched_free(ready_ids);
  opsched_free(run_ids);
  opsched_free(aside);
  opsched_free(missing);
  opsched_lanes_free(&lanes);
  return st;
}

/* ---------------------------------------------------------------------- */
/* Memory in time (docs/memory.md): the gated list scheduler.              */

/* The instants of a gated run (gated_peak): the distinct values `now`
 * takes, numbered in increasing order; at[v] is the number of v's start,
 * at[n + v] of its end (every end is a `now` where the op retires). */
typedef struct time_ix {
  int32_t *at;
  int32_t cur;
} time_ix;

/* Starts v at `now` (instant ix->cur) on the lowest free stream. */
static void start_op(const opsched_graph *g, opsched_schedule *s, opsched_lanes *lanes,
                     run_queue *running, int32_t v, int64_t now,
                     int32_t *free_cap, int32_t *free_streams, time_ix *ix) {
  ix->at[v] = ix->cur;
  s->stream[v] = opsched_lanes_take(lanes);
  s->start[v] = now;
  s->end[v] = opsched_sat_add(now, opsched_graph_cost(g, v));
  *free_cap -= opsched_graph_demand(g, v);
  (*free_streams)--;
  run_push(running, v);
}

/* Bytes v allocates, exactly. */
static acc128 alloc_of(const mem_model *m, int32_t v) {
  acc128 a = {0, 0};
  for (int64_t i = m->alloc_off[v]; i < m->alloc_off[v + 1]; i++)
    acc_add(&a, m->size[m->alloc_buf[i]]);
  return a;
}

/* u retires: every buffer it holds (the ones it allocates, then the ones it
 * uses) whose last holder it is leaves the live bytes; with zero duration,
 * those bytes also go to `pend` (freed at this instant). */
static void release_buffers(const mem_model *m, int32_t *remaining, int32_t u,
                            int zero, acc128 *live, acc128 *pend) {
  for (int pass = 0; pass < 2; pass++) {
    int64_t lo = pass ? m->use_off[u] : m->alloc_off[u];
    int64_t hi = pass ? m->use_off[u + 1] : m->alloc_off[u + 1];
    for (int64_t i = lo; i < hi; i++) {
      int32_t k = pass ? m->use_buf[i] : m->alloc_buf[i];
      if (--remaining[k] == 0 && !m->forever[k]) {
        acc_sub_i64(live, m->size[k]);
        if (zero)
          acc_add(pend, m->size[k]);
      }
    }
  }
}

/* Event-driven list scheduling as list_schedule, with one more resource:
 * live bytes in time. An op starts only while the live bytes plus what it
 * allocates stay <= limit. Buffers are freed when the last of their holders
 * (owner and users) retires; frees at an instant come before starts there.
 * A zero-duration op holds the instant itself, together with the other
 * zero-duration ops there, so the frees of zero-duration ops at `now` are
 * kept in `pend` and still count for zero-duration starts at `now` (never
 * optimistic for opsched_memory_peak_in_time's model). Priority: prio[v],
 * smaller first. `window` > 0: prio is a permutation 0..n-1 of a
 * topological order (the one-stream memory order) and an op may start only
 * within `window` positions of the first op of the order not yet started
 * (the head), never past a head that does not fit: 1 issues strictly in
 * order, larger windows overlap more of the order while staying close to
 * its live-set profile. When nothing runs and no ready op fits, the ready op
 * with the smallest allocation (window: the head) starts anyway (ties by
 * priority, then id), so the schedule always completes; the caller measures
 * whether the limit held. */
/* Ready ops ordered by (allocation, priority, id), with lazy deletion:
 * entries of ops that already started are dropped when they reach the top.
 * It tells the gated scheduler at once whether any ready op can fit and
 * which allocates least, instead of scanning the whole ready set at every
 * event (quadratic on wide blocks under a tight limit). */
typedef struct alloc_order {
  const acc128 *alloc;
  const int64_t *prio;
} alloc_order;

static int alloc_less(const void *ctx, int32_t a, int32_t b) {
  const alloc_order *h = ctx;
  if (acc_less(&h->alloc[a], &h->alloc[b]))
    return 1;
  if (acc_less(&h->alloc[b], &h->alloc[a]))
    return 0;
  if (h->prio[a] != h->prio[b])
    return h->prio[a] < h->prio[b];
  return a < b;
}

/* Sorts ids[0, n) by `less` (a strict total order on ids; a bottom-up
 * merge sort, tmp n ids of scratch). Always inlined, so that each caller's
 * comparison is inlined into its loop. */
static inline __attribute__((always_inline)) void
merge_sort_ids(int32_t *ids, int32_t *tmp, int32_t n,
               int (*less)(const void *, int32_t, int32_t), const void *ctx) {
  int32_t *src = ids, *dst = tmp;
  for (int32_t w = 1; w < n; w *= 2) {
    for (int32_t lo = 0; lo < n; lo += 2 * w) {
      int32_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      int32_t a = lo, b = mid, k = lo;
      while (a < mid && b < hi)
        dst[k++] = less(ctx, src[b], src[a]) ? src[b++] : src[a++];
      while (a < mid)
        dst[k++] = src[a++];
      while (b < hi)
        dst[k++] = src[b++];
    }
    int32_t *t = src;
    src = dst;
    dst = t;
  }
  if (src != ids)
    memcpy(ids, src, sizeof *ids * (size_t)n);
}

/* Sorts ids[0, n) by alloc_less (tmp n ids of scratch). */
static void sort_by_alloc(int32_t *ids, int32_t *tmp, int32_t n, const alloc_order *o) {
  merge_sort_ids(ids, tmp, n, alloc_less, o);
}

/* (prio, id) order; ctx is prio. */
static int prio_less(const void *ctx, int32_t a, int32_t b) {
  const int64_t *prio = ctx;
  return prio[a] < prio[b] || (prio[a] == prio[b] && a < b);
}

/* The bytes each op of m allocates (alloc_of): the memo's when it holds
 * them for m (computed once per search), else computed into *local (the
 * caller frees it; kept in the memo when the memo's model is m). NULL when
 * out of memory. */
static const acc128 *op_allocs(const mem_model *m, opsched_schedule_memo *memo,
                               acc128 **local) {
  *local = NULL;
  int mine = memo && memo->model == m;
  if (mine && memo->allocs)
    return memo->allocs;
  acc128 *a = opsched_alloc_array((size_t)m->n, sizeof *a);
  if (!a)
    return NULL;
  for (int32_t v = 0; v < m->n; v++)
    a[v] = alloc_of(m, v);
  if (mine)
    memo->allocs = a;
  else
    *local = a;
  return a;
}

/* Files `copy` (the priority, `bytes` of it copied from prio) in the oldest
 * slot of a memo ring of OPSCHED_AKEY_MEMO_MAX (prio_at, *next); returns
 * the slot, whose old value the caller frees and replaces. */
static int32_t memo_ring_slot(int64_t **prio_at, int32_t *next, int64_t *copy,
                              const int64_t *prio, size_t bytes) {
  memcpy(copy, prio, bytes);
  int32_t i = *next; /* the oldest */
  opsched_free(prio_at[i]);
  prio_at[i] = copy;
  *next = (i + 1) % OPSCHED_AKEY_MEMO_MAX;
  return i;
}

/* The positions of the ops in alloc_less's order (allocation, priority,
 * id) as keys: a keyed heap on them pops as alloc_less orders, without a
 * call and a 128-bit comparison per step. The memo's when it holds them
 * for m and prio (the latest few), else computed (into *local or the memo, as op_allocs).
 * NULL when out of memory. */
static const int64_t *alloc_keys(const mem_model *m, const acc128 *allocs,
                                 const int64_t *prio, opsched_schedule_memo *memo,
                                 int64_t **local) {
  int32_t n = m->n;
  size_t bytes = sizeof *prio * (size_t)n;
  *local = NULL;
  int mine = memo && memo->model == m;
  for (int i = 0; mine && i < OPSCHED_AKEY_MEMO_MAX; i++)
    if (memo->akey[i] && memcmp(memo->akey_prio[i], prio, bytes) == 0)
      return memo->akey[i];
  int64_t *key = opsched_alloc_array((size_t)n, sizeof *key);
  int32_t *ids = opsched_alloc_array(2 * (size_t)n + 1, sizeof *ids);
  int64_t *copy = mine ? opsched_alloc_array((size_t)n, sizeof *copy) : NULL;
  if (!key || !ids || (mine && !copy)) {
    opsched_free(key);
    opsched_free(ids);
    opsched_free(copy);
    return NULL;
  }
  alloc_order o = {allocs, prio};
  for (int32_t v = 0; v < n; v++)
    ids[v] = v;
  sort_by_alloc(ids, ids + n, n, &o);
  for (int32_t i = 0; i < n; i++)
    key[ids[i]] = i;
  opsched_free(ids);
  if (!mine) {
    *local = key;
    return key;
  }
  int32_t i = memo_ring_slot(memo->akey_prio, &memo->akey_next, copy, prio, bytes);
  opsched_free(memo->akey[i]);
  memo->akey[i] = key;
  return key;
}

/* The positions of the ops in (prio, id) order, the keyed heap's over
 * prio: place[v] is v's, place[n + k] the op at k (a bottom-up merge sort,
 * a total order). The memo's when it holds them for m and prio (the
 * latest few), else computed (into *local or the memo, as alloc_keys).
 * NULL when out of memory. */
static const int32_t *prio_places(const mem_model *m, const int64_t *prio,
                                  opsched_schedule_memo *memo, int32_t **local) {
  int32_t n = m->n;
  size_t bytes = sizeof *prio * (size_t)n;
  *local = NULL;
  int mine = memo && memo->model == m;
  for (int i = 0; mine && i < OPSCHED_AKEY_MEMO_MAX; i++)
    if (memo->place[i] && memcmp(memo->place_prio[i], prio, bytes) == 0)
      return memo->place[i];
  int32_t *place = opsched_alloc_array_raw(3 * (size_t)n + 1, sizeof *place);
  int64_t *copy = mine ? opsched_alloc_array_raw((size_t)n, sizeof *copy) : NULL;
  if (!place || (mine && !copy)) {
    opsched_free(place);
    opsched_free(copy);
    return NULL;
  }
  for (int32_t v = 0; v < n; v++)
    place[n + v] = v;
  merge_sort_ids(place + n, place + 2 * n, n, prio_less, prio);
  for (int32_t k = 0; k < n; k++)
    place[place[n + k]] = k;
  if (!mine) {
    *local = place;
    return place;
  }
  int32_t i = memo_ring_slot(memo->place_prio, &memo->place_next, copy, prio, bytes);
  opsched_free(memo->place[i]);
  memo->place[i] = place;
  return place;
}

/* The first position of the order at or after `next` whose op has not
 * started (n when all have); 0 without a window. Amortized O(1). */
static int32_t next_head(const int32_t *at, const uint8_t *started, int32_t next,
                         int32_t n, int32_t window) {
  if (!window)
    return 0;
  while (next < n && started[at[next]])
    next++;
  return next;
}

/* The free run's ready ops by allocation (alloc_keys: distinct positions
 * 0..n-1 in alloc_less's order): a bit queue over the positions, `at` the
 * op at each, instead of a keyed heap; it pops the heap's sequence. Ops
 * started by the fallback stay queued (lazy deletion). */
typedef struct alloc_queue {
  opsched_bitq q;
  const int64_t *key;
  int32_t *at;
} alloc_queue;

static inline void alloc_push(alloc_queue *a, int32_t v) {
  opsched_bitq_push(&a->q, (int32_t)a->key[v]);
}

/* The ready ops by (prio, id) (prio_places): a bit queue over the
 * positions, read in order without taking out the ops passed over (the
 * keyed heap popped them and pushed them back). The free run also keeps
 * their allocations (`fit`, gated_list_schedule): one tree per distinct
 * demand (class k, demand[k] ascending), over the class's ops in position
 * order (an op's `rank` among them; pos[off[k] + rank] its position), so
 * the trees hold n values in all whatever the demands. One demand: a tree
 * over the positions themselves (cls, rank and pos NULL). fit NULL: not
 * kept. */
typedef struct ready_bits {
  opsched_bitq q;
  const int32_t *place; /* prio_places' */
  int32_t n;
  opsched_min_tree *fit;
  int32_t *demand, classes;
  int64_t *off;
  int32_t *pos, *cls, *rank;
  const acc128 *allocs;
  const opsched_graph *g;
} ready_bits;

/* v's value in its class's tree becomes x. */
static inline void fit_set(ready_bits *r, int32_t v, int64_t x) {
  if (r->cls)
    opsched_min_tree_set(&r->fit[r->cls[v]], r->rank[v], x);
  else
    opsched_min_tree_set(&r->fit[0], r->place[v], x);
}

/* The first rank of class k whose position is >= x. */
static int32_t fit_rank_from(const ready_bits *r, int32_t k, int32_t x) {
  if (!r->pos)
    return x;
  int64_t lo = r->off[k], hi = r->off[k + 1];
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (r->pos[mid] < x)
      lo = mid + 1;
    else
      hi = mid;
  }
  return (int32_t)(lo - r->off[k]);
}

static int32_t fit_pos(const ready_bits *r, int32_t k, int32_t rank) {
  return r->pos ? r->pos[r->off[k] + rank] : rank;
}

static void fit_free(ready_bits *r) {
  for (int32_t k = 0; r->fit && k < r->classes; k++)
    opsched_min_tree_free(&r->fit[k]);
  opsched_free(r->fit);
  opsched_free(r->demand);
  opsched_free(r->off);
  opsched_free(r->pos);
  opsched_free(r->cls);
  opsched_free(r->rank);
  r->fit = NULL;
}

/* The classes of the ops' demands, ascending (sorted and deduplicated;
 * the usual block has one demand: no sort). */
static int fit_classes(ready_bits *r, int32_t n) {
  int32_t d0 = n > 0 ? opsched_graph_demand(r->g, 0) : 1, v = 1;
  while (v < n && opsched_graph_demand(r->g, v) == d0)
    v++;
  r->classes = 1;
  if (!(r->demand = opsched_alloc_array_raw(v < n ? (size_t)n : 1, sizeof *r->demand)))
    return -1;
  r->demand[0] = d0;
  if (v == n)
    return 0;
  int64_t one[2] = {0, n};
  for (v = 0; v < n; v++)
    r->demand[v] = opsched_graph_demand(r->g, v);
  mem_csr_sort_dedupe(one, r->demand, 1);
  r->classes = (int32_t)one[1];
  int32_t *fewer = opsched_realloc_array(r->demand, (size_t)r->classes, sizeof *fewer);
  r->demand = fewer ? fewer : r->demand;
  return 0;
}

/* Each op's class and rank, each class's positions (ops with several
 * demands). */
static int fit_ranks(ready_bits *r, int32_t n) {
  r->off = opsched_alloc_array((size_t)r->classes + 1, sizeof *r->off);
  r->pos = opsched_alloc_array_raw((size_t)n, sizeof *r->pos);
  r->cls = opsched_alloc_array_raw((size_t)n, sizeof *r->cls);
  r->rank = opsched_alloc_array_raw((size_t)n, sizeof *r->rank);
  if (!r->off || !r->pos || !r->cls || !r->rank)
    return -1;
  for (int32_t v = 0; v < n; v++) {
    int32_t d = opsched_graph_demand(r->g, v), lo = 0, hi = r->classes - 1;
    while (lo < hi) { /* demand[] holds d */
      int32_t mid = lo + (hi - lo) / 2;
      if (r->demand[mid] < d)
        lo = mid + 1;
      else
        hi = mid;
    }
    r->cls[v] = lo;
    r->off[lo + 1]++;
  }
  for (int32_t k = 0; k < r->classes; k++)
    r->off[k + 1] += r->off[k];
  int64_t *fill = opsched_alloc_array_raw((size_t)r->classes, sizeof *fill);
  if (!fill)
    return -1;
  memcpy(fill, r->off, sizeof *fill * (size_t)r->classes);
  for (int32_t x = 0; x < n; x++) { /* positions in order: ranks ascend */
    int32_t v = r->place[n + x], k = r->cls[v];
    r->rank[v] = (int32_t)(fill[k] - r->off[k]);
    r->pos[fill[k]++] = x;
  }
  opsched_free(fill);
  return 0;
}

/* The classes and their trees (fit NULL before); 0, -1 when out of
 * memory (fit_free releases what was made). */
static int fit_init(ready_bits *r, int32_t n) {
  if (fit_classes(r, n) != 0 || (r->classes > 1 && fit_ranks(r, n) != 0))
    return -1;
  r->fit = opsched_alloc_array((size_t)r->classes, sizeof *r->fit);
  if (!r->fit)
    return -1;
  for (int32_t k = 0; k < r->classes; k++) {
    int32_t size = r->pos ? (int32_t)(r->off[k + 1] - r->off[k]) : n;
    if (opsched_min_tree_init(&r->fit[k], size) != 0)
      return -1;
  }
  return 0;
}

/* The smallest queued position >= x, -1 when none. */
static int32_t bitq_next(const opsched_bitq *q, int32_t n, int32_t x0) {
  uint32_t x = (uint32_t)x0;
  uint64_t extent = (uint64_t)n; /* positions at level l are below it */
  for (int32_t l = 0; l < q->levels && x < extent; l++) {
    uint64_t bits = q->word[l][x >> 6] & (~(uint64_t)0 << (x & 63));
    if (bits) {
      x = (x & ~(uint32_t)63) | (uint32_t)__builtin_ctzll(bits);
      for (l--; l >= 0; l--)
        x = x << 6 | (uint32_t)__builtin_ctzll(q->word[l][x]);
      return (int32_t)x;
    }
    x = (x >> 6) + 1;
    extent = (extent + 63) / 64;
  }
  return -1;
}

/* Takes the queued position x out. */
static void bitq_remove(opsched_bitq *q, int32_t x0) {
  uint32_t x = (uint32_t)x0;
  q->size--;
  for (int32_t l = 0; l < q->levels; l++, x >>= 6) {
    uint64_t *w = &q->word[l][x >> 6];
    *w &= ~((uint64_t)1 << (x & 63));
    if (*w)
      return;
  }
}

/* v became ready: queued by priority and (free run) by allocation. */
static inline void make_ready(ready_bits *ready, alloc_queue *a, int32_t window, int32_t v) {
  opsched_bitq_push(&ready->q, ready->place[v]);
  if (!window)
    alloc_push(a, v);
  if (ready->fit)
    fit_set(ready, v, acc_i64(&ready->allocs[v]));
}

/* v started: its allocation leaves `fit`. */
static inline void ready_started(ready_bits *ready, int32_t v) {
  if (ready->fit)
    fit_set(ready, v, INT64_MAX);
}

/* The smallest queued position (q not empty). */
static inline int32_t bitq_min(const opsched_bitq *q) {
  uint32_t x = 0;
  for (int32_t l = q->levels - 1; l >= 0; l--)
    x = x << 6 | (uint32_t)__builtin_ctzll(q->word[l][x]);
  return (int32_t)x;
}

/* The ready op that allocates least (ties by priority), or -1. */
static int32_t alloc_top(alloc_queue *a, const uint8_t *started) {
  while (a->q.size > 0 && started[a->at[bitq_min(&a->q)]])
    opsched_bitq_pop(&a->q);
  return a->q.size > 0 ? a->at[bitq_min(&a->q)] : -1;
}

/* Nothing runs and nothing fits: the op that starts anyway, -1 on a bug.
 * Free: the smallest allocation (its ready entry goes stale, lazy
 * deletion). Window: the head; every op before it has started and, nothing
 * running, ended, so it is ready and the ready heap's top. */
static int32_t forced_pick(ready_bits *ready, alloc_queue *by_alloc,
                           const uint8_t *started, const int64_t *prio,
                           int32_t window, int32_t next) {
  if (!window)
    return alloc_top(by_alloc, started);
  int32_t top = ready->q.size > 0 ? ready->place[ready->n + bitq_min(&ready->q)] : -1;
  if (top >= 0 && prio[top] == next) {
    bitq_remove(&ready->q, bitq_min(&ready->q));
    return top;
  }
  return -1;
}

/* The limits under which a gated run decides every comparison the same
 * way (schedule.h, opsched_gated_memo): the largest live + allocation that
 * fit and the smallest that did not. */
typedef struct gate_range {
  acc128 fit_max, fail_min;
  int failed;
} gate_range;

/* need <= lim, recorded in r. */
static int gate_fits(gate_range *r, const acc128 *lim, const acc128 *need) {
  if (!acc_less(lim, need)) {
    if (acc_less(&r->fit_max, need))
      r->fit_max = *need;
    return 1;
  }
  if (!r->failed || acc_less(need, &r->fail_min))
    r->fail_min = *need;
  r->failed = 1;
  return 0;
}

/* The free run's ready ops that have not started hold their allocations
 * (saturated) by priority position and demand in `fit` (ready_bits): a
 * scan past an op the limit or the capacity turns away jumps to the next
 * one whose demand and allocation fit, so a block of many ready ops under
 * a full budget costs O(log n) per step, not O(ready) (opsched-gen fanout
 * 100000, max-memory=1KiB on 16 streams: 44 s before; with demands of 2
 * under a capacity of 3 and max-memory=4MiB, 18.6 s).
 *
 * The position just before the next queued op after c whose demand fits
 * `free_cap` and allocation fits beside `live` under `lim` (the last
 * position when none): the scan resumes there. Every op passed over would
 * have been turned away: by the capacity, or (its demand fitting) by the
 * limit, a comparison whose least sum is recorded in r as the visit would
 * have. */
static int32_t next_fitting(const ready_bits *ready, gate_range *r, const acc128 *lim,
                            const acc128 *live, int32_t free_cap, int32_t c) {
  int64_t room = acc_less(lim, live) ? -1 : (int64_t)lim->lo - acc_i64(live);
  int32_t next = ready->n, k;
  for (k = 0; k < ready->classes && ready->demand[k] <= free_cap; k++) {
    int32_t i = opsched_min_tree_first_at_most(&ready->fit[k], fit_rank_from(ready, k, c + 1), room);
    int32_t p = i >= 0 ? fit_pos(ready, k, i) : ready->n;
    next = p < next ? p : next;
  }
  int64_t least = INT64_MAX; /* of the classes whose demand fits: [0, k) */
  for (int32_t j = 0; j < k; j++) {
    int64_t m = opsched_min_tree_min(&ready->fit[j], fit_rank_from(ready, j, c + 1),
                                     fit_rank_from(ready, j, next));
    least = m < least ? m : least;
  }
  if (least < INT64_MAX) {
    acc128 need = *live;
    acc_add(&need, least);
    gate_fits(r, lim, &need);
  }
  return next - 1;
}

static opsched_status gated_list_schedule(const opsched_graph *g,
                                          const mem_model *m, int64_t limit,
                                          const int64_t *prio_in, int32_t window,
                                          opsched_schedule *s, gate_range *range,
                                          time_ix *ix) {
  int32_t n = s->n, streams = s->streams, cap = s->resource_limit;
  opsched_status st = OPSCHED_ERR_NOMEM;
  int64_t *prio = opsched_alloc_array_raw((size_t)n, sizeof *prio); /* raw: written first */
  int32_t *run_ids = opsched_alloc_array_raw((size_t)n, sizeof *run_ids);
  int32_t *place_local = NULL;
  int32_t *missing = opsched_alloc_array_raw((size_t)n, sizeof *missing);
  int32_t *remaining = opsched_alloc_array_raw((size_t)m->nb, sizeof *remaining);
  opsched_lanes lanes;
  int lanes_ok = opsched_lanes_init(&lanes, streams, n) == 0;
  uint8_t *started = opsched_alloc_array((size_t)n, sizeof *started);
  acc128 *allocs_local = NULL;
  int64_t *akey_local = NULL;
  const acc128 *allocs = op_allocs(m, s->memo, &allocs_local);
  /* at: the order's op at each position (window), by_alloc's (free run) */
  int32_t *at = opsched_alloc_array_raw((size_t)n, sizeof *at);
  alloc_queue by_alloc = {{{NULL}, 0, 0}, NULL, at};
  ready_bits ready = {.n = n, .allocs = allocs, .g = g};
  if (!prio || !run_ids || !missing || !remaining || !lanes_ok || !started || !allocs ||
      !at || opsched_bitq_init(&ready.q, n) != 0 ||
      (!window && opsched_bitq_init(&by_alloc.q, n) != 0))
    goto done;
  memcpy(prio, prio_in, sizeof *prio * (size_t)n);
  if (!(ready.place = prio_places(m, prio, s->memo, &place_local)) ||
      (!window && fit_init(&ready, n) != 0)) /* only the free run jumps */
    goto done;
  /* alloc_less's order, as keys (alloc_keys); with a window the order's. */
  const int64_t *akey = window ? prio : alloc_keys(m, allocs, prio, s->memo, &akey_local);
  if (!akey)
    goto done;
  by_alloc.key = akey;
  for (int32_t v = 0; v < n; v++)
    at[akey[v]] = v;
  for (int32_t v = 0; v < n; v++)
    opsched_graph_preds(g, v, &missing[v]);
  for (int32_t k = 0; k < m->nb; k++)
    remaining[k] = 1 + (int32_t)(m->user_off[k + 1] - m->user_off[k]);
  run_queue running = {run_ids, 0, 0, s->end};
  /* With a window the head decides (forced_pick): no allocation order. */
  for (int32_t v = 0; v < n; v++)
    if (missing[v] == 0)
      make_ready(&ready, &by_alloc, window, v);

  const acc128 lim = {(uint64_t)limit, 0};
  acc128 live = {0, 0}, pend = {0, 0};
  int64_t now = 0;
  int32_t next = 0;
  int32_t free_cap = cap, free_streams = streams, done_count = 0;
  while (done_count < n) {
    /* Nothing can fit when even the smallest allocation does not. */
    int none_fits = 0;
    if (!window) {
      int32_t least = alloc_top(&by_alloc, started);
      if (least >= 0) {
        acc128 need = allocs[least];
        acc_addacc(&need, &live);
        none_fits = !gate_fits(range, &lim, &need);
      }
    }
    /* The ready ops in order from position c; those that do not fit
     * stay queued. */
    for (int32_t c = -1; !none_fits && free_streams > 0 && free_cap > 0 &&
                         (c = bitq_next(&ready.q, n, c + 1)) >= 0;) {
      int32_t v = ready.place[n + c];
      if (started[v]) { /* a stale entry of an op started by the fallback */
        bitq_remove(&ready.q, c);
        continue;
      }
      if (window && prio[v] >= next + window)
        break;
      int zero = opsched_graph_cost(g, v) == 0;
      acc128 a = allocs[v], need = a;
      acc_addacc(&need, &live);
      if (zero)
        acc_addacc(&need, &pend);
      int room = opsched_graph_demand(g, v) <= free_cap;
      int fits = room && gate_fits(range, &lim, &need);
      if (window && !fits && prio[v] == next)
        break; /* nothing overtakes a head that does not fit */
      if (!fits && !window)
        c = next_fitting(&ready, range, &lim, &live, free_cap, c);
      if (!fits)
        continue;
      bitq_remove(&ready.q, c);
      ready_started(&ready, v);
      acc_addacc(&live, &a);
      started[v] = 1;
      start_op(g, s, &lanes, &running, v, now, &free_cap, &free_streams, ix);
      next = next_head(at, started, next, n, window);
    }
    if (running.head == running.tail) {
      if (ready.q.size == 0) {
        st = OPSCHED_ERR_STATE; /* unreachable on a DAG */
        goto done;
      }
      /* Nothing runs and nothing fits: one op starts anyway. */
      int32_t pick = forced_pick(&ready, &by_alloc, started, prio, window, next);
      if (pick < 0) {
        st = OPSCHED_ERR_STATE;
        goto done;
      }
      acc_addacc(&live, &allocs[pick]);
      started[pick] = 1;
      ready_started(&ready, pick);
      start_op(g, s, &lanes, &running, pick, now, &free_cap, &free_streams, ix);
      next = next_head(at, started, next, n, window);
    }
    int64_t t = s->end[running.ids[running.head]];
    if (t != now) {
      pend.lo = pend.hi = 0;
      now = t;
      ix->cur++;
    }
    while (running.head < running.tail && s->end[running.ids[running.head]] == now) {
      int32_t u = running.ids[running.head++];
      ix->at[n + u] = ix->cur;
      int zero = s->end[u] == s->start[u];
      opsched_lanes_give(&lanes, s->stream[u]);
      free_cap += opsched_graph_demand(g, u);
      free_streams++;
      done_count++;
      release_buffers(m, remaining, u, zero, &live, &pend);
      int32_t ns;
      const int32_t *succ = opsched_graph_succs(g, u, &ns);
      for (int32_t k = 0; k < ns; k++)
        if (--missing[succ[k]] == 0)
          make_ready(&ready, &by_alloc, window, succ[k]);
    }
  }
  st = OPSCHED_OK;
done:
  opsched_free(prio);
  opsched_free(run_ids);
  opsched_free(place_local);
  opsched_bitq_free(&ready.q);
  fit_free(&ready);
  opsched_free(missing);
  opsched_free(remaining);
  opsched_lanes_free(&lanes);
  opsched_free(started);
  opsched_free(allocs_local);
  opsched_free(akey_local);
  opsched_bitq_free(&by_alloc.q);
  opsched_free(at);
  return st;
}

/* gated_list_schedule with an order window (window > 0), without its
 * ready heap: the ops that may start are at the order's positions
 * [head, head + window), so a scan of those positions visits the ready ones
 * in the heap's order (by position, prio being the positions) and decides
 * each the same way (a head that does not fit stops it, another op that
 * does not fit is passed over); the forced start is the head. The same
 * schedule and gate range, with no heap operation for the ready ops. */
static opsched_status gated_window_schedule(const opsched_graph *g, const mem_model *m,
                                            int64_t limit, const int64_t *prio,
                                            int32_t window, opsched_schedule *s,
                                            gate_range *range, time_ix *ix) {
  int32_t n = s->n, streams = s->streams, cap = s->resource_limit;
  opsched_status st = OPSCHED_ERR_NOMEM;
  /* One block (run once per budget of a block's search: few allocations
   * on small blocks); written before read (prio: positions 0..n-1) except
   * `started`, zeroed. */
  size_t un = (size_t)n, unb = (size_t)m->nb;
  int32_t *run_ids = opsched_alloc_array_raw(3 * un + unb + (un + 3) / 4 + 1, sizeof *run_ids);
  int32_t *missing = run_ids ? run_ids + un : NULL;
  int32_t *at = run_ids ? missing + un : NULL;
  int32_t *remaining = run_ids ? at + un : NULL;
  uint8_t *started = run_ids ? (uint8_t *)(remaining + unb) : NULL;
  if (started)
    memset(started, 0, un);
  acc128 *allocs_local = NULL;
  const acc128 *allocs = op_allocs(m, s->memo, &allocs_local);
  opsched_lanes lanes;
  int lanes_ok = opsched_lanes_init(&lanes, streams, n) == 0;
  if (!run_ids || !missing || !remaining || !at || !started || !allocs || !lanes_ok)
    goto done;
  for (int32_t v = 0; v < n; v++) {
    at[prio[v]] = v;
    opsched_graph_preds(g, v, &missing[v]);
  }
  for (int32_t k = 0; k < m->nb; k++)
    remaining[k] = 1 + (int32_t)(m->user_off[k + 1] - m->user_off[k]);
  run_queue running = {run_ids, 0, 0, s->end};
  const acc128 lim = {(uint64_t)limit, 0};
  acc128 live = {0, 0}, pend = {0, 0};
  int64_t now = 0;
  int32_t next = 0, free_cap = cap, free_streams = streams, done_count = 0;
  while (done_count < n) {
    for (int32_t p = next; p < next + window && p < n && free_streams > 0 && free_cap > 0;
         p++) {
      int32_t v = at[p];
      if (started[v] || missing[v] > 0)
        continue; /* not ready */
      acc128 a = allocs[v], need = a;
      acc_addacc(&need, &live);
      if (opsched_graph_cost(g, v) == 0)
        acc_addacc(&need, &pend);
      if (!(opsched_graph_demand(g, v) <= free_cap && gate_fits(range, &lim, &need))) {
        if (p == next)
          break; /* nothing overtakes a head that does not fit */
        continue;
      }
      acc_addacc(&live, &a);
      started[v] = 1;
      start_op(g, s, &lanes, &running, v, now, &free_cap, &free_streams, ix);
      next = next_head(at, started, next, n, window);
    }
    if (running.head == running.tail) { /* nothing runs and nothing fits: the head starts */
      int32_t v = next < n ? at[next] : -1;
      if (v < 0 || started[v] || missing[v] > 0) {
        st = OPSCHED_ERR_STATE; /* unreachable on a DAG */
        goto done;
      }
      acc_addacc(&live, &allocs[v]);
      started[v] = 1;
      start_op(g, s, &lanes, &running, v, now, &free_cap, &free_streams, ix);
      next = next_head(at, started, next, n, window);
    }
    int64_t t = s->end[running.ids[running.head]];
    if (t != now) {
      pend.lo = pend.hi = 0;
      now = t;
      ix->cur++;
    }
    while (running.head < running.tail && s->end[running.ids[running.head]] == now) {
      int32_t u = running.ids[running.head++];
      ix->at[n + u] = ix->cur;
      opsched_lanes_give(&lanes, s->stream[u]);
      free_cap += opsched_graph_demand(g, u);
      free_streams++;
      done_count++;
      release_buffers(m, remaining, u, s->end[u] == s->start[u], &live, &pend);
      int32_t ns;
      const int32_t *succ = opsched_graph_succs(g, u, &ns);
      for (int32_t k = 0; k < ns; k++)
        missing[succ[k]]--;
    }
  }
  st = OPSCHED_OK;
done:
  opsched_free(run_ids); /* the block */
  opsched_free(allocs_local);
  opsched_lanes_free(&lanes);
  return st;
}

/* The graph plus the buffers' data dependencies (the model's DAG), so that
 * every scheduler, the streams and the waits honour them: the model's
 * CSR, sorted and deduplicated as a finalized graph's, becomes the graph's
 * (one copy of the adjacency; the model reads it while the graph lives). */
static opsched_graph *augmented_graph(const opsched_graph *g, mem_model *m) {
  opsched_graph *a = opsched_graph_adopt_csr(g, m->succ_off, m->succ, m->pred_off, m->pred);
  if (a)
    m->dag_lent = 1;
  return a;
}

/* With buffers: builds the memory model *m and the augmented graph *aug,
 * which *g then points to (the graph the schedulers run on); without:
 * *g = g0 and nothing is built. On failure nothing is left to free. */
static opsched_status model_and_graph(const opsched_graph *g0, const opsched_buffers *b,
                                      mem_model *m, opsched_graph **aug,
                                      const opsched_graph **g) {
  *aug = NULL;
  *g = g0;
  if (!b)
    return OPSCHED_OK;
  opsched_status st = mem_model_build(g0, b, m);
  if (st != OPSCHED_OK)
    return st;
  /* The model's DAG holds every edge of the graph (sorted, deduplicated,
   * as the graph's CSR): with no more edges it is the graph itself, whose
   * copy would be identical (nodes, costs, demands, CSR, topological
   * order). The common case: a buffer's users consume its value. */
  if (m->succ_off[m->n] == opsched_graph_num_edges(g0))
    return OPSCHED_OK;
  if (!(*aug = augmented_graph(g0, m))) {
    mem_model_free(m);
    return OPSCHED_ERR_NOMEM;
  }
  *g = *aug;
  return OPSCHED_OK;
}

static void memo_model_free(opsched_schedule_memo *memo) {
  if (memo->model) {
    mem_model_free(memo->model);
    opsched_free(memo->model);
    opsched_graph_destroy(memo->aug);
  }
  memo->model = NULL;
  memo->aug = NULL;
  memo->model_graph = NULL;
  memo->model_buffers = NULL;
  memo->program_peak_known = 0;
  opsched_free(memo->rank); /* of the graph built with the model */
  opsched_free(memo->critical);
  memo->rank = NULL;
  memo->critical = NULL;
  memo->ranks_graph = NULL;
  opsched_heft_memo_free(&memo->heft);
  opsched_free(memo->allocs); /* of the model */
  memo->allocs = NULL;
  opsched_free(memo->hp_start);
  opsched_free(memo->hp_end);
  memo->hp_start = memo->hp_end = NULL;
  for (int i = 0; i < OPSCHED_AKEY_MEMO_MAX; i++) {
    opsched_free(memo->akey_prio[i]);
    opsched_free(memo->akey[i]);
    memo->akey_prio[i] = memo->akey[i] = NULL;
    opsched_free(memo->place_prio[i]);
    opsched_free(memo->place[i]);
    memo->place_prio[i] = NULL;
    memo->place[i] = NULL;
  }
  memo->akey_next = 0;
  memo->place_next = 0;
}

/* model_and_graph through the memo: the runs of one search schedule the
 * same graph and buffers, so the model and augmented graph are built by
 * the first and kept in the memo (read-only for the runs). */
static opsched_status memo_model(const opsched_graph *g0, const opsched_buffers *b,
                                 opsched_schedule_memo *memo, const mem_model **m,
                                 const opsched_graph **g) {
  if (!memo->model || memo->model_graph != g0 || memo->model_buffers != b) {
    memo_model_free(memo);
    mem_model *built = opsched_alloc_array(1, sizeof *built);
    if (!built)
      return OPSCHED_ERR_NOMEM;
    opsched_graph *aug;
    const opsched_graph *ga;
    opsched_status st = model_and_graph(g0, b, built, &aug, &ga);
    if (st != OPSCHED_OK) {
      opsched_free(built);
      return st;
    }
    memo->model = built;
    memo->aug = aug;
    memo->model_graph = g0;
    memo->model_buffers = b;
  }
  *m = memo->model;
  *g = memo->aug ? memo->aug : memo->model_graph;
  return OPSCHED_OK;
}

static int64_t max_end(const opsched_schedule *s) {
  int64_t ms = 0;
  for (int32_t v = 0; v < s->n; v++)
    if (s->end[v] > ms)
      ms = s->end[v];
  return ms;
}

/* Today's pipeline: list schedule, HEFT and local search when asked, then
 * order, streams and waits. */
static opsched_status plain_pipeline(const opsched_graph *g,
                                     const opsched_schedule_options *o,
                                     opsched_schedule *s) {
  opsched_status st = list_schedule(g, o, s);
  /* One stream without effort keeps the plain rank-ordered list. Otherwise
   * the list schedule competes with HEFT insertion, then local search may
   * shorten the winner; streams are named last, from the final times. */
  int multi = s->streams > 1 || o->effort > 0;
  int heft_won = 0;
  if (st == OPSCHED_OK && multi)
    st = opsched_streams_heft_memo(g, o, s, &heft_won, s->memo ? &s->memo->heft : NULL);
  if (st == OPSCHED_OK)
    s->list_makespan = max_end(s);
  if (st == OPSCHED_OK && o->effort > 0)
    st = opsched_streams_improve(g, s, opsched_effort_placements(o));
  /* The list schedule left its ops in s->order by start: nearly the
   * order, which the sort then finishes in O(n) while its times stand. */
  int listed = !heft_won && o->effort == 0;
  if (st == OPSCHED_OK)
    st = opsched_schedule_sort_order_hint(s, g, NULL, listed ? s->order : NULL);
  if (st == OPSCHED_OK && multi)
    st = opsched_streams_assign(g, s);
  if (st == OPSCHED_OK)
    st = opsched_streams_waits(g, s);
  return st;
}

/* The policy's one-stream order (opsched_memory_schedule). */
static opsched_status memory_order(const opsched_graph *g,
                                   const opsched_schedule_options *o,
                                   opsched_memory_policy policy, opsched_memory_memo *memo,
                                   opsched_memory_result **r) {
  opsched_memory_options mo;
  opsched_memory_options_init(&mo);
  mo.policy = policy;
  mo.max_memory = o->max_memory;
  mo.exact_budget = o->exact_budget;
  return opsched_memory_schedule_memo(g, o->buffers, &mo, memo, r);
}

static void note_order(opsched_schedule *s, const opsched_memory_result *r) {
  s->memory_winner =
      opsched_memory_policy_name(opsched_memory_result_winner(r));
  s->exact_proven = opsched_memory_result_exact_proven(r);
}

typedef struct peak_filter {
  const mem_model *m;
  int64_t limit;
} peak_filter;

/* Accepts times whose peak in time is within the limit. */
static int within_limit(void *ctx, const int64_t *start, const int64_t *end) {
  const peak_filter *f = ctx;
  int64_t peak = mem_peak_in_time(f->m, start, end, NULL);
  return peak >= 0 && peak <= f->limit;
}

/* The best gated times so far (limited_times): within the limit first,
 * then the shorter makespan, then the lower peak; ties keep the earlier. */
typedef struct gated_best {
  int64_t *start, *end;
  int32_t *stream;
  int64_t makespan, peak;
  int from_order, valid;
} gated_best;

/* Whether times of makespan `ms` lose to b's whatever their peak: b's fit
 * and ms is not shorter (offer_peak would keep b's either way). */
static int cannot_win(const gated_best *b, int64_t limit, int64_t ms) {
  return b->valid && b->peak <= limit && ms >= b->makespan;
}

/* Offers times of makespan `ms` whose peak in time is `peak` to `b`. */
static void offer_peak(gated_best *b, int64_t limit, int32_t n_nodes, const int64_t *start,
                       const int64_t *end, const int32_t *stream, int from_order,
                       int64_t peak, int64_t ms) {
  int fits = peak <= limit, best_fits = b->valid && b->peak <= limit;
  int better = !b->valid || fits > best_fits ||
               (fits == best_fits && (fits ? ms < b->makespan
                                           : peak < b->peak || (peak == b->peak &&
                                                                ms < b->makespan)));
  if (better) {
    size_t n = (size_t)n_nodes;
    memcpy(b->start, start, sizeof *start * n);
    memcpy(b->end, end, sizeof *end * n);
    memcpy(b->stream, stream, sizeof *stream * n);
    b->makespan = ms, b->peak = peak, b->from_order = from_order, b->valid = 1;
  }
}

static void gated_memo_clear(opsched_schedule_memo *memo) {
  for (int32_t i = 0; i < memo->gated_count; i++) {
    opsched_free(memo->gated[i].prio); /* the entry's block */
  }
  memo->gated_count = memo->gated_next = 0;
}

void opsched_schedule_memo_free(opsched_schedule_memo *memo) {
  if (!memo)
    return;
  gated_memo_clear(memo);
  opsched_memory_memo_free(&memo->memory);
  memo_model_free(memo);
}

/* opsched_schedule_set_ranks(s, g) through the search's memo: the runs
 * of one search schedule one graph. */
static void set_ranks(opsched_schedule *s, const opsched_graph *g,
                      opsched_schedule_memo *memo) {
  size_t n = (size_t)s->n;
  if (memo && memo->rank && memo->ranks_graph == g) {
    memcpy(s->rank, memo->rank, sizeof *s->rank * n);
    memcpy(s->critical, memo->critical, sizeof *s->critical * n);
    s->critical_path = memo->critical_path;
    s->total_work = memo->total_work;
    return;
  }
  opsched_schedule_set_ranks(s, g);
  if (!memo)
    return;
  opsched_free(memo->rank);
  opsched_free(memo->critical);
  memo->ranks_graph = NULL;
  memo->rank = opsched_alloc_array(n, sizeof *memo->rank);
  memo->critical = opsched_alloc_array(n, sizeof *memo->critical);
  if (!memo->rank || !memo->critical) {
    opsched_free(memo->rank);
    opsched_free(memo->critical);
    memo->rank = NULL;
    memo->critical = NULL;
    return;
  }
  memcpy(memo->rank, s->rank, sizeof *s->rank * n);
  memcpy(memo->critical, s->critical, sizeof *s->critical * n);
  memo->critical_path = s->critical_path;
  memo->total_work = s->total_work;
  memo->ranks_graph = g;
}

/* The memo's entry for these inputs, NULL when none. */
static opsched_gated_memo *gated_memo_find(opsched_schedule_memo *memo,
                                                 const opsched_schedule *s, int64_t limit,
                                                 const int64_t *prio, int32_t window) {
  for (int32_t i = 0; i < memo->gated_count; i++) {
    opsched_gated_memo *e = &memo->gated[i];
    if (e->window == window && e->streams == s->streams && e->cap == s->resource_limit &&
        e->fit_max <= limit && limit < e->fail_min &&
        memcmp(e->prio, prio, sizeof *prio * (size_t)s->n) == 0)
      return e;
  }
  return NULL;
}

/* Keeps s's gated times in the memo, in place of the oldest entry when it
 * is full. */
static void gated_memo_add(opsched_schedule_memo *memo, const opsched_schedule *s,
                           const gate_range *r, const int64_t *prio, int32_t window,
                           int64_t peak, int64_t makespan) {
  size_t n = (size_t)s->n;
  int64_t fail_min = r->failed ? acc_i64(&r->fail_min) : INT64_MAX;
  opsched_gated_memo e = {acc_i64(&r->fit_max), fail_min, peak, makespan, window, s->streams,
                          s->resource_limit, NULL, NULL, NULL, NULL};
  /* One block for the four arrays, `prio` owning it (gated_memo_clear). */
  if (!(e.prio = opsched_alloc_array_raw(n, 3 * sizeof(int64_t) + sizeof(int32_t))))
    return;
  e.start = e.prio + n;
  e.end = e.start + n;
  e.stream = (int32_t *)(e.end + n);
  memcpy(e.prio, prio, sizeof *prio * n);
  memcpy(e.start, s->start, sizeof *s->start * n);
  memcpy(e.end, s->end, sizeof *s->end * n);
  memcpy(e.stream, s->stream, sizeof *s->stream * n);
  opsched_gated_memo *slot = &memo->gated[memo->gated_next];
  if (memo->gated_count == OPSCHED_GATED_MEMO_MAX) {
    opsched_free(slot->prio); /* the entry's block */
  } else {
    memo->gated_count++;
  }
  *slot = e;
  memo->gated_next = (memo->gated_next + 1) % OPSCHED_GATED_MEMO_MAX;
}

/* mem_peak_in_time of a gated run's times (s) from its instants (ix):
 * that function's events, each buffer allocated at its owner's hold start
 * and freed (unless forever) at its holders' latest hold end, where a hold
 * is the instant (t, phase) of opsched_memory_peak_in_time's model (a
 * start at phase 1 and an end at phase 0 with a duration, both at phase 1
 * of the start without), and the peak the most live bytes after an
 * instant's events. The run numbered its times in order (ix), so the
 * instant (t, phase) is 2 * number + phase and a per-instant sum of the
 * events (128-bit, modular within an instant) replaces the sort: the same
 * live bytes after every instant, the same peak. -2 when out of memory. */
static int64_t gated_peak(const mem_model *m, const opsched_schedule *s, const time_ix *ix) {
  int32_t n = s->n;
  const int32_t *at = ix->at;
  size_t slots = 2 * ((size_t)ix->cur + 1);
  acc128 *delta = opsched_alloc_array(slots, sizeof *delta);
  if (!delta)
    return -2;
  for (int32_t k = 0; k < m->nb; k++) {
    int32_t o = m->owner[k];
    int nz = s->end[o] > s->start[o];
    acc_add(&delta[2 * (size_t)at[o] + (size_t)nz], m->size[k]);
    if (m->forever[k])
      continue;
    /* hold end: (end, 0) with a duration, (start, 1) without */
    int64_t hi = nz ? 2 * (int64_t)at[n + o] : 2 * (int64_t)at[o] + 1;
    for (int64_t i = m->user_off[k]; i < m->user_off[k + 1]; i++) {
      int32_t u = m->user[i];
      int64_t h = s->end[u] > s->start[u] ? 2 * (int64_t)at[n + u] : 2 * (int64_t)at[u] + 1;
      hi = h > hi ? h : hi;
    }
    acc_sub_i64(&delta[hi], m->size[k]);
  }
  acc128 live = {0, 0}, best = {0, 0};
  for (size_t i = 0; i < slots; i++) {
    acc_addacc(&live, &delta[i]);
    if (acc_less(&best, &live))
      best = live;
  }
  opsched_free(delta);
  return acc_i64(&best);
}

/* The gated list schedule of (limit, prio, window) offered to `b` (s's
 * times are scratch); from the search's memo when it ran there before (the
 * same times: gated_list_schedule is a function of these inputs, the graph
 * and the buffers). Its peak in time is computed only when it can matter
 * (cannot_win), and then kept in the memo's entry. */
static opsched_status gated_offer(const opsched_graph *g, const mem_model *m, int64_t limit,
                                  const int64_t *prio, int32_t window, opsched_schedule *s,
                                  gated_best *b, int from_order) {
  opsched_gated_memo *e = s->memo ? gated_memo_find(s->memo, s, limit, prio, window) : NULL;
  if (e) {
    if (cannot_win(b, limit, e->makespan))
      return OPSCHED_OK;
    if (e->peak < 0 && (e->peak = mem_peak_in_time(m, e->start, e->end, NULL)) < 0) {
      e->peak = -1;
      return OPSCHED_ERR_NOMEM;
    }
    offer_peak(b, limit, s->n, e->start, e->end, e->stream, from_order, e->peak,
               e->makespan);
    return OPSCHED_OK;
  }
  gate_range range = {{0, 0}, {0, 0}, 0};
  time_ix ix = {opsched_alloc_array(2 * (size_t)s->n + 1, sizeof *ix.at), 0};
  if (!ix.at)
    return OPSCHED_ERR_NOMEM;
  opsched_status st =
      window > 0 ? gated_window_schedule(g, m, limit, prio, window, s, &range, &ix)
                 : gated_list_schedule(g, m, limit, prio, window, s, &range, &ix);
  int64_t ms = max_end(s), peak = -1;
  int lose = cannot_win(b, limit, ms);
  if (st == OPSCHED_OK && !lose && (peak = gated_peak(m, s, &ix)) < 0)
    st = OPSCHED_ERR_NOMEM;
  opsched_free(ix.at);
  if (st != OPSCHED_OK)
    return st;
  if (s->memo)
    gated_memo_add(s->memo, s, &range, prio, window, peak, ms);
  if (!lose)
    offer_peak(b, limit, s->n, s->start, s->end, s->stream, from_order, peak, ms);
  return OPSCHED_OK;
}

/* Order windows tried under a limit (gated_list_schedule): 1 is the
 * one-stream order issued strictly in order (meets every limit that order
 * meets when no op has zero duration), wider ones overlap more of it. */
static const int32_t order_windows[] = {1, 2, 4, 8, 16, 32};

/* The gated list schedule with the policy's priority (free overtaking),
 * then the one-stream memory order (the policy's; for critical-path,
 * memory.h's critical-path order, which falls back to min-memory's) under
 * each order window; the best by gated_best's rule is left in s. */
static opsched_status gated_candidates(const opsched_graph *g,
                                       const opsched_schedule_options *o,
                                       const mem_model *m, opsched_schedule *s,
                                       int64_t *prio, gated_best *b,
                                       opsched_memory_result **r) {
  int32_t n = s->n;
  int64_t limit = o->max_memory;
  opsched_status st;
  opsched_memory_policy policy = o->memory_policy;
  if ((st = memory_order(g, o, policy, s->memo ? &s->memo->memory : NULL, r)) != OPSCHED_OK)
    return st;
  const int32_t *order = opsched_memory_result_order(*r);
  for (int32_t v = 0; v < n; v++)
    prio[v] = o->priority == OPSCHED_PRIORITY_PROGRAM_ORDER ? v : -s->rank[v];
  if (policy != OPSCHED_MEMORY_CRITICAL_PATH)
    for (int32_t i = 0; i < n; i++)
      prio[order[i]] = i;
  if ((st = gated_offer(g, m, limit, prio, 0, s, b, policy != OPSCHED_MEMORY_CRITICAL_PATH)) !=
      OPSCHED_OK)
    return st;
  for (int32_t i = 0; i < n; i++)
    prio[order[i]] = i;
  for (size_t w = 0; w < sizeof order_windows / sizeof *order_windows; w++) {
    if (w > 0 && order_windows[w] >= n)
      break; /* the same as the free run over the order */
    if ((st = gated_offer(g, m, limit, prio, order_windows[w], s, b, 1)) != OPSCHED_OK)
      return st;
  }
  size_t bytes = sizeof *s->start * (size_t)n;
  memcpy(s->start, b->start, bytes);
  memcpy(s->end, b->end, bytes);
  memcpy(s->stream, b->stream, sizeof *s->stream * (size_t)n);
  return OPSCHED_OK;
}

/* mem_peak_in_time of HEFT's times in s: the memo's when it holds these
 * times (the same in every budgeted run of a search), else computed and
 * kept there. -1 or -2 as mem_peak_in_time. */
static int64_t heft_peak(const mem_model *m, const opsched_schedule *s) {
  opsched_schedule_memo *memo = s->memo;
  size_t bytes = sizeof *s->start * (size_t)s->n;
  int mine = memo && memo->model == m;
  if (mine && memo->hp_start && memcmp(memo->hp_start, s->start, bytes) == 0 &&
      memcmp(memo->hp_end, s->end, bytes) == 0)
    return memo->hp_peak;
  int64_t peak = mem_peak_in_time(m, s->start, s->end, NULL);
  if (!mine || peak < 0)
    return peak;
  if (!memo->hp_start) {
    memo->hp_start = opsched_alloc_array((size_t)s->n, sizeof *memo->hp_start);
    memo->hp_end = opsched_alloc_array((size_t)s->n, sizeof *memo->hp_end);
  }
  if (!memo->hp_start || !memo->hp_end) {
    opsched_free(memo->hp_start);
    opsched_free(memo->hp_end);
    memo->hp_start = memo->hp_end = NULL;
    return peak;
  }
  memcpy(memo->hp_start, s->start, bytes);
  memcpy(memo->hp_end, s->end, bytes);
  memo->hp_peak = peak;
  return peak;
}

/* Several streams under a memory limit: the gated candidates, then HEFT and
 * local search filtered by the peak in time. Leaves times in s and their
 * peak in time in *peak when known without computing it (the gated
 * best's), else -1. */
static opsched_status limited_times(const opsched_graph *g,
                                    const opsched_schedule_options *o,
                                    const mem_model *m, opsched_schedule *s,
                                    int64_t *peak) {
  int32_t n = s->n;
  int64_t limit = o->max_memory;
  opsched_memory_result *r = NULL;
  opsched_status st = OPSCHED_ERR_NOMEM;
  /* One zeroed block: prio, then the gated best's times and streams. */
  size_t un = (size_t)n;
  int64_t *prio = opsched_alloc_array(un, 3 * sizeof(int64_t) + sizeof(int32_t));
  gated_best b = {prio ? prio + un : NULL, prio ? prio + 2 * un : NULL,
                  prio ? (int32_t *)(prio + 3 * un) : NULL, 0, 0, 0, 0};
  if (!prio)
    goto done;
  if ((st = gated_candidates(g, o, m, s, prio, &b, &r)) != OPSCHED_OK)
    goto done;
  int from_order = b.from_order;
  /* HEFT knows nothing of memory: its schedule replaces the gated one only
   * when shorter and within the limit in time. */
  int heft_won = 0;
  opsched_heft_memo *hm = s->memo ? &s->memo->heft : NULL;
  if ((st = opsched_streams_heft_memo(g, o, s, &heft_won, hm)) != OPSCHED_OK)
    goto done;
  peak_filter f = {m, limit};
  *peak = b.peak; /* s holds the gated best's times */
  /* within_limit, its peak kept for the pending schedule. */
  int64_t hp = heft_won ? heft_peak(m, s) : -1;
  if (heft_won && !(hp >= 0 && hp <= limit)) {
    memcpy(s->start, b.start, sizeof *s->start * (size_t)n);
    memcpy(s->end, b.end, sizeof *s->end * (size_t)n);
  } else if (heft_won) {
    from_order = 0;
    *peak = hp;
  }
  s->list_makespan = max_end(s);
  if (o->effort > 0)
    *peak = -1;
  if (o->effort > 0 &&
      (st = opsched_streams_improve_stall(g, s, opsched_effort_placements(o),
                                          s->memo ? s->memo->improve_stall : 0,
                                          within_limit, &f)) != OPSCHED_OK)
    goto done;
  if (from_order)
    note_order(s, r);
  st = OPSCHED_OK;
done:
  opsched_memory_result_destroy(r);
  opsched_free(prio); /* the block */
  return st;
}

/* One stream in the order of opsched_memory_schedule: sequential times. */
static opsched_status ordered_one_stream(const opsched_graph *g,
                                         const opsched_schedule_options *o,
                                         opsched_schedule *s) {
  int32_t n = s->n;
  opsched_memory_result *r = NULL;
  int32_t *pos = opsched_alloc_array((size_t)n, sizeof *pos);
  opsched_status st = OPSCHED_ERR_NOMEM;
  if (!pos)
    goto done;
  if ((st = memory_order(g, o, o->memory_policy, s->memo ? &s->memo->memory : NULL, &r)) !=
      OPSCHED_OK)
    goto done;
  const int32_t *order = opsched_memory_result_order(r);
  int64_t t = 0;
  for (int32_t i = 0; i < n; i++) {
    int32_t v = order[i];
    pos[v] = i;
    s->start[v] = t;
    s->end[v] = t = opsched_sat_add(t, opsched_graph_cost(g, v));
    s->stream[v] = 0;
  }
  s->list_makespan = t;
  note_order(s, r);
  /* Ties (zero-duration ops at one instant) keep the memory order. */
  st = opsched_schedule_sort_order_by(s, g, pos);
  if (st == OPSCHED_OK)
    st = opsched_streams_waits(g, s);
done:
  opsched_memory_result_destroy(r);
  opsched_free(pos);
  return st;
}

/* The peak of m's program order (a run's original_peak_memory): the
 * search's memo's when a run of it computed it, -2 out of memory. */
static int64_t program_peak(const mem_model *m, opsched_schedule_memo *memo) {
  if (memo && memo->model == m && memo->program_peak_known)
    return memo->program_peak;
  int32_t *program = opsched_alloc_array((size_t)m->n, sizeof *program);
  int64_t peak = -2;
  if (program && mem_order_program(m, program) == OPSCHED_OK)
    peak = mem_simulate(m, program, NULL, NULL);
  opsched_free(program);
  if (memo && memo->model == m && peak >= 0) {
    memo->program_peak = peak;
    memo->program_peak_known = 1;
  }
  return peak;
}

/* Fills the memory figures of a finished schedule. */
static opsched_status memory_figures(const opsched_schedule_options *o,
                                     const mem_model *m, opsched_schedule *s) {
  int32_t n = s->n;
  s->live_after = opsched_alloc_array((size_t)n, sizeof *s->live_after);
  opsched_status st = OPSCHED_ERR_NOMEM;
  if (!s->live_after)
    goto done;
  s->resident_bytes = m->resident;
  s->original_peak_memory = program_peak(m, s->memo);
  s->peak_memory = s->streams == 1
                       ? mem_simulate(m, s->order, NULL, s->live_after)
                       : mem_peak_in_time(m, s->start, s->end, s->live_after);
  if (s->original_peak_memory < 0 || s->peak_memory < 0) {
    st = s->original_peak_memory == -2 || s->peak_memory == -2
             ? OPSCHED_ERR_NOMEM
             : OPSCHED_ERR_STATE; /* an invalid schedule: a bug */
    goto done;
  }
  s->limit_met = o->max_memory == 0 || s->peak_memory <= o->max_memory;
  st = OPSCHED_OK;
done:
  return st;
}

/* The times of limited_times left pending (opsched_schedule_run_times):
 * the makespan and the peak in time (memory_figures's for several
 * streams) set, the rest for limited_finish. */
static opsched_status limited_pending(const mem_model *m, opsched_schedule *s,
                                      int64_t peak) {
  s->makespan = max_end(s);
  if (peak < 0)
    peak = mem_peak_in_time(m, s->start, s->end, NULL);
  if (peak < 0)
    return peak == -2 ? OPSCHED_ERR_NOMEM : OPSCHED_ERR_STATE;
  s->peak_memory = peak;
  s->pending = 1;
  return OPSCHED_OK;
}

/* What memory_pipeline does after limited_times. */
static opsched_status limited_finish(const opsched_graph *g,
                                     const opsched_schedule_options *o,
                                     const mem_model *m, opsched_schedule *s) {
  opsched_status st = opsched_schedule_sort_order(s, g);
  if (st == OPSCHED_OK)
    st = opsched_streams_assign(g, s);
  if (st == OPSCHED_OK)
    st = opsched_streams_waits(g, s);
  if (st == OPSCHED_OK)
    st = memory_figures(o, m, s);
  return st;
}

/* `lazy`: several streams under a limit stop at the times
 * (limited_pending). */
static opsched_status memory_pipeline(const opsched_graph *g,
                                      const opsched_schedule_options *o,
                                      const mem_model *m, opsched_schedule *s, int lazy) {
  opsched_status st;
  if (s->streams == 1) {
    if (o->memory_policy == OPSCHED_MEMORY_CRITICAL_PATH && o->max_memory == 0)
      st = plain_pipeline(g, o, s);
    else
      st = ordered_one_stream(g, o, s);
  } else if (o->max_memory == 0) {
    st = plain_pipeline(g, o, s);
  } else {
    int64_t peak = -1;
    st = limited_times(g, o, m, s, &peak);
    if (st == OPSCHED_OK)
      st = lazy ? limited_pending(m, s, peak) : limited_finish(g, o, m, s);
    return st;
  }
  if (st == OPSCHED_OK)
    st = memory_figures(o, m, s);
  return st;
}

/* The placed times and streams of a schedule, kept across a charge. */
typedef struct placed_copy {
  int64_t *start, *end;
  int32_t *stream;
} placed_copy;

static void placed_save(placed_copy *c, const opsched_schedule *s) {
  memcpy(c->start, s->start, sizeof *s->start * (size_t)s->n);
  memcpy(c->end, s->end, sizeof *s->end * (size_t)s->n);
  memcpy(c->stream, s->stream, sizeof *s->stream * (size_t)s->n);
}

static void placed_load(opsched_schedule *s, const placed_copy *c) {
  memcpy(s->start, c->start, sizeof *s->start * (size_t)s->n);
  memcpy(s->end, c->end, sizeof *s->end * (size_t)s->n);
  memcpy(s->stream, c->stream, sizeof *s->stream * (size_t)s->n);
}

/* The dependencies whose ends are on different streams. */
static int64_t cross_edges(const opsched_graph *g, const opsched_schedule *s) {
  int64_t c = 0;
  for (int32_t v = 0; v < s->n; v++) {
    int32_t np;
    const int32_t *pred = opsched_graph_preds(g, v, &np);
    for (int32_t e = 0; e < np; e++)
      c += s->stream[pred[e]] != s->stream[v];
  }
  return c;
}

/* Charges the runtime's costs two ways from the placement in *s (its
 * times, streams and s->order): re-timed on its own streams
 * (opsched_streams_charge), and placed again in its order on the stream
 * where each op starts first with the hand-off counted
 * (opsched_streams_charge_place); the shorter stays in *s (ties: the
 * first). Then placed sticky (opsched_streams_charge_place_sticky), which
 * replaces it when not longer with fewer dependencies across streams
 * (docs/streams.md). Under a memory limit both keep every buffer freed before another
 * is allocated so (the barrier): the charge never raises the placed peak.
 * The tie-break positions of the placed order go to *tie. */
static opsched_status charge_both(const opsched_graph *g, const opsched_schedule_options *o,
                                  const mem_model *m, opsched_schedule *s, int32_t *tie) {
  int32_t n = s->n;
  for (int32_t i = 0; i < n; i++)
    tie[s->order[i]] = i; /* equal times keep the order (and stream order) */
  opsched_charge_barrier bar, *b = NULL;
  placed_copy placed = {opsched_alloc_array((size_t)n, sizeof(int64_t)),
                        opsched_alloc_array((size_t)n, sizeof(int64_t)),
                        opsched_alloc_array((size_t)n, sizeof(int32_t))};
  placed_copy kept = {opsched_alloc_array((size_t)n, sizeof(int64_t)),
                      opsched_alloc_array((size_t)n, sizeof(int64_t)),
                      opsched_alloc_array((size_t)n, sizeof(int32_t))};
  opsched_status st = OPSCHED_ERR_NOMEM;
  if (!placed.start || !placed.end || !placed.stream || !kept.start || !kept.end ||
      !kept.stream)
    goto done;
  placed_save(&placed, s);
  if (m && o->max_memory > 0) {
    if ((st = opsched_charge_barrier_build(&bar, m, s)) != OPSCHED_OK)
      goto done;
    b = &bar;
  }
  if ((st = opsched_streams_charge(g, s, o->region_ns, o->handoff_ns, b)) != OPSCHED_OK)
    goto done;
  int64_t first = max_end(s);
  placed_save(&kept, s);
  placed_load(s, &placed);
  if ((st = opsched_streams_charge_place(g, s, o->region_ns, o->handoff_ns, b)) != OPSCHED_OK)
    goto done;
  if (max_end(s) >= first)
    placed_load(s, &kept);
  else
    first = max_end(s);
  placed_save(&kept, s);
  int64_t kept_cross = cross_edges(g, s);
  placed_load(s, &placed);
  if ((st = opsched_streams_charge_place_sticky(g, s, o->region_ns, o->handoff_ns, b)) !=
      OPSCHED_OK)
    goto done;
  /* A wait on another stream waits for the slower of two jittery ops: at
   * a makespan no longer, fewer dependencies across streams win. */
  if (cross_edges(g, s) >= kept_cross || max_end(s) > first)
    placed_load(s, &kept);
done:
  if (b)
    opsched_charge_barrier_free(b);
  opsched_free(placed.start);
  opsched_free(placed.end);
  opsched_free(placed.stream);
  opsched_free(kept.start);
  opsched_free(kept.end);
  opsched_free(kept.stream);
  return st;
}

/* The runtime's costs of several streams (options.handoff_ns, region_ns):
 * charges *sp with them (charge_both), then replaces it by the one-stream
 * schedule of the same options when that is not slower, or meets a memory
 * limit *sp misses: a plan that does not pay uses no streams. g0 is the
 * caller's graph, g the one scheduled. */
static opsched_status charge_streams(const opsched_graph *g0, const opsched_graph *g,
                                     const opsched_schedule_options *o, const mem_model *m,
                                     opsched_schedule **sp) {
  opsched_schedule *s = *sp;
  int32_t *tie = opsched_alloc_array((size_t)s->n, sizeof *tie);
  if (!tie)
    return OPSCHED_ERR_NOMEM;
  opsched_status st = charge_both(g, o, m, s, tie);
  if (st == OPSCHED_OK)
    st = opsched_schedule_sort_order_by(s, g, tie);
  opsched_free(tie);
  if (st == OPSCHED_OK)
    st = opsched_streams_waits(g, s);
  if (st == OPSCHED_OK && m) {
    opsched_free(s->live_after);
    s->live_after = NULL;
    st = memory_figures(o, m, s);
  }
  if (st != OPSCHED_OK)
    return st;
  if (o->effort == 0)
    s->list_makespan = s->makespan;
  opsched_schedule_options one_o = *o;
  one_o.streams = 1;
  one_o.resource_limit = s->resource_limit; /* the same demands fit */
  one_o.handoff_ns = one_o.region_ns = 0;
  opsched_schedule *one = NULL;
  if ((st = opsched_schedule_run(g0, &one_o, &one)) != OPSCHED_OK)
    return st;
  if (one->limit_met > s->limit_met ||
      (one->limit_met == s->limit_met && one->makespan <= s->makespan)) {
    opsched_schedule_destroy(s);
    *sp = one;
  } else {
    opsched_schedule_destroy(one);
  }
  return OPSCHED_OK;
}

opsched_status opsched_schedule_run(const opsched_graph *g0,
                                    const opsched_schedule_options *o,
                                    opsched_schedule **out) {
  return opsched_schedule_run_memo(g0, o, NULL, out);
}

/* The run's stream count and capacity from valid options (OPSCHED_OK),
 * else why not. */
static opsched_status check_options(const opsched_graph *g0, const opsched_schedule_options *o,
                                    int32_t *streams_out, int32_t *cap_out) {
  if (!g0 || !o || !opsched_graph_is_finalized(g0))
    return OPSCHED_ERR_INVALID;
  int32_t streams = o->streams == 0 ? 1 : o->streams;
  int32_t cap = o->resource_limit == 0 ? streams : o->resource_limit;
  if (streams < 1 || cap < 1 || o->effort < 0 || o->handoff_ns < 0 || o->region_ns < 0 ||
      (o->priority != OPSCHED_PRIORITY_CRITICAL_PATH &&
       o->priority != OPSCHED_PRIORITY_PROGRAM_ORDER))
    return OPSCHED_ERR_INVALID;
  /* The cap, after the capacity (resource_limit 0 = the requested streams). */
  if (streams > OPSCHED_STREAMS_MAX)
    streams = OPSCHED_STREAMS_MAX;
  int32_t n = opsched_graph_num_nodes(g0);
  if (o->buffers &&
      (opsched_buffers_num_nodes(o->buffers) != n || o->max_memory < 0 ||
       o->exact_budget < 0 || (int)o->memory_policy < 0 ||
       o->memory_policy >= OPSCHED_MEMORY_POLICY_COUNT))
    return OPSCHED_ERR_INVALID;
  for (int32_t v = 0; v < n; v++)
    if (opsched_graph_demand(g0, v) > cap)
      return OPSCHED_ERR_INFEASIBLE;
  *streams_out = streams;
  *cap_out = cap;
  return OPSCHED_OK;
}

opsched_status opsched_schedule_one_stream_peak(const opsched_graph *g0,
                                                const opsched_schedule_options *o,
                                                opsched_schedule_memo *memo, int64_t *peak) {
  *peak = -1;
  int32_t streams = 0, cap = 0;
  opsched_status st = check_options(g0, o, &streams, &cap);
  if (st != OPSCHED_OK)
    return st;
  if (!memo || !o->buffers || streams != 1 || o->max_memory != 0 ||
      o->memory_policy == OPSCHED_MEMORY_CRITICAL_PATH) {
    opsched_schedule *s = NULL; /* not ordered_one_stream's case: the run */
    if ((st = opsched_schedule_run_memo(g0, o, memo, &s)) == OPSCHED_OK)
      *peak = s->peak_memory;
    opsched_schedule_destroy(s);
    return st;
  }
  /* ordered_one_stream's order, which is its schedule's (sequential
   * times, ties in that order), simulated as memory_figures does. */
  const mem_model *m;
  const opsched_graph *g;
  if ((st = memo_model(g0, o->buffers, memo, &m, &g)) != OPSCHED_OK)
    return st;
  opsched_memory_result *r = NULL;
  if ((st = memory_order(g, o, o->memory_policy, &memo->memory, &r)) != OPSCHED_OK)
    return st;
  int64_t p = mem_simulate(m, opsched_memory_result_order(r), NULL, NULL);
  opsched_memory_result_destroy(r);
  if (p < 0)
    return p == -2 ? OPSCHED_ERR_NOMEM : OPSCHED_ERR_STATE;
  *peak = p;
  return OPSCHED_OK;
}

/* opsched_schedule_run_memo, or with `lazy` opsched_schedule_run_times. */
static opsched_status run_memo(const opsched_graph *g0, const opsched_schedule_options *o,
                               opsched_schedule_memo *memo, int lazy,
                               opsched_schedule **out) {
  *out = NULL;
  int32_t streams = 0, cap = 0;
  opsched_status check = check_options(g0, o, &streams, &cap);
  if (check != OPSCHED_OK)
    return check;
  int32_t n = opsched_graph_num_nodes(g0);
  mem_model local;
  const mem_model *m = &local;
  opsched_graph *aug = NULL;
  const opsched_graph *g;
  int shared = memo && o->buffers;
  opsched_status st = shared ? memo_model(g0, o->buffers, memo, &m, &g)
                             : model_and_graph(g0, o->buffers, &local, &aug, &g);
  if (st != OPSCHED_OK)
    return st;
  st = OPSCHED_ERR_NOMEM;
  opsched_schedule *s = opsched_schedule_alloc(n);
  if (s) {
    s->streams = streams;
    s->resource_limit = cap;
    set_ranks(s, g, memo);
    s->memo = memo;
    lazy = lazy && shared && streams > 1 && o->handoff_ns == 0;
    st = o->buffers ? memory_pipeline(g, o, m, s, lazy) : plain_pipeline(g, o, s);
    s->memo = NULL; /* the memo belongs to the caller's search */
    if (st == OPSCHED_OK && streams > 1 && o->handoff_ns > 0)
      st = charge_streams(g0, g, o, o->buffers ? m : NULL, &s);
  }
  if (o->buffers && !shared) {
    mem_model_free(&local);
    opsched_graph_destroy(aug);
  }
  if (st != OPSCHED_OK) {
    opsched_schedule_destroy(s);
    return st;
  }
  *out = s;
  return OPSCHED_OK;
}

opsched_status opsched_schedule_run_memo(const opsched_graph *g0,
                                         const opsched_schedule_options *o,
                                         opsched_schedule_memo *memo, opsched_schedule **out) {
  return run_memo(g0, o, memo, 0, out);
}

opsched_status opsched_schedule_run_times(const opsched_graph *g0,
                                          const opsched_schedule_options *o,
                                          opsched_schedule_memo *memo, opsched_schedule **out) {
  return run_memo(g0, o, memo, 1, out);
}

opsched_status opsched_schedule_finish(const opsched_graph *g0,
                                       const opsched_schedule_options *o,
                                       opsched_schedule_memo *memo, opsched_schedule *s) {
  if (!s->pending)
    return OPSCHED_OK;
  const mem_model *m;
  const opsched_graph *g;
  opsched_status st = memo_model(g0, o->buffers, memo, &m, &g);
  if (st != OPSCHED_OK)
    return st;
  s->memo = memo;
  st = limited_finish(g, o, m, s);
  s->memo = NULL;
  if (st == OPSCHED_OK)
    s->pending = 0;
  return st;
}

opsched_status opsched_schedule_from_placement(const opsched_graph *g0,
                                               const opsched_buffers *buffers,
                                               const int64_t *starts, const int64_t *ends,
                                               const int32_t *stream_of, int32_t streams,
                                               opsched_schedule **out) {
  *out = NULL;
  if (!g0 || !opsched_graph_is_finalized(g0) || !starts || !ends || !stream_of ||
      streams < 1)
    return OPSCHED_ERR_INVALID;
  int32_t n = opsched_graph_num_nodes(g0);
  if (buffers && opsched_buffers_num_nodes(buffers) != n)
    return OPSCHED_ERR_INVALID;
  for (int32_t v = 0; v < n; v++)
    if (starts[v] < 0 || ends[v] < starts[v] || stream_of[v] < 0 || stream_of[v] >= streams)
      return OPSCHED_ERR_INVALID;
  mem_model m;
  opsched_graph *aug;
  const opsched_graph *g;
  opsched_status st = model_and_graph(g0, buffers, &m, &aug, &g);
  if (st != OPSCHED_OK)
    return st;
  st = OPSCHED_ERR_NOMEM;
  opsched_schedule *s = opsched_schedule_alloc(n);
  if (!s)
    goto done;
  s->streams = streams;
  s->resource_limit = streams;
  opsched_schedule_set_ranks(s, g);
  memcpy(s->start, starts, sizeof(int64_t) * (size_t)n);
  memcpy(s->end, ends, sizeof(int64_t) * (size_t)n);
  memcpy(s->stream, stream_of, sizeof(int32_t) * (size_t)n);
  /* Every dependency must be honoured in time. */
  st = OPSCHED_ERR_INVALID;
  for (int32_t u = 0; u < n; u++) {
    int32_t ns;
    const int32_t *succ = opsched_graph_succs(g, u, &ns);
    for (int32_t k = 0; k < ns; k++)
      if (s->end[u] > s->start[succ[k]])
        goto done;
  }
  st = opsched_schedule_sort_order(s, g);
  if (st != OPSCHED_OK)
    goto done;
  /* Ops of one stream must not overlap (zero-length ops may touch). */
  int64_t *stream_end = opsched_alloc_array((size_t)streams, sizeof *stream_end);
  if (!stream_end) {
    st = OPSCHED_ERR_NOMEM;
    goto done;
  }
  for (int32_t i = 0; i < n && st == OPSCHED_OK; i++) {
    int32_t v = s->order[i];
    if (s->start[v] < stream_end[s->stream[v]])
      st = OPSCHED_ERR_INVALID;
    stream_end[s->stream[v]] = s->end[v];
  }
  opsched_free(stream_end);
  if (st == OPSCHED_OK)
    st = opsched_streams_waits(g, s);
  s->list_makespan = s->makespan;
  if (st == OPSCHED_OK && buffers) {
    opsched_schedule_options o;
    opsched_schedule_options_init(&o);
    st = memory_figures(&o, &m, s);
  }
done:
  if (buffers) {
    mem_model_free(&m);
    opsched_graph_destroy(aug);
  }
  if (st != OPSCHED_OK) {
    opsched_schedule_destroy(s);
    return st;
  }
  *out = s;
  return OPSCHED_OK;
}

opsched_status opsched_schedule_from_starts(const opsched_graph *g0,
                                           const opsched_schedule_options *o,
                                           const int64_t *starts, opsched_schedule **out) {
  *out = NULL;
  if (!g0 || !o || !starts || !opsched_graph_is_finalized(g0))
    return OPSCHED_ERR_INVALID;
  int32_t n = opsched_graph_num_nodes(g0);
  int32_t streams = o->streams < 1 ? 1 : o->streams;
  streams = streams > OPSCHED_STREAMS_MAX ? OPSCHED_STREAMS_MAX : streams;
  if (o->buffers && opsched_buffers_num_nodes(o->buffers) != n)
    return OPSCHED_ERR_INVALID;
  for (int32_t v = 0; v < n; v++)
    if (starts[v] < 0)
      return OPSCHED_ERR_INVALID;
  mem_model m;
  opsched_graph *aug;
  const opsched_graph *g;
  opsched_status st = model_and_graph(g0, o->buffers, &m, &aug, &g);
  if (st != OPSCHED_OK)
    return st;
  st = OPSCHED_ERR_NOMEM;
  opsched_schedule *s = opsched_schedule_alloc(n);
  if (s) {
    s->streams = streams;
    s->resource_limit = o->resource_limit == 0 ? streams : o->resource_limit;
    opsched_schedule_set_ranks(s, g);
    for (int32_t v = 0; v < n; v++) {
      s->start[v] = starts[v];
      s->end[v] = opsched_sat_add(starts[v], opsched_graph_cost(g0, v));
    }
    st = opsched_schedule_sort_order(s, g);
    if (st == OPSCHED_OK)
      st = opsched_streams_assign(g, s);
    if (st == OPSCHED_OK)
      st = opsched_streams_waits(g, s);
    s->list_makespan = s->makespan;
    if (st == OPSCHED_OK && o->buffers)
      st = memory_figures(o, &m, s);
  }
  if (o->buffers) {
    mem_model_free(&m);
    opsched_graph_destroy(aug);
  }
  if (st != OPSCHED_OK) {
    opsched_schedule_destroy(s);
    return st;
  }
  *out = s;
  return OPSCHED_OK;
}
