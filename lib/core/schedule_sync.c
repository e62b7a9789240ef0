/* Stream names from times, the cross-stream waits (exact transitive
 * reduction) and extra synchronisation edges: the part of the schedule
 * object that every scheduler finishes with (schedule_sync.h). */
#include "opsched/schedule.h"

#include "alloc.h"
#include "heap.h"
#include "memory_model.h"
#include "schedule_object.h"
#include "schedule_sync.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------- */
/* Stream names and waits.                                                 */

/* Idle streams as a segment tree of idle counts: the lowest idle stream,
 * and any stream taken or released, in O(log S). */
typedef struct idle_set {
  int32_t *cnt; /* 2 * size */
  int32_t size;
} idle_set;

static int idle_init(idle_set *t, int32_t S) {
  t->size = 1;
  while (t->size < S)
    t->size *= 2;
  t->cnt = opsched_alloc_array((size_t)t->size * 2, sizeof *t->cnt);
  if (!t->cnt)
    return -1;
  for (int32_t k = 0; k < S; k++)
    t->cnt[t->size + k] = 1;
  for (int32_t i = t->size - 1; i > 0; i--)
    t->cnt[i] = t->cnt[2 * i] + t->cnt[2 * i + 1];
  return 0;
}

static void idle_set_to(idle_set *t, int32_t k, int32_t on) {
  int32_t i = t->size + k, d = on - t->cnt[i];
  for (; i > 0; i /= 2)
    t->cnt[i] += d;
}

static int idle_has(const idle_set *t, int32_t k) { return t->cnt[t->size + k] != 0; }

/* The lowest idle stream, or -1. */
static int32_t idle_lowest(const idle_set *t) {
  if (t->cnt[1] == 0)
    return -1;
  int32_t i = 1;
  while (i < t->size)
    i = t->cnt[2 * i] ? 2 * i : 2 * i + 1;
  return i - t->size;
}

/* The predecessors' stream held by most of them among the idle ones (ties
 * to the lower stream), -1 when none is idle; `held` is all zero before
 * and after. */
static int32_t affine_stream(const opsched_schedule *s, const int32_t *pred, int32_t np,
                             int32_t *held, const idle_set *idle, uint64_t idle_bits) {
  for (int32_t k = 0; k < np; k++)
    held[s->stream[pred[k]]]++;
  int32_t pick = -1;
  for (int32_t k = 0; k < np; k++) {
    int32_t q = s->stream[pred[k]];
    int is_idle = idle ? idle_has(idle, q) : (int)(idle_bits >> q & 1);
    if (is_idle && (pick < 0 || held[q] > held[pick] || (held[q] == held[pick] && q < pick)))
      pick = q;
  }
  for (int32_t k = 0; k < np; k++)
    held[s->stream[pred[k]]] = 0;
  return pick;
}

/* opsched_streams_assign on at most 64 streams: the idle ones a bit mask,
 * a stream turning idle once the start reaches its last end (the heap's
 * pops: the set is the same, whatever the order they come in), found by a
 * scan of the busy ones when the start reaches the earliest of their ends. */
static opsched_status assign_few(const opsched_graph *g, opsched_schedule *s, int32_t S) {
  int64_t last_end[64];
  int32_t held[64] = {0};
  uint64_t all = S == 64 ? ~(uint64_t)0 : ((uint64_t)1 << S) - 1, idle = all;
  int64_t next = INT64_MAX; /* the earliest end among the busy streams */
  for (int32_t i = 0; i < s->n; i++) {
    int32_t v = s->order[i], np;
    int64_t t = s->start[v];
    if (i > 0 && t < s->start[s->order[i - 1]])
      return OPSCHED_ERR_STATE; /* not sorted by start */
    if (next <= t) {
      next = INT64_MAX;
      for (uint64_t busy = ~idle & all; busy; busy &= busy - 1) {
        int32_t k = __builtin_ctzll(busy);
        if (last_end[k] <= t)
          idle |= (uint64_t)1 << k;
        else if (last_end[k] < next)
          next = last_end[k];
      }
    }
    const int32_t *pred = opsched_graph_preds(g, v, &np);
    int32_t pick = affine_stream(s, pred, np, held, NULL, idle);
    if (pick < 0) {
      if (!idle)
        return OPSCHED_ERR_STATE;
      pick = __builtin_ctzll(idle);
    }
    s->stream[v] = pick;
    last_end[pick] = s->end[v];
    idle &= ~((uint64_t)1 << pick);
    if (s->end[v] < next)
      next = s->end[v];
  }
  return OPSCHED_OK;
}

/* Ops go in s->order, which sorts by start time, so a stream idle at one
 * op's start stays idle for the next: busy streams wait in a heap keyed by
 * their last end and turn idle once the start reaches it. Each op takes
 * the idle stream holding most of its predecessors (only their streams
 * can hold any), else the lowest idle one. O((n + edges) log S). */
opsched_status opsched_streams_assign(const opsched_graph *g,
                                      opsched_schedule *s) {
  int32_t n = s->n, S = opsched_lanes_usable(s->streams, n);
  if (S <= 64)
    return assign_few(g, s, S);
  int64_t *last_end = opsched_alloc_array((size_t)S, sizeof *last_end);
  int32_t *held = opsched_alloc_array((size_t)S, sizeof *held);
  int32_t *busy_ids = opsched_alloc_array((size_t)S, sizeof *busy_ids);
  idle_set idle = {0};
  opsched_status st = OPSCHED_ERR_NOMEM;
  if (!last_end || !held || !busy_ids || idle_init(&idle, S) != 0)
    goto done;
  opsched_heap busy;
  opsched_heap_init(&busy, busy_ids, last_end);
  st = OPSCHED_OK;
  for (int32_t i = 0; i < n && st == OPSCHED_OK; i++) {
    int32_t v = s->order[i], np;
    if (i > 0 && s->start[v] < s->start[s->order[i - 1]]) {
      st = OPSCHED_ERR_STATE; /* not sorted by start */
      break;
    }
    while (busy.size > 0 && last_end[busy.ids[0]] <= s->start[v])
      idle_set_to(&idle, opsched_heap_pop(&busy), 1);
    const int32_t *pred = opsched_graph_preds(g, v, &np);
    /* Predecessors come earlier in the order, so their streams are known. */
    int32_t pick = affine_stream(s, pred, np, held, &idle, 0);
    if (pick < 0 && (pick = idle_lowest(&idle)) < 0) {
      st = OPSCHED_ERR_STATE;
      break;
    }
    s->stream[v] = pick;
    last_end[pick] = s->end[v];
    idle_set_to(&idle, pick, 0);
    (void)opsched_heap_push(&busy, pick);
  }
done:
  opsched_free(last_end);
  opsched_free(held);
  opsched_free(busy_ids);
  opsched_free(idle.cnt);
  return st;
}

/* Ops ahead in the order whose entries the waits prefetch. */
#define WAIT_AHEAD 8

/* Per op, what the waits read of a producer, together (one cache line):
 * its stream, its 1-based place on it, and its sequential position (the
 * row of its clock). */
typedef struct wait_op {
  int32_t stream, pos, seq;
} wait_op;

/* The undominated latest producers of one op (cand: their streams, nc of
 * them; latest: per stream, the latest producer) appended to buf at *used:
 * kept unless the stream predecessor (row, the op's clock so far) or
 * another candidate already completes after it; happens-before is a
 * partial order, so they are the unique minimal wait set. */
static void keep_undominated(const wait_op *op, const int32_t *clock, int32_t S,
                             const int32_t *row, const int32_t *cand, int32_t nc,
                             const int32_t *latest, int32_t *buf, int64_t *used) {
  for (int32_t a = 0; a < nc; a++) {
    int32_t u = latest[cand[a]], su = cand[a];
    int implied = row[su] >= op[u].pos;
    for (int32_t b = 0; b < nc && !implied; b++)
      if (b != a &&
          clock[(size_t)op[latest[cand[b]]].seq * (size_t)S + (size_t)su] >= op[u].pos)
        implied = 1;
    if (!implied)
      buf[(*used)++] = u;
  }
}

opsched_status opsched_streams_waits(const opsched_graph *g,
                                     opsched_schedule *s) {
  /* Clocks only for the streams in use (at most min(streams, n)): the
   * memory is n * that, whatever the streams option says. */
  int32_t n = s->n, S = 1;
  for (int32_t v = 0; v < n; v++)
    if (s->stream[v] >= S)
      S = s->stream[v] + 1;
  opsched_free(s->wait_off);
  opsched_free(s->wait_ids);
  s->wait_ids = NULL;
  s->num_waits = s->num_waits_unreduced = 0;
  s->wait_off = opsched_alloc_array((size_t)n + 1, sizeof *s->wait_off);
  /* The producers (dependencies and syncs): a bound on the waits kept. */
  int64_t bound = s->sync_off ? s->sync_off[n] - s->sync_off[0] : 0;
  for (int32_t v = 0; v < n; v++) {
    int32_t np;
    (void)opsched_graph_preds(g, v, &np);
    bound += np;
  }
  opsched_status st = OPSCHED_ERR_NOMEM;
  /* clock + i*S: how many ops of each stream are known complete when the
   * op at sequential position i completes (its vector clock), rows in
   * launch order. Not zero-filled: a row is its stream predecessor's copy
   * or set to zero below; op's pos and seq, first, cnt and buf are
   * written before they are read. */
  int32_t *clock = opsched_alloc_array_raw((size_t)n * (size_t)S, sizeof *clock);
  wait_op *op = opsched_alloc_array_raw((size_t)n, sizeof *op);
  int32_t *last_on = opsched_alloc_array((size_t)S, sizeof *last_on);
  int32_t *placed = opsched_alloc_array((size_t)S, sizeof *placed);
  int32_t *latest = opsched_alloc_array((size_t)S, sizeof *latest);
  int32_t *cand = opsched_alloc_array((size_t)S, sizeof *cand);
  int32_t *buf = opsched_alloc_array_raw((size_t)bound, sizeof *buf);
  int64_t *first = opsched_alloc_array_raw((size_t)n, sizeof *first);
  int32_t *cnt = opsched_alloc_array_raw((size_t)n, sizeof *cnt);
  if (!s->wait_off || !clock || !op || !last_on || !placed || !latest || !cand ||
      !buf || !first || !cnt)
    goto done;
  for (int32_t k = 0; k < S; k++)
    last_on[k] = latest[k] = -1;
  for (int32_t v = 0; v < n; v++)
    op[v].stream = s->stream[v];
  int64_t used = 0, cross = 0;
  for (int32_t i = 0; i < n; i++) {
    if (i + WAIT_AHEAD < n) { /* the entries a later op reads: random */
      int32_t w = s->order[i + WAIT_AHEAD], nw;
      const int32_t *pw = opsched_graph_preds(g, w, &nw);
      __builtin_prefetch(&op[w]);
      for (int32_t e = 0; e < nw; e++)
        __builtin_prefetch(&op[pw[e]]);
    }
    int32_t v = s->order[i], k = op[v].stream, prev = last_on[k], np, nc = 0;
    int32_t *row = clock + (size_t)i * (size_t)S;
    if (prev >= 0)
      memcpy(row, clock + (size_t)prev * (size_t)S, sizeof *row * (size_t)S);
    else
      memset(row, 0, sizeof *row * (size_t)S);
    op[v].pos = ++placed[k];
    op[v].seq = i;
    /* Per other stream only the latest producer can matter: it completes
     * after every earlier op of its stream. */
    const int32_t *pred = opsched_graph_preds(g, v, &np);
    /* Dependencies, then the syncs added for buffer reuse. */
    int64_t ns = s->sync_off ? s->sync_off[v + 1] - s->sync_off[v] : 0;
    for (int64_t e = 0; e < np + ns; e++) {
      int32_t u = e < np ? pred[e] : s->sync_ids[s->sync_off[v] + e - np];
      int32_t su = op[u].stream;
      if (su == k)
        continue;
      cross += e < np;
      if (latest[su] < 0)
        cand[nc++] = su;
      if (latest[su] < 0 || op[u].pos > op[latest[su]].pos)
        latest[su] = u;
    }
    /* The tests must see only the stream predecessor's clock. */
    first[v] = used;
    keep_undominated(op, clock, S, row, cand, nc, latest, buf, &used);
    cnt[v] = (int32_t)(used - first[v]);
    /* Merge the kept producers' clocks. */
    for (int64_t w = first[v]; w < used; w++) {
      const int32_t *src = clock + (size_t)op[buf[w]].seq * (size_t)S;
      for (int32_t q = 0; q < S; q++)
        if (src[q] > row[q])
          row[q] = src[q];
    }
    row[k] = op[v].pos;
    for (int32_t a = 0; a < nc; a++)
      latest[cand[a]] = -1;
    last_on[k] = i;
    /* Sort this op's waits by id (at most streams - 1 of them). */
    for (int64_t a = first[v] + 1; a < used; a++) {
      int32_t x = buf[a];
      int64_t b = a;
      for (; b > first[v] && buf[b - 1] > x; b--)
        buf[b] = buf[b - 1];
      buf[b] = x;
    }
  }
  s->num_waits_unreduced = cross;
  s->wait_ids = opsched_alloc_array((size_t)used, sizeof *s->wait_ids);
  if (!s->wait_ids)
    goto done;
  s->wait_off[0] = 0;
  for (int32_t v = 0; v < n; v++) {
    s->wait_off[v + 1] = s->wait_off[v] + cnt[v];
    memcpy(s->wait_ids + s->wait_off[v], buf + first[v],
           sizeof *buf * (size_t)cnt[v]);
  }
  s->num_waits = used;
  st = OPSCHED_OK;
done:
  opsched_free(clock);
  opsched_free(op);
  opsched_free(last_on);
  opsched_free(placed);
  opsched_free(latest);
  opsched_free(cand);
  opsched_free(buf);
  opsched_free(first);
  opsched_free(cnt);
  return st;
}

opsched_status opsched_schedule_add_syncs(opsched_schedule *s, const opsched_graph *g,
                                          const int32_t *from, const int32_t *to,
                                          int64_t count) {
  if (!s || !g || count < 0 || (count > 0 && (!from || !to)) ||
      opsched_graph_num_nodes(g) != s->n)
    return OPSCHED_ERR_INVALID;
  if (count == 0)
    return OPSCHED_OK;
  int32_t n = s->n;
  int32_t *pos = opsched_alloc_array((size_t)n, sizeof *pos);
  int64_t *off = opsched_alloc_array((size_t)n + 1, sizeof *off);
  int64_t *fill = opsched_alloc_array((size_t)n, sizeof *fill);
  int32_t *ids =
      opsched_alloc_array((size_t)(s->num_syncs + s->num_waits + count), sizeof *ids);
  opsched_status st = OPSCHED_ERR_NOMEM;
  if (!pos || !off || !fill || !ids)
    goto fail;
  for (int32_t i = 0; i < n; i++)
    pos[s->order[i]] = i;
  st = OPSCHED_ERR_INVALID;
  /* Only along the timeline: earlier in the order and ended by the start,
   * so the waits delay nothing and cannot form a cycle. */
  for (int64_t e = 0; e < count; e++) {
    int32_t u = from[e], v = to[e];
    if (u < 0 || u >= n || v < 0 || v >= n || pos[u] >= pos[v] || s->end[u] > s->start[v])
      goto fail;
    off[v + 1]++;
  }
  /* The current waits join the syncs: they may carry orderings the graph
   * passed here lacks (the buffers' data dependencies of opsched_schedule_run). */
  for (int32_t v = 0; v < n; v++) {
    if (s->sync_off)
      off[v + 1] += s->sync_off[v + 1] - s->sync_off[v];
    off[v + 1] += s->wait_off[v + 1] - s->wait_off[v];
  }
  for (int32_t v = 0; v < n; v++)
    off[v + 1] += off[v];
  for (int32_t v = 0; v < n; v++) {
    fill[v] = off[v];
    if (s->sync_off)
      for (int64_t e = s->sync_off[v]; e < s->sync_off[v + 1]; e++)
        ids[fill[v]++] = s->sync_ids[e];
    for (int64_t e = s->wait_off[v]; e < s->wait_off[v + 1]; e++)
      ids[fill[v]++] = s->wait_ids[e];
  }
  for (int64_t e = 0; e < count; e++)
    ids[fill[to[e]]++] = from[e];
  mem_csr_sort_dedupe(off, ids, n);
  int64_t used = off[n];
  opsched_free(s->sync_off);
  opsched_free(s->sync_ids);
  s->sync_off = off;
  s->sync_ids = ids;
  s->num_syncs = used;
  off = NULL;
  ids = NULL;
  int64_t unreduced = s->num_waits_unreduced; /* dependencies only */
  st = opsched_streams_waits(g, s);
  s->num_waits_unreduced = unreduced;
fail:
  opsched_free(pos);
  opsched_free(off);
  opsched_free(fill);
  opsched_free(ids);
  return st;
}
