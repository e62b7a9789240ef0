#include "opsched/schedule.h"

#include "alloc.h"
#include "heap.h"
#include "saturate.h"
#include "schedule_internal.h"

#include <stdlib.h>
#include <string.h>

void opsched_schedule_options_init(opsched_schedule_options *o) {
  memset(o, 0, sizeof *o);
  o->priority = OPSCHED_PRIORITY_CRITICAL_PATH;
  o->streams = 1;
}

opsched_schedule *opsched_schedule_alloc(int32_t n) {
  opsched_schedule *s = opsched_alloc_array(1, sizeof *s);
  if (!s)
    return NULL;
  s->n = n;
  s->order = opsched_alloc_array((size_t)n, sizeof *s->order);
  s->start = opsched_alloc_array((size_t)n, sizeof *s->start);
  s->end = opsched_alloc_array((size_t)n, sizeof *s->end);
  s->stream = opsched_alloc_array((size_t)n, sizeof *s->stream);
  s->rank = opsched_alloc_array((size_t)n, sizeof *s->rank);
  s->critical = opsched_alloc_array((size_t)n, sizeof *s->critical);
  if (!s->order || !s->start || !s->end || !s->stream || !s->rank || !s->critical) {
    opsched_schedule_destroy(s);
    return NULL;
  }
  return s;
}

void opsched_schedule_destroy(opsched_schedule *s) {
  if (!s)
    return;
  opsched_free(s->order);
  opsched_free(s->start);
  opsched_free(s->end);
  opsched_free(s->stream);
  opsched_free(s->rank);
  opsched_free(s->critical);
  opsched_free(s->wait_off);
  opsched_free(s->wait_ids);
  opsched_free(s);
}

void opsched_schedule_set_ranks(opsched_schedule *s, const opsched_graph *g) {
  int32_t n = s->n;
  opsched_graph_upward_ranks(g, s->rank);
  /* Reuse `start` as scratch for downward ranks; callers fill it after. */
  opsched_graph_downward_ranks(g, s->start);
  int64_t cp = 0, work = 0;
  for (int32_t v = 0; v < n; v++) {
    if (s->rank[v] > cp)
      cp = s->rank[v];
    work = opsched_sat_add(work, opsched_graph_cost(g, v));
  }
  for (int32_t v = 0; v < n; v++)
    s->critical[v] = opsched_sat_add(s->rank[v], s->start[v]) == cp;
  memset(s->start, 0, sizeof(int64_t) * (size_t)n);
  s->critical_path = cp;
  s->total_work = work;
}

/* qsort context is not portable in C11; sort (key, index) records instead. */
typedef struct order_rec {
  int64_t start, end;
  int32_t stream, topo, id;
} order_rec;

static int cmp_rec(const void *pa, const void *pb) {
  const order_rec *a = pa, *b = pb;
  if (a->start != b->start)
    return a->start < b->start ? -1 : 1;
  if (a->end != b->end)
    return a->end < b->end ? -1 : 1;
  if (a->topo != b->topo)
    return a->topo < b->topo ? -1 : 1;
  return 0;
}

opsched_status opsched_schedule_sort_order(opsched_schedule *s,
                                           const opsched_graph *g) {
  int32_t n = s->n;
  order_rec *rec = opsched_alloc_array((size_t)n, sizeof *rec);
  int32_t *topo = opsched_alloc_array((size_t)n, sizeof *topo);
  if (!rec || !topo) {
    opsched_free(rec);
    opsched_free(topo);
    return OPSCHED_ERR_NOMEM;
  }
  opsched_graph_topo_order(g, topo);
  for (int32_t i = 0; i < n; i++)
    rec[topo[i]].topo = i;
  s->makespan = 0;
  for (int32_t v = 0; v < n; v++) {
    rec[v].start = s->start[v];
    rec[v].end = s->end[v];
    rec[v].stream = s->stream[v];
    rec[v].id = v;
    if (s->end[v] > s->makespan)
      s->makespan = s->end[v];
  }
  /* Sorting by (start, end, topological position) is itself topological: a
   * successor never starts before its predecessor ends, and equal starts
   * and ends only happen between zero-duration ops. */
  qsort(rec, (size_t)n, sizeof *rec, cmp_rec);
  for (int32_t i = 0; i < n; i++)
    s->order[i] = rec[i].id;
  opsched_free(rec);
  opsched_free(topo);
  return OPSCHED_OK;
}

/* Event-driven list scheduling (Graham): at each instant, start ready ops in
 * priority order while a stream is free and their demand fits the remaining
 * capacity; then advance to the next finish. */
static opsched_status list_schedule(const opsched_graph *g,
                                    const opsched_schedule_options *o,
                                    opsched_schedule *s) {
  int32_t n = s->n, streams = s->streams, cap = s->resource_limit;
  opsched_status st = OPSCHED_ERR_NOMEM;
  int64_t *prio = opsched_alloc_array((size_t)n, sizeof *prio);
  int32_t *ready_ids = opsched_alloc_array((size_t)n, sizeof *ready_ids);
  int32_t *run_ids = opsched_alloc_array((size_t)n, sizeof *run_ids);
  int32_t *aside = opsched_alloc_array((size_t)n, sizeof *aside);
  int32_t *missing = opsched_alloc_array((size_t)n, sizeof *missing);
  uint8_t *busy = opsched_alloc_array((size_t)streams, sizeof *busy);
  if (!prio || !ready_ids || !run_ids || !aside || !missing || !busy)
    goto done;

  for (int32_t v = 0; v < n; v++) {
    prio[v] = o->priority == OPSCHED_PRIORITY_PROGRAM_ORDER ? v : -s->rank[v];
    opsched_graph_preds(g, v, &missing[v]);
  }
  opsched_heap ready, running;
  opsched_heap_init(&ready, ready_ids, prio);
  opsched_heap_init(&running, run_ids, s->end); /* keyed by end time */
  for (int32_t v = 0; v < n; v++)
    if (missing[v] == 0)
      opsched_heap_push(&ready, v);

  int64_t now = 0;
  int32_t free_cap = cap, free_streams = streams, done_count = 0;
  while (done_count < n) {
    /* Start what fits, best priority first. */
    int32_t naside = 0;
    while (ready.size > 0 && free_streams > 0 && free_cap > 0) {
      int32_t v = opsched_heap_pop(&ready);
      int32_t d = opsched_graph_demand(g, v);
      if (d > free_cap) {
        aside[naside++] = v;
        continue;
      }
      int32_t k = 0;
      while (busy[k])
        k++;
      busy[k] = 1;
      s->stream[v] = k;
      s->start[v] = now;
      s->end[v] = opsched_sat_add(now, opsched_graph_cost(g, v));
      free_cap -= d;
      free_streams--;
      opsched_heap_push(&running, v);
    }
    for (int32_t i = 0; i < naside; i++)
      opsched_heap_push(&ready, aside[i]);
    if (running.size == 0) {
      st = OPSCHED_ERR_INFEASIBLE; /* nothing runs, nothing fits */
      goto done;
    }
    /* Retire everything that finishes at the next finish time. */
    now = s->end[running.ids[0]];
    while (running.size > 0 && s->end[running.ids[0]] == now) {
      int32_t u = opsched_heap_pop(&running);
      busy[s->stream[u]] = 0;
      free_cap += opsched_graph_demand(g, u);
      free_streams++;
      done_count++;
      int32_t ns;
      const int32_t *succ = opsched_graph_succs(g, u, &ns);
      for (int32_t k = 0; k < ns; k++)
        if (--missing[succ[k]] == 0)
          opsched_heap_push(&ready, succ[k]);
    }
  }
  st = OPSCHED_OK;
done:
  opsched_free(prio);
  opsched_free(ready_ids);
  opsched_free(run_ids);
  opsched_free(aside);
  opsched_free(missing);
  opsched_free(busy);
  return st;
}

opsched_status opsched_schedule_run(const opsched_graph *g,
                                    const opsched_schedule_options *o,
                                    opsched_schedule **out) {
  *out = NULL;
  if (!g || !o || !opsched_graph_is_finalized(g))
    return OPSCHED_ERR_INVALID;
  int32_t streams = o->streams == 0 ? 1 : o->streams;
  int32_t cap = o->resource_limit == 0 ? streams : o->resource_limit;
  if (streams < 1 || cap < 1 || o->effort < 0 ||
      (o->priority != OPSCHED_PRIORITY_CRITICAL_PATH &&
       o->priority != OPSCHED_PRIORITY_PROGRAM_ORDER))
    return OPSCHED_ERR_INVALID;
  int32_t n = opsched_graph_num_nodes(g);
  for (int32_t v = 0; v < n; v++)
    if (opsched_graph_demand(g, v) > cap)
      return OPSCHED_ERR_INFEASIBLE;
  opsched_schedule *s = opsched_schedule_alloc(n);
  if (!s)
    return OPSCHED_ERR_NOMEM;
  s->streams = streams;
  s->resource_limit = cap;
  opsched_schedule_set_ranks(s, g);
  opsched_status st = list_schedule(g, o, s);
  /* One stream without effort keeps the plain rank-ordered list. Otherwise
   * the list schedule competes with HEFT insertion, then local search may
   * shorten the winner; streams are named last, from the final times. */
  int multi = streams > 1 || o->effort > 0;
  int heft_won = 0;
  if (st == OPSCHED_OK && multi)
    st = opsched_streams_heft(g, o, s, &heft_won);
  if (st == OPSCHED_OK) {
    s->list_makespan = 0;
    for (int32_t v = 0; v < n; v++)
      if (s->end[v] > s->list_makespan)
        s->list_makespan = s->end[v];
  }
  if (st == OPSCHED_OK && o->effort > 0)
    st = opsched_streams_improve(g, s, o->effort);
  if (st == OPSCHED_OK)
    st = opsched_schedule_sort_order(s, g);
  if (st == OPSCHED_OK && multi)
    st = opsched_streams_assign(g, s);
  if (st == OPSCHED_OK)
    st = opsched_streams_waits(g, s);
  if (st != OPSCHED_OK) {
    opsched_schedule_destroy(s);
    return st;
  }
  *out = s;
  return OPSCHED_OK;
}

int32_t opsched_schedule_num_nodes(const opsched_schedule *s) { return s->n; }
const int32_t *opsched_schedule_order(const opsched_schedule *s) { return s->order; }
const int64_t *opsched_schedule_starts(const opsched_schedule *s) { return s->start; }
const int64_t *opsched_schedule_ends(const opsched_schedule *s) { return s->end; }
const int32_t *opsched_schedule_streams(const opsched_schedule *s) { return s->stream; }
const int64_t *opsched_schedule_ranks(const opsched_schedule *s) { return s->rank; }
const uint8_t *opsched_schedule_critical(const opsched_schedule *s) { return s->critical; }
int64_t opsched_schedule_makespan(const opsched_schedule *s) { return s->makespan; }
int64_t opsched_schedule_critical_path(const opsched_schedule *s) { return s->critical_path; }
int64_t opsched_schedule_total_work(const opsched_schedule *s) { return s->total_work; }
int32_t opsched_schedule_stream_count(const opsched_schedule *s) { return s->streams; }
int32_t opsched_schedule_resource_limit(const opsched_schedule *s) { return s->resource_limit; }
int64_t opsched_schedule_list_makespan(const opsched_schedule *s) { return s->list_makespan; }
int64_t opsched_schedule_num_waits(const opsched_schedule *s) { return s->num_waits; }

int64_t opsched_schedule_num_waits_unreduced(const opsched_schedule *s) {
  return s->num_waits_unreduced;
}

const int32_t *opsched_schedule_waits(const opsched_schedule *s, int32_t node,
                                      int32_t *count) {
  *count = (int32_t)(s->wait_off[node + 1] - s->wait_off[node]);
  return s->wait_ids + s->wait_off[node];
}

double opsched_schedule_speedup(const opsched_schedule *s) {
  if (s->makespan <= 0)
    return 1.0;
  return (double)s->total_work / (double)s->makespan;
}

int64_t opsched_schedule_lower_bound(const opsched_schedule *s) {
  int64_t per = s->total_work / s->streams + (s->total_work % s->streams != 0);
  return per > s->critical_path ? per : s->critical_path;
}
