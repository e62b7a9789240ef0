/* The schedule object: allocation, ranks, the sequential order from times,
 * and the accessors. The base every scheduler builds on
 * (schedule_object.h). */
#include "opsched/schedule.h"

#include "alloc.h"
#include "saturate.h"
#include "schedule_object.h"

#include <stdlib.h>
#include <string.h>

void opsched_schedule_options_init(opsched_schedule_options *o) {
  memset(o, 0, sizeof *o);
  o->priority = OPSCHED_PRIORITY_CRITICAL_PATH;
  o->streams = 1;
  o->buffers = NULL;
  o->max_memory = 0;
  o->memory_policy = OPSCHED_MEMORY_CRITICAL_PATH;
  o->exact_budget = 0;
}

int64_t opsched_effort_share(int32_t effort, int64_t block_ops, int64_t function_ops) {
  return opsched_effort_share_among(effort, block_ops, function_ops, 1);
}

int64_t opsched_effort_share_among(int32_t effort, int64_t block_ops, int64_t function_ops,
                                   int64_t functions) {
  if (effort <= 0)
    return 0;
  int64_t whole = opsched_sat_mul(effort, OPSCHED_EFFORT_UNIT);
  if (functions < 1)
    functions = 1;
  if (block_ops <= 0 || (function_ops <= block_ops && functions == 1))
    return whole;
  if (function_ops < block_ops)
    function_ops = block_ops;
  /* whole * block_ops / function_ops / functions without overflow: whole
   * < 2^47. */
  int64_t part = (int64_t)((double)whole * ((double)block_ops / (double)function_ops) /
                           (double)functions);
  int64_t floor_ops = opsched_sat_mul(opsched_sat_mul(effort, OPSCHED_EFFORT_PER_OP), block_ops);
  int64_t share = part > floor_ops ? part : floor_ops;
  return share < whole ? (share > 0 ? share : 1) : whole;
}

int64_t opsched_effort_functions_cap(int64_t function_ops) {
  /* From UNIT / (PER_OP * function_ops) functions on, a block's part is at
   * most its floor (part <= UNIT * block_ops / (function_ops * functions)). */
  int64_t ops = function_ops > 0 ? function_ops : 1;
  return OPSCHED_EFFORT_UNIT / OPSCHED_EFFORT_PER_OP / ops + 1;
}

int64_t opsched_effort_placements(const opsched_schedule_options *o) {
  if (o->effort <= 0)
    return 0;
  return o->effort_placements > 0 ? o->effort_placements
                                   : opsched_sat_mul(o->effort, OPSCHED_EFFORT_UNIT);
}

opsched_schedule *opsched_schedule_alloc(int32_t n) {
  opsched_schedule *s = opsched_alloc_array(1, sizeof *s);
  if (!s)
    return NULL;
  s->n = n;
  s->peak_memory = s->original_peak_memory = s->resident_bytes = -1;
  s->limit_met = 1;
  /* One zeroed block for the six arrays (the 64-bit ones first, for their
   * alignment): a block's search makes a schedule per run, and on the many
   * small blocks of loop bodies and branches the allocations were a large
   * part of its time (round 24). `start` owns the block. */
  size_t un = n > 0 ? (size_t)n : 0;
  char *block = opsched_alloc_array(un, 3 * sizeof(int64_t) + 2 * sizeof(int32_t) + 1);
  if (!block) {
    opsched_free(s);
    return NULL;
  }
  s->start = (int64_t *)block;
  s->end = s->start + un;
  s->rank = s->end + un;
  s->order = (int32_t *)(s->rank + un);
  s->stream = s->order + un;
  s->critical = (uint8_t *)(s->stream + un);
  return s;
}

void opsched_schedule_destroy(opsched_schedule *s) {
  if (!s)
    return;
  opsched_free(s->start); /* the six arrays' block */
  opsched_free(s->wait_off);
  opsched_free(s->wait_ids);
  opsched_free(s->sync_off);
  opsched_free(s->sync_ids);
  opsched_free(s->live_after);
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


/* The id last: every key is distinct, so any correct sort gives one order,
 * the stable sort's from id order. */
static int rec_less(const opsched_order_rec *a, const opsched_order_rec *b) {
  if (a->start != b->start)
    return a->start < b->start;
  if (a->end != b->end)
    return a->end < b->end;
  if (a->topo != b->topo)
    return a->topo < b->topo;
  return a->id < b->id;
}

enum { REC_RUN = 16 };

/* Merge sort of rec[0, n), tmp of n records as scratch; the result is in
 * rec. No call per comparison, unlike qsort. */
static void merge_sort_recs(opsched_order_rec *rec, opsched_order_rec *tmp, int32_t n) {
  for (int32_t lo = 0; lo < n; lo += REC_RUN) {
    int32_t hi = lo + REC_RUN < n ? lo + REC_RUN : n;
    for (int32_t i = lo + 1; i < hi; i++) {
      opsched_order_rec x = rec[i];
      int32_t j = i;
      for (; j > lo && rec_less(&x, &rec[j - 1]); j--)
        rec[j] = rec[j - 1];
      rec[j] = x;
    }
  }
  opsched_order_rec *src = rec, *dst = tmp;
  for (int32_t w = REC_RUN; w < n; w *= 2) {
    for (int32_t lo = 0; lo < n; lo += 2 * w) {
      int32_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      int32_t a = lo, b = mid, k = lo;
      while (a < mid && b < hi)
        dst[k++] = rec_less(&src[b], &src[a]) ? src[b++] : src[a++];
      while (a < mid)
        dst[k++] = src[a++];
      while (b < hi)
        dst[k++] = src[b++];
    }
    opsched_order_rec *t = src;
    src = dst;
    dst = t;
  }
  if (src != rec)
    memcpy(rec, src, sizeof *rec * (size_t)n);
}

/* Sorts rec[0, n): insertion while the records are nearly in order (a
 * list schedule's start order: only ops started at one instant out of
 * place), else the merge sort. Returns the number of insertion moves
 * spent (for the tests). */
int64_t opsched_sort_order_recs(opsched_order_rec *rec, opsched_order_rec *tmp, int32_t n) {
  int64_t moves = 0, budget = 8 * (int64_t)n + 64;
  for (int32_t i = 1; i < n; i++) {
    if (!rec_less(&rec[i], &rec[i - 1]))
      continue;
    opsched_order_rec x = rec[i];
    int32_t j = i;
    for (; j > 0 && rec_less(&x, &rec[j - 1]); j--)
      rec[j] = rec[j - 1];
    rec[j] = x;
    moves += i - j;
    if (moves > budget) {
      merge_sort_recs(rec, tmp, n);
      return moves;
    }
  }
  return moves;
}

int64_t opsched_sort_order_runs(opsched_order_rec *rec, opsched_order_rec *tmp, int32_t n) {
  for (int32_t i = 1; i < n; i++)
    if (rec[i].start < rec[i - 1].start)
      return opsched_sort_order_recs(rec, tmp, n);
  int64_t moves = 0;
  for (int32_t lo = 0, hi; lo < n; lo = hi) {
    for (hi = lo + 1; hi < n && rec[hi].start == rec[lo].start; hi++)
      ;
    if (hi - lo > 1)
      moves += opsched_sort_order_recs(rec + lo, tmp, hi - lo);
  }
  return moves;
}

opsched_status opsched_schedule_sort_order(opsched_schedule *s,
                                           const opsched_graph *g) {
  return opsched_schedule_sort_order_by(s, g, NULL);
}

opsched_status opsched_schedule_sort_order_by(opsched_schedule *s,
                                              const opsched_graph *g,
                                              const int32_t *tie) {
  return opsched_schedule_sort_order_hint(s, g, tie, NULL);
}

opsched_status opsched_schedule_sort_order_hint(opsched_schedule *s, const opsched_graph *g,
                                                const int32_t *tie, const int32_t *hint) {
  int32_t n = s->n;
  /* One allocation: the records, then the sort's scratch (the topological
   * positions use the scratch before the sort). */
  opsched_order_rec *rec = opsched_alloc_array_raw(2 * (size_t)n + 1, sizeof *rec);
  if (!rec)
    return OPSCHED_ERR_NOMEM;
  opsched_order_rec *tmp = rec + n;
  int32_t *topo = (int32_t *)(void *)tmp;
  if (tie) {
    memcpy(topo, tie, sizeof *topo * (size_t)n);
  } else {
    int32_t *order = topo + n; /* tmp holds 2n int32 and more */
    opsched_graph_topo_order(g, order);
    for (int32_t i = 0; i < n; i++)
      topo[order[i]] = i;
  }
  s->makespan = 0;
  for (int32_t i = 0; i < n; i++) {
    int32_t v = hint ? hint[i] : i;
    rec[i].start = s->start[v];
    rec[i].end = s->end[v];
    rec[i].stream = s->stream[v];
    rec[i].topo = topo[v];
    rec[i].id = v;
    if (s->end[v] > s->makespan)
      s->makespan = s->end[v];
  }
  /* Sorting by (start, end, topological position) is itself topological: a
   * successor never starts before its predecessor ends, and equal starts
   * and ends only happen between zero-duration ops. */
  opsched_sort_order_runs(rec, tmp, n);
  for (int32_t i = 0; i < n; i++)
    s->order[i] = rec[i].id;
  opsched_free(rec);
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

int64_t opsched_schedule_peak_memory(const opsched_schedule *s) { return s->peak_memory; }
int64_t opsched_schedule_original_peak_memory(const opsched_schedule *s) {
  return s->original_peak_memory;
}
int64_t opsched_schedule_resident_bytes(const opsched_schedule *s) { return s->resident_bytes; }
const int64_t *opsched_schedule_live_after(const opsched_schedule *s) { return s->live_after; }
int opsched_schedule_memory_limit_met(const opsched_schedule *s) { return s->limit_met; }
const char *opsched_schedule_memory_winner(const opsched_schedule *s) { return s->memory_winner; }
int opsched_schedule_memory_exact_proven(const opsched_schedule *s) { return s->exact_proven; }

static int lane_less(const void *ctx, int32_t a, int32_t b) {
  (void)ctx;
  return a < b;
}

int32_t opsched_lanes_usable(int32_t streams, int32_t n) {
  int32_t k = streams < n ? streams : n;
  return k > 1 ? k : 1;
}

int opsched_lanes_init(opsched_lanes *l, int32_t streams, int32_t n) {
  int32_t cap = opsched_lanes_usable(streams, n);
  l->fresh = 0;
  l->bits = 0;
  l->small = cap <= 64;
  int32_t *ids = l->small ? NULL : opsched_alloc_array((size_t)cap, sizeof *ids);
  opsched_heap_init_less(&l->released, ids, lane_less, NULL);
  return l->small || ids ? 0 : -1;
}

void opsched_lanes_free(opsched_lanes *l) {
  opsched_free(l->released.ids);
  l->released.ids = NULL;
}

int32_t opsched_lanes_take(opsched_lanes *l) {
  if (l->small && l->bits) { /* the lowest lane given back, below fresh */
    int32_t lane = (int32_t)__builtin_ctzll(l->bits);
    l->bits &= l->bits - 1;
    return lane;
  }
  if (l->released.size > 0)
    return opsched_heap_pop(&l->released); /* below fresh, so lowest */
  return l->fresh++;
}

void opsched_lanes_give(opsched_lanes *l, int32_t lane) {
  if (l->small) {
    l->bits |= (uint64_t)1 << lane;
    return;
  }
  (void)opsched_heap_push(&l->released, lane);
}
